"""An online event that runs itself over /api/v1/ (#34 item 5): its autopilot's settings read
and written (each refusal a 422 with the pages' code, in the user's language, and nothing
changed), the organiser's controls (each refused when sent twice or at the wrong moment),
the round clock in the event's live endpoint, and the webhook topics round.started,
table.opened and event.finished, each queued once."""

import json
from datetime import datetime, timedelta

import pytest
from django.db.models import Q
from django.utils import timezone

from api.models import Delivery, Webhook
from games.models import Table
from games.services import autopilot as live_autopilot
from league.models import Autopilot, Event
from tests.api.conftest import csrf_post, signed_in

from .conftest import after_start, check_in_all, configure, online_event, run_to_the_end
from .test_bad_input import state

pytestmark = pytest.mark.django_db(transaction=True)


def url(event: Event, tail: str = "") -> str:
    return f"/api/v1/events/{event.slug}/autopilot/{tail}"


def refused(client, event: Event, code: str, path: str, body=None, method: str = "post") -> str:
    """The call answers 422 `code` and changes nothing; its message (in Spanish)."""
    before = state(event)
    client.cookies["django_language"] = "es"
    response = csrf_post(client, path, body, method)
    assert response.status_code == 422, response.content
    assert response.json()["error"]["code"] == code
    assert state(event) == before
    return response.json()["error"]["message"]


def test_the_settings_are_read_and_written_by_the_pages_rules(client):
    data = online_event(Event.Format.SWISS, 4, tag="api")
    event = data.event
    organiser = signed_in(data.organiser)
    assert organiser.get(url(event)).status_code == 404
    soon = timezone.now() + timedelta(hours=2)
    body = {"starts": soon.isoformat(), "check_in_minutes": 20, "pause_seconds": 90}
    answer = csrf_post(organiser, url(event), body, "put")
    assert answer.status_code == 200, answer.content
    got = answer.json()
    assert datetime.fromisoformat(got["starts"]) == soon
    assert (got["check_in_minutes"], got["pause_seconds"], got["round_minutes"]) == (20, 90, 40)
    assert got["clock"]["state"] == "scheduled"
    assert client.get(url(event)).json() == got  # anyone reads it, as the event
    answer = csrf_post(organiser, url(event), {"two_forfeits": "keep"}, "patch")
    assert answer.json()["two_forfeits"] == "keep" and answer.json()["pause_seconds"] == 90

    stranger = signed_in(data.stranger)
    assert csrf_post(stranger, url(event), {"pause_seconds": 5}, "patch").status_code == 403
    past = (timezone.now() - timedelta(minutes=1)).isoformat()
    assert "futuro" in refused(
        organiser, event, "start_in_past", url(event), {"starts": past}, "patch"
    )
    assert "ventana" in refused(
        organiser, event, "check_in_too_long", url(event), {"check_in_minutes": 200}, "patch"
    )
    refused(organiser, event, "bad_pause", url(event), {"pause_seconds": -1}, "patch")
    assert "mano" in refused(
        organiser,
        event,
        "round_too_short",
        url(event),
        {"round_minutes": 1, "turn_seconds": 30},
        "patch",
    )
    refused(organiser, event, "best_of_online", url(event), {"match_format": "best_of"}, "patch")
    refused(organiser, event, "bad_turn_time", url(event), {"turn_seconds": 1}, "patch")
    before = state(event)
    answer = csrf_post(organiser, url(event), {"starts": "tomorrow"}, "patch")
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "invalid"
    assert state(event) == before


def test_each_control_is_refused_twice_or_at_the_wrong_moment(rng):
    data = online_event(Event.Format.SWISS, 4, tag="apc", rounds=1)
    event = data.event
    pilot = configure(data)
    organiser = signed_in(data.organiser)
    refused(organiser, event, "no_round_in_play", url(event, "extend/"), {"minutes": 5})
    refused(organiser, event, "no_round_in_play", url(event, "repair/"))
    assert csrf_post(organiser, url(event, "pause/")).json()["clock"]["state"] == "paused"
    refused(organiser, event, "already_paused", url(event, "pause/"))
    assert csrf_post(organiser, url(event, "resume/")).status_code == 200
    refused(organiser, event, "not_paused", url(event, "resume/"))

    check_in_all(data)
    entry = data.entries[0]
    check_in = f"/api/v1/entries/{entry.pk}/check-in/"
    refused(organiser, event, "already_checked_in", check_in)
    live_autopilot.tick(event.pk, after_start(pilot))
    refused(organiser, event, "autopilot_started", url(event), {"pause_seconds": 5}, "patch")
    refused(organiser, event, "bad_minutes", url(event, "extend/"), {"minutes": 0})
    refused(organiser, event, "bad_minutes", url(event, "extend/"), {"minutes": 121})
    pilot.refresh_from_db()
    answer = csrf_post(organiser, url(event, "extend/"), {"minutes": 5})
    assert answer.status_code == 200
    moved = pilot.round_deadline + timedelta(minutes=5)
    assert datetime.fromisoformat(answer.json()["clock"]["until"]) == moved
    assert {t.ends for t in Table.objects.filter(fixture__event=event)} == {moved}

    live = organiser.get(f"/api/v1/events/{event.slug}/live/").json()
    assert [(row["round"], datetime.fromisoformat(row["ends"])) for row in live] == [(1, moved)] * 2

    assert csrf_post(organiser, url(event, "repair/")).status_code == 200
    assert csrf_post(organiser, url(event, "withdraw/"), {"entry": entry.pk}).status_code == 200
    # The step the forfeit asks for, taken now: a worker may otherwise take it in the middle
    # of the refusal below, which checks that nothing changes.
    live_autopilot.tick(event.pk)
    refused(organiser, event, "not_active", url(event, "withdraw/"), {"entry": entry.pk})
    table = Table.objects.get(
        Q(fixture__entry_a=entry) | Q(fixture__entry_b=entry), fixture__event=event
    )
    assert table.status == Table.Status.FINISHED

    run_to_the_end(data, rng)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    for control in ("pause/", "resume/", "repair/"):
        refused(organiser, event, "event_closed", url(event, control))
    refused(organiser, event, "event_closed", url(event, "extend/"), {"minutes": 5})


def test_webhooks_tell_each_round_table_and_finish_once(settings, rng):
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    data = online_event(Event.Format.SWISS, 4, tag="apw", rounds=2)
    topics = ["round.started", "table.opened", "event.finished"]
    Webhook.objects.create(
        organisation=data.club, url="http://127.0.0.1:9/hook", topics=topics, secret="s" * 32
    )
    pilot = configure(data)
    check_in_all(data)
    run_to_the_end(data, rng)
    live_autopilot.tick(data.event.pk)  # a late tick: nothing more
    sent = {
        topic: [json.loads(d.body)["data"] for d in Delivery.objects.filter(topic=topic)]
        for topic in topics
    }
    assert sorted(d["round"] for d in sent["round.started"]) == [1, 2]
    codes = set(Table.objects.filter(fixture__event=data.event).values_list("code", flat=True))
    assert len(sent["table.opened"]) == 4 and {d["table"] for d in sent["table.opened"]} == codes
    first = sent["round.started"][-1]
    assert len(first["tables"]) == 2 and first["deadline"]
    assert all(len(d["seats"]) == 4 and d["url"].endswith("/") for d in sent["table.opened"])
    assert len(sent["event.finished"]) == 1
    assert Autopilot.objects.get(pk=pilot.pk).finished is not None
    assert Webhook.Topic.ROUND_STARTED in Webhook.Topic.values


def test_the_organisers_own_round_steps_are_refused_while_the_event_runs_itself():
    """As on the run page: the autopilot pairs, publishes and draws; the API's round steps
    answer 422 `autopilot_runs` and change nothing."""
    data = online_event(Event.Format.SWISS, 4, tag="apm", rounds=2)
    event = data.event
    configure(data)
    organiser = signed_in(data.organiser)
    for step in ("pair/", "publish/", "unpair/", "discard-draft/"):
        message = refused(organiser, event, "autopilot_runs", f"/api/v1/events/{event.slug}/{step}")
        assert message.startswith("Este evento se juega solo"), message


def test_a_result_by_hand_is_refused_while_the_event_runs_itself(client, rng):
    """Its live tables enter every result as they end: a match's result typed by the
    organiser (the API, the run page's form, the round sheet) answers `autopilot_results`
    and changes nothing; the table's own result still counts when it ends."""
    from django.contrib.messages import get_messages
    from django.urls import reverse
    from django.utils import translation

    from league.models import Match, Result
    from league.services import results
    from league.services.errors import ServiceError

    data = online_event(Event.Format.SWISS, 4, tag="aph", rounds=1)
    event = data.event
    pilot = configure(data)
    check_in_all(data)
    live_autopilot.tick(event.pk, after_start(pilot))
    match = Match.objects.filter(event=event, entry_b__isnull=False).order_by("pk").first()
    assert match.live_table is not None
    organiser = signed_in(data.organiser)
    games = [{"points_a": 100, "points_b": 20}]
    path = f"/api/v1/matches/{match.pk}/result/"
    message = refused(organiser, event, "autopilot_results", path, {"games": games})
    assert message.startswith("Este evento se juega solo: sus mesas"), message
    page = reverse("tournament_result", args=[match.pk])
    client.force_login(data.organiser)
    client.cookies["django_language"] = "en"
    response = client.post(page, {"game_1_a": 100, "game_1_b": 20})
    assert response.status_code == 302
    shown = [str(m) for m in get_messages(response.wsgi_request)]
    assert shown == ["This event runs itself: its tables enter the results as they end."]
    sheet = [results.SheetRow(match.pk, games)]
    with translation.override("pt-br"):
        with pytest.raises(ServiceError) as error:
            results.enter_round(data.organiser, match.round, sheet)
        assert error.value.code == "autopilot_results"
        assert str(error.value.message).startswith("Este evento corre sozinho: suas mesas")
    assert not Result.objects.filter(match__event=event).exists()

    run_to_the_end(data, rng)  # the tables enter their results
    assert Result.objects.filter(match=match, status=Result.Status.CONFIRMED).count() == 1
