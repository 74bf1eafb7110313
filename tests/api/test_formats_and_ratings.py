"""Tournament formats' standings and brackets, and the ratings' leaderboards and histories."""

import pytest

from league.models import Event, Match
from league.ratings import services as ratings
from league.tournaments.services import brackets, individual, swiss
from tests.ratings.conftest import build_pool
from tests.tournaments.conftest import build, play

pytestmark = pytest.mark.django_db


def test_swiss_standings_are_the_tournaments_table(api):
    data = build(Event.Format.SWISS, 5)
    swiss.pair_round(data.organiser, data.event)
    swiss.publish(data.organiser, data.event)
    for match in Match.objects.filter(event=data.event, entry_b__isnull=False):
        play(data, match)
    table = api.get(f"/api/v1/events/{data.event.slug}/standings/").json()["tables"][0]
    rows = table["standings"]
    assert len(rows) == 5
    assert sum(r["won"] for r in rows) == 3  # two played matches and the bye
    assert [r["position"] for r in rows] == sorted(r["position"] for r in rows)


def test_individual_standings_carry_scores(api):
    data = build(Event.Format.INDIVIDUAL, 8)
    individual.seat_round(data.organiser, data.event)
    rows = api.get(f"/api/v1/events/{data.event.slug}/standings/").json()["tables"][0]["standings"]
    assert len(rows) == 8 and {"score", "sat_out"} <= set(rows[0])


def test_the_bracket_is_read_slot_by_slot(api):
    data = build(Event.Format.SINGLE_ELIMINATION, 6, third_place=True)
    brackets.create_bracket(data.organiser, data.event)
    body = api.get(f"/api/v1/events/{data.event.slug}/bracket/").json()
    assert body["kind"] == "single" and body["third_place"] is True
    played = [slot for slot in body["slots"] if slot["match"] is not None]
    assert len(played) == 2 and all(s["home"] and s["away"] for s in played)
    league = build(Event.Format.LEAGUE, 4, tag="l")
    assert api.get(f"/api/v1/events/{league.event.slug}/bracket/").status_code == 404


def test_leaderboards_and_rating_histories(api):
    pool = build_pool(players=8)
    for four, a, b in [((0, 1, 2, 3), 2, 0), ((4, 5, 6, 7), 1, 2), ((0, 1, 4, 5), 2, 1)]:
        pool.play(four, a, b)
    ratings.recalculate(pool.pool.pk)
    assert api.get("/api/v1/ratings/").json()["results"][0]["slug"] == pool.pool.slug
    url = f"/api/v1/ratings/{pool.pool.slug}/leaderboard/"
    board = api.get(url, {"page_size": 3}).json()
    assert board["count"] == 8
    assert [row["position"] for row in board["results"]] == [1, 2, 3]
    assert board["results"][0]["player"]["id"] in {pool.players[0].pk, pool.players[1].pk}
    second = api.get(board["next"]).json()["results"]
    assert second[0]["position"] == 4
    ranked = [r["rating"] for r in board["results"] + second]
    assert ranked == sorted(ranked, reverse=True)
    assert api.get(url, {"club": pool.event.organisation.slug}).json()["count"] == 8
    unknown = api.get(url, {"club": "nowhere"})
    assert unknown.status_code == 400 and unknown.json()["error"]["fields"]["club"]
    history = api.get(f"/api/v1/players/{pool.players[0].pk}/ratings/").json()
    assert history[0]["pool"] == pool.pool.slug
    assert history[0]["matches"] == 2 and len(history[0]["values"]) == 3
