"""The table page in Chromium: four browsers play a hand, a spectator watches."""

import contextlib
import random

import pytest
from django.conf import settings
from django.db import connection
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from games.models import Hand, Table
from tests.conftest import in_thread

from .conftest import SHORT, full_table, make_players, play_step, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


def no_query(execute, sql, params, many, context):
    raise AssertionError(f"a query in the test's thread: {sql}")


def open_page(chromium, base: str, table: Table, user=None, phone: bool = False, size: tuple = ()):
    """A page of the table in a browser context of its own, signed in as `user` if given.

    The session is made in a thread of its own (no query is allowed in this one): an ORM
    call in the test's thread, where Playwright keeps its loop, leaves a connection open
    that holds the test database to the end of the session.
    """
    width, height = size or ((390, 844) if phone else (1100, 850))
    viewport = {"width": width, "height": height}
    context = chromium.new_context(locale="es-ES", viewport=viewport)
    if user is not None:
        with connection.execute_wrapper(no_query):
            value = in_thread(session_cookie, user).split("=", 1)[1]
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": value, "url": base}])
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{base}/play/t/{table.code}/")
    page.wait_for_selector(".seat[data-pos=bottom] .name")
    return page


def click(locator) -> None:
    """Click unless the page re-rendered it away meanwhile (an update arrived)."""
    with contextlib.suppress(PlaywrightTimeout):
        locator.click(timeout=2000)


def take_turn(page, also: tuple = ()) -> bool:
    """Play the first playable tile (and its first place) or pass (or `also`'s actions:
    "draw"), then wait for the table to move on; False if it is not this page's turn."""
    version = page.get_attribute("#table-app", "data-version")
    tiles = page.locator("#my-hand .tile.playable")
    if tiles.count():
        click(tiles.first)
        places = page.locator("#controls button[data-action*='@']")
        if places.count():
            click(places.first)
    else:
        kinds = ("pass", "points", *also)
        buttons = page.locator(", ".join(f"#controls button[data-action={k}]" for k in kinds))
        if not buttons.count():
            return False
        click(buttons.first)
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(
            f"document.getElementById('table-app').dataset.version !== '{version}'", timeout=5000
        )
    return True


VERSION = "document.getElementById('table-app').dataset.version"


def test_four_browsers_play_a_hand_and_a_spectator_watches(chromium, asgi_server):
    players = in_thread(make_players)  # not the fixture: no query in this thread (open_page)
    table = in_thread(full_table, players, SHORT)
    pages = [
        open_page(chromium, asgi_server, table, user, phone=(i == 3))
        for i, user in enumerate(players)
    ]
    spectator = open_page(chromium, asgi_server, table)
    assert spectator.locator("#my-hand .domino").count() == 0
    assert pages[0].locator("#my-hand .domino").count() == 7
    for _ in range(400):
        if spectator.locator("#result").is_visible():
            break
        if not any(take_turn(page) for page in pages):
            pages[0].wait_for_timeout(100)
        assert spectator.locator("#my-hand .domino").count() == 0
    spectator.wait_for_selector("#result .revealed-seat")
    assert spectator.locator("#result .revealed-seat").count() == 4
    assert spectator.locator("#board .domino").count() >= 2
    for page in pages:
        page.wait_for_selector("#result h2")
    assert in_thread(lambda: Hand.objects.filter(table=table).count()) == 1
    for page in [*pages, spectator]:
        page.context.close()


def test_next_hand_starts_when_all_press_next(chromium, asgi_server):
    players = in_thread(make_players)
    table = in_thread(full_table, players, {"preset": "dominican", "target": 400})
    pages = [open_page(chromium, asgi_server, table, user) for user in players]
    for _ in range(400):
        if pages[0].locator("#next-hand").count():
            break
        if not any(take_turn(page) for page in pages):
            pages[0].wait_for_timeout(100)
    for i, page in enumerate(pages):
        if i:  # the press before this one drawn here too: no update redraws the button mid-click
            version = pages[i - 1].evaluate(VERSION)
            page.wait_for_function(f"{VERSION} === '{version}'")
        page.click("#next-hand")
        page.wait_for_selector("#next-hand", state="hidden")  # the press arrived
    for page in pages:
        page.wait_for_function("document.querySelector('#hand-number').textContent.includes('2')")
        assert page.locator("#my-hand .domino").count() == 7
    for page in pages:
        page.context.close()


def played_to_hand_end(players) -> Table:
    """A table whose first hand was played through the services: between hands."""
    table = full_table(players, {"preset": "dominican", "target": 400})
    rng = random.Random(3)
    while table.status != Table.Status.BETWEEN:
        play_step(table, rng)
        table = Table.objects.get(pk=table.pk)
    return table


def test_an_update_between_hands_keeps_the_result_and_the_next_button(chromium, asgi_server):
    """Updates keep coming between hands: each seat's press redraws who is ready, never the
    reckoning nor the viewer's button, which a press in the middle of a click would lose."""
    players = in_thread(make_players)
    table = in_thread(played_to_hand_end, players)
    pages = [open_page(chromium, asgi_server, table, user) for user in players[:2]]
    first = pages[0]
    first.wait_for_selector("#next-hand")
    first.evaluate("document.getElementById('next-hand').dataset.kept = 'yes'")
    first.evaluate("document.querySelector('#result h2').dataset.kept = 'yes'")
    ready = first.locator("#result .between p").first
    assert ready.text_content() == "Listos: 0 de 4."
    pages[1].click("#next-hand")
    pages[1].wait_for_selector("#next-hand", state="hidden")
    first.wait_for_function(
        "document.querySelector('#result .between p').textContent.includes('1')"
    )
    assert first.get_attribute("#next-hand", "data-kept") == "yes"
    assert first.get_attribute("#result h2", "data-kept") == "yes"
    first.click("#next-hand")
    first.wait_for_selector("#next-hand", state="detached")
    assert ready.text_content() == "Listos: 2 de 4."
    assert in_thread(lambda: Table.objects.get(pk=table.pk).ready) == [0, 1]
    for page in pages:
        page.context.close()
