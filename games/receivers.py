"""What the play services do when a table changes: a new deadline may need its countdown
now, and a finished fixture's result goes into the competition (both after the commit)."""

from django.dispatch import receiver

from games.services import fixtures, timers
from games.services.tables import deadline_set, fixture_finished


@receiver(deadline_set, dispatch_uid="games.arm_countdown")
def arm_countdown(sender, table_id: int, version: int, deadline, **kwargs) -> None:
    timers.schedule(table_id, version, deadline)


@receiver(fixture_finished, dispatch_uid="games.enter_fixture_result")
def enter_fixture_result(sender, table_id: int, **kwargs) -> None:
    fixtures.enter_fixture_result(table_id)
