"""Count every stored hand into the players' statistics (the first time, or to repair)."""

from django.core.management.base import BaseCommand

from games.stats.services import backfill


class Command(BaseCommand):
    help = (
        "Count every finished live hand and every league match's recorded hands into the "
        "players' statistics."
    )

    def handle(self, *args, **options) -> None:
        hands, matches = backfill()
        self.stdout.write(f"{hands} live hands and {matches} league matches counted.")
