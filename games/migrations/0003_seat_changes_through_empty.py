"""A seat passes from one occupant to another only through empty: a trigger refuses the rest.

Seat changes are serialised by the table's row lock (`Table.objects.with_seats`); this is
the database's backstop. An update that puts a user on a seat another user holds, or on a
seat a bot plays with nobody bound to it, fails with an integrity error, so two sits on one
seat can never both succeed. A bot may still take over a user's seat (the user stays bound,
to take it back).
"""

from django.db import migrations

MESSAGE = "seat_taken: a seat changes hands only through empty"

POSTGRESQL = [
    f"""
    CREATE FUNCTION games_seat_through_empty() RETURNS trigger AS $$
    BEGIN
        IF NEW.user_id IS NOT NULL AND NEW.user_id IS DISTINCT FROM OLD.user_id
           AND (OLD.user_id IS NOT NULL OR OLD.bot) THEN
            RAISE EXCEPTION '{MESSAGE}' USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN NEW;
    END
    $$ LANGUAGE plpgsql
    """,
    """
    CREATE TRIGGER games_seat_through_empty BEFORE UPDATE OF user_id ON games_seat
    FOR EACH ROW EXECUTE FUNCTION games_seat_through_empty()
    """,
]
POSTGRESQL_DROP = [
    "DROP TRIGGER IF EXISTS games_seat_through_empty ON games_seat",
    "DROP FUNCTION IF EXISTS games_seat_through_empty()",
]
SQLITE = [
    f"""
    CREATE TRIGGER games_seat_through_empty BEFORE UPDATE OF user_id ON games_seat
    FOR EACH ROW WHEN NEW.user_id IS NOT NULL AND NEW.user_id IS NOT OLD.user_id
        AND (OLD.user_id IS NOT NULL OR OLD.bot)
    BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END
    """
]
SQLITE_DROP = ["DROP TRIGGER IF EXISTS games_seat_through_empty"]


def _run(schema_editor, by_vendor: dict[str, list[str]]) -> None:
    for statement in by_vendor.get(schema_editor.connection.vendor, []):
        schema_editor.execute(statement)


def create(apps, schema_editor) -> None:
    _run(schema_editor, {"postgresql": POSTGRESQL, "sqlite": SQLITE})


def drop(apps, schema_editor) -> None:
    _run(schema_editor, {"postgresql": POSTGRESQL_DROP, "sqlite": SQLITE_DROP})


class Migration(migrations.Migration):
    dependencies = [("games", "0002_client_ids_on_actions")]

    operations = [migrations.RunPython(create, drop)]
