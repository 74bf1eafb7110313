"""Lists show a draft to its organisation's own keys (and organisers) and to nobody else;
a filter that names something unknown (or hidden) is a 400 naming it, not an empty page; the
schema says what each answer is."""

import pytest
from rest_framework.test import APIClient

from api import services
from league.models import Event, Membership, Organisation
from league.services import events, fixtures
from tests.league.conftest import make_user

from .conftest import key_for, with_key

pytestmark = pytest.mark.django_db

PAIRS = "player 1,player 2\n" + "".join(f"Ana {n},Beto {n}\n" for n in range(4))


def _slugs(client: APIClient, path: str, **query) -> list:
    body = client.get(f"/api/v1/{path}/", {"page_size": 500, **query})
    assert body.status_code == 200, body.content
    return body.json()["results"]


def test_an_organisations_own_keys_list_its_drafts_and_nobody_else_does(api, league):
    owner = with_key(key_for(league, "write"))
    reader = with_key(key_for(league, "read"))
    other = Organisation.objects.create(name="Otro Club", slug="otro-club")
    stranger = make_user("stranger", other, Membership.Role.OWNER)
    # The other organisation's owner also owns this one: only the key's scope stops them.
    Membership.objects.create(organisation=league.club, user=stranger, role=Membership.Role.OWNER)
    theirs = with_key(services.create_key(stranger, other, "Their site", "write")[1])

    draft = events.create_event(league.organiser, league.club, name="Copa Borrador")
    made = owner.post(f"/api/v1/events/{draft.slug}/import-entries/", {"csv": PAIRS}, "json")
    assert made.status_code == 201, made.content
    fixtures.generate_fixtures(league.organiser, draft)
    Event.objects.filter(pk=draft.pk).update(status=Event.Status.DRAFT)

    query = {"organisation": league.club.slug, "status": "draft"}
    for client in (owner, reader):
        assert [e["slug"] for e in _slugs(client, "events", **query)] == [draft.slug]
        assert len(_slugs(client, "entries", event=draft.slug)) == 4
        assert len(_slugs(client, "rounds", event=draft.slug)) == 3
        assert len(_slugs(client, "matches", event=draft.slug)) == 6
        everything = {e["slug"] for e in _slugs(client, "events")}
        assert {draft.slug, league.event.slug} <= everything
    for client in (api, theirs):
        assert _slugs(client, "events", **query) == []
        assert draft.slug not in {e["slug"] for e in _slugs(client, "events")}
        assert league.event.slug in {e["slug"] for e in _slugs(client, "events")}
        for path in ("entries", "rounds", "matches", "results"):
            hidden = client.get(f"/api/v1/{path}/", {"event": draft.slug})
            absent = client.get(f"/api/v1/{path}/", {"event": "no-such-event"})
            assert hidden.status_code == 400, (path, hidden.content)
            assert hidden.json() == absent.json()
        listed = {e["event"] for e in _slugs(client, "entries")}
        assert draft.slug not in listed and league.event.slug in listed
    # The organisers signed in on the site see them too.
    api.force_login(league.organiser)
    assert len(_slugs(api, "matches", event=draft.slug)) == 6
    api.logout()
    # What the owner's key read of the draft's fixtures is not kept for the public.
    assert api.get("/api/v1/matches/", {"event": draft.slug}).status_code == 400


def test_a_federations_key_sees_its_clubs_drafts(league):
    federation = Organisation.objects.create(
        name="Federación", slug="federacion", kind=Organisation.Kind.FEDERATION
    )
    Organisation.objects.filter(pk=league.club.pk).update(parent=federation)
    president = make_user("president", federation, Membership.Role.OWNER)
    key = with_key(services.create_key(president, federation, "Federation site", "read")[1])
    draft = events.create_event(league.organiser, league.club, name="Copa Borrador")
    assert draft.slug in {e["slug"] for e in _slugs(key, "events", status="draft")}


UNKNOWN = [
    ("events", "organisation", "nowhere"),
    ("events", "season", 999999),
    ("organisations", "parent__slug", "nowhere"),
    ("clubs", "parent__slug", "nowhere"),
    ("players", "club__slug", "nowhere"),
    ("rounds", "event", "nowhere"),
    ("rounds", "division", 999999),
    ("entries", "event", "nowhere"),
    ("entries", "division", 999999),
    ("entries", "team", 999999),
    ("entries", "club", 999999),
    ("matches", "event", "nowhere"),
    ("matches", "entry", 999999),
    ("matches", "division", 999999),
    ("matches", "parent", 999999),
    ("results", "event", "nowhere"),
    ("results", "match", 999999),
]


@pytest.mark.parametrize(("path", "name", "value"), UNKNOWN)
def test_a_filter_naming_an_unknown_object_is_refused(api, league, path, name, value):
    refused = api.get(f"/api/v1/{path}/", {name: value}, HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 400, refused.content
    error = refused.json()["error"]
    assert error["code"] == "invalid"
    assert error["fields"][name] == [
        "Select a valid choice. That choice is not one of the available choices."
    ]


@pytest.mark.parametrize(
    ("path", "name", "known"),
    [
        ("events", "organisation", lambda lg: lg.club.slug),
        ("players", "club__slug", lambda lg: lg.club.slug),
        ("entries", "event", lambda lg: lg.event.slug),
        ("matches", "entry", lambda lg: lg.pairs[0].pk),
        ("results", "match", lambda lg: lg.matches(1)[0].pk),
    ],
)
def test_a_filter_naming_a_known_object_filters(api, league, path, name, known):
    assert api.get(f"/api/v1/{path}/", {name: known(league)}).status_code == 200


def test_an_unknown_club_on_a_leaderboard_is_refused(api):
    from tests.ratings.conftest import build_pool

    pool = build_pool(players=4)
    url = f"/api/v1/ratings/{pool.pool.slug}/leaderboard/"
    refused = api.get(url, {"club": "nowhere"})
    assert refused.status_code == 400 and refused.json()["error"]["fields"]["club"]


@pytest.mark.parametrize("path", ["organisations", "clubs", "players"])
def test_a_country_is_two_letters(api, league, path):
    assert api.get(f"/api/v1/{path}/", {"country": "DO"}).status_code == 200
    refused = api.get(f"/api/v1/{path}/", {"country": "DOM"})
    assert refused.status_code == 400 and refused.json()["error"]["fields"]["country"]


@pytest.fixture
def schema() -> dict:
    return APIClient().get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()


def test_the_schema_says_what_each_answer_is(schema, db):
    paths = schema["paths"]
    preview = paths["/api/v1/matches/{id}/correction-preview/"]["post"]
    assert preview["responses"]["200"]["content"]["application/json"]["schema"] == {
        "type": "array",
        "items": {"$ref": "#/components/schemas/Match"},
    }
    assert "page" not in {p["name"] for p in preview.get("parameters", [])}
    check_in = paths["/api/v1/entries/{id}/check-in/"]["post"]["description"]
    assert check_in.startswith("Check the entry in")
    stream = paths["/api/v1/events/{slug}/live/stream/"]["get"]["description"]
    assert "`event: scores`" in stream and "only event type" in stream
    for name, place in (("organisations", "country"), ("players", "country")):
        (country,) = [
            p for p in paths[f"/api/v1/{name}/"]["get"]["parameters"] if p["name"] == place
        ]
        assert country["schema"]["maxLength"] == 2
    board = paths["/api/v1/ratings/{slug}/leaderboard/"]["get"]["parameters"]
    assert next(p for p in board if p["name"] == "country")["schema"]["maxLength"] == 2


@pytest.mark.parametrize(
    ("component", "field"),
    [
        ("EventRequest", "name"),
        ("PatchedEventRequest", "name"),
        ("RosterPlayerRequest", "display_name"),
        ("WebhookRequest", "url"),
    ],
)
def test_names_that_may_not_be_blank_say_so(schema, db, component, field):
    assert schema["components"]["schemas"][component]["properties"][field]["minLength"] == 1
