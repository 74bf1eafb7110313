"""Who may write what: every write endpoint against every kind of caller.

The key of another organisation belongs to someone who is also an organiser here, so only
the key's scope stops it. A refused write changes nothing (the audit trail stays the same).
"""

import pytest
from rest_framework.test import APIClient

from league.models import AuditEntry, Membership, Organisation
from league.services import results
from tests.league.conftest import game, make_user

from .conftest import csrf_post, key_for, signed_in, with_key

pytestmark = pytest.mark.django_db

Role = Membership.Role
CALLERS = [
    "anonymous",
    "read_key",
    "other_write_key",
    "write_key",
    "member_player",
    "captain",
    "match_player",
    "referee",
    "organiser",
    "owner",
]
MANAGERS = {"write_key", "organiser", "owner"}


def caller(name: str, league) -> APIClient:
    club = league.club
    if name == "anonymous":
        return APIClient()
    if name == "read_key":
        return with_key(key_for(league, "read"))
    if name == "write_key":
        return with_key(key_for(league, "write"))
    if name == "other_write_key":
        other = Organisation.objects.create(name="Otro Club", slug="otro-club")
        owner = make_user("other-owner", other, Role.OWNER)
        Membership.objects.create(organisation=club, user=owner, role=Role.ORGANISER)
        from api import services

        return with_key(services.create_key(owner, other, "Their site", "write")[1])
    if name == "match_player":
        return signed_in(league.pairs[0].player_1.user)
    if name in ("member_player", "captain"):
        role = Role.PLAYER if name == "member_player" else Role.CAPTAIN
        return signed_in(make_user(f"member-{name}", club, role))
    return signed_in(getattr(league, name))


def _match(league):
    return league.match(league.pairs[0], league.pairs[1])


def _proposed(league):
    """Entered by the opponents of "match_player" (an organiser's entry would count at once)."""
    match = _match(league)
    return results.enter_result(league.players(league.pairs[1])[0], match, game(150, 40))


def _confirmed(league):
    proposed = _proposed(league)
    return results.confirm_result(league.organiser, proposed)


# name: (request builder, callers allowed)
WRITES = {
    "create event": (
        lambda lg: ("post", "/api/v1/events/", {"organisation": lg.club.slug, "name": "Copa"}),
        MANAGERS,
    ),
    "update event": (
        lambda lg: ("patch", f"/api/v1/events/{lg.event.slug}/", {"venue": "Casa Club"}),
        MANAGERS,
    ),
    "finish event": (
        lambda lg: ("post", f"/api/v1/events/{lg.event.slug}/status/", {"status": "finished"}),
        MANAGERS,
    ),
    "late entry": (
        lambda lg: (
            "post",
            "/api/v1/entries/",
            {
                "event": lg.event.slug,
                "player_1": make_user("late1", lg.club).player.pk,
                "player_2": make_user("late2", lg.club).player.pk,
            },
        ),
        MANAGERS,
    ),
    "withdraw entry": (
        lambda lg: ("post", f"/api/v1/entries/{lg.pairs[0].pk}/withdraw/", {}),
        MANAGERS | {"match_player"},
    ),
    "schedule match": (
        lambda lg: (
            "post",
            f"/api/v1/matches/{_match(lg).pk}/schedule/",
            {"scheduled": "2026-12-01T20:00:00Z", "venue": "Sede"},
        ),
        MANAGERS,
    ),
    "enter result": (
        lambda lg: ("post", f"/api/v1/matches/{_match(lg).pk}/result/", {"games": game(150, 40)}),
        MANAGERS | {"referee", "match_player"},
    ),
    "confirm result": (
        lambda lg: ("post", f"/api/v1/results/{_proposed(lg).pk}/confirm/", {}),
        MANAGERS | {"referee", "match_player"},
    ),
    "correct result": (
        lambda lg: (
            "post",
            f"/api/v1/matches/{_confirmed(lg).match_id}/correction/",
            {"games": game(150, 60), "note": "Planilla"},
        ),
        MANAGERS,
    ),
}


@pytest.mark.parametrize("who", CALLERS)
@pytest.mark.parametrize("what", list(WRITES))
def test_write_permission_matrix(league, what, who):
    build, allowed = WRITES[what]
    method, url, data = build(league)
    client = caller(who, league)
    audited = AuditEntry.objects.count()
    response = csrf_post(client, url, data, method=method)
    if who in allowed:
        assert response.status_code in (200, 201), response.json()
        assert AuditEntry.objects.count() > audited
    else:
        expected = 401 if who == "anonymous" else 403
        assert response.status_code == expected, response.json()
        assert response.json()["error"]["code"] in ("not_authenticated", "forbidden")
        assert AuditEntry.objects.count() == audited


READS = [
    "/api/v1/events/",
    "/api/v1/events/{event}/",
    "/api/v1/events/{event}/standings/",
    "/api/v1/matches/?event={event}",
    "/api/v1/results/?event={event}",
    "/api/v1/entries/?event={event}",
    "/api/v1/rounds/?event={event}",
    "/api/v1/players/",
    "/api/v1/clubs/",
    "/api/v1/organisations/",
]


@pytest.mark.parametrize("who", CALLERS)
def test_everyone_reads_the_public_competition(league, who):
    client = caller(who, league)
    for url in READS:
        assert client.get(url.format(event=league.event.slug)).status_code == 200, url
