"""Competition fixtures played online: their tables open at the scheduled time."""

import logging
from datetime import datetime

from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from games.models import Table
from league.models import Entry, Event, Match, Result
from league.services import arena, autopilot
from league.services.errors import ServiceError
from league.services.results import award_forfeit, record_online_result

from .tables import NewTable, forfeit, open_tables

logger = logging.getLogger(__name__)


def open_due_fixtures(now: datetime) -> list[Table]:
    """Open a table for every due online fixture without one, its pairs seated crosswise."""
    due = to_open(Match.objects.filter(event__mode=Event.Mode.ONLINE, scheduled__lte=now))
    opened = []
    for fixture in due:
        try:
            with transaction.atomic():
                opened.append(open_fixture(fixture))
        except IntegrityError:  # another run opened it first
            continue
    return opened


def to_open(matches: QuerySet[Match]) -> QuerySet[Match]:
    """The matches still to play at a table that has not opened, with their players."""
    return (
        matches.filter(
            status=Match.Status.SCHEDULED, entry_b__isnull=False, live_table__isnull=True
        )
        .select_related("event", "entry_a__player_1__user", "entry_a__player_2__user")
        .select_related("entry_b__player_1__user", "entry_b__player_2__user")
    )


def open_fixture(fixture: Match, ends: datetime | None = None) -> Table:
    """The fixture's table, its pairs seated crosswise (a pair's players face each other)
    and the first hand dealt; `ends`: the match's time limit. The fixture is loaded with
    its entries' players and their users."""
    return open_tables(fixture.event.rules_spec, [fixture_table(fixture, ends)])[0]


def fixture_table(fixture: Match, ends: datetime | None = None) -> NewTable:
    """What `open_tables` needs to open the fixture's table (see `open_fixture`)."""
    a, b = fixture.entry_a, fixture.entry_b
    players = seated([a.player_1, b.player_1, a.player_2, b.player_2])
    return NewTable(players, ends, {"fixture": fixture})


def seated(players: list) -> list[tuple]:
    """Players (None for an empty seat) as the table services seat them: user and name."""
    return [(None, "") if p is None else (p.user, p.display_name) for p in players]


def enter_fixture_result(table_id: int) -> None:
    """A finished fixture's result goes into the competition with its hand records.

    Final at once, as a forfeit is (a pair absent for a whole hand): the server saw every
    action, and the event's dispute window runs from each hand's end. A table every side
    left for a whole hand is a match nobody played, which counts as each side's forfeit.
    Called after the last hand's commit, so that a refusal here can never lose what was
    played.
    """
    table = Table.objects.select_related("fixture__event", "fixture__round", "seating__event").get(
        pk=table_id
    )
    if table.arena_game_id is not None:
        enter_arena_result(table)
        return
    if (table.match or {}).get("abandoned"):
        # Every side left it for a whole hand: not played, and each side's forfeit, in a
        # league as in an event that runs itself.
        if table.seating is not None:
            autopilot.nobody_played_at(table.seating.event, table.seating, table.seating_table)
        elif table.fixture is not None:
            autopilot.nobody_played(table.fixture.event, table.fixture)
        return
    if table.seating is not None:
        autopilot.table_result(table.seating, table.seating_table, **_outcome(table))
        return
    if table.fixture is None:
        return
    try:
        with transaction.atomic():
            match = Match.objects.select_for_update().get(pk=table.fixture_id)
            if match.results.filter(status=Result.Status.CONFIRMED).exists():
                return  # decided already: its side withdrawn, the others awarded the match
            if table.forfeit_side is not None:
                award_forfeit(match, "ab"[table.forfeit_side])
                return
            scores = table.match["scores"]
            hands = [hand.record for hand in table.hands.order_by("number")]
            games = [{"points_a": scores[0], "points_b": scores[1], "hands": hands}]
            timed = bool(table.match.get("timed"))
            record_online_result(match, games, note=str(_("Played online")), timed=timed)
    except ServiceError:
        logger.exception(
            "fixture %s: the result of table %s was refused", table.fixture_id, table.pk
        )


def _outcome(table: Table) -> dict:
    """A finished table's points per side, and the side that forfeited (if one did)."""
    scores = (table.match or {}).get("scores", (0, 0))  # none yet: forfeited in its first hand
    return {"points": (scores[0], scores[1]), "forfeit_side": table.forfeit_side}


def enter_arena_result(table: Table) -> bool:
    """A finished arena table's result: the side that won (the other side forfeited, or the
    match's winner), none when nobody played it."""
    match = table.match or {}
    if match.get("abandoned"):
        return arena.game_result(table.arena_game_id, None)
    if table.forfeit_side is not None:
        side = table.forfeit_side
        return arena.game_result(table.arena_game_id, 1 - side, absent=(side,))
    return arena.game_result(table.arena_game_id, match.get("winner"))


def forfeit_tables_of(entry: Entry) -> None:
    """An entry left its event: each of its tables still in play closes, forfeited by its
    side (a fixture's table, or the table of an individual event's round it sits at)."""
    playing = Table.objects.filter(fixture__event_id=entry.event_id).exclude(
        status=Table.Status.FINISHED
    )
    for table_id, entry_a in playing.filter(
        Q(fixture__entry_a=entry) | Q(fixture__entry_b=entry)
    ).values_list("pk", "fixture__entry_a_id"):
        forfeit(table_id, 0 if entry_a == entry.pk else 1)
    seats = entry.seats.filter(round__event_id=entry.event_id)
    for round_id, number, seat in seats.values_list("round", "table", "seat"):
        for table_id in (
            Table.objects.filter(seating_id=round_id, seating_table=number)
            .exclude(status=Table.Status.FINISHED)
            .values_list("pk", flat=True)
        ):
            forfeit(table_id, 0 if seat in (1, 3) else 1)
