"""What keeps reads fast: standings served from the cache as rendered bytes (a matching
If-None-Match costs no database query), and lists whose query count ignores the page size."""

from datetime import timedelta
from unittest import mock
from urllib.parse import urlencode

import pytest
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from rest_framework.throttling import SimpleRateThrottle

from api import http
from api.http import STANDINGS_PATH
from api.serializers import MatchSerializer
from api.views import EventViewSet, MatchViewSet
from core.cache import RedisCache
from league.models import Entry, Event, Match
from league.services import entries, events, fixtures, results
from tests.league.conftest import build_league, game, play

from .conftest import key_for, with_key

pytestmark = pytest.mark.django_db
FAST = "api.http.CachedAnswersMiddleware"


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
    fast = _same_either_way(settings, requests, mock.patch.object(EventViewSet, "standings"))
    assert [fast[n]["status"] for n in requests] == [200, 200, 200, 304, 304]


def _same_either_way(settings, requests: dict, view) -> dict:
    """Each request answered by the middleware (without a query, and without `view`), then
    by the view alone: the same status, bytes and headers."""
    fast = {}
    for name, request in requests.items():
        request()  # the view fills the cache where needed
        with view as called, CaptureQueriesContext(connection) as queries:
            called.side_effect = AssertionError
            fast[name] = _served(request)
        assert len(queries) == 0, name
    settings.MIDDLEWARE = [m for m in settings.MIDDLEWARE if m != FAST]
    viewed = {name: _served(request) for name, request in requests.items()}
    assert fast == viewed
    return fast


@pytest.mark.parametrize("asked", ASKED)
def test_kept_fixtures_answer_as_the_view_does(league, settings, asked):
    url = "/api/v1/matches/"
    wanted = {"event": league.event.slug, "round": 2}
    client = Client()
    first = client.get(url, wanted)
    assert first.json()["count"] == 2
    requests = {
        "get": lambda: client.get(url, wanted, **asked),
        "head": lambda: client.head(url, wanted, **asked),
        "page": lambda: client.get(url, {**wanted, "page_size": 1, "page": 2}, **asked),
        "304": lambda: client.get(url, wanted, HTTP_IF_NONE_MATCH=first["ETag"], **asked),
    }
    fast = _same_either_way(settings, requests, mock.patch.object(MatchViewSet, "list"))
    assert [fast[n]["status"] for n in requests] == [200, 200, 200, 304]
    assert fast["page"]["body"] != fast["get"]["body"]


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


def _kept_rows(api, wanted: dict) -> dict[int, dict]:
    """The fixtures' rows by id, asked twice: the second answer is the kept one (no query)."""
    assert api.get("/api/v1/matches/", wanted).status_code == 200
    count, response = _queries(api, "/api/v1/matches/", QUERY_STRING=urlencode(wanted))
    assert (count, response.status_code) == (0, 200)
    return {row["id"]: row for row in response.json()["results"]}


def test_kept_fixtures_follow_every_change(api, league):
    wanted = {"event": league.event.slug, "round": 1}
    first, second = league.matches(1)[:2]
    assert _kept_rows(api, wanted)[first.pk]["result"] is None
    proposed = results.enter_result(league.players(first.entry_a)[0], first, game(150, 40))
    assert _kept_rows(api, wanted)[first.pk]["result"]["status"] == "proposed"
    results.confirm_result(league.players(first.entry_b)[0], proposed)
    row = _kept_rows(api, wanted)[first.pk]
    assert (row["status"], row["result"]["status"], row["result"]["points_a"]) == (
        "played",
        "confirmed",
        150,
    )
    results.correct_result(league.organiser, first, game(150, 90), note="Mal anotado")
    assert _kept_rows(api, wanted)[first.pk]["result"]["points_b"] == 90
    when = timezone.now() + timedelta(days=3)
    fixtures.reschedule(league.organiser, second, when, venue="Sede Norte", table=7)
    row = _kept_rows(api, wanted)[second.pk]
    assert (row["venue"], row["table"], row["status"]) == ("Sede Norte", 7, "scheduled")
    fixtures.postpone(league.organiser, second)
    assert _kept_rows(api, wanted)[second.pk]["status"] == "postponed"
    entry = Entry.objects.get(pk=second.entry_a_id)
    entry.name = "Los de la Esquina"
    entry.save(update_fields=["name"])
    assert _kept_rows(api, wanted)[second.pk]["entry_a"]["name"] == "Los de la Esquina"
    events.set_status(league.organiser, league.event, "cancelled")
    Event.objects.filter(pk=league.event.pk).delete()
    gone = api.get("/api/v1/matches/", wanted)  # not the kept list: the event is unknown now
    assert gone.status_code == 400 and gone.json()["error"]["fields"]["event"]


def test_kept_fixtures_keep_each_address_apart(api, league, settings):
    """The page's links name the address it was asked at: another host, another answer."""
    settings.ALLOWED_HOSTS = ["testserver", "club.example"]
    wanted = {"event": league.event.slug, "page_size": 1}
    here = api.get("/api/v1/matches/", wanted).json()["next"]
    there = api.get("/api/v1/matches/", wanted, HTTP_HOST="club.example").json()["next"]
    assert here.startswith("http://testserver/") and there.startswith("http://club.example/")


@pytest.mark.django_db(transaction=True)
def test_a_result_committed_while_standings_are_kept_is_never_hidden(api, monkeypatch):
    """The worst interleaving: a result commits after the table was computed, just before
    it is kept. The table kept is not served; the next read computes the new one."""
    league = build_league(size=4)
    url = f"/api/v1/events/{league.event.slug}/standings/"
    match = league.matches(1)[0]
    keep = http.keep

    def keep_after_a_result(*args) -> None:
        monkeypatch.setattr(http, "keep", keep)
        play(league, match, 150, 40)  # committed: no transaction around it
        keep(*args)

    monkeypatch.setattr(http, "keep", keep_after_a_result)
    before = api.get(url).json()["tables"][0]["standings"]
    assert sum(row["won"] for row in before) == 0  # computed before the result
    count, after = _queries(api, url)
    assert count > 0 and sum(row["won"] for row in after.json()["tables"][0]["standings"]) == 1
    count, again = _queries(api, url)
    assert (count, again.content) == (0, after.content)


def test_divisions_kept_at_the_same_time_are_both_kept(api, db, monkeypatch):
    """A division's table kept while another's is being kept: neither drops the other."""
    league = build_league(size=4, generate=False)
    first = events.add_division(league.organiser, league.event, "Primera")
    second = events.add_division(league.organiser, league.event, "Segunda")
    events.set_status(league.organiser, league.event, "registration")
    url = f"/api/v1/events/{league.event.slug}/standings/"
    keep_validators = http.KEPT_INDEX.set

    def keeping_the_other_meanwhile(key, *args, **kwargs):
        if key.startswith("api:kept:") and key.endswith(f":{first.pk}"):
            monkeypatch.setattr(http.KEPT_INDEX, "set", keep_validators)
            assert api.get(url, {"division": second.pk}).status_code == 200
        return keep_validators(key, *args, **kwargs)

    monkeypatch.setattr(http.KEPT_INDEX, "set", keeping_the_other_meanwhile)
    assert api.get(url, {"division": first.pk}).status_code == 200
    for division in (first, second):
        count, kept = _queries(api, url, QUERY_STRING=f"division={division.pk}")
        assert (count, kept.json()["tables"][0]["division"]) == (0, division.pk)


def test_kept_answers_failing_leave_the_answer_to_the_api(league, monkeypatch):
    """The middleware runs before the API's error handling: a cache that fails there sends
    the request on, and the answer is the API's JSON error, not Django's HTML page."""
    url = f"/api/v1/events/{league.event.slug}/standings/"
    client = Client(raise_request_exception=False)
    assert client.get(url).status_code == 200

    def unavailable(*args, **kwargs):
        raise ConnectionError("Redis is down")

    monkeypatch.setattr(http.cache, "get_many", unavailable)
    response = client.get(url)
    assert response.status_code == 500
    assert response.json()["error"]["code"] == "server_error"


def test_kept_standings_are_not_served_to_a_host_the_site_does_not_serve(api, league):
    url = f"/api/v1/events/{league.event.slug}/standings/"
    assert api.get(url).status_code == 200  # kept now
    refused = api.get(url, HTTP_HOST="evil.example")
    assert refused.status_code == 400 and "ETag" not in refused
