"""Migration operations for PostgreSQL's storage settings (nothing on other databases)."""

from django.db import migrations


def fillfactor(table: str, percent: int) -> migrations.RunPython:
    """Keep `100 - percent`% of each page of `table` made from now on free, so that an
    update of a row whose indexed columns stay the same is written beside it on its page,
    with no index touched (a heap-only update). Pages already written keep their rows.
    Undone, the table is packed full again (PostgreSQL's default, 100)."""

    def setting(value: int):
        def run(apps, schema_editor) -> None:
            if schema_editor.connection.vendor == "postgresql":
                name = schema_editor.quote_name(table)
                schema_editor.execute(f"ALTER TABLE {name} SET (fillfactor = {value})")

        return run

    return migrations.RunPython(setting(percent), setting(100))
