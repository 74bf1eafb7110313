"""What keeps reads fast: standings served from the cache as rendered bytes (a matching
If-None-Match costs no database query), and lists whose query count ignores the page size."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from league.api.serializers import MatchSerializer
from league.models import Match
from league.services import entries, events, results
from tests.league.conftest import build_league, game, play

pytestmark = pytest.mark.django_db


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
