"""Check-in from the pages of an online event that runs itself (#34, bad input): a second
check-in, one before the window and one after the start are refused with the service's
message in the reader's language, and nothing changes."""

from datetime import timedelta

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils import timezone

from league.models import Autopilot, Event

from .conftest import configure, online_event
from .test_bad_input import state

pytestmark = pytest.mark.django_db(transaction=True)


def check_in(client, entry, event: Event) -> list[str]:
    """The live page's Check in button, in Spanish; the messages the page shows next."""
    client.cookies["django_language"] = "es"
    live = reverse("event_live", args=[event.slug])
    client.get(live)  # the page shows (and so clears) the messages before
    response = client.post(
        reverse("entry_action", args=[entry.pk, "check-in"]), headers={"referer": live}
    )
    assert response.status_code == 302
    return [(m.level_tag, str(m)) for m in get_messages(response.wsgi_request)]


def test_check_ins_refused_on_the_page_change_nothing(client):
    data = online_event(Event.Format.SWISS, 4, tag="pr")
    event = data.event
    pilot = configure(data)
    entry = data.entries[0]
    client.force_login(entry.player_1.user)
    assert check_in(client, entry, event)[0][0] == "success"
    before = state(event)
    again = check_in(client, entry, event)
    assert again == [("error", "Esta inscripción ya confirmó su asistencia.")]
    assert state(event) == before

    other = data.entries[1]
    client.force_login(other.player_1.user)
    Autopilot.objects.filter(pk=pilot.pk).update(starts=timezone.now() + timedelta(minutes=30))
    before = state(event)
    ((level, message),) = check_in(client, other, event)
    assert level == "error" and message.startswith("La confirmación de asistencia abre a las")
    assert state(event) == before
    # Paused, so that no sweeper starts the event (or, one pair short, postpones it and opens
    # the check-in again) under the refusal.
    Autopilot.objects.filter(pk=pilot.pk).update(
        starts=timezone.now() - timedelta(seconds=1), paused=timezone.now()
    )
    before = state(event)
    ((level, message),) = check_in(client, other, event)
    assert level == "error" and "cerró cuando empezó" in message
    assert state(event) == before
