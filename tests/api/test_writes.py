"""Writes go through the competition services: their rules, their errors, nothing half-done."""

import json

import pytest
from rest_framework.test import APIClient

from games.engine import adjudicate
from league.models import AuditEntry, Entry, Event, Result
from tests.engine.records import example, first_match, played_match

from .conftest import build_league, csrf_post, key_for, with_key

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
    records, played = played_match("tournament")
    records[1] = example(actions=["5-5", "pass", "3-5@right", "pass"])
    a, b = played.scores
    games = [{"points_a": a, "points_b": b, "hands": records}]
    entered = client.post(f"/api/v1/matches/{match.pk}/result/", {"games": games}, format="json")
    assert entered.status_code == 201, entered.json()
    hands = api.get(f"/api/v1/results/{entered.json()['id']}/hands/").json()
    assert [h["ruling"]["valid"] for h in hands][:3] == [True, False, True]
    assert hands[1]["ruling"]["error"]["code"] == "illegal_pass"


def test_hand_records_that_do_not_add_up_to_the_score_are_refused(league):
    client = with_key(key_for(league, "write"))
    match = league.matches(1)[0]
    records, played = played_match("dominican", seed=0)
    a, b = played.scores
    url = f"/api/v1/matches/{match.pk}/result/"
    for hands, points in ((records[:1], (a, b)), (records, (a, b + 7))):
        games = [{"points_a": points[0], "points_b": points[1], "hands": hands}]
        answer = client.post(url, {"games": games}, format="json", HTTP_ACCEPT_LANGUAGE="es")
        assert answer.status_code == 422
        error = answer.json()["error"]
        assert error["code"] == "records_disagree" and f"mano {len(hands)}" in error["message"]
    assert not Result.objects.filter(match=match).exists()


def test_the_records_decide_the_lisa_whatever_the_tick(db):
    league = build_league(size=4, rule_preset="dominican")
    client = with_key(key_for(league, "write"))
    lisa, _ = first_match(lambda m: m.shutout and min(m.scores) > 0)
    plain, _ = first_match(lambda m: not m.shutout and min(m.scores) > 0)
    for match, records, tick in zip(league.matches(1), (lisa, plain), (False, True), strict=True):
        a, b = adjudicate(records[-1])["scores_after"]
        games = [{"points_a": a, "points_b": b, "hands": records}]
        answer = client.post(
            f"/api/v1/matches/{match.pk}/result/", {"games": games, "lisa": tick}, format="json"
        )
        assert answer.status_code == 201 and answer.json()["shutout"] is (records is lisa)


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


def test_a_record_not_shaped_as_domino_hand_1_is_refused_with_where(league):
    """A record the schema does not describe is refused (400, naming the hand and the path),
    where a well-formed record that breaks the rules is kept with its ruling (above)."""
    client = with_key(key_for(league, "write"))
    match = league.matches(1)[0]
    records, played = played_match("tournament")
    a, b = played.scores
    for broken in ({**records[1], "actions": [""]}, {**records[1], "format": "domino-hand/9"}):
        games = [{"points_a": a, "points_b": b, "hands": [records[0], broken, *records[2:]]}]
        for path in ("result", "correction-preview"):
            answer = client.post(
                f"/api/v1/matches/{match.pk}/{path}/",
                {"games": games},
                format="json",
                HTTP_ACCEPT_LANGUAGE="es",
            )
            assert answer.status_code == 400, answer.json()
            error = answer.json()["error"]
            assert "No es un registro domino-hand/1" in json.dumps(error, ensure_ascii=False)
    assert not Result.objects.filter(match=match).exists()


def test_text_fields_take_text_only(league):
    """DRF would take a number for text ("0"); the schema says a string."""
    client = with_key(key_for(league, "write"))
    entry = league.pairs[0]
    for reason in (0, True, ["a"]):
        answer = client.post(
            f"/api/v1/entries/{entry.pk}/withdraw/", {"reason": reason}, format="json"
        )
        assert answer.status_code == 400 and answer.json()["error"]["fields"]["reason"]
    entry.refresh_from_db()
    assert entry.status == Entry.Status.ACCEPTED
    answer = client.post(f"/api/v1/entries/{entry.pk}/withdraw/", {"reason": "0"}, format="json")
    assert answer.status_code == 200, answer.json()


def test_boolean_fields_take_booleans_only_in_json(league):
    """DRF would take 0, 1 or "yes" for a boolean; in a JSON body the schema says true or
    false, and anything else is refused with nothing changed."""
    client = with_key(key_for(league, "write"))
    entry = league.pairs[0]
    for disqualify in (0, 1, "true", "yes", None, [True]):
        body = {"disqualify": disqualify, "reason": ""}
        answer = client.post(f"/api/v1/entries/{entry.pk}/withdraw/", body, format="json")
        assert answer.status_code == 400, (disqualify, answer.json())
        assert answer.json()["error"]["fields"]["disqualify"]
    entry.refresh_from_db()
    assert entry.status == Entry.Status.ACCEPTED
    answer = client.post(
        f"/api/v1/entries/{entry.pk}/withdraw/", {"disqualify": True}, format="json"
    )
    assert answer.status_code == 200, answer.json()
    entry.refresh_from_db()
    assert entry.status == Entry.Status.DISQUALIFIED
