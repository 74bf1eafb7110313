"""Demo ratings: the demo club's own ranking, fed by its over-the-board leagues."""

from league.models import Event, Organisation
from league.ratings import services
from league.ratings.models import RatingPool


def run(club: Organisation) -> RatingPool:
    """Make the club's leagues feed the club's pool, and rate them now."""
    pool = services.organisation_pool(club)
    leagues = club.events.filter(format=Event.Format.LEAGUE, mode=Event.Mode.OVER_THE_BOARD)
    for event in leagues:
        services.feed(event, pool)
    services.recalculate(pool.pk)
    return pool
