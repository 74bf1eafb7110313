"""What the play services do when a table changes: a new deadline may need its countdown
now, and a finished fixture's result goes into the competition (both after the commit).
And when the competition confirms a result of an event that runs itself, its next step may
be due: the worker looks at once."""

from django.db.models import Q
from django.dispatch import receiver

from games.models import Table
from games.services import autopilot, fixtures, timers
from games.services.tables import deadline_set, fixture_finished
from league.models import Autopilot
from league.signals import entry_left, result_confirmed


@receiver(deadline_set, dispatch_uid="games.arm_countdown")
def arm_countdown(sender, table_id: int, version: int, deadline, **kwargs) -> None:
    timers.schedule(table_id, version, deadline)


@receiver(fixture_finished, dispatch_uid="games.enter_fixture_result")
def enter_fixture_result(sender, table_id: int, **kwargs) -> None:
    fixtures.enter_fixture_result(table_id)


@receiver(entry_left, dispatch_uid="games.forfeit_tables_of_entry_left")
def forfeit_tables_of_entry_left(sender, entry, **kwargs) -> None:
    fixtures.forfeit_tables_of(entry)


@receiver(result_confirmed, dispatch_uid="games.autopilot_after_result")
def autopilot_after_result(sender, match, result, **kwargs) -> None:
    if Autopilot.objects.filter(event_id=match.event_id, finished__isnull=True).exists():
        autopilot.queue_tick(match.event_id)


@receiver(fixture_finished, dispatch_uid="games.autopilot_after_table")
def autopilot_after_table(sender, table_id: int, **kwargs) -> None:
    """An individual event's table finished (its result entered just before): the round may
    be over; an arena's: its players are free for their next table."""
    table = (
        Table.objects.filter(pk=table_id)
        .filter(
            # (a fixture's table has no seating: its own autopilot's finish would read null)
            Q(seating__isnull=False, seating__event__autopilot__finished__isnull=True)
            | Q(arena_game__isnull=False, arena_game__event__autopilot__finished__isnull=True)
        )
        .values("seating__event_id", "arena_game__event_id")
        .first()
    )
    if table is not None:
        autopilot.queue_tick(table["seating__event_id"] or table["arena_game__event_id"])
