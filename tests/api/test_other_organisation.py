"""A key of another organisation (B) on this organisation's (A's) events, walked over every
write operation of the OpenAPI schema: a published event's objects are refused with 403 and
the API's JSON error, whatever the body; a draft's answer exactly as missing objects do
(404); what is private to A (its webhooks, its hands' analyses) is not found. Nothing
changes. The key's owner is also an owner of A, so only the key's scope stops it."""

import pytest
from rest_framework.test import APIClient

from api import services
from api.models import Delivery, Webhook
from games.models import Hand, HandReview
from games.services import tables
from league.models import (
    AuditEntry,
    Entry,
    Event,
    Match,
    Membership,
    Organisation,
    Player,
    Result,
    Round,
)
from league.services import entries, events, results
from league.tournaments.models import DraftPairing, Seat, TableResult
from league.tournaments.services import individual
from tests.league.conftest import build_league, game, make_user

from .conftest import with_key

pytestmark = pytest.mark.django_db
WRITES = ("post", "put", "patch", "delete")
# Writes that reach no organisation's objects.
UNTARGETED = {("post", "/api/v1/adjudicate"): "rules on the posted record and keeps nothing"}
# Objects named in the body rather than the address: without a valid body, a 400 comes first.
CREATED = {
    ("post", "/api/v1/events/"),
    ("post", "/api/v1/entries/"),
    ("post", "/api/v1/webhooks/"),
    ("post", "/api/v1/table-results/"),
}
# A's own: not seen by another organisation's key at all, so not found.
PRIVATE = ("/api/v1/webhooks/{id}", "/api/v1/hands/{id}")
MISSING = "999999999"
WATCHED = [
    Event,
    Entry,
    Round,
    Match,
    Result,
    Player,
    Organisation,
    Webhook,
    Delivery,
    AuditEntry,
    DraftPairing,
    HandReview,
    Seat,
    TableResult,
]


def _state() -> dict:
    return {model.__name__: list(model.objects.order_by("pk").values()) for model in WATCHED}


def _schema_writes() -> set[tuple[str, str]]:
    schema = (
        APIClient().get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    )
    return {(m, path) for path, ops in schema["paths"].items() for m in ops if m in WRITES}


def _organisation_a(tag: str):
    """A's league, with a proposed result, a webhook and a live hand; B's write key, whose
    owner also owns A."""
    league = build_league(size=4, tag=tag)
    other = Organisation.objects.create(name=f"Otro Club{tag}", slug=f"otro-club{tag}")
    owner = make_user(f"other-owner{tag}", other, Membership.Role.OWNER)
    Membership.objects.create(organisation=league.club, user=owner, role=Membership.Role.OWNER)
    token = services.create_key(owner, other, "Their site", "write")[1]
    match, proposed = league.matches(1)[:2]
    result = results.enter_result(league.players(proposed.entry_b)[0], proposed, game(150, 40))
    hook = services.create_webhook(
        league.owner, league.club, "http://127.0.0.1:9/hook", ["result.confirmed"]
    )
    table = tables.create_table(host=league.organiser, rules="dominican", fixture=match)
    hand = Hand.objects.create(table=table, number=1, record={}, ruling={})
    league.newcomers = [make_user(f"newcomer{n}{tag}", league.club).player for n in (1, 2)]
    # An individual event of A with a seated round, and a player's proposed table result.
    solo = events.create_event(
        league.organiser, league.club, name="Individual", format=Event.Format.INDIVIDUAL
    )
    for n in range(4):
        player = make_user(f"solo{n}{tag}", league.club).player
        entries.register(league.organiser, solo, player_1=player)
    league.seated = individual.seat_round(league.organiser, solo)
    first = league.seated.seats.get(table=1, seat=1).player.player_1.user
    table = individual.enter_table_result(first, league.seated, 1, 100, 20)
    ids = {
        "entries": league.pairs[0].pk,
        "matches": match.pk,
        "results": result.pk,
        "players": league.pairs[0].player_1.pk,
        "webhooks": hook.pk,
        "hands": hand.pk,
        "table-results": table.pk,
    }
    return league, token, ids


def _body(method: str, path: str, league) -> dict:
    """A body the operation would take from A's own organisers."""
    return {
        "/api/v1/events/": {"organisation": league.club.slug, "name": "Copa"},
        "/api/v1/entries/": {
            "event": league.event.slug,
            "player_1": league.newcomers[0].pk,
            "player_2": league.newcomers[1].pk,
        },
        "/api/v1/webhooks/": {
            "organisation": league.club.slug,
            "url": "http://127.0.0.1:9/other",
            "topics": ["ping"],
        },
        "/api/v1/events/{slug}/": {"venue": "Casa Club", "name": "Liga Otra"},
        "/api/v1/events/{slug}/status/": {"status": "finished"},
        "/api/v1/events/{slug}/import-entries/": {"csv": "player 1,player 2\nAna,Beto\n"},
        "/api/v1/events/{slug}/swap/": {
            "first": league.pairs[0].pk,
            "second": league.pairs[1].pk,
        },
        "/api/v1/events/{slug}/pin/": {"pairing": 1, "pinned": True},
        "/api/v1/entries/{id}/withdraw/": {"disqualify": False, "reason": "Viaje"},
        "/api/v1/matches/{id}/": {"venue": "Sede"},
        "/api/v1/matches/{id}/schedule/": {"scheduled": "2026-12-01T20:00:00Z", "venue": "Sede"},
        "/api/v1/matches/{id}/result/": {"games": game(150, 40)},
        "/api/v1/matches/{id}/correction/": {"games": game(150, 60), "note": "Planilla"},
        "/api/v1/matches/{id}/correction-preview/": {"games": game(150, 60)},
        "/api/v1/players/{id}/": {"display_name": "Otro Nombre", "email": "", "phone": ""},
        "/api/v1/results/{id}/dispute/": {"note": "No"},
        "/api/v1/webhooks/{id}/redeliver/": {"delivery": 1},
        "/api/v1/table-results/": {
            "round": league.seated.pk,
            "table": 1,
            "points_a": 100,
            "points_b": 30,
        },
    }.get(path, {})


def _address(path: str, slug: str, ids: dict) -> str:
    kind = path.split("/")[3]
    return path.format(slug=slug, id=ids.get(kind, MISSING))


def _send(client: APIClient, method: str, url: str, body: dict):
    return getattr(client, method)(url, body, format="json")


def test_another_organisations_key_changes_nothing_of_a_published_event(settings):
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    league, token, ids = _organisation_a("")
    assert league.event.status != Event.Status.DRAFT
    operations = _schema_writes() - set(UNTARGETED)
    assert len(operations) >= 30
    before = _state()
    client = with_key(token)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    for method, path in sorted(operations):
        url = _address(path, league.event.slug, ids)
        bodies = [_body(method, path, league)]
        if (method, path) not in CREATED:
            bodies.append({})  # refused before the body is read
        for body in bodies:
            response = _send(client, method, url, body)
            error = response.json()["error"]
            if path.startswith(PRIVATE):
                assert (response.status_code, error["code"]) == (404, "not_found"), url
            else:
                assert (response.status_code, error["code"]) == (403, "forbidden"), (url, body)
                assert error["message"] == "This API key belongs to another organisation."
    assert _state() == before


def test_a_draft_answers_another_organisations_key_as_a_missing_object(settings):
    """Read or written, by address or named in the body."""
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    league, token, ids = _organisation_a("-d")
    Event.objects.filter(pk=league.event.pk).update(status=Event.Status.DRAFT)
    client = with_key(token)
    missing = {kind: MISSING for kind in ids}
    drafts = [
        (method, path)
        for method, path in _schema_writes()
        if path.split("/")[3] in ("events", "entries", "matches", "results")
        and (method, path) != ("post", "/api/v1/events/")
    ]
    assert len(drafts) >= 20
    reads = [
        "/api/v1/events/{slug}/",
        "/api/v1/events/{slug}/standings/",
        "/api/v1/events/{slug}/draft/",
        "/api/v1/events/{slug}/live/",
        "/api/v1/entries/{id}/",
        "/api/v1/matches/{id}/",
        "/api/v1/results/{id}/",
    ]
    for path in reads:
        draft = client.get(_address(path, league.event.slug, ids))
        absent = client.get(_address(path, "no-such-event", missing))
        assert (draft.status_code, draft.content) == (404, absent.content), path
    before = _state()
    for method, path in sorted(drafts):
        body = _body(method, path, league)
        draft = _send(client, method, _address(path, league.event.slug, ids), body)
        if path == "/api/v1/entries/":
            absent = _send(client, method, path, {**body, "event": "no-such-event"})
        else:
            absent = _send(client, method, _address(path, "no-such-event", missing), body)
        # An entry names its event in the body: a field that names no event (400).
        assert draft.status_code == (400 if path == "/api/v1/entries/" else 404), path
        # The same answer, word for word but for the slug that an error may echo.
        named = draft.content.replace(league.event.slug.encode(), b"no-such-event")
        assert (draft.status_code, named) == (absent.status_code, absent.content), path
    assert _state() == before
