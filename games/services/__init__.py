"""Live-table services: every rule of a live table is decided here, whoever calls."""
