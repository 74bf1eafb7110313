"""Read endpoints: public fields, drafts hidden, filters, stable pages, standings, hands."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from league.models import Match, Result
from league.services import events, results
from tests.engine.records import played_match
from tests.league.conftest import build_league, play

pytestmark = pytest.mark.django_db


def test_players_show_public_fields_only(api, league):
    body = api.get("/api/v1/players/", {"club__slug": league.club.slug}).json()
    assert body["count"] == 4 + 4 * 2
    assert set(body["results"][0]) == {"id", "display_name", "club", "country", "photo", "updated"}


def test_clubs_and_organisations(api, league):
    assert api.get("/api/v1/clubs/").json()["results"][0]["slug"] == league.club.slug
    detail = api.get(f"/api/v1/organisations/{league.club.slug}/").json()
    assert detail["kind"] == "club"


def test_drafts_are_listed_and_shown_to_their_organisers_only(api, league):
    draft = events.create_event(league.organiser, league.club, name="Borrador")
    slugs = [e["slug"] for e in api.get("/api/v1/events/").json()["results"]]
    assert league.event.slug in slugs and draft.slug not in slugs
    assert api.get(f"/api/v1/events/{draft.slug}/").status_code == 404
    api.force_login(league.organiser)
    assert api.get(f"/api/v1/events/{draft.slug}/").json()["status"] == "draft"
    slugs = [e["slug"] for e in api.get("/api/v1/events/").json()["results"]]
    assert draft.slug in slugs and league.event.slug in slugs


def test_fixtures_filter_by_event_and_round_with_stable_pages(api, league):
    url = "/api/v1/matches/"
    first = api.get(url, {"event": league.event.slug, "round": 1}).json()
    assert first["count"] == 2
    assert {m["round"] for m in first["results"]} == {1}
    seen = []
    page = api.get(url, {"event": league.event.slug, "page_size": 2, "ordering": "-table"}).json()
    while True:
        seen += [m["id"] for m in page["results"]]
        if not page["next"]:
            break
        page = api.get(page["next"]).json()
    assert sorted(seen) == sorted(
        Match.objects.filter(event=league.event).values_list("pk", flat=True)
    )
    assert len(seen) == len(set(seen))


def test_standings_carry_the_tiebreak_columns(api, league):
    play(league, league.matches(1)[0], 150, 40)
    body = api.get(f"/api/v1/events/{league.event.slug}/standings/").json()
    table = body["tables"][0]
    assert table["tiebreaks"] == league.event.tiebreaks
    top = table["standings"][0]
    assert (top["position"], top["won"], top["match_points"], top["point_difference"]) == (
        1,
        1,
        1,
        110,
    )
    assert {"games_won", "points_for", "lot", "tied", "form"} <= set(top)


def test_unknown_division_is_refused(api, league):
    url = f"/api/v1/events/{league.event.slug}/standings/"
    refused = api.get(url, {"division": 999999})
    assert refused.status_code == 400 and refused.json()["error"]["fields"]["division"]


def test_hand_records_of_a_played_match_come_with_their_rulings(api, league):
    records, played = played_match("tournament")
    a, b = played.scores
    entered = results.enter_result(
        league.organiser, league.matches(1)[0], [{"points_a": a, "points_b": b, "hands": records}]
    )
    hands = api.get(f"/api/v1/results/{entered.pk}/hands/").json()
    assert [hand["record"] for hand in hands] == records
    assert hands[-1]["ruling"]["valid"] is True and hands[-1]["ruling"]["scores_after"] == [a, b]
    listed = api.get("/api/v1/results/", {"event": league.event.slug}).json()["results"][0]
    assert listed["games"] == [{"points_a": a, "points_b": b, "hands": len(records)}]


def test_conditional_get_answers_304_until_the_data_changes(api, league):
    url = f"/api/v1/events/{league.event.slug}/standings/"
    first = api.get(url)
    etag, modified = first["ETag"], first["Last-Modified"]
    assert api.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert api.get(url, HTTP_IF_MODIFIED_SINCE=modified).status_code == 304
    play(league, league.matches(1)[0], 150, 40)
    changed = api.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert api.get(url, HTTP_IF_MODIFIED_SINCE=modified).status_code == 200


def test_reads_are_open_to_any_origin_and_writes_are_not(api, league):
    url = "/api/v1/events/"
    assert api.get(url, HTTP_ORIGIN="https://club.example")["Access-Control-Allow-Origin"] == "*"
    preflight = api.options(
        url, HTTP_ORIGIN="https://club.example", HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET"
    )
    assert preflight.status_code == 204
    assert "GET" in preflight["Access-Control-Allow-Methods"]
    post_preflight = api.options(
        url, HTTP_ORIGIN="https://club.example", HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST"
    )
    assert "Access-Control-Allow-Origin" not in post_preflight
    refused = api.post(url, {}, format="json", HTTP_ORIGIN="https://club.example")
    assert "Access-Control-Allow-Origin" not in refused


def test_errors_have_one_shape_and_speak_the_language(api, league):
    response = api.get("/api/v1/events/no-such-event/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def _count(api, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert api.get(url).status_code == 200
    return len(queries)


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/events/",
        "/api/v1/events/{event}/",
        "/api/v1/events/{event}/standings/",
        "/api/v1/matches/?event={event}",
        "/api/v1/entries/?event={event}",
        "/api/v1/results/?event={event}",
        "/api/v1/rounds/?event={event}",
        "/api/v1/players/",
        "/api/v1/organisations/",
    ],
)
def test_query_counts_do_not_grow_with_the_data(api, path):
    small = build_league(size=4, tag="s")
    large = build_league(size=12, tag="l")
    for league in (small, large):
        for match in league.matches(1) + league.matches(2):
            play(league, match, 150, 40)
    counts = [_count(api, path.format(event=lg.event.slug)) for lg in (small, large)]
    assert counts[0] == counts[1], counts
    assert (
        Result.objects.filter(match__event=large.event).count()
        > 2 * Result.objects.filter(match__event=small.event).count()
    )


@pytest.mark.parametrize(
    ("url", "status"),
    [
        ("/api/v1/organisations/%00/", 404),
        ("/api/v1/players/99999999999999999999999/", 404),
        ("/api/v1/events/?organisation=%00", 400),
        ("/api/v1/matches/?entry=-1e300", 400),
        ("/api/v1/events/{event}/standings/?division=%00", 400),
    ],
)
def test_odd_input_is_refused_not_a_server_error(api, league, url, status):
    assert api.get(url.format(event=league.event.slug)).status_code == status


def test_odd_leaderboard_filters_are_refused(api):
    from tests.ratings.conftest import build_pool

    pool = build_pool(players=4)
    url = f"/api/v1/ratings/{pool.pool.slug}/leaderboard/"
    assert api.get(url, {"club": "\x00"}).status_code == 400
    assert api.get(url, {"country": "DOM"}).status_code == 400
