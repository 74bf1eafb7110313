from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0008_presence")]

    operations = [
        migrations.AddField(
            model_name="table",
            name="paused",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
