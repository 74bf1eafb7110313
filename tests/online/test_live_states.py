"""The live page of an online event, state by state (#34 item 3): what the clock counts down
to before the start, in a round and in the pause, the reader's table, the tables' scores
with their links, and the podium; in English, signed out and signed in."""

import re
from datetime import datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Table
from games.services import autopilot as live_autopilot
from games.services.event_live import live_page
from league.models import Autopilot, Event
from league.services.autopilot import clock
from tests.tournaments.conftest import PASSWORD

from .conftest import after_start, check_in_all, configure, online_event, play_tables

pytestmark = pytest.mark.django_db(transaction=True)


def body(client, event: Event) -> str:
    url = reverse("event_live", args=[event.slug]) + "?part=body"
    response = client.get(url, headers={"accept-language": "en"})
    assert response.status_code == 200
    return response.content.decode()


def test_the_clock_counts_to_the_start_the_deadline_and_the_next_round(client, rng):
    data = online_event(Event.Format.SWISS, 4, tag="ls", rounds=2)
    event = data.event
    pilot = configure(data, pause_seconds=60)
    Autopilot.objects.filter(pk=pilot.pk).update(starts=timezone.now() + timedelta(minutes=30))
    pilot.refresh_from_db()
    ahead = clock(event, pilot)
    assert (ahead.state, ahead.until) == ("scheduled", pilot.starts)
    assert ahead.check_in_opens == pilot.starts - timedelta(minutes=pilot.check_in_minutes)
    assert "Starts in" in body(client, event) and 'id="check-in"' not in body(client, event)

    pilot = configure(data, pause_seconds=60)  # a minute before the start: check-in open
    player = data.entries[0].player_1.user
    player.set_password(PASSWORD)
    player.save()
    client.force_login(player)
    assert clock(event, pilot).state == "check_in"
    assert 'id="check-in"' in body(client, event)
    check_in_all(data)
    assert 'id="checked-in"' in body(client, event)

    live_autopilot.tick(event.pk, after_start(pilot))
    pilot.refresh_from_db()
    running = clock(event, pilot)
    assert (running.state, running.round, running.until) == ("round", 1, pilot.round_deadline)
    html = body(client, event)
    until = re.search(r'data-until="([^"]+)"', html).group(1)
    assert datetime.fromisoformat(until) == pilot.round_deadline
    mine = Table.objects.get(fixture__event=event, seats__user=player)
    assert f'id="go-to-table" href="/play/t/{mine.code}/"' in html
    other = Table.objects.exclude(pk=mine.pk).get(fixture__event=event)
    assert f'href="/play/t/{other.code}/">Watch' in html
    assert html.count('<li class="live-table') == 2

    client.logout()
    page = live_page(event, client.get("/").wsgi_request.user)
    assert page.my_table is None and all(not t.mine for t in page.tables)
    assert "go-to-table" not in body(client, event)

    play_tables(event, rng)
    live_autopilot.tick(event.pk)
    pilot.refresh_from_db()
    pause = clock(event, pilot)
    assert pause.state == "pause"
    assert pause.until == pilot.round_ended + timedelta(seconds=60)
    html = body(client, event)
    assert "Round 2 soon" in html and "Next round in" in html
    played = [row["played"] for row in live_page(event, player).standings]
    assert played == [1, 1, 1, 1]

    Autopilot.objects.filter(pk=pilot.pk).update(pause_seconds=0)
    live_autopilot.tick(event.pk)
    play_tables(event, rng)
    live_autopilot.tick(event.pk)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    html = body(client, event)
    assert 'id="podium"' in html and "The event is over" in html
    assert len(live_page(event, player).podium) == 3


def test_an_event_that_does_not_run_itself_has_a_plain_live_page(client):
    data = online_event(Event.Format.SWISS, 4, tag="lp")
    assert clock(data.event, None).state == "none"
    assert 'id="live-standings"' in body(client, data.event)
    page = client.get(reverse("event_live", args=[data.event.slug]))
    assert page.status_code == 200 and "js/event_live." in page.content.decode()


def test_an_arena_has_its_live_page_with_its_clock(client):
    from .test_arena import arena_event

    data = arena_event("lva", pairs=2, minutes=10)
    live_autopilot.tick(data.event.pk)
    assert 'id="round-clock"' in body(client, data.event)
    got = client.get(f"/api/v1/events/{data.event.slug}/autopilot/").json()
    assert got["arena_minutes"] == 10 and got["clock"]["state"] == "round"
