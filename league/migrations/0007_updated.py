"""`updated` on the rows the API lists, stamped by a trigger on every insert and update."""

import django.utils.timezone
from django.db import migrations, models

from core.triggers import SQLITE_NOW

TOUCHED_TABLES = (
    "league_organisation",
    "league_player",
    "league_event",
    "league_entry",
    "league_round",
    "league_match",
    "league_result",
)

POSTGRESQL = [
    """
    CREATE FUNCTION league_touch() RETURNS trigger AS $$
    BEGIN
        NEW.updated := clock_timestamp();
        RETURN NEW;
    END
    $$ LANGUAGE plpgsql
    """,
    *(
        f"CREATE TRIGGER {table}_touch BEFORE INSERT OR UPDATE ON {table} "
        "FOR EACH ROW EXECUTE FUNCTION league_touch()"
        for table in TOUCHED_TABLES
    ),
]
POSTGRESQL_DROP = [
    *(f"DROP TRIGGER IF EXISTS {table}_touch ON {table}" for table in TOUCHED_TABLES),
    "DROP FUNCTION IF EXISTS league_touch()",
]
# SQLite (the embedded mode): inserts take Django's default; updates are stamped here.
SQLITE = [
    f"CREATE TRIGGER {table}_touch AFTER UPDATE ON {table} FOR EACH ROW "
    f"WHEN NEW.updated IS OLD.updated BEGIN UPDATE {table} "
    f"SET updated = {SQLITE_NOW} WHERE id = NEW.id; END"
    for table in TOUCHED_TABLES
]
SQLITE_DROP = [f"DROP TRIGGER IF EXISTS {table}_touch" for table in TOUCHED_TABLES]


def _run(schema_editor, by_vendor: dict[str, list[str]]) -> None:
    for statement in by_vendor.get(schema_editor.connection.vendor, []):
        schema_editor.execute(statement)


def create(apps, schema_editor) -> None:
    _run(schema_editor, {"postgresql": POSTGRESQL, "sqlite": SQLITE})


def drop(apps, schema_editor) -> None:
    _run(schema_editor, {"postgresql": POSTGRESQL_DROP, "sqlite": SQLITE_DROP})


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0006_roster_players"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="updated",
            field=models.DateTimeField(
                db_index=True,
                default=django.utils.timezone.now,
                editable=False,
                verbose_name="updated",
            ),
        ),
        migrations.AddField(
            model_name="event",
            name="updated",
            field=models.DateTimeField(
                db_index=True,
                default=django.utils.timezone.now,
                editable=False,
                verbose_name="updated",
            ),
        ),
        migrations.AddField(
            model_name="match",
            name="updated",
            field=models.DateTimeField(
                db_index=True,
                default=django.utils.timezone.now,
                editable=False,
                verbose_name="updated",
            ),
        ),
        migrations.AddField(
            model_name="organisation",
            name="updated",
            field=models.DateTimeField(
                db_index=True,
                default=django.utils.timezone.now,
                editable=False,
                verbose_name="updated",
            ),
        ),
        migrations.AddField(
            model_name="player",
            name="updated",
            field=models.DateTimeField(
                db_index=True,
                default=django.utils.timezone.now,
                editable=False,
                verbose_name="updated",
            ),
        ),
        migrations.AddField(
            model_name="result",
            name="updated",
            field=models.DateTimeField(
                db_index=True,
                default=django.utils.timezone.now,
                editable=False,
                verbose_name="updated",
            ),
        ),
        migrations.AddField(
            model_name="round",
            name="updated",
            field=models.DateTimeField(
                db_index=True,
                default=django.utils.timezone.now,
                editable=False,
                verbose_name="updated",
            ),
        ),
        migrations.RunPython(create, drop),
    ]
