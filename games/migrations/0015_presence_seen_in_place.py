"""Heartbeats update the presence rows in place: no index of `seen`."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0014_live_rows_updated_in_place"),
    ]

    operations = [
        migrations.AlterField(
            model_name="presence",
            name="seen",
            field=models.DateTimeField(),
        ),
    ]
