"""A short arena in Chromium at 390×844 (#34): the organiser creates it with the event form,
a player joins with the page's button, the server (the web sweeper's autopilot steps, the
arena's clock sped up) seats the free players at live tables while bots play every seat,
the page links the player's table, shows the standings with each streak, and says when
the arena is over; nobody presses anything else."""

import random
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Table
from games.services import autopilot as live_autopilot
from league.models import ArenaGame, ArenaSpot, Autopilot, Event
from league.services import arena, events
from tests.conftest import in_thread
from tests.tournaments.conftest import PASSWORD, build, make_user
from tests.tournaments.test_browser import log_in, no_errors
from tests.tournaments.test_round_sheet import shot

from .conftest import bot_step

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

WIDTH, HEIGHT = 390, 844
FACTOR = 30  # the arena's 5 minutes last 10 seconds


def wait_for(condition, seconds: float, what: str) -> None:
    """Wait, asking the autopilots every 0.2 s as Celery beat would (its task's body)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        in_thread(live_autopilot.tick_all)  # off Playwright's event loop
        time.sleep(0.2)


def play_open_tables(event: Event, rng: random.Random) -> None:
    for table in Table.objects.filter(arena_game__event=event).exclude(
        status=Table.Status.FINISHED
    ):
        while table.status in (Table.Status.PLAYING, Table.Status.BETWEEN):
            bot_step(table, rng)
            table.refresh_from_db()


def test_a_short_arena_runs_itself_in_chromium(chromium, own_server, settings):
    settings.ARENA_CLOCK_FACTOR = FACTOR
    server = own_server(ARENA_CLOCK_FACTOR=str(FACTOR))
    data = build(Event.Format.SWISS, 0, tag="arb")
    context = chromium.new_context(locale="es-ES", viewport={"width": WIDTH, "height": HEIGHT})
    page = context.new_page()
    page.set_default_timeout(60000)

    # the organiser creates the arena with the event form
    log_in(page, server, data.organiser.username)
    page.goto(f"{server}/clubs/{data.club.slug}/events/new/?format=arena")
    page.fill("#id_name", "Arena de prueba")
    starts = timezone.localtime(timezone.now() + timedelta(minutes=10))
    page.fill("#id_arena_starts", starts.strftime("%Y-%m-%dT%H:%M"))
    page.fill("#id_arena_minutes", "5")
    page.fill("#id_rule_target", "1")
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    shot(page, "arena-form-390")
    page.click("#save-event")
    page.wait_for_url("**/manage/")
    no_errors(page)
    event = Event.objects.get(name="Arena de prueba")
    assert (event.format, event.mode) == (Event.Format.ARENA, Event.Mode.ONLINE)
    pilot = Autopilot.objects.get(event=event)
    assert pilot.arena_minutes == 5
    Event.objects.filter(pk=event.pk).update(rule_overrides={"target": 1, "turn_seconds": 60})
    in_thread(events.set_status, data.organiser, event, Event.Status.REGISTRATION)
    context.clear_cookies()

    # a player joins with the button; three more join too; the clock reaches the start
    players = [make_user(f"arb{i}", data.club, password=PASSWORD) for i in range(5)]
    log_in(page, server, players[0].username)
    page.goto(f"{server}{event.get_absolute_url()}")
    page.click("#arena-join")
    page.wait_for_selector("#arena-leave")
    no_errors(page)
    shot(page, "arena-joined-390")
    for user in players[1:]:
        in_thread(arena.join, user, event)
    Autopilot.objects.filter(pk=pilot.pk).update(starts=timezone.now())
    wait_for(lambda: ArenaGame.objects.filter(event=event).exists(), 30, "the first table")
    page.reload()
    link = page.locator("#arena-table")
    assert link.count() == 1 or ArenaSpot.objects.get(entry__player_1__user=players[0]).waiting
    shot(page, "arena-seated-390")
    if link.count():
        link.click()
        page.wait_for_url("**/play/t/**")
        shot(page, "arena-table-390")
        page.go_back()

    # the organiser, on the arena's page, gives it one more minute (two seconds at its speed);
    # the arena's clock is set so that it still runs however slowly the pages come
    Autopilot.objects.filter(pk=pilot.pk).update(
        round_deadline=timezone.now() + timedelta(seconds=60)
    )
    desk = chromium.new_context(locale="es-ES", viewport={"width": WIDTH, "height": HEIGHT})
    organiser = desk.new_page()
    log_in(organiser, server, data.organiser.username)
    organiser.goto(f"{server}{event.get_absolute_url()}")
    assert organiser.locator("#arena-controls #autopilot-pause").is_visible()
    deadline_before = Autopilot.objects.get(pk=pilot.pk).round_deadline
    organiser.fill("#arena-controls input[name=minutes]", "1")
    organiser.click("#autopilot-extend")
    organiser.wait_for_selector("#arena-controls")
    assert (
        Autopilot.objects.get(pk=pilot.pk).round_deadline
        == deadline_before + timedelta(minutes=1) / FACTOR
    )
    assert organiser.evaluate("document.documentElement.scrollWidth") <= WIDTH
    no_errors(organiser)
    shot(organiser, "arena-organiser-390")
    desk.close()
    Autopilot.objects.filter(pk=pilot.pk).update(
        round_deadline=timezone.now() + timedelta(minutes=5) / FACTOR  # its 5 minutes again
    )

    # bots play every seat until the arena's clock runs out and its last table ends
    rng = random.Random(34)
    deadline = time.monotonic() + 120
    while not Autopilot.objects.filter(pk=pilot.pk, finished__isnull=False).exists():
        assert time.monotonic() < deadline, "the arena did not finish"
        in_thread(play_open_tables, event, rng)
        in_thread(live_autopilot.tick_all)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    games = ArenaGame.objects.filter(event=event)
    assert games.count() >= 2 and not games.filter(ended__isnull=True).exists()
    ended = Autopilot.objects.get(pk=pilot.pk).round_deadline
    assert not games.filter(started__gt=ended).exists()  # no table opened after the end

    page.goto(f"{server}{event.get_absolute_url()}")
    page.wait_for_selector("#arena-standings")
    assert page.locator("#arena-join").count() == 0
    assert "La arena terminó." in page.locator(".arena-clock").inner_text()
    assert "racha (×2)" in page.locator("#arena").inner_text()
    rows = page.locator("#arena-standings tbody tr")
    assert rows.count() == 5
    best = max(spot.score for spot in ArenaSpot.objects.filter(event=event))
    assert rows.first.locator("td").nth(2).inner_text() == str(best)
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    no_errors(page)
    shot(page, "arena-over-390")
    context.close()
