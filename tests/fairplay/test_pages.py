"""The referees' fair-play queue in Chromium, and nobody else seeing any of it.

A competition table's colluding pair is flagged by the real detector; the event's referee
finds the case, reads the evidence, follows a link into the hand's replay and clears the
case with a note (the audit log keeps it). The players, partners and opponents are told the
pages do not exist, and nothing of the case reaches their pages, the API or a message."""

from pathlib import Path

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from games.fairplay import services
from games.fairplay.models import Case
from games.models import Table
from league.models import AuditEntry
from tests.conftest import in_thread
from tests.league.conftest import build_league
from tests.live.conftest import make_players

from .conftest import FAST, FLAGGED_HANDS, make_table, play_and_store

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "juez-de-mesa-7"
SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
SHOTS.mkdir(parents=True, exist_ok=True)
TITLES = {"es": "Cola de juego limpio", "pt-BR": "Fila de jogo limpo", "en": "Fair-play queue"}


def flagged_case():
    """A league's competition table where seats 0 and 2 share their tiles."""
    league = build_league(size=2, tag="fp")
    users = make_players(4, "f")
    table = make_table(users, kind=Table.Kind.FIXTURE, fixture=league.matches(1)[0])
    with override_settings(FAIRPLAY=FAST):
        for hand in play_and_store(table, users, FLAGGED_HANDS, seed=1, colluders=(0, 2)):
            services.check_hand(hand.pk)
    league.referee.set_password(PASSWORD)
    league.referee.save()
    return league, users, Case.objects.get(kind=Case.Kind.PARTNERSHIP)


def test_nobody_but_the_referees_sees_a_case():
    league, users, case = in_thread(flagged_case)
    pages = [
        reverse("fairplay_queue"),
        reverse("fairplay_case", args=[case.pk]),
    ]
    for user in [*users, league.organiser]:  # both pairs, and an organiser who is no referee
        client = Client()
        client.force_login(user)
        for page in pages:
            assert client.get(page).status_code == 404
        assert (
            client.post(
                reverse("fairplay_decide", args=[case.pk]), {"outcome": "clear", "note": "x"}
            ).status_code
            == 404
        )
        profile = client.get(reverse("player_statistics", args=[user.player.pk]))
        api = client.get(f"/api/v1/players/{user.player.pk}/statistics/")
        hand = client.get(reverse("hand", args=[case_table(case), 1]))
        for answer in (profile, api, hand):
            text = answer.content.decode().lower()
            assert "fair" not in text and "limpio" not in text and "jogo limpo" not in text
    # The one who is both a referee and a player of the case does not see it either.
    referee = Client()
    referee.force_login(league.referee)
    assert referee.get(pages[1]).status_code == 200
    in_thread(lambda: case.__class__.objects.filter(pk=case.pk).update(partner=league.referee))
    assert referee.get(pages[1]).status_code == 404
    assert in_thread(lambda: Case.objects.get(pk=case.pk).status) == Case.Status.OPEN


def case_table(case) -> str:
    decision = services.evidence(case)[0]
    return decision.hand.table.code


def shot(page, path) -> None:
    page.screenshot(path=str(path), full_page=True)
    (SHOTS / path.name).write_bytes(path.read_bytes())  # kept to be looked at


@pytest.mark.parametrize("size", [(390, 844), (1366, 768)])
def test_the_referee_reviews_and_clears_a_case(chromium, asgi_server, log_dir, size):
    league, users, case = in_thread(flagged_case)
    table_code = in_thread(case_table, case)
    for language in ("es", "pt-BR", "en"):
        context = chromium.new_context(
            locale=language, viewport={"width": size[0], "height": size[1]}
        )
        page = context.new_page()
        page.goto(asgi_server + "/accounts/login/")
        page.fill("#id_username", league.referee.username)
        page.fill("#id_password", PASSWORD)
        page.click("main form button[type=submit]")
        page.wait_for_url("**/dashboard/")
        page.goto(asgi_server + "/fairplay/")
        assert page.inner_text("h1") == TITLES[language]
        assert page.locator(".fairplay-queue tbody tr").count() == 1
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
        shot(page, log_dir / f"fairplay-queue-{language}-{size[0]}.png")
        page.click(".fairplay-queue tbody a")
        page.wait_for_selector(".fairplay-evidence")
        rows = page.locator(".fairplay-evidence tbody tr")
        assert rows.count() >= 8 and page.locator(".fairplay-evidence tr.costly").count() >= 8
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
        shot(page, log_dir / f"fairplay-case-{language}-{size[0]}.png")
        link = rows.first.locator("a")
        assert table_code in link.get_attribute("href")
        if language == "en":
            with page.expect_navigation():
                link.click()
            assert "/hands/" in page.url and page.locator("#slider").count() == 1
            page.go_back()
            page.check("input[value=clear]")
            page.fill("#id_note", "Reviewed the hands: the pair plays strong, honest dominoes.")
            page.click("form.stack button[type=submit]")
            page.wait_for_selector("blockquote")
            assert "honest dominoes" in page.inner_text("blockquote")
            shot(page, log_dir / f"fairplay-cleared-{size[0]}.png")
        context.close()
    entry = in_thread(AuditEntry.objects.get, target=f"case:{case.pk}")
    assert entry.action == "fairplay.clear" and entry.actor_id == league.referee.pk
    assert entry.after["note"].startswith("Reviewed the hands")
    assert in_thread(lambda: Case.objects.get(pk=case.pk).status) == Case.Status.CLEARED
