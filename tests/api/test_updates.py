"""PUT and PATCH where the pages allow the same change: an event's settings (the event's edit
page) and a roster player (the club's roster page), through the same services; and entries
with the players the page's entry form allows."""

import pytest
from rest_framework.test import APIClient

from api import services
from league.models import AuditEntry, Entry, Event, Membership, Organisation, Player
from league.services import clubs, events
from tests.league.conftest import make_user, play

from .conftest import key_for, with_key

pytestmark = pytest.mark.django_db


def other_write_key(league) -> APIClient:
    """A read-write key of another organisation, made by someone who also organises here."""
    other = Organisation.objects.create(name="Otro Club", slug="otro-club")
    owner = make_user("other-owner", other, Membership.Role.OWNER)
    Membership.objects.create(organisation=league.club, user=owner, role=Membership.Role.ORGANISER)
    return with_key(services.create_key(owner, other, "Their site", "write")[1])


def settings_of(client: APIClient, slug: str) -> dict:
    """The event as read, less what is not written: a full PUT body."""
    body = client.get(f"/api/v1/events/{slug}/").json()
    for name in ("id", "slug", "organisation", "status", "created", "divisions", "updated"):
        body.pop(name)
    body.pop("results_version")
    return body


# Events ----------------------------------------------------------------------------------


def test_put_replaces_an_events_settings(league):
    client = with_key(key_for(league, "write"))
    url = f"/api/v1/events/{league.event.slug}/"
    body = {**settings_of(client, league.event.slug), "venue": "Club Sur", "name": "Liga Norte"}
    changed = client.put(url, body, format="json")
    assert changed.status_code == 200, changed.json()
    assert (changed.json()["venue"], changed.json()["name"]) == ("Club Sur", "Liga Norte")
    assert AuditEntry.objects.filter(action="event.update").exists()


def test_put_needs_every_setting(league):
    client = with_key(key_for(league, "write"))
    body = settings_of(client, league.event.slug)
    body.pop("name")
    refused = client.put(f"/api/v1/events/{league.event.slug}/", body, format="json")
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "invalid"
    assert "name" in refused.json()["error"]["fields"]


def test_put_refuses_what_play_has_fixed(league):
    play(league, league.matches(1)[0], 150, 40)
    client = with_key(key_for(league, "write"))
    body = {**settings_of(client, league.event.slug), "boards": 2, "entry_kind": "team"}
    before = AuditEntry.objects.count()
    refused = client.put(f"/api/v1/events/{league.event.slug}/", body, format="json")
    assert refused.status_code == 422, refused.json()
    assert refused.json()["error"]["code"] == "locked_in_play"
    assert AuditEntry.objects.count() == before


def test_another_organisations_key_cannot_change_an_event(league):
    client = other_write_key(league)
    body = settings_of(client, league.event.slug)
    refused = client.put(f"/api/v1/events/{league.event.slug}/", body, format="json")
    assert refused.status_code == 403  # a published event is public: it exists for all
    draft = events.create_event(league.organiser, league.club, name="Borrador")
    for method in ("put", "patch"):
        hidden = getattr(client, method)(f"/api/v1/events/{draft.slug}/", body, format="json")
        assert hidden.status_code == 404  # a draft answers as a missing event
        assert hidden.json() == client.get("/api/v1/events/no-such-event/").json()
    draft.refresh_from_db()
    assert draft.name == "Borrador"


# Roster players ---------------------------------------------------------------------------


@pytest.fixture
def roster_player(league) -> Player:
    return clubs.add_player(league.organiser, league.club, display_name="Rosa Tavárez")


def test_an_organiser_changes_a_roster_player(league, roster_player):
    client = with_key(key_for(league, "write"))
    url = f"/api/v1/players/{roster_player.pk}/"
    patched = client.patch(url, {"email": "Rosa@Example.com"}, format="json")
    assert patched.status_code == 200, patched.json()
    assert patched.json()["display_name"] == "Rosa Tavárez"
    assert "email" not in patched.json() and "phone" not in patched.json()
    put = client.put(
        url, {"display_name": "  Rosa  Tavárez Peña ", "email": "", "phone": "809"}, format="json"
    )
    assert put.status_code == 200, put.json()
    roster_player.refresh_from_db()
    assert (roster_player.display_name, roster_player.email, roster_player.phone) == (
        "Rosa Tavárez Peña",
        "",
        "809",
    )
    assert AuditEntry.objects.filter(action="player.update").count() == 2


def test_a_roster_player_is_validated(league, roster_player):
    client = with_key(key_for(league, "write"))
    url = f"/api/v1/players/{roster_player.pk}/"
    bad = client.patch(url, {"email": "not an address", "display_name": ""}, format="json")
    assert bad.status_code == 400
    assert set(bad.json()["error"]["fields"]) == {"email", "display_name"}
    incomplete = client.put(url, {"display_name": "Rosa"}, format="json")
    assert incomplete.status_code == 400
    assert set(incomplete.json()["error"]["fields"]) == {"email", "phone"}


def test_a_player_with_an_account_edits_their_own_profile(league):
    client = with_key(key_for(league, "write"))
    player = league.pairs[0].player_1
    refused = client.patch(f"/api/v1/players/{player.pk}/", {"phone": "1"}, format="json")
    assert refused.status_code == 422
    assert refused.json()["error"]["code"] == "has_account"


def test_a_player_off_the_callers_roster_is_not_found(league, roster_player):
    url = f"/api/v1/players/{roster_player.pk}/"
    missing = "/api/v1/players/999999/"
    anonymous = APIClient()
    answered = anonymous.patch(url, {"phone": "1"}, format="json")
    expected = anonymous.patch(missing, {"phone": "1"}, format="json")
    assert (answered.status_code, answered.json()) == (expected.status_code, expected.json())
    # A public player of another organisation's club: refused, as every write of another
    # organisation's key is (tests/api/test_other_organisation.py).
    refused = other_write_key(league).patch(url, {"phone": "1"}, format="json")
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "forbidden")
    signed_in = APIClient()
    signed_in.force_authenticate(league.pairs[0].player_1.user)  # a player, not an organiser
    assert signed_in.patch(url, {"phone": "1"}, format="json").status_code == 404
    read_only = with_key(key_for(league, "read"))
    assert read_only.patch(url, {"phone": "1"}, format="json").status_code == 403
    roster_player.refresh_from_db()
    assert roster_player.phone == ""


# Entries ----------------------------------------------------------------------------------


def test_an_entry_takes_players_of_the_organisers_roster_only(league):
    events.set_status(league.organiser, league.event, "finished")
    open_event = events.create_event(league.organiser, league.club, name="Copa")
    events.set_status(league.organiser, open_event, "registration")
    client = with_key(key_for(league, "write"))
    elsewhere = Organisation.objects.create(name="Lejano", slug="lejano")
    stranger = Player.objects.create(display_name="Desconocido", club=elsewhere)
    ours = clubs.add_player(league.organiser, league.club, display_name="Nuestro")

    def register(partner: Player):
        body = {"event": open_event.slug, "player_1": ours.pk, "player_2": partner.pk}
        return client.post("/api/v1/entries/", body, format="json")

    refused = register(stranger)
    assert refused.status_code == 422, refused.json()
    assert refused.json()["error"]["code"] == "not_on_roster"
    assert not Entry.objects.filter(event=open_event).exists()
    partner = clubs.add_player(league.organiser, league.club, display_name="Compañero")
    made = register(partner)
    assert made.status_code == 201, made.json()
    assert made.json()["name"] == "Nuestro / Compañero"
    assert Event.objects.get(pk=open_event.pk).entries.count() == 1


# The lisa tick --------------------------------------------------------------------------


def test_a_result_given_as_points_takes_the_round_sheets_lisa_tick(league):
    client = with_key(key_for(league, "write"))
    first, second, third = league.matches(1)[:2] + league.matches(2)[:1]

    def enter(match, points_b: int, **tick) -> dict:
        body = {"games": [{"points_a": 150, "points_b": points_b}], **tick}
        response = client.post(f"/api/v1/matches/{match.pk}/result/", body, format="json")
        assert response.status_code == 201, response.json()
        return response.json()

    assert enter(first, 0, lisa=False)["shutout"] is False
    assert enter(second, 40, lisa=True)["shutout"] is True
    assert enter(third, 0)["shutout"] is True  # no tick: the losers scored nothing
    corrected = client.post(
        f"/api/v1/matches/{second.pk}/correction/",
        {"games": [{"points_a": 150, "points_b": 40}], "note": "Sin lisa", "lisa": False},
        format="json",
    )
    assert corrected.status_code == 201, corrected.json()
    assert corrected.json()["shutout"] is False
    bad = client.post(
        f"/api/v1/matches/{first.pk}/correction/",
        {"games": [{"points_a": 150, "points_b": 0}], "note": "x", "lisa": "maybe"},
        format="json",
    )
    assert bad.status_code == 400 and "lisa" in bad.json()["error"]["fields"]


# Matches ----------------------------------------------------------------------------------


def test_patch_moves_a_match_as_its_page_does(league):
    client = with_key(key_for(league, "write"))
    match, neighbour = league.matches(1)[:2]
    url = f"/api/v1/matches/{match.pk}/"
    moved = client.patch(url, {"scheduled": "2026-12-05T20:00:00Z"}, format="json")
    assert moved.status_code == 200, moved.json()
    venue = client.patch(url, {"venue": "Club Sur"}, format="json")
    assert venue.status_code == 200, venue.json()
    assert venue.json()["venue"] == "Club Sur"
    assert venue.json()["scheduled"] == moved.json()["scheduled"]  # left out: kept
    assert AuditEntry.objects.filter(action="match.reschedule").count() == 2
    bad = client.patch(url, {"table": 0}, format="json")
    assert bad.status_code == 400 and "table" in bad.json()["error"]["fields"]
    taken = client.patch(url, {"table": neighbour.table}, format="json")
    assert taken.status_code == 422 and taken.json()["error"]["code"] == "table_taken"
    play(league, match, 150, 40)
    played = client.patch(url, {"venue": "Otra"}, format="json")
    assert played.status_code == 422 and played.json()["error"]["code"] == "not_schedulable"
    assert other_write_key(league).patch(url, {"venue": "X"}, format="json").status_code == 403
    assert APIClient().patch(url, {"venue": "X"}, format="json").status_code == 401
    match.refresh_from_db()
    assert match.venue == "Club Sur"
