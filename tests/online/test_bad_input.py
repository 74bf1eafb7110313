"""Bad input to an online event that runs itself (#34): each refused with a stable code and
a message in the user's language, and every record as it was."""

from datetime import timedelta

import pytest
from django.utils import timezone, translation

from league.models import AuditEntry, Autopilot, Entry, Event
from league.services import autopilot, entries
from league.services.errors import ServiceError

from .conftest import configure, online_event

pytestmark = pytest.mark.django_db(transaction=True)


def state(event: Event) -> tuple:
    return (
        list(Autopilot.objects.filter(event=event).values()),
        list(Event.objects.filter(pk=event.pk).values()),
        list(Entry.objects.filter(event=event).order_by("pk").values()),
        AuditEntry.objects.filter(event=event).count(),
    )


def refused(code: str, call, *args, **kwargs) -> str:
    """`call` is refused with `code` and changes nothing; its message in Spanish."""
    event = args[1].event if isinstance(args[1], Entry) else args[1]
    before = state(event)
    with translation.override("es"), pytest.raises(ServiceError) as error:
        call(*args, **kwargs)
    assert error.value.code == code
    assert state(event) == before
    with translation.override("es"):
        return str(error.value.message)


def test_settings_an_event_cannot_run_by_are_refused():
    data = online_event(Event.Format.SWISS, 4, tag="bad")
    now = timezone.now()
    soon = now + timedelta(hours=1)
    org, event = data.organiser, data.event

    def setting(code, **fields):
        fields = {"starts": soon, "check_in_minutes": 15} | fields
        return refused(code, autopilot.configure, org, event, **fields)

    assert "futuro" in setting("start_in_past", starts=now - timedelta(minutes=1))
    setting("bad_start", starts="2030-01-01 20:00")
    setting("bad_start", starts=soon.replace(tzinfo=None))
    assert "ventana" in setting("check_in_too_long", check_in_minutes=61)
    setting("bad_check_in", check_in_minutes=0)
    for pause in (-1, 3601, 1.5, "60", True):
        setting("bad_pause", pause_seconds=pause)
    for limit in (0, "30", 601):
        setting("bad_round_limit", round_minutes=limit)
    assert "mano" in setting("round_too_short", round_minutes=1, turn_seconds=30)
    setting("bad_turn_time", turn_seconds=2)
    setting("bad_choice", two_forfeits="nothing")
    setting("best_of_online", match_format=Event.MatchFormat.BEST_OF)
    Event.objects.filter(pk=event.pk).update(mode=Event.Mode.OVER_THE_BOARD)
    setting("not_online")


def test_check_ins_outside_the_window_or_twice_are_refused():
    data = online_event(Event.Format.SWISS, 4, tag="ci")
    pilot = configure(data)
    first, second = data.entries[:2]
    entries.check_in(data.organiser, first)
    refused("already_checked_in", entries.check_in, data.organiser, first)
    Autopilot.objects.filter(pk=pilot.pk).update(starts=timezone.now() + timedelta(minutes=30))
    assert "abre" in refused("check_in_not_open", entries.check_in, data.organiser, second)
    Autopilot.objects.filter(pk=pilot.pk).update(starts=timezone.now() - timedelta(seconds=1))
    refused("check_in_closed", entries.check_in, data.organiser, second)
