"""A live table's row is updated in place on every action (a heap-only update): no index of
its deadline, and room left in each page for the row's next version (PostgreSQL)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from core.schema import fillfactor


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_arena_tables"),
        ("league", "0016_updated_to_the_microsecond_on_sqlite"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name="action",
            name="table",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="actions",
                to="games.table",
            ),
        ),
        migrations.AlterField(
            model_name="table",
            name="deadline",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddIndex(
            model_name="table",
            index=models.Index(
                condition=models.Q(("status__in", ["playing", "between"])),
                fields=["id"],
                name="games_table_live",
            ),
        ),
        fillfactor("games_table", 70),
    ]
