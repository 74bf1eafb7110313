"""Writes go through the competition services: their rules, their errors, nothing half-done."""

import pytest
from rest_framework.test import APIClient

from league.models import AuditEntry, Event, Result
from tests.engine.records import EXAMPLE, example

from .conftest import csrf_post, key_for, with_key

pytestmark = pytest.mark.django_db


def test_an_organiser_runs_an_event_through_the_api(league):
    client = with_key(key_for(league, "write"))
    made = client.post(
        "/api/v1/events/",
        {"organisation": league.club.slug, "name": "Copa Norte", "venue": "Sede"},
        format="json",
    )
    assert made.status_code == 201, made.json()
    slug = made.json()["slug"]
    assert made.json()["status"] == "draft"
    assert AuditEntry.objects.filter(action="event.create", target__endswith=str(made.json()["id"]))
    changed = client.patch(f"/api/v1/events/{slug}/", {"venue": "Club Sur"}, format="json")
    assert changed.json()["venue"] == "Club Sur"
    opened = client.post(f"/api/v1/events/{slug}/status/", {"status": "registration"})
    assert opened.json()["status"] == "registration"


def test_a_rule_refusal_is_422_with_its_code_and_changes_nothing(league):
    client = with_key(key_for(league, "write"))
    url = f"/api/v1/events/{league.event.slug}/status/"
    refused = client.post(url, {"status": "draft"}, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 422
    assert refused.json()["error"]["code"] == "bad_transition"
    assert refused.json()["error"]["message"]
    league.event.refresh_from_db()
    assert league.event.status == Event.Status.RUNNING


@pytest.mark.parametrize(
    "body",
    [
        {"games": []},
        {"games": [{"points_a": 150, "points_b": 150}]},
        {"games": [{"points_a": -1, "points_b": 150}]},
        {"games": [{"points_a": 150}]},
        {"games": "150-40"},
        {},
    ],
)
def test_bad_scores_are_refused_and_nothing_is_written(league, body):
    client = with_key(key_for(league, "write"))
    match = league.matches(1)[0]
    response = client.post(f"/api/v1/matches/{match.pk}/result/", body, format="json")
    assert response.status_code in (400, 422)
    assert response.json()["error"]["code"] in ("invalid", "bad_score")
    assert not Result.objects.filter(match=match).exists()


def test_uploaded_hands_are_adjudicated_and_kept_with_their_rulings(league, api):
    client = with_key(key_for(league, "write"))
    match = league.matches(1)[0]
    faulty = example(actions=["5-5", "pass", "3-5@right", "pass"])
    games = [{"points_a": 150, "points_b": 40, "hands": [EXAMPLE, faulty]}]
    entered = client.post(f"/api/v1/matches/{match.pk}/result/", {"games": games}, format="json")
    assert entered.status_code == 201, entered.json()
    hands = api.get(f"/api/v1/results/{entered.json()['id']}/hands/").json()
    assert [h["ruling"]["valid"] for h in hands] == [True, False]
    assert hands[1]["ruling"]["error"]["code"] == "illegal_pass"


def test_an_organisers_result_counts_at_once_and_moves_the_standings(league, api):
    match = league.matches(1)[0]
    first = with_key(key_for(league, "write"))
    score = {"games": [{"points_a": 150, "points_b": 40}]}
    entered = first.post(f"/api/v1/matches/{match.pk}/result/", score, format="json").json()
    assert entered["status"] == "confirmed"  # the owner behind the key: no second person
    table = api.get(f"/api/v1/events/{league.event.slug}/standings/").json()["tables"][0]
    assert table["standings"][0]["won"] == 1
    again = first.post(f"/api/v1/matches/{match.pk}/result/", score, format="json")
    assert (again.status_code, again.json()["error"]["code"]) == (422, "already_confirmed")


def test_the_sites_own_pages_must_send_the_csrf_token(league):
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(league.organiser)
    response = client.patch(f"/api/v1/events/{league.event.slug}/", {"venue": "X"}, format="json")
    assert response.status_code == 403
    assert (
        csrf_post(
            client, f"/api/v1/events/{league.event.slug}/", {"venue": "X"}, method="patch"
        ).status_code
        == 200
    )


def test_malformed_json_is_a_400(league):
    client = with_key(key_for(league, "write"))
    response = client.generic("POST", "/api/v1/events/", "{nope", content_type="application/json")
    assert (response.status_code, response.json()["error"]["code"]) == (400, "malformed_request")
