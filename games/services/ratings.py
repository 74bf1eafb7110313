"""Ranked play and the ratings: where matchmaking reads a player's rating, and how the
global pool of league.ratings reads the finished ranked tables (registered at start-up)."""

from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q, QuerySet

from games.models import Seat, Table
from league.ratings.models import RatedMatch, Rating
from league.ratings.services import global_pool, table_counted
from league.ratings.sources import RankedTables

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
    table_counted(table.pk, table.finished)


def finished_ranked_tables() -> QuerySet[Table]:
    """The ranked tables that count: won, or forfeited (not abandoned, which nobody played)."""
    return Table.objects.filter(
        Q(match__over=True) | Q(forfeit_side__isnull=False),
        kind=Table.Kind.RANKED,
        status=Table.Status.FINISHED,
        finished__isnull=False,
    )


def ranked_rows(pool_id: int, start: datetime) -> list[tuple]:
    """The pool's ranked tables from `start` on, as the ratings' replay rows (see
    `league.ratings.sources.RankedTables`).

    Seats 0 and 2 are one pair, 1 and 3 the other. The winner has one game; a pair that
    forfeited (absent for a whole hand) loses. A seat without a player is left as None,
    and the table is not rated.
    """
    slots = list(
        RatedMatch.objects.filter(
            pool_id=pool_id, table__isnull=False, played_at__gte=start
        ).values_list("table_id", "played_at", "table__match", "table__forfeit_side")
    )
    if not slots:
        return []
    players: dict[int, list[int | None]] = {pk: [None] * 4 for pk, *_rest in slots}
    seats = Seat.objects.filter(table_id__in=list(players), number__lt=4).values_list(
        "table_id", "number", "user__player__id"
    )
    for table_id, number, player in seats:
        players[table_id][(number % 2) * 2 + number // 2] = player
    rows = []
    for table_id, played_at, match, forfeit_side in slots:
        winner = (match or {}).get("winner") if forfeit_side is None else 1 - forfeit_side
        if winner not in (0, 1):
            continue  # a match nobody won (abandoned) is not rated
        games = (int(winner == 0), int(winner == 1))
        rows.append((None, table_id, played_at, *games, *players[table_id]))
    return rows


RANKED_TABLES = RankedTables(finished=finished_ranked_tables, rows=ranked_rows)
