"""The run page of an online event (#34): before its start the organiser sets how it runs
itself there (the service the API uses judges every value, its refusal shown in the reader's
language, nothing changed); once the autopilot runs it, the page shows where it is and its
controls (pause, resume, extend the round, pair it again, withdraw an entry) instead of
"Pair round N", and the manual round actions are refused."""

from datetime import timedelta
from html import unescape

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils import timezone

from games.services import autopilot as live_autopilot
from league.models import Autopilot, Entry, Event

from .conftest import after_start, check_in_all, configure, online_event
from .test_bad_input import state

pytestmark = pytest.mark.django_db(transaction=True)


def post(client, url: str, data: dict, page: str, language: str = "es") -> list[tuple]:
    """A form of the run page sent in `language`; the messages the page shows next."""
    client.cookies["django_language"] = language
    client.get(page)  # the page shows (and so clears) the messages before
    response = client.post(url, data, headers={"referer": page})
    assert response.status_code == 302
    return [(m.level_tag, str(m)) for m in get_messages(response.wsgi_request)]


def refused(client, url: str, data: dict, language: str) -> str:
    """The settings sent in `language` and refused: the run page again, what was typed kept,
    the service's reason under the field it is about; that reason."""
    client.cookies["django_language"] = language
    response = client.post(url, data)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="autopilot-settings" open' in html
    errors = html.split('<p class="error">', 1)[1]
    return unescape(errors.split("</p>", 1)[0])


def settings_form(starts, **values) -> dict:
    fields = {
        "starts": timezone.localtime(starts).strftime("%Y-%m-%dT%H:%M"),
        "check_in_minutes": 10,
        "pause_seconds": 60,
        "match_format": "target",
        "round_minutes": 30,
        "time_limit": "",
        "turn_seconds": 30,
        "two_forfeits": "keep",
    }
    return fields | values


def test_an_organiser_sets_the_autopilot_on_the_run_page(client):
    data = online_event(Event.Format.SWISS, 4, tag="rp")
    event = data.event
    client.force_login(data.organiser)
    page = reverse("tournament_run", args=[event.slug])
    html = client.get(page).content.decode()
    assert 'id="autopilot-settings"' in html and 'id="pair-round"' in html  # either way
    url = reverse("autopilot_settings", args=[event.slug])
    starts = timezone.now() + timedelta(hours=2)

    before = state(event)
    message = refused(client, url, settings_form(starts, pause_seconds=-5), "es")
    assert message.startswith("La pausa entre rondas es un número entero de segundos de 0 a 3600")
    message = refused(client, url, settings_form(starts, check_in_minutes=500), "pt-br")
    assert message == "A janela de confirmação é mais longa que o tempo que falta para o início."
    past = settings_form(timezone.now() - timedelta(hours=1))
    assert refused(client, url, past, "en") == "The start must be in the future."
    typed = client.post(url, settings_form(starts, round_minutes="soon")).content.decode()
    assert 'class="field has-error"' in typed and 'value="soon"' in typed  # kept as typed
    assert state(event) == before and not Autopilot.objects.filter(event=event).exists()

    assert post(client, url, settings_form(starts), page)[0][0] == "success"
    pilot = Autopilot.objects.get(event=event)
    assert (pilot.check_in_minutes, pilot.pause_seconds, pilot.round_minutes) == (10, 60, 30)
    assert pilot.two_forfeits == "keep" and abs(pilot.starts - starts) < timedelta(minutes=1)
    event.refresh_from_db()
    assert event.rule_overrides["turn_seconds"] == 30

    html = client.get(page).content.decode()
    assert 'id="autopilot-state"' in html and 'id="pair-round"' not in html
    assert 'id="autopilot-settings"' in html  # still open to change before the start


def test_the_run_page_of_an_event_that_runs_itself_offers_its_controls(client):
    data = online_event(Event.Format.SWISS, 4, tag="rc", rounds=2)
    event = data.event
    pilot = configure(data)
    check_in_all(data)
    live_autopilot.tick(event.pk, after_start(pilot))
    client.force_login(data.organiser)
    page = reverse("tournament_run", args=[event.slug])
    client.cookies["django_language"] = "en"
    html = client.get(page).content.decode()
    assert "Round 1" in html and 'data-state="round"' in html
    for control in (
        "autopilot-pause",
        "autopilot-extend",
        "autopilot-repair",
        "autopilot-withdraw",
    ):
        assert f'id="{control}"' in html
    assert 'id="pair-round"' not in html and 'id="autopilot-settings"' not in html
    assert "Enter results" not in html

    # a manual step is refused while the autopilot runs the event
    before = state(event)
    manual = post(client, reverse("tournament_act", args=[event.slug, "unpair"]), {}, page, "es")
    assert manual == [
        ("error", "Este evento se juega solo: el piloto automático empareja y empieza sus rondas.")
    ]
    assert state(event) == before

    control = lambda name: reverse("autopilot_control", args=[event.slug, name])  # noqa: E731
    assert post(client, control("pause"), {}, page)[0][0] == "success"
    assert post(client, control("pause"), {}, page) == [
        ("error", "El piloto automático ya está en pausa.")
    ]
    html = client.get(page).content.decode()
    assert 'id="autopilot-resume"' in html and 'id="autopilot-pause"' not in html
    assert post(client, control("resume"), {}, page)[0][0] == "success"
    assert Autopilot.objects.get(event=event).paused is None

    deadline = Autopilot.objects.get(event=event).round_deadline
    assert post(client, control("extend"), {"minutes": "0"}, page, "pt-br")[0][0] == "error"
    assert post(client, control("extend"), {"minutes": "x"}, page, "en") == [
        ("error", "Extend a round by a whole number of minutes from 1 to 120.")
    ]
    assert Autopilot.objects.get(event=event).round_deadline == deadline
    assert post(client, control("extend"), {"minutes": "10"}, page)[0][0] == "success"
    assert Autopilot.objects.get(event=event).round_deadline == deadline + timedelta(minutes=10)

    assert post(client, control("repair"), {}, page)[0][0] == "success"
    entry = data.entries[0]
    assert post(client, control("withdraw"), {"entry": entry.pk}, page)[0][0] == "success"
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.WITHDRAWN
    assert post(client, control("withdraw"), {"entry": "nobody"}, page, "en") == [
        ("error", "Choose an entry of this event.")
    ]


def test_only_organisers_reach_the_controls(client):
    data = online_event(Event.Format.SWISS, 4, tag="ro")
    configure(data)
    client.force_login(data.entries[0].player_1.user)
    for url in (
        reverse("autopilot_settings", args=[data.event.slug]),
        reverse("autopilot_control", args=[data.event.slug, "pause"]),
    ):
        assert client.post(url, {}).status_code == 403
    assert Autopilot.objects.get(event=data.event).paused is None
