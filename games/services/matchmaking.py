"""Matchmaking: quick match (four singles paired at random), duo, ranked (close ratings)."""

import random

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from games.models import QueueEntry, Table
from league.accounts import player_for

from .errors import TableError
from .ratings import rating_of
from .tables import create_table, seat_players

RULES = {"quick": "dominican", "duo": "dominican", "ranked": "tournament"}
# The widest spread of displayed ratings (OpenSkill ordinals) allowed at a ranked table.
RANKED_SPREAD = 8.0
_SHUFFLE = random.SystemRandom()


def join_queue(
    user: AbstractBaseUser, kind: str, partner: AbstractBaseUser | None = None
) -> Table | None:
    """Queue the user (with a partner for duo) and open a table if four can now play."""
    if kind not in QueueEntry.Kind.values:
        raise TableError("bad_message")
    if (kind == QueueEntry.Kind.DUO) != (partner is not None) or partner == user:
        raise TableError("queue_partner")
    with transaction.atomic():
        QueueEntry.objects.filter(user=user).delete()
        if partner is not None:
            QueueEntry.objects.filter(user=partner).delete()
            QueueEntry.objects.filter(partner__in=[user, partner]).delete()
        QueueEntry.objects.create(user=user, partner=partner, kind=kind, rating=rating_of(user))
        waiting = list(
            QueueEntry.objects.select_for_update(of=("self",))
            .filter(kind=kind, table__isnull=True)
            .select_related("user", "partner")
        )
        group = _pick(kind, waiting)
        if group is None:
            return None
        return _open(kind, group)


def _pick(kind: str, waiting: list[QueueEntry]) -> list[QueueEntry] | None:
    if kind == QueueEntry.Kind.DUO:
        return waiting[:2] if len(waiting) >= 2 else None
    if kind == QueueEntry.Kind.QUICK:
        return waiting[:4] if len(waiting) >= 4 else None
    ranked = sorted(waiting, key=lambda e: e.rating)
    for i in range(len(ranked) - 3):
        window = ranked[i : i + 4]
        if window[-1].rating - window[0].rating <= RANKED_SPREAD:
            return window
    return None


def _open(kind: str, group: list[QueueEntry]) -> Table:
    if kind == QueueEntry.Kind.DUO:
        a, b = group
        seats = [a.user, b.user, a.partner, b.partner]
    elif kind == QueueEntry.Kind.QUICK:
        seats = [e.user for e in group]
        _SHUFFLE.shuffle(seats)
    else:  # the strongest and the weakest against the two in between
        low, mid1, mid2, high = (e.user for e in group)
        seats = [high, mid1, low, mid2]
    table = create_table(host=None, rules=RULES[kind], kind=kind)
    seat_players(table, [(u, player_for(u).display_name) for u in seats])
    QueueEntry.objects.filter(pk__in=[e.pk for e in group]).update(table=table)
    return table


def queue_status(user: AbstractBaseUser) -> Table | None | bool:
    """The table found for the user (and the entry is done), True while waiting, else None."""
    entry = QueueEntry.objects.filter(user=user).select_related("table").first()
    if entry is None:
        entry = QueueEntry.objects.filter(partner=user).select_related("table").first()
    if entry is None:
        return None
    return entry.table or True


def leave_queue(user: AbstractBaseUser) -> None:
    QueueEntry.objects.filter(user=user, table__isnull=True).delete()
