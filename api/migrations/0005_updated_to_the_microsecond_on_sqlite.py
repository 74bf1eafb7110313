"""The `updated` triggers again on SQLite, stamping to the microsecond as Django writes a
datetime: a change stamped in the same millisecond as an `updated_since` sorted before it."""

from importlib import import_module

from django.db import migrations

from core.triggers import again_on_sqlite

touch = import_module("api.migrations.0003_updated")


class Migration(migrations.Migration):
    dependencies = [("league_api", "0004_webhook_online_topics")]

    operations = [again_on_sqlite(touch.SQLITE, replace=True)]
