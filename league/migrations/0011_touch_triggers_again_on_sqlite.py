"""The `updated` triggers of 0007 again on SQLite, which dropped `league_event`'s when 0008
(and 0010) rebuilt the table: the embedded mode no longer stamped an event's changes, so the
API's `updated_since` missed them."""

from importlib import import_module

from django.db import migrations

from core.triggers import again_on_sqlite

touch = import_module("league.migrations.0007_updated")


class Migration(migrations.Migration):
    dependencies = [("league", "0010_event_cancelled_from")]

    operations = [again_on_sqlite(touch.SQLITE)]
