"""A league whose every match counts waits only to be finished: the dashboard says so and
links to "Finish the event" on its Manage page, which finishes it (#30)."""

import pytest
from django.test import Client

from league.models import Event, Match
from league.services import results
from league.services.dashboard import events_of, waits_to_finish

from .conftest import build_league

pytestmark = pytest.mark.django_db


def test_a_league_whose_every_match_counts_is_finished_from_its_manage_page():
    league = build_league(4)
    event = league.event
    matches = list(Match.objects.filter(event=event, entry_b__isnull=False).order_by("pk"))
    for match in matches[:-1]:
        results.enter_result(league.organiser, match, [{"points_a": 100, "points_b": 40}])
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING and not waits_to_finish(event)
    results.enter_result(league.organiser, matches[-1], [{"points_a": 100, "points_b": 40}])
    assert waits_to_finish(event)
    item = next(i for i in events_of(league.organiser) if i.event == event)
    manage = f"/events/{event.slug}/manage/"
    assert [t.url for t in item.todos] == [manage + "#finish"]
    assert not [i for i in events_of(league.referee) if i.event == event][0].todos  # not theirs

    client = Client()
    client.force_login(league.organiser)
    page = client.get(manage, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert 'id="finish-event"' in page and "Finalizar el evento" in page
    # Back where the button was, never to another site.
    answer = client.post(
        f"/events/{event.slug}/status/", {"status": "finished", "next": "https://evil.example/"}
    )
    assert answer.status_code == 302 and answer["Location"] == manage
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED and not waits_to_finish(event)
    page = client.get(manage, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert 'id="finish-event"' not in page and 'id="import-csv"' not in page
