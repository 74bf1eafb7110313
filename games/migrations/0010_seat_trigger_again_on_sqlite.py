"""The seat trigger of 0003 again on SQLite, which dropped it when 0004 rebuilt the table to
add `bot_level`: the embedded mode had lost the guard that keeps two users off one seat."""

from importlib import import_module

from django.db import migrations

from core.triggers import again_on_sqlite

seat_trigger = import_module("games.migrations.0003_seat_changes_through_empty")


class Migration(migrations.Migration):
    dependencies = [("games", "0009_table_paused")]

    operations = [again_on_sqlite(seat_trigger.SQLITE)]
