"""The database's own guards exist on both databases, after every migration."""

import pytest
from django.db import connection

# games 0003 (a seat changes hands only through empty) and league 0007 (`updated` stamps).
TRIGGERS = {
    "games_seat_through_empty",
    *(
        f"league_{table}_touch"
        for table in ("organisation", "player", "event", "entry", "round", "match", "result")
    ),
    # api 0003 and ratings 0005 (`updated` stamps of the lists added later)
    *(
        f"{table}_touch"
        for table in (
            "league_api_webhook",
            "league_api_delivery",
            "ratings_ratingpool",
            "ratings_rating",
        )
    ),
}


def database_triggers() -> set[str]:
    query = {
        "sqlite": "SELECT name FROM sqlite_master WHERE type = 'trigger'",
        "postgresql": "SELECT tgname FROM pg_trigger WHERE NOT tgisinternal",
    }[connection.vendor]
    with connection.cursor() as cursor:
        cursor.execute(query)
        return {name for (name,) in cursor.fetchall()}


@pytest.mark.django_db
def test_every_trigger_outlives_the_migrations_that_rebuild_its_table():
    """SQLite drops a table's triggers when a migration rebuilds the table to alter it;
    they are put back after every migrate (core.triggers.keep_on_sqlite)."""
    assert database_triggers() >= TRIGGERS
