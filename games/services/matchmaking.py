"""Matchmaking: quick match (four singles paired at random), duo, ranked (close ratings).

Each rule set has its own queues (`QUEUES`): quick, duo and ranked for the Dominican and the
Brazilian games (seeds 000 and 001: casual and ranked play), quick for the others. A queue is
a (rule set, kind) pair; only players of the same queue meet.
"""

import random

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.db.models import Count, Q

from games.engine import VARIANTS, rules_from_spec
from games.models import QueueEntry, Table
from league.accounts import player_for

from .errors import TableError
from .ratings import rating_of
from .tables import create_table, seat_players

QUICK, DUO, RANKED = QueueEntry.Kind.QUICK, QueueEntry.Kind.DUO, QueueEntry.Kind.RANKED
# The queues of each rule set (a preset or a named variant), in the lobby's order. A queue
# plays its rule set's defaults, which nobody can change: clasificatoria (ranked) too, as
# seed 000 says, and seed 001's casual and ranked games.
QUEUES: dict[str, tuple[str, ...]] = {
    "dominican": (QUICK, DUO, RANKED),
    "brazilian": (QUICK, DUO, RANKED),
    "tournament": (QUICK,),
    "tournament_1v1": (QUICK,),  # seed 002: one against one, with the pozo
    "latin": (QUICK,),
    "vog": (QUICK,),
    "vog_draw": (QUICK,),
    "vog_goat": (QUICK,),
    "vog_international": (QUICK,),
}
DEFAULT_RULES = "dominican"
_KEYS = [(rules, kind) for rules, kinds in QUEUES.items() for kind in kinds]
# The widest spread of displayed ratings (OpenSkill ordinals) allowed at a ranked table.
RANKED_SPREAD = 8.0
_SHUFFLE = random.SystemRandom()
_ADVISORY_NAMESPACE = 0x6D6D  # "mm": this module's advisory locks


def rules_spec(rules: str) -> dict:
    """The table rules of a queue's rule set (its preset, or its variant's overrides)."""
    return dict(VARIANTS.get(rules, {"preset": rules}))


def queue_of(table: Table) -> str | None:
    """The rule set of the queue that opened `table` (None: not one of the queues')."""
    return next((name for name in QUEUES if rules_spec(name) == table.rules), None)


def join_queue(
    user: AbstractBaseUser,
    kind: str,
    partner: AbstractBaseUser | None = None,
    rules: str = DEFAULT_RULES,
) -> Table | None:
    """Queue the user (with a partner for duo) in the `rules` set's `kind` queue, and open a
    table if four can now play.

    A user or partner already matched to an unfinished table is not queued again: that
    table is returned, so the second partner of a pair to press finds the pair's table. A
    partner matched to a table without the user is refused (`partner_playing`).
    """
    if kind not in QueueEntry.Kind.values:
        raise TableError("bad_message")
    if (rules, kind) not in _KEYS:
        raise TableError("no_queue")
    if (kind == QueueEntry.Kind.DUO) != (partner is not None) or partner == user:
        raise TableError("queue_partner")
    people = [user] if partner is None else [user, partner]
    with transaction.atomic():
        # One press at a time per player (both partners may press together), then their
        # entries, which another player's press may be matching to a table right now.
        users = get_user_model().objects.filter(pk__in=[p.pk for p in people])
        list(users.select_for_update().order_by("pk"))
        mine = QueueEntry.objects.filter(Q(user__in=people) | Q(partner__in=people))
        entries = list(mine.select_for_update())
        for person in people:
            if table := _matched(person, entries):
                if not table.seats.filter(user=user).exists():
                    raise TableError("partner_playing")  # matched with other players
                return table
        QueueEntry.objects.filter(pk__in=[e.pk for e in entries]).delete()
        _match_one_at_a_time(rules, kind)
        QueueEntry.objects.create(
            user=user, partner=partner, kind=kind, rules=rules, rating=rating_of(user)
        )
        waiting = list(
            QueueEntry.objects.select_for_update(of=("self",))
            .filter(kind=kind, rules=rules, table__isnull=True)
            .select_related("user", "partner")
        )
        group = _pick(kind, waiting, rules_from_spec(rules_spec(rules)).players)
        if group is None:
            return None
        return _open(kind, rules, group)


def _match_one_at_a_time(rules: str, kind: str) -> None:
    """Hold this queue's matching until the transaction ends.

    Two presses at once would otherwise each miss the other's uncommitted entry, and both
    wait for a third. PostgreSQL takes a transaction-level advisory lock; SQLite already
    lets one writer at a time through.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            key = _KEYS.index((rules, kind))
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_ADVISORY_NAMESPACE, key])


def _matched(user: AbstractBaseUser, entries: list[QueueEntry]) -> Table | None:
    """The unfinished table one of these entries matched the user (or partner) to."""
    ids = [e.table_id for e in entries if user.pk in (e.user_id, e.partner_id) and e.table_id]
    if not ids:
        return None
    return Table.objects.filter(pk__in=ids).exclude(status=Table.Status.FINISHED).first()


def _pick(kind: str, waiting: list[QueueEntry], players: int = 4) -> list[QueueEntry] | None:
    if kind == QueueEntry.Kind.DUO:
        return waiting[:2] if len(waiting) >= 2 else None
    if kind == QueueEntry.Kind.QUICK:
        return waiting[:players] if len(waiting) >= players else None
    ranked = sorted(waiting, key=lambda e: e.rating)
    for i in range(len(ranked) - 3):
        window = ranked[i : i + 4]
        if window[-1].rating - window[0].rating <= RANKED_SPREAD:
            return window
    return None


def _open(kind: str, rules: str, group: list[QueueEntry]) -> Table:
    if kind == QueueEntry.Kind.DUO:
        a, b = group
        seats = [a.user, b.user, a.partner, b.partner]
    elif kind == QueueEntry.Kind.QUICK:
        seats = [e.user for e in group]
        _SHUFFLE.shuffle(seats)
    else:  # the strongest and the weakest against the two in between
        low, mid1, mid2, high = (e.user for e in group)
        seats = [high, mid1, low, mid2]
    # A ranked seat absent for a whole hand loses the match for its pair (the absence rule
    # of competition tables); the casual queues put a bot in it.
    absence = Table.Absence.FORFEIT if kind == RANKED else Table.Absence.BOT
    table = create_table(host=None, rules=rules_spec(rules), kind=kind, absence=absence)
    seat_players(table, [(u, player_for(u).display_name) for u in seats])
    QueueEntry.objects.filter(pk__in=[e.pk for e in group]).update(table=table)
    return table


def queue_status(user: AbstractBaseUser) -> Table | None | bool:
    """The unfinished table the user (or partner) was matched to, True while waiting, else None."""
    entries = list(QueueEntry.objects.filter(Q(user=user) | Q(partner=user)))
    if table := _matched(user, entries):
        return table
    return True if any(e.table_id is None for e in entries) else None


def leave_queue(user: AbstractBaseUser) -> None:
    QueueEntry.objects.filter(user=user, table__isnull=True).delete()


def waiting_counts() -> dict[str, dict[str, int]]:
    """How many people wait in each queue, by rule set and kind (a duo entry is two).

    One grouped query over the entries not yet matched: the lobby polls it.
    """
    rows = (
        QueueEntry.objects.filter(table__isnull=True)
        .values_list("rules", "kind")
        .annotate(entries=Count("pk"), partners=Count("partner"))
        .order_by()
    )
    counts = {(rules, kind): entries + partners for rules, kind, entries, partners in rows}
    return {
        rules: {kind: counts.get((rules, kind), 0) for kind in kinds}
        for rules, kinds in QUEUES.items()
    }


def waiting_in(user: AbstractBaseUser) -> tuple[str, str] | None:
    """The (rule set, kind) of the queue where the user (or partner) waits, if any."""
    entry = QueueEntry.objects.filter(Q(user=user) | Q(partner=user), table__isnull=True).first()
    return None if entry is None else (entry.rules, entry.kind)
