"""Competition fixtures played online: their tables open at the scheduled time."""

from datetime import datetime

from django.db import IntegrityError, transaction

from games.models import Table
from league.models import Event, Match

from .tables import create_table, seat_players


def open_due_fixtures(now: datetime) -> list[Table]:
    """Open a table for every due online fixture without one, its pairs seated crosswise."""
    due = (
        Match.objects.filter(
            event__mode=Event.Mode.ONLINE,
            status=Match.Status.SCHEDULED,
            scheduled__lte=now,
            entry_b__isnull=False,
            live_table__isnull=True,
        )  # fmt: skip
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
                    host=None, rules=fixture.event.rules_spec, kind=Table.Kind.FIXTURE,
                    absence=Table.Absence.FORFEIT, fixture=fixture,
                )  # fmt: skip
                seat_players(table, seats)
        except IntegrityError:  # another sweeper opened it first
            continue
        opened.append(table)
    return opened
