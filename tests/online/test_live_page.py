"""The live page of an online event (#34 item 3, and its "Done when"): in a real Chromium at
390×844 against the real ASGI server, an online Swiss of 8 players runs from check-in to
podium with no organiser action, and one of its players follows it on the live page: the
round clock, "Go to your table" the moment the table opens (and the notification), every
table with its score and a link to watch it, the standings as each round ends, the podium.
The other seven players are bots that play through the table services; a thread stands in
for Celery beat, asking the autopilot every half second."""

import threading
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone

from games.models import Table
from games.services import autopilot as live_autopilot
from league.models import AuditEntry, Autopilot, Event, Notification
from league.services import entries
from tests.conftest import in_thread
from tests.tournaments.conftest import PASSWORD
from tests.tournaments.test_browser import log_in

from .conftest import configure, online_event, play_tables

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

SHOTS = Path(__file__).resolve().parents[2] / "var" / "test" / "screenshots"


class Beat(threading.Thread):
    """Celery beat's stand-in: every running autopilot asked every half second."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.done = threading.Event()

    def run(self) -> None:
        try:
            while not self.done.wait(0.5):
                live_autopilot.tick_all()
        finally:
            connection.close()


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"live-{name}.png"), full_page=True)


def setup_event():
    data = online_event(Event.Format.SWISS, 4, tag="lv", rounds=3)
    configure(data, pause_seconds=2, round_minutes=30)
    player = data.entries[0].player_1.user
    player.set_password(PASSWORD)
    player.save()
    for entry in data.entries[1:]:  # the bots check in for themselves
        entries.check_in(entry.player_1.user, entry)
    return data, player


def start_in(data, seconds: float) -> None:
    """The clock moved on: the start `seconds` from now (the check-in window still open)."""
    Autopilot.objects.filter(event=data.event).update(
        starts=timezone.now() + timedelta(seconds=seconds)
    )


def round_open(event: Event, number: int) -> bool:
    return Table.objects.filter(fixture__event=event, fixture__round__number=number).count() == 2


def test_a_player_follows_an_online_swiss_from_check_in_to_podium(chromium, asgi_server, rng):
    data, player = in_thread(setup_event)
    event = data.event
    context = chromium.new_context(locale="es-ES", viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(30000)
    # a spectator, signed out, on a laptop in Portuguese
    watching = chromium.new_context(locale="pt-BR", viewport={"width": 1366, "height": 768})
    spectator = watching.new_page()
    spectator.set_default_timeout(30000)
    beat = Beat()
    try:
        log_in(page, asgi_server, player.username)
        page.goto(f"{asgi_server}/events/{event.slug}/live/")
        assert page.locator("#clock h2").inner_text() == "Confirmación de asistencia abierta"
        assert "mano en juego" in page.locator("#deadline-rule").inner_text()
        page.click("#check-in")
        page.wait_for_selector("#checked-in")
        shot(page, "check-in")
        assert in_thread(lambda: event.entries.filter(checked_in__isnull=True).count()) == 0

        in_thread(start_in, data, 3)
        beat.start()
        for number in (1, 2, 3):
            # the table opens: highlighted, with its link, before anyone has played
            go = page.locator("#go-to-table")
            go.wait_for(timeout=30000)
            table = in_thread(
                Table.objects.get, fixture__event=event, seats__user=player, status="playing"
            )
            assert go.get_attribute("href") == f"/play/t/{table.code}/"
            assert page.locator("#clock h2").inner_text() == f"Ronda {number}"
            left = page.locator("#round-clock").inner_text()
            minutes, seconds = left.split(":")
            assert 28 <= int(minutes) <= 29 and 0 <= int(seconds) < 60, left
            watch = page.locator("#tables .live-table:not(.mine) a")
            assert watch.count() == 1 and watch.inner_text() == "Mirar"
            assert in_thread(
                Notification.objects.filter(user=player, url=f"/play/t/{table.code}/").exists
            )
            if number == 1:
                shot(page, "round-1")
                spectator.goto(f"{asgi_server}/events/{event.slug}/live/")
                assert spectator.locator("#clock h2").inner_text() == "Rodada 1"
                assert spectator.locator("#go-to-table").count() == 0
                links = spectator.locator("#tables .live-table a")
                assert [links.nth(i).inner_text() for i in range(2)] == ["Assistir"] * 2
                spectator.screenshot(path=str(SHOTS / "live-spectator-1366.png"), full_page=True)
                page.click("#go-to-table")  # the table's own page, then back
                page.wait_for_url(f"{asgi_server}/play/t/{table.code}/")
                page.go_back()
            in_thread(play_tables, event, rng)  # the bots play every seat to the end
            # the standings follow the round's results, without reloading the page
            played = page.locator("#live-standings tbody tr td:nth-child(3)")
            page.wait_for_function(
                "n => [...document.querySelectorAll('#live-standings tbody tr td:nth-child(3)')]"
                ".every(td => td.textContent.trim() === String(n))",
                arg=number,
            )
            assert played.count() == 4
            if number == 1:
                shot(page, "round-1-over")
        page.wait_for_selector("#podium")
        shot(page, "podium")
        spectator.wait_for_selector("#podium")
        spectator.screenshot(path=str(SHOTS / "live-spectator-podium-1366.png"), full_page=True)
        assert page.locator("#podium li").count() == 3
        assert page.locator("#clock h2").inner_text() == "El evento ha terminado"
    finally:
        beat.done.set()
        if beat.is_alive():
            beat.join(10)
        context.close()
        watching.close()
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    # nobody organised anything after the settings: every step was the autopilot's own
    organiser_actions = in_thread(
        lambda: (
            AuditEntry.objects.filter(event=event, actor=data.organiser)
            .exclude(action__in=["event.create", "autopilot.configure", "entry.register"])
            .exclude(action__startswith="event.")
            .count()
        )
    )
    assert organiser_actions == 0
