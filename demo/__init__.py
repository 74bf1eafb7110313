"""The demo data that `make run` loads: a face on top of the competition and live play, so it
may read both (README, Architecture)."""
