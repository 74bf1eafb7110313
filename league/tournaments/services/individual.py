"""Individual events with rotating partners.

Each player is an entry with one player. A round seats everyone who plays at tables of four
(`Seat`: seats 1 and 3 partner against seats 2 and 4) with `league.pairing.pair_rotating`
(nobody partners anyone twice, nobody meets an opponent again while a round without that
exists, sit-outs rotate), or,
when the organiser chose it, with the next round of a complete whist schedule. A table's
result is entered by a referee or a player of the table and confirmed by a second person.
"""

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from ...models import Entry, Event, Player, Round
from ...pairing import (
    Effort,
    RotatingPlayer,
    WhistScheduleError,
    pair_rotating,
    whist_schedule,
)
from ...pairing.whist import READY_ABOVE as WHIST_READY_ABOVE
from ...pairing.whist import READY_UP_TO as WHIST_READY_UP_TO
from ...permissions import can
from ...services import entries
from ...services.audit import audit
from ...services.errors import ServiceError
from ...services.events import bump_standings, rules_of
from ...services.results import MAX_POINTS, require_by_hand
from ..models import Seat, SitOut, TableResult
from .common import (
    latest_round,
    lock_event,
    next_round_number,
    playing_entries,
    start_play,
    tournament_of,
)
from .standings import individual_table

INDIVIDUAL = Event.Format.INDIVIDUAL


@transaction.atomic
def enter_player(user, event: Event, player: Player) -> Entry:
    """Enter one player in an individual event (organisers), by the core's entry rules."""
    event = lock_event(user, event, INDIVIDUAL)
    return entries.register(user, event, player_1=player)


def unfinished_tables(event: Event) -> bool:
    """Has the latest round of an individual event a table without its confirmed result?"""
    round_ = latest_round(event)
    if round_ is None:
        return False
    tables = set(round_.seats.values_list("table", flat=True))
    done = set(
        round_.table_results.filter(status=TableResult.Status.CONFIRMED).values_list(
            "table", flat=True
        )
    )
    return bool(tables - done)


@dataclass(frozen=True)
class Seating:
    """A round's seating: the number it gets, its tables (((seat 1, seat 3), (seat 2, seat 4))
    as entry ids, table 1 first) and who sits it out."""

    number: int
    tables: tuple
    sitting_out: tuple


def _seating(event: Event, effort: Effort | None = None) -> Seating:
    """The next round's seating, once it may be seated (`effort` bounds or follows the
    search: `services.jobs`)."""
    tournament = tournament_of(event)
    number = next_round_number(event)
    if unfinished_tables(event):
        raise ServiceError(
            "round_unfinished", _("Every table of the current round must be confirmed first.")
        )
    players = playing_entries(event)
    if len(players) < 4:
        raise ServiceError("too_few_entries", _("A round needs at least four players."))
    if tournament.whist:
        try:
            schedule = whist_schedule(sorted(p.pk for p in players))
        except WhistScheduleError as error:
            if not error.exists:
                raise ServiceError(
                    "no_whist", _("A complete whist schedule needs 4n or 4n + 1 players.")
                ) from error
            if WHIST_READY_ABOVE:
                message = _(
                    "A whist schedule for %(n)s players exists, but none is ready here: they "
                    "are ready for every 4n and 4n + 1 players up to %(max)s, for %(more)s "
                    "players, and for larger prime numbers of players of the form 4n + 1."
                )
            else:
                message = _(
                    "A whist schedule for %(n)s players exists, but none is ready here: they "
                    "are ready for every 4n and 4n + 1 players up to %(max)s, and for larger "
                    "prime numbers of players of the form 4n + 1."
                )
            more = ", ".join(map(str, WHIST_READY_ABOVE))
            raise ServiceError(
                "whist_unavailable",
                message % {"n": error.count, "max": WHIST_READY_UP_TO, "more": more},
            ) from error
        if number > len(schedule):
            raise ServiceError("schedule_complete", _("The whist schedule is complete."))
        planned = schedule[number - 1]
    else:
        if number > tournament.rounds:
            raise ServiceError(
                "all_rounds_played", _("All %(n)s rounds are seated.") % {"n": tournament.rounds}
            )
        planned = pair_rotating(_rotating_players(event, players), effort=effort)
    return Seating(number, tuple(planned.tables), tuple(planned.sitting_out))


def seating_of(round_: Round) -> Seating:
    """A seated round's seating, as `seat_round` made it."""
    tables: dict[int, dict[int, int]] = {}
    for table, seat, player in round_.seats.values_list("table", "seat", "player_id"):
        tables.setdefault(table, {})[seat] = player
    seated = tuple(((s[1], s[3]), (s[2], s[4])) for _table, s in sorted(tables.items()))
    resting = tuple(round_.sit_outs.order_by("player_id").values_list("player_id", flat=True))
    return Seating(round_.number, seated, resting)


@transaction.atomic
def preview_round(user, event: Event) -> Seating:
    """The seating `seat_round` would make now, saving nothing."""
    return _seating(lock_event(user, event, INDIVIDUAL))


@transaction.atomic
def seat_round(user, event: Event, effort: Effort | None = None) -> Round:
    """Seat the next round: partnerships and tables, and who sits out. `effort` bounds or
    follows the search (`services.jobs`)."""
    event = lock_event(user, event, INDIVIDUAL)
    planned = _seating(event, effort)
    round_ = Round.objects.create(event=event, number=planned.number)
    seats = []
    for table, ((a, c), (b, d)) in enumerate(planned.tables, 1):
        seats += [
            Seat(round=round_, table=table, seat=s, player_id=pk)
            for s, pk in ((1, a), (2, b), (3, c), (4, d))
        ]
    Seat.objects.bulk_create(seats)
    SitOut.objects.bulk_create(SitOut(round=round_, player_id=pk) for pk in planned.sitting_out)
    start_play(user, event)
    bump_standings(event)
    audit(
        user,
        "individual.seat",
        round_,
        event=event,
        after={
            "tables": [list(t) for t in planned.tables],
            "sitting_out": list(planned.sitting_out),
        },
    )
    return round_


def _rotating_players(event: Event, players: list[Entry]) -> list[RotatingPlayer]:
    """The players best first, with whom they partnered and opposed and their sit-outs."""
    ids = {p.pk for p in players}
    partners: dict[int, set[int]] = {pk: set() for pk in ids}
    opponents: dict[int, dict[int, int]] = {pk: {} for pk in ids}
    tables: dict[tuple[int, int], dict[int, int]] = {}
    for round_id, table, seat, player in Seat.objects.filter(round__event=event).values_list(
        "round_id", "table", "seat", "player_id"
    ):
        tables.setdefault((round_id, table), {})[seat] = player
    for seated in tables.values():
        for x, y in ((1, 3), (2, 4)):
            for me, mate in ((seated[x], seated[y]), (seated[y], seated[x])):
                if me in ids:
                    partners[me].add(mate)
        for x in (1, 3):
            for y in (2, 4):
                for me, other in ((seated[x], seated[y]), (seated[y], seated[x])):
                    if me in ids:
                        opponents[me][other] = opponents[me].get(other, 0) + 1
    sat_out = {pk: 0 for pk in ids}
    for pk in SitOut.objects.filter(round__event=event, player__in=ids).values_list(
        "player_id", flat=True
    ):
        sat_out[pk] += 1
    order = [row.player.pk for row in individual_table(event) if row.player.pk in ids]
    return [RotatingPlayer(pk, frozenset(partners[pk]), opponents[pk], sat_out[pk]) for pk in order]


@transaction.atomic
def unseat_round(user, event: Event) -> int:
    """Withdraw the latest round's seating (before any table result was entered)."""
    event = lock_event(user, event, INDIVIDUAL)
    round_ = latest_round(event)
    if round_ is None:
        raise ServiceError("no_round", _("No round has been seated yet."))
    if round_.table_results.exists():
        raise ServiceError(
            "results_entered", _("Results were entered in this round: it cannot be unseated.")
        )
    number = round_.number
    round_.delete()
    bump_standings(event)
    audit(user, "individual.unseat", event, event=event, before={"round": number})
    return number


def _may_enter(user, round_: Round, table: int) -> bool:
    if can(user, "event.referee", round_.event):
        return True
    player = getattr(user, "player", None)
    return player is not None and round_.seats.filter(table=table, player__player_1=player).exists()


def _side_of(user, round_: Round, table: int) -> str | None:
    player = getattr(user, "player", None)
    seat = round_.seats.filter(table=table, player__player_1=player).first() if player else None
    return seat.side if seat else None


def _check_points(event: Event, points_a, points_b) -> None:
    for value in (points_a, points_b):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_POINTS:
            raise ServiceError(
                "bad_score",
                _("Points must be whole numbers from 0 to %(max)s.") % {"max": MAX_POINTS},
            )
    if points_a == points_b:
        raise ServiceError("bad_score", _("The table is tied: one side must win it."))
    if max(points_a, points_b) < rules_of(event).target and event.match_format != (
        Event.MatchFormat.TIME_LIMIT
    ):
        raise ServiceError(
            "bad_score",
            _("No side reached the target of %(target)s.") % {"target": rules_of(event).target},
        )


@transaction.atomic
def enter_table_result(user, round_: Round, table: int, points_a, points_b) -> TableResult:
    """Enter a table's result, as `results.enter_result` does for matches: a referee's or
    organiser's entry counts at once; a player's (if the event lets players enter results)
    waits for a second person."""
    round_ = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
    if not round_.seats.filter(table=table).exists():
        raise ServiceError("no_table", _("There is no such table in this round."))
    official = can(user, "event.referee", round_.event)
    if not official and not round_.event.players_enter_results:
        raise ServiceError(
            "organisers_enter_results", _("In this event the organisers enter the results.")
        )
    if not _may_enter(user, round_, table):
        raise PermissionDenied(_("Only a referee or a player of the table may do this."))
    require_by_hand(round_.event)
    _check_points(round_.event, points_a, points_b)
    if round_.table_results.filter(table=table).exists():
        raise ServiceError("result_exists", _("This table's result was already entered."))
    result = TableResult.objects.create(
        round=round_,
        table=table,
        points_a=points_a,
        points_b=points_b,
        entered_by=user,
        status=TableResult.Status.CONFIRMED if official else TableResult.Status.PROPOSED,
        confirmed_by=user if official else None,
    )
    if official:
        bump_standings(round_.event)
    audit(
        user,
        "individual.result",
        result,
        event=round_.event,
        after={"table": table, "points": [points_a, points_b]},
    )
    return result


@transaction.atomic
def confirm_table_result(user, result: TableResult) -> TableResult:
    result = (
        TableResult.objects.select_for_update().select_related("round__event").get(pk=result.pk)
    )
    round_ = result.round
    if result.status != TableResult.Status.PROPOSED:
        raise ServiceError("not_awaiting", _("This result is no longer waiting for confirmation."))
    referee = can(user, "event.referee", round_.event)
    entered_side = _side_of(result.entered_by, round_, result.table) if result.entered_by else None
    side = _side_of(user, round_, result.table)
    if not referee and side is None:
        raise PermissionDenied(_("Only a referee or a player of the table may do this."))
    if user.pk == result.entered_by_id or (not referee and side == entered_side):
        raise ServiceError(
            "second_person", _("A second person (a referee or an opponent) must confirm it.")
        )
    result.status = TableResult.Status.CONFIRMED
    result.confirmed_by = user
    result.save(update_fields=["status", "confirmed_by", "updated"])
    bump_standings(round_.event)
    audit(user, "individual.confirm", result, event=round_.event, after={"table": result.table})
    return result
