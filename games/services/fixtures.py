"""Competition fixtures played online: their tables open at the scheduled time."""

import logging
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games.models import Table
from league.models import Event, Match
from league.services.errors import ServiceError
from league.services.results import award_forfeit, record_online_result

from .tables import create_table, seat_players

logger = logging.getLogger(__name__)


def open_due_fixtures(now: datetime) -> list[Table]:
    """Open a table for every due online fixture without one, its pairs seated crosswise."""
    due = (
        Match.objects.filter(
            event__mode=Event.Mode.ONLINE,
            status=Match.Status.SCHEDULED,
            scheduled__lte=now,
            entry_b__isnull=False,
            live_table__isnull=True,
        )
        .select_related("event", "entry_a__player_1__user", "entry_a__player_2__user")
        .select_related("entry_b__player_1__user", "entry_b__player_2__user")
    )
    opened = []
    for fixture in due:
        a, b = fixture.entry_a, fixture.entry_b
        players = [a.player_1, b.player_1, a.player_2, b.player_2]
        seats = [(None, "") if p is None else (p.user, p.display_name) for p in players]
        try:
            with transaction.atomic():
                table = create_table(
                    host=None,
                    rules=fixture.event.rules_spec,
                    kind=Table.Kind.FIXTURE,
                    absence=Table.Absence.FORFEIT,
                    fixture=fixture,
                )
                seat_players(table, seats)
        except IntegrityError:  # another run opened it first
            continue
        opened.append(table)
    return opened


def enter_fixture_result(table_id: int) -> None:
    """A finished fixture's result goes into the competition with its hand records.

    Final at once, as a forfeit is (a pair absent for a whole hand): the server saw every
    action, and the event's dispute window runs from each hand's end. Called after the last
    hand's commit, so that a refusal here can never lose what was played.
    """
    table = Table.objects.select_related("fixture").get(pk=table_id)
    if table.fixture is None:
        return
    try:
        with transaction.atomic():
            match = Match.objects.select_for_update().get(pk=table.fixture_id)
            if table.forfeit_side is not None:
                award_forfeit(match, "ab"[table.forfeit_side])
                return
            scores = table.match["scores"]
            hands = [hand.record for hand in table.hands.order_by("number")]
            games = [{"points_a": scores[0], "points_b": scores[1], "hands": hands}]
            record_online_result(match, games, note=str(_("Played online")))
    except ServiceError:
        logger.exception(
            "fixture %s: the result of table %s was refused", table.fixture_id, table.pk
        )
