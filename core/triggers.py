"""Database triggers that SQLite must be given back.

SQLite drops a table's triggers when Django rebuilds the table to alter it (adding a column
with a default, changing a field), so a trigger made by an earlier migration is gone after
such a rebuild; PostgreSQL keeps its triggers through an ALTER TABLE. `keep_on_sqlite` puts
them back after every `migrate`, so a new migration cannot lose one again.
"""

import re

from django.apps import apps as django_apps
from django.db import connections, migrations
from django.db.migrations.recorder import MigrationRecorder
from django.db.models.signals import post_migrate

# Now as Django writes a datetime to SQLite, to the microsecond ("2026-12-06 07:30:05.123000"):
# SQLite compares the texts, and a stamp of three decimals sorted before a parameter of six
# in the same millisecond.
SQLITE_NOW = "strftime('%Y-%m-%d %H:%M:%f000', 'now')"


def _if_missing(statement: str) -> str:
    return statement.replace("CREATE TRIGGER", "CREATE TRIGGER IF NOT EXISTS", 1)


def again_on_sqlite(statements: list[str], replace: bool = False) -> migrations.RunPython:
    """A migration operation that creates the SQLite triggers of `statements` where they are
    missing (`replace`: in place of the ones of the same names), and leaves them in place
    when undone, as the migration that made them does."""

    def create(apps, schema_editor) -> None:
        if schema_editor.connection.vendor != "sqlite":
            return
        for statement in statements:
            if replace:
                name = re.search(r"CREATE TRIGGER (\w+)", statement)
                assert name, statement
                schema_editor.execute(f"DROP TRIGGER IF EXISTS {name[1]}")
                schema_editor.execute(statement)
            else:
                schema_editor.execute(_if_missing(statement))

    return migrations.RunPython(create, migrations.RunPython.noop)


def keep_on_sqlite(app_label: str, migration: str, statements: list[str]) -> None:
    """After every `migrate` on SQLite, create the triggers of `statements` (made by
    `app_label`'s `migration`) that a later migration's rebuild of their table dropped."""

    def restore(sender, using: str = "default", **kwargs) -> None:
        connection = connections[using]
        if connection.vendor != "sqlite":
            return
        if (app_label, migration) not in MigrationRecorder(connection).applied_migrations():
            return
        tables = set(connection.introspection.table_names())
        with connection.cursor() as cursor:
            for statement in statements:
                table = re.search(r"\bON (\w+)", statement)
                if table and table[1] in tables:
                    cursor.execute(_if_missing(statement))

    post_migrate.connect(  # once a migrate, when it signals this app's end
        restore,
        sender=django_apps.get_app_config(app_label),
        weak=False,
        dispatch_uid=f"triggers:{app_label}.{migration}",
    )


def touching(tables: tuple[str, ...]) -> tuple[migrations.RunPython, list[str]]:
    """The migration operation that has the database stamp `updated` on every insert and
    update of `tables` (as league 0007 does for the competition's tables, with the function
    `league_touch()` that it made: a migration using this depends on it), and the SQLite
    statements for `keep_on_sqlite`. On SQLite an insert takes the field's default and an
    update is stamped."""
    postgresql = [
        f"CREATE TRIGGER {table}_touch BEFORE INSERT OR UPDATE ON {table} "
        "FOR EACH ROW EXECUTE FUNCTION league_touch()"
        for table in tables
    ]
    sqlite = [
        f"CREATE TRIGGER {table}_touch AFTER UPDATE ON {table} FOR EACH ROW "
        f"WHEN NEW.updated IS OLD.updated BEGIN UPDATE {table} "
        f"SET updated = {SQLITE_NOW} WHERE id = NEW.id; END"
        for table in tables
    ]
    made = {"postgresql": postgresql, "sqlite": sqlite}
    dropped = {
        "postgresql": [f"DROP TRIGGER IF EXISTS {t}_touch ON {t}" for t in tables],
        "sqlite": [f"DROP TRIGGER IF EXISTS {t}_touch" for t in tables],
    }

    def run(statements: dict[str, list[str]]):
        def execute(apps, schema_editor) -> None:
            for statement in statements.get(schema_editor.connection.vendor, []):
                schema_editor.execute(statement)

        return execute

    return migrations.RunPython(run(made), run(dropped)), sqlite
