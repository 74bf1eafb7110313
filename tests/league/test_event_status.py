"""Cancelling an event asks first and says what it does; a cancelled event is reopened to
where it was; both are in the audit log (#30)."""

import pytest

from league.models import AuditEntry, Event
from league.services import events
from league.services.errors import ServiceError

from .conftest import play

pytestmark = pytest.mark.django_db


def test_a_cancelled_event_reopens_where_it_was_and_the_audit_says_so(league):
    assert league.event.status == Event.Status.RUNNING  # the fixtures are out
    play(league, league.matches(1)[0], 100, 40)
    assert events.cancelling(league.event) == {"unplayed": 14, "results": 1}
    events.set_status(league.organiser, league.event, Event.Status.CANCELLED)
    event = Event.objects.get(pk=league.event.pk)
    assert events.transitions(event) == (Event.Status.RUNNING,)
    with pytest.raises(ServiceError) as caught:
        events.set_status(league.organiser, event, Event.Status.FINISHED)
    assert caught.value.code == "bad_transition"
    events.set_status(league.organiser, event, Event.Status.RUNNING)
    event.refresh_from_db()
    assert (event.status, event.cancelled_from) == (Event.Status.RUNNING, "")
    logged = AuditEntry.objects.filter(event=event).order_by("pk")
    assert [(e.action, e.before, e.after) for e in logged if e.action != "event.status"][-2:] == [
        ("event.cancel", {"status": "running"}, {"status": "cancelled"}),
        ("event.reopen", {"status": "cancelled"}, {"status": "running"}),
    ]


def test_cancelling_from_the_page_asks_first(client, league):
    client.force_login(league.organiser)
    url = f"/events/{league.event.slug}/status/"
    asked = client.post(url, {"status": "cancelled"})
    assert asked.url == f"/events/{league.event.slug}/cancel/"
    assert Event.objects.get(pk=league.event.pk).status == Event.Status.RUNNING
    page = client.get(asked.url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Una vez cancelado el evento" in page and "vuelve a «En juego»" in page
    client.post(url, {"status": "cancelled", "confirmed": "1"})
    assert Event.objects.get(pk=league.event.pk).status == Event.Status.CANCELLED
