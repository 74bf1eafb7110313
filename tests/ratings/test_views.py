"""Leaderboards and their filters, provisional ratings, the history chart, a match's changes."""

import re

import pytest
from django.test import override_settings
from django.urls import reverse

from demo import club as league_demo
from league.models import Event, Organisation, Player, Result
from league.ratings import services
from league.ratings.models import Rating, RatingPool


def rated(pool, rounds: int = 3):
    for _ in range(rounds):
        pool.play((0, 1, 2, 3), 2, 0)
        pool.play((4, 5, 6, 7), 0, 2)
    services.recalculate(pool.pool.pk)


def names(response) -> list[str]:
    return re.findall(r'<a href="/players/\d+/">([^<]+)</a>', response.content.decode())


@pytest.fixture
def mixed(pool):
    """Players 0–3 of another club, 4–7 of Brazil."""
    other = Organisation.objects.create(name="Club Otro", slug="club-otro", country="PR")
    Player.objects.filter(pk__in=[p.pk for p in pool.players[:4]]).update(club=other)
    Player.objects.filter(pk__in=[p.pk for p in pool.players[4:]]).update(country="BR")
    rated(pool)
    return pool, other


@pytest.mark.django_db
def test_the_leaderboard_ranks_by_the_conservative_rating(client, mixed):
    pool, _other = mixed
    response = client.get(pool.pool.get_absolute_url())
    assert response.status_code == 200
    shown = names(response)
    expected = [r.player.display_name for r in services.leaderboard(pool.pool)]
    assert shown == expected and len(shown) == 8
    best = Rating.objects.filter(pool=pool.pool).order_by("-ordinal").first()
    assert f"{best.ordinal:.1f}".replace(".", ",") in response.content.decode()  # es format


@pytest.mark.django_db
def test_filters_by_club_and_by_country(client, mixed):
    pool, other = mixed
    url = pool.pool.get_absolute_url()
    by_club = names(client.get(url, {"club": other.pk}))
    assert sorted(by_club) == sorted(p.display_name for p in pool.players[:4])
    by_country = names(client.get(url, {"country": "BR"}))
    assert sorted(by_country) == sorted(p.display_name for p in pool.players[4:])
    assert names(client.get(url, {"club": other.pk, "country": "BR"})) == []


@pytest.mark.django_db
def test_bad_filters_are_refused_and_nothing_breaks(client, mixed):
    pool, _other = mixed
    url = pool.pool.get_absolute_url()
    for bad in ({"club": "x"}, {"club": "999999"}, {"country": "<script>"}, {"page": "-3"}):
        response = client.get(url, bad)
        assert response.status_code == 200
        assert len(names(response)) == 8
    assert client.get(reverse("ratings:leaderboard", args=["nope"])).status_code == 404


@pytest.mark.django_db
def test_provisional_below_the_set_number_of_matches(client, pool):
    rated(pool, rounds=3)
    url = pool.pool.get_absolute_url()
    with override_settings(RATINGS_PROVISIONAL_MATCHES=4):
        assert client.get(url).content.decode().count('class="provisional"') == 8
    with override_settings(RATINGS_PROVISIONAL_MATCHES=3):
        assert 'class="provisional"' not in client.get(url).content.decode()
        assert not Rating.objects.filter(pool=pool.pool).first().provisional


@pytest.mark.django_db
def test_the_player_page_plots_the_rating_history(client, pool):
    rated(pool, rounds=4)
    player = pool.players[0]
    page = client.get(player.get_absolute_url()).content.decode()
    assert "<svg" in page and 'class="rating-chart"' in page
    points = re.search(r'<polyline points="([^"]+)"', page).group(1).split()
    assert len(points) == 5  # before the first match, then after each of the four
    heights = [float(p.split(",")[1]) for p in points]
    assert heights == sorted(heights, reverse=True)  # four wins: always up (y grows down)
    assert "http" not in page.split('class="rating-chart"')[1].split("</svg>")[0]


@pytest.mark.django_db
def test_the_match_page_shows_each_players_change(client, pool):
    pool.event.status = Event.Status.RUNNING
    pool.event.save()
    match = pool.play((0, 1, 2, 3), 2, 0)
    services.recalculate(pool.pool.pk)
    page = client.get(match.get_absolute_url()).content.decode()
    assert "+" + f"{services.match_changes(match)[0].delta:.1f}".replace(".", ",") in page
    assert [c.side for c in services.match_changes(match)] == ["a", "a", "b", "b"]
    assert all(c.delta > 0 for c in services.match_changes(match)[:2])
    # the losers' change (and a rating below 0) written with the minus sign, not a hyphen
    lost = f"{-services.match_changes(match)[2].delta:.1f}".replace(".", ",")
    assert f'<td class="num">−{lost}</td>' in page and f">-{lost}<" not in page
    assert not re.search(r'<td class="num">-\d', page)


@pytest.mark.django_db
def test_the_rankings_page_lists_the_pools(client, pool):
    rated(pool, rounds=1)
    services.global_pool()
    page = client.get(reverse("ratings:pools")).content.decode()
    assert pool.pool.name in page and pool.pool.get_absolute_url() in page


@pytest.mark.django_db
def test_the_demo_rates_the_demo_clubs_leagues(client):
    assert league_demo.run()
    pool = RatingPool.objects.get(organisation__slug=league_demo.CLUB_SLUG)
    leagues = Event.objects.filter(organisation=pool.organisation, format=Event.Format.LEAGUE)
    assert leagues.count() == 2 and all(services.pool_of(event) == pool for event in leagues)
    counted = Result.objects.filter(match__event__in=leagues, status="confirmed")
    players = {p for r in counted for e in (r.match.entry_a, r.match.entry_b) for p in e.players}
    ratings = Rating.objects.filter(pool=pool)
    assert {r.player for r in ratings} == players and len(players) == 16
    assert all(r.provisional for r in ratings)
    assert not services.pending(pool.pk)
    assert "Ana Rosario" in client.get(pool.get_absolute_url()).content.decode()
