"""What keeps reads fast: standings served from the cache as rendered bytes (a matching
If-None-Match costs no database query), and lists whose query count ignores the page size."""

from unittest import mock

import pytest
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.throttling import SimpleRateThrottle

from config.cache import RedisCache
from league.api.http import STANDINGS_PATH
from league.api.serializers import MatchSerializer
from league.api.views import EventViewSet
from league.models import Event, Match
from league.services import entries, events, results
from tests.league.conftest import build_league, game, play

from .conftest import key_for, with_key

pytestmark = pytest.mark.django_db
FAST = "league.api.http.CachedStandingsMiddleware"


def _queries(api, url: str, **headers) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as queries:
        response = api.get(url, **headers)
    return len(queries), response


def test_standings_revalidation_touches_no_database(api, league):
    url = f"/api/v1/events/{league.event.slug}/standings/"
    first = api.get(url)
    assert first.status_code == 200
    count, again = _queries(api, url)
    assert (count, again.content, again["ETag"]) == (0, first.content, first["ETag"])
    count, revalidated = _queries(api, url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert (count, revalidated.status_code) == (0, 304)
    assert revalidated["ETag"] == first["ETag"]


def test_cached_standings_follow_every_change(api, league):
    url = f"/api/v1/events/{league.event.slug}/standings/"
    etag = api.get(url)["ETag"]
    match = league.matches(1)[0]
    proposed = results.enter_result(league.players(match.entry_a)[0], match, game(150, 40))
    assert api.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304  # not confirmed yet
    results.confirm_result(league.players(match.entry_b)[0], proposed)
    changed = api.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    top = changed.json()["tables"][0]["standings"][0]
    assert (top["won"], top["points_for"]) == (1, 150)
    entries.withdraw(league.organiser, league.pairs[3], disqualify=False, reason="")
    rows = api.get(url).json()["tables"][0]["standings"]
    assert [r["active"] for r in rows if r["entry"]["id"] == league.pairs[3].pk] == [False]


def _served(request) -> dict:
    response = request()
    return {
        "status": response.status_code,
        "body": response.content,
        "headers": dict(response.headers),
    }


ASKED = [
    {},
    {"HTTP_ACCEPT": "application/json"},
    {"HTTP_ACCEPT": "*/*", "HTTP_ACCEPT_LANGUAGE": "pt-BR,pt;q=0.9"},
    {"HTTP_ACCEPT_LANGUAGE": "en", "HTTP_ORIGIN": "https://club.example"},
]


@pytest.mark.parametrize("asked", ASKED)
def test_cached_standings_answer_as_the_view_does(db, settings, asked):
    """The middleware's answer (200, 304, HEAD, a division's) is the view's, byte for byte
    and header for header, and the view is not called for it."""
    league = build_league(size=4, generate=False)
    division = events.add_division(league.organiser, league.event, "Primera")
    events.add_division(league.organiser, league.event, "Segunda")
    events.set_status(league.organiser, league.event, "registration")
    url = f"/api/v1/events/{league.event.slug}/standings/"
    assert STANDINGS_PATH.fullmatch(reverse("api:event-standings", args=[league.event.slug]))
    client = Client()
    requests = {
        "get": lambda: client.get(url, **asked),
        "head": lambda: client.head(url, **asked),
        "division": lambda: client.get(url, {"division": division.pk}, **asked),
    }
    etag = client.get(url)["ETag"]
    stamp = client.get(url)["Last-Modified"]
    requests["304"] = lambda: client.get(url, HTTP_IF_NONE_MATCH=etag, **asked)
    requests["since"] = lambda: client.get(url, HTTP_IF_MODIFIED_SINCE=stamp, **asked)
    fast = {}
    for name, request in requests.items():
        request()  # the view fills the cache where needed
        view = mock.patch.object(EventViewSet, "standings", side_effect=AssertionError)
        with view, CaptureQueriesContext(connection) as queries:
            fast[name] = _served(request)
        assert len(queries) == 0, name
    settings.MIDDLEWARE = [m for m in settings.MIDDLEWARE if m != FAST]
    viewed = {name: _served(request) for name, request in requests.items()}
    assert fast == viewed
    assert [fast[n]["status"] for n in requests] == [200, 200, 200, 304, 304]


def test_cached_standings_leave_keys_sessions_and_other_queries_to_the_view(api, league):
    url = f"/api/v1/events/{league.event.slug}/standings/"
    assert api.get(url).status_code == 200  # cached
    token = key_for(league, "read")
    with mock.patch.object(EventViewSet, "standings", side_effect=RuntimeError("the view")):
        for asked in [
            lambda: with_key(token).get(url),
            lambda: api.get(url, {"division": "01"}),
            lambda: api.get(url, {"other": "1"}),
            lambda: api.get(url, HTTP_ACCEPT="application/json; indent=2"),
            lambda: api.get(url, HTTP_ACCEPT="text/html"),
        ]:
            with pytest.raises(RuntimeError):
                asked()
        api.force_login(league.organiser)
        with pytest.raises(RuntimeError):
            api.get(url)
    assert Client(HTTP_X_API_KEY="cap_not_a_key").get(url).status_code == 401


def test_indented_standings_are_not_kept(api, league):
    url = f"/api/v1/events/{league.event.slug}/standings/"
    indented = api.get(url, HTTP_ACCEPT="application/json; indent=2")
    assert indented.content.startswith(b"{\n")
    plain = api.get(url)
    assert plain["Content-Type"] == "application/json" and plain.content.startswith(b'{"')


def test_cached_standings_count_towards_the_anonymous_limit(league, monkeypatch):
    limits = {"anon": "3/min", "user": None, "key": None, "bad_key": None}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", limits)
    url = f"/api/v1/events/{league.event.slug}/standings/"
    client = Client(REMOTE_ADDR="203.0.113.9")
    codes = [client.get(url).status_code for _ in range(5)]
    assert codes == [200, 200, 200, 429, 429]
    refused = client.get(url)
    assert refused.json()["error"]["code"] == "rate_limited" and refused["Retry-After"]


def test_a_deleted_event_has_no_standings(api, league):
    url = f"/api/v1/events/{league.event.slug}/standings/"
    assert api.get(url).status_code == 200
    Event.objects.filter(pk=league.event.pk).delete()
    assert api.get(url).status_code == 404


def test_a_division_has_its_own_cached_table(api, db):
    league = build_league(size=4, generate=False)
    first = events.add_division(league.organiser, league.event, "Primera")
    second = events.add_division(league.organiser, league.event, "Segunda")
    events.set_status(league.organiser, league.event, "registration")
    url = f"/api/v1/events/{league.event.slug}/standings/"
    assert [t["name"] for t in api.get(url).json()["tables"]] == ["Primera", "Segunda"]
    for division in (first, second, first):
        tables = api.get(url, {"division": division.pk}).json()["tables"]
        assert [t["division"] for t in tables] == [division.pk]


def test_draft_standings_are_never_cached_for_others(api, db):
    league = build_league(size=4)
    draft = events.create_event(league.organiser, league.club, name="Borrador")
    url = f"/api/v1/events/{draft.slug}/standings/"
    api.force_login(league.organiser)
    assert api.get(url).status_code == 200
    api.logout()
    assert api.get(url).status_code == 404


@pytest.mark.parametrize("path", ["matches", "entries", "results", "rounds", "events", "players"])
def test_lists_take_the_same_queries_whatever_the_page_size(api, path):
    league = build_league(size=8)
    for match in league.matches(1) + league.matches(2):
        play(league, match, 150, 40)
    for name in ("Copa", "Torneo", "Abierto"):
        event = events.create_event(league.organiser, league.club, name=name)
        events.set_status(league.organiser, event, "registration")
    url = f"/api/v1/{path}/"
    small, response = _queries(api, url, QUERY_STRING="page_size=1")
    assert len(response.json()["results"]) == 1
    large, response = _queries(api, url, QUERY_STRING="page_size=100")
    assert len(response.json()["results"]) >= 4
    assert small == large


def test_a_listed_match_reads_as_its_detail(api, db):
    league = build_league(size=5)  # an odd number: byes, whose entry_b is null
    first, second, third = league.matches(1)[:2] + league.matches(2)[:1]
    play(league, first, 150, 40)
    results.enter_result(league.players(second.entry_a)[0], second, game(90, 150))
    proposed = results.enter_result(league.players(third.entry_a)[0], third, game(150, 0))
    results.dispute_result(league.players(third.entry_b)[0], proposed, note="No")
    Match.objects.filter(pk=third.pk).update(venue="Sede", scheduled="2026-03-01T20:00:00Z")
    listed = api.get("/api/v1/matches/", {"page_size": 100}).json()["results"]
    assert len(listed) == Match.objects.count()
    assert any(m["entry_b"] is None for m in listed)
    assert {m["result"]["status"] for m in listed if m["result"]} == {
        "confirmed",
        "proposed",
        "disputed",
    }
    for row in listed:
        assert row == api.get(f"/api/v1/matches/{row['id']}/").json()
        assert set(row) == set(MatchSerializer.Meta.fields)


def test_the_redis_cache_keeps_one_client_per_pool(redis_layer):
    cache = caches["default"]
    assert isinstance(cache, RedisCache)  # with Redis, the cache is on it
    client = cache._cache.get_client(write=True)
    assert cache._cache.get_client(write=True) is client
    cache.set("api:test:client", b"kept")
    assert cache.get("api:test:client") == b"kept"
