"""Rating changes keep half of each page free (PostgreSQL's fillfactor), so that a replay
overwrites a change in place on its own page without touching any index (a HOT update).

Pages already written keep their rows; the table's pages made from now on keep the room.
"""

from django.db import migrations


def _fillfactor(percent: int):
    def run(apps, schema_editor) -> None:
        if schema_editor.connection.vendor == "postgresql":
            table = schema_editor.quote_name("ratings_ratingchange")
            schema_editor.execute(f"ALTER TABLE {table} SET (fillfactor = {percent})")

    return run


class Migration(migrations.Migration):
    dependencies = [("ratings", "0006_updated_to_the_microsecond_on_sqlite")]

    operations = [migrations.RunPython(_fillfactor(50), _fillfactor(100))]
