"""Tournament formats on top of the competition core: Swiss, elimination brackets, group
stages with a playoff, and individual events with rotating partners.

The pairing and bracket logic is the pure :mod:`league.pairing` package; this app keeps the
tournament-specific state (drafts, bracket slots, groups, seatings) and reads and writes the
core's models through the core's services.
"""
