from django.core.management.base import BaseCommand, CommandError

from league.ratings import services
from league.ratings.models import RatingPool


class Command(BaseCommand):
    help = (
        "Recalculate ratings from scratch: rebuild each pool's list of matches from the "
        "events that feed it and replay it in order. A pool being recalculated by a worker "
        "takes the request over."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--pool", type=int, help="only this pool (its id)")

    def handle(self, *args, pool: int | None = None, **options) -> None:
        pools = RatingPool.objects.order_by("pk")
        if pool is not None:
            pools = pools.filter(pk=pool)
            if not pools.exists():
                raise CommandError(f"There is no rating pool {pool}.")
        for each in pools:
            services.reindex(each)
            if services.recalculate(each.pk):
                self.stdout.write(f"{each}: recalculated.")
            else:
                self.stdout.write(f"{each}: a running recalculation took the request over.")
