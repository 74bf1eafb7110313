"""Rating changes keep half of each page free (PostgreSQL's fillfactor), so that a replay
overwrites a change in place on its own page without touching any index (a HOT update).

Pages already written keep their rows; the table's pages made from now on keep the room.
"""

from django.db import migrations

from core.schema import fillfactor


class Migration(migrations.Migration):
    dependencies = [("ratings", "0006_updated_to_the_microsecond_on_sqlite")]

    operations = [fillfactor("ratings_ratingchange", 50)]
