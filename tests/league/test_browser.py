"""In Chromium: an organiser creates a league of six pairs through the pages, enters the
results (an organiser's entry counts at once), and the standings show the expected order."""

import re

import pytest
from django.contrib.auth import get_user_model

from league.models import Membership, Organisation, Player, Result
from tests.conftest import in_thread

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]
PASSWORD = "doble-seis-66"
PAIRS = [(f"Jugador {i}A", f"Jugador {i}B") for i in range(1, 7)]


def setup_club() -> Organisation:
    club = Organisation.objects.create(name="Club Navegador", slug="club-navegador")
    for username in ("olga", "raul"):
        user = get_user_model().objects.create_user(username, f"{username}@example.com", PASSWORD)
        Player.objects.create(user=user, display_name=username.title(), club=club)
        Membership.objects.create(organisation=club, user=user, role=Membership.Role.ORGANISER)
    for first, second in PAIRS:
        Player.objects.create(display_name=first, club=club)
        Player.objects.create(display_name=second, club=club)
    return club


def log_in(page, base: str, username: str) -> None:
    page.goto(base + "/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(base + "/dashboard/")


def test_organiser_runs_a_league_and_the_standings_follow(page, asgi_server):
    base = asgi_server
    club = in_thread(setup_club)
    log_in(page, base, "olga")

    page.goto(f"{base}/clubs/{club.slug}/events/new/")
    page.click("a[data-format=league]")  # the format first, then its fields
    page.fill("#id_name", "Liga del Navegador")
    page.select_option("#id_rule_preset", "tournament")
    page.click("#save-event")
    page.wait_for_url(re.compile(r".*/events/liga-del-navegador/manage/$"))
    for first, second in PAIRS:
        page.fill("#id_player_1_0", first)  # names on the club's roster
        page.fill("#id_player_2_0", second)
        page.click("#entry-form button[type=submit]")
        page.wait_for_selector(f"td:has-text('{first} / {second}')")
    page.click("#generate")
    page.wait_for_url(re.compile(r".*/events/liga-del-navegador/$"))
    assert page.locator(".round").count() == 5
    round_one = page.locator(".round").first.locator(".fixture .score")
    match_urls = [round_one.nth(i).get_attribute("href") for i in range(round_one.count())]
    assert len(match_urls) == 3

    # Olga enters round 1: the side with the lower pair number wins, by 90, 60 and 30.
    margins = {}
    for url, margin in zip(match_urls, (90, 60, 30), strict=True):
        page.goto(base + url)
        a = page.locator(".match-head .side.a strong").inner_text()
        b = page.locator(".match-head .side.b strong").inner_text()
        a_wins = a < b
        page.fill("#id_game_1_a", str(100 if a_wins else 100 - margin))
        page.fill("#id_game_1_b", str(100 - margin if a_wins else 100))
        page.click("#result-form button[type=submit]")
        page.wait_for_selector("#result-status.ok")  # confirmed at once: no second login
        assert page.locator("#confirm-result").count() == 0
        # the correction form starts from the current score
        assert page.input_value("#correct-form #id_game_1_a") == str(
            100 if a_wins else 100 - margin
        )
        assert page.input_value("#correct-form #id_game_1_hands") == ""  # never "null"
        margins[a], margins[b] = (margin, -margin) if a_wins else (-margin, margin)

    assert in_thread(lambda: Result.objects.filter(status="confirmed").count()) == 3
    assert in_thread(
        lambda: set(Result.objects.values_list("confirmed_by__username", flat=True))
    ) == {"olga"}

    page.goto(f"{base}/events/liga-del-navegador/standings/")
    shown = page.locator("table.standings tbody tr").evaluate_all(
        "rows => rows.map(r => r.dataset.entry)"
    )
    expected = sorted(margins, key=lambda name: -margins[name])
    assert shown == expected
    assert page.locator("svg.position-chart polyline").count() == 6
