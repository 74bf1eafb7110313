"""Ranked play and the ratings: where matchmaking reads a player's rating, and where a
finished ranked table goes to be rated (the global pool of league.ratings)."""

from django.contrib.auth.models import AbstractBaseUser

from games.models import Table
from league.ratings.models import Rating
from league.ratings.services import global_pool, table_counted

# OpenSkill's ordinal (mu - 3 sigma) of a player who has not played yet.
NEW_PLAYER_RATING = 0.0


def rating_of(user: AbstractBaseUser) -> float:
    """The user's displayed rating in the global pool of ranked online play."""
    rating = (
        Rating.objects.filter(pool=global_pool(), player__user=user)
        .values_list("ordinal", flat=True)
        .first()
    )
    return NEW_PLAYER_RATING if rating is None else rating


def ranking_url() -> str:
    """The leaderboard of ranked online play."""
    return global_pool().get_absolute_url()


def ranked_finished(table: Table) -> None:
    """A ranked table has just finished (in its transaction): its four players are rated in
    the global pool by the ratings' Celery task, once the transaction commits."""
    table_counted(table)
