"""The table page in Chromium, as a player sees it: a hand of every preset against bots on
a phone and on a laptop, the line always inside the board, the reckoning adding up, a seat
taken back from a bot, and the Brazilian spinner with its four arms.

Screenshots of the middle and the end of each hand go to test-results/table/ (not kept in
the repository) for a person to look at.
"""

import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone

from games.engine import apply, legal_actions, new_hand, rules_from_spec, to_record
from games.models import Seat, Table
from games.services import tables
from tests.conftest import BASE_DIR, in_thread

from .conftest import make_players, session_cookie
from .test_table_page import click, no_query

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = BASE_DIR / "test-results" / "table"
SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1366, "height": 768}}
NARROW = {"narrow": {"width": 320, "height": 640}}
PRESETS = ["dominican", "brazilian", "tournament", "latin", "vog"]

# Every tile of the line inside the board's box (a pixel of rounding allowed).
OUTSIDE = """() => {
  const board = document.getElementById('board').getBoundingClientRect();
  const out = [];
  document.querySelectorAll('#board .domino').forEach((tile) => {
    const r = tile.getBoundingClientRect();
    if (r.left < board.left - 1 || r.top < board.top - 1 || r.right > board.right + 1
        || r.bottom > board.bottom + 1) out.push(tile.dataset.tile);
  });
  return out;
}"""
# No two tiles of the line overlap.
OVERLAPS = """() => {
  const tiles = [...document.querySelectorAll('#board .domino')];
  const boxes = tiles.map((t) => t.getBoundingClientRect());
  let n = 0;
  boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => {
    if (Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1.5
        && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1.5) n += 1;
  }));
  return n;
}"""


# Focus the hand's tab stop in one step of the page, so that a redraw between finding the
# tile and focusing it cannot leave the focus on a detached tile.
FOCUS_TILE = """() => {
  const tile = document.querySelector("#my-hand .tile.playable[tabindex='0']");
  if (tile) { tile.focus(); return document.activeElement === tile && "tile"; }
  return document.querySelector("#result h2") ? "ended" : false;
}"""


def table_with_bots(user, rules) -> Table:
    """A private table: `user` in seat 0, bots in the others; the hand is dealt."""
    table = tables.create_table(host=user, rules=rules)
    tables.sit(table.pk, user, 0)
    for seat in (1, 2, 3):
        tables.add_bot(table.pk, user, seat)
    return Table.objects.get(pk=table.pk)


def open_table(chromium, base: str, table: Table, user, size: str | dict):
    """The table's page at a named size or a viewport, signed in as `user` if given."""
    viewport = size if isinstance(size, dict) else {**SIZES, **NARROW}[size]
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


def assert_line_fits(page) -> None:
    assert page.evaluate(OUTSIDE) == []
    assert page.evaluate(OVERLAPS) == 0


def my_turn(page, how: str, meanwhile=None) -> bool:
    """Play a tile or pass; a tile that fits several ends goes on a lit end of the board
    (`how` = "board"), by the fallback buttons ("buttons"), or all by keyboard ("keys":
    arrows to a tile, Enter, Enter again on the lit end that has the focus).

    `meanwhile(page)`, if given, runs while such a tile waits for its end: the choice (and
    the focus on its end) must outlast what it does."""
    version = page.get_attribute("#table-app", "data-version")
    tiles = page.locator("#my-hand .tile.playable")
    if tiles.count():
        if how == "keys":
            if page.wait_for_function(FOCUS_TILE).json_value() == "ended":
                return True  # the hand ended as the page redrew (the loop reads the result)
            page.keyboard.press("ArrowRight")
            page.keyboard.press("ArrowLeft")
            page.keyboard.press("Enter")
        else:
            click(tiles.first)
        places = page.locator("#controls button[data-action*='@']")
        if places.count():
            lit = page.locator("#board .end-target.lit")
            assert lit.count() == places.count() >= 2  # every end the tile fits lights up
            if meanwhile is not None:
                chosen = lit.count()
                meanwhile(page)
                assert lit.count() == places.count() == chosen
            if how == "keys":
                assert page.evaluate("document.activeElement.classList.contains('lit')")
                page.keyboard.press("Enter")
            else:
                click(lit.first if how == "board" else places.first)
    else:
        buttons = page.locator("#controls button[data-action]")
        if not buttons.count():
            return False
        click(buttons.first)  # pass, draw, or keep the five doubles' points
    page.wait_for_function(
        f"document.getElementById('table-app').dataset.version !== '{version}'", timeout=5000
    )
    return True


def put_back(page, table: Table) -> None:
    """The turn's deadline put back (a message that is not a move), as the page shows it.

    Rung from this process: only the Redis channel layer carries it to the server's sockets
    (the embedded mode's in-memory layer lives in the server process alone)."""
    if not settings.REDIS_URL:
        return
    in_thread(tables.extend_deadline, table.pk, timezone.now() + timedelta(minutes=10))
    page.wait_for_function("Number(document.querySelector('.seat.turn .seconds').textContent) > 60")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("preset", PRESETS)
def test_a_hand_against_bots(chromium, asgi_server, preset, size):
    user = in_thread(make_players, 1)[0]
    table = in_thread(table_with_bots, user, {"preset": preset, "turn_seconds": 60})
    page = open_table(chromium, asgi_server, table, user, size)
    SHOTS.mkdir(parents=True, exist_ok=True)
    plays = 0
    for _ in range(200):
        if page.locator("#result h2").count():
            break
        assert_line_fits(page)
        if my_turn(
            page, ("board", "keys", "buttons")[plays % 3], lambda page: put_back(page, table)
        ):
            plays += 1
            if plays == 3:
                page.screenshot(path=SHOTS / f"{preset}-{size}-middle.png", full_page=True)
        else:
            page.wait_for_timeout(150)
    page.wait_for_selector("#result h2")
    assert_line_fits(page)
    page.screenshot(path=SHOTS / f"{preset}-{size}-end.png", full_page=True)
    # The reckoning adds up to the change in the score: the engine's events, side by side.
    for side in (0, 1):
        events = page.locator(f"#result .events li[data-side='{side}']")
        points = sum(int(events.nth(i).get_attribute("data-points")) for i in range(events.count()))
        score = int(page.locator(f"#score-{side} strong").inner_text())
        total = page.locator(f"#result .total[data-side='{side}'] .after").inner_text()
        assert points == score == int(total)  # the first hand starts from 0 - 0
    # The hand's heading, and the match's too when this first hand decided it.
    for status in page.locator("#result h2").all_inner_texts():
        assert status and "undefined" not in status
    assert page.locator("#result .revealed-seat").count() == 4
    # A player is offered the hand's replay and the analysis of where it was lost.
    link = page.locator("#result .analysis-link a")
    if link.count():  # none after a five-doubles redeal: that hand had no play
        assert re.fullmatch(rf"/play/t/{table.code}/hands/\d+/", link.get_attribute("href"))
    if preset == "dominican" and size == "laptop":
        link.click()
        page.wait_for_selector("#analysis h2")
        assert page.locator("#review #slider").count() == 1
    page.context.close()


def seat_away_partner(table: Table) -> None:
    """A person who never opened the table sits in seat 2, where a bot was."""
    partner = make_players(1, prefix="ana")[0]
    seat = Seat.objects.filter(table=table, number=2)
    seat.update(bot=False)  # a seat changes hands only through empty
    seat.update(user=partner, name="Ana")
    tables.presence_changed(table.pk)


@pytest.mark.parametrize("size", SIZES)
def test_take_a_seat_back_from_a_bot(chromium, asgi_server, size):
    """A seat taken back from a bot, a partner marked offline while the player is online,
    and once every seat is left to bots, "play again" opens a new table."""
    user = in_thread(make_players, 1)[0]
    table = in_thread(table_with_bots, user, {"preset": "dominican", "turn_seconds": 60})
    in_thread(lambda: Seat.objects.filter(table=table, number=0).update(bot=True))
    in_thread(seat_away_partner, table)
    page = open_table(chromium, asgi_server, table, user, size)
    # The partner has never connected: offline, said in words; this page's player is online.
    away = page.locator(".seat[data-pos=top]")
    page.wait_for_selector(".seat[data-pos=top].offline .tag.offline")
    assert away.locator(".tag.offline").inner_text() == "desconectado"
    assert away.get_attribute("aria-label") == "Ana, desconectado"
    page.wait_for_selector(".seat[data-pos=bottom]:not(.offline)")
    assert page.locator(".seat.offline").count() == 1  # bots are nobody's absence
    page.click("#take-back")
    page.wait_for_selector("#take-back", state="detached")
    assert "bot" not in page.locator(".seat[data-pos=bottom]").get_attribute("class")
    assert not in_thread(lambda: Seat.objects.get(table=table, number=0).bot)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / f"offline-{size}.png", full_page=True)
    # A table whose every seat was left to bots says so, with the score and a way on.
    in_thread(lambda: Seat.objects.filter(table=table, number=2).update(user=None, name=""))
    in_thread(lambda: Seat.objects.filter(table=table).update(bot=True))
    in_thread(
        lambda: Table.objects.filter(pk=table.pk).update(
            status=Table.Status.FINISHED, version=table.version + 5
        )
    )
    page.reload()
    page.wait_for_selector("#result .match-end")
    assert "abandon" in page.locator("#result .match-end h2").inner_text()
    assert page.locator("#result .match-end .final").inner_text().count("0") >= 2
    assert page.locator("#to-lobby").get_attribute("href") == "/play/"
    page.screenshot(path=SHOTS / f"finished-{size}.png", full_page=True)
    # "Play again" opens a new table under the same rules, this player in the same seat and
    # bots where bots sat: its first hand is dealt at once.
    page.click("#play-again")
    page.wait_for_url(lambda url: "/play/t/" in url and table.code not in url)
    page.wait_for_selector("#my-hand .tile")
    again = in_thread(lambda: Table.objects.get(code=page.url.rstrip("/").rsplit("/", 1)[1]))
    seats = in_thread(lambda: list(again.seats.values_list("number", "user_id", "bot")))
    assert seats == [(0, user.pk, False), (1, None, True), (2, None, True), (3, None, True)]
    assert again.rules == table.rules and again.status == Table.Status.PLAYING
    assert page.locator(".seat.offline").count() == 0
    page.context.close()


def spinner_state():
    """A Brazilian hand whose spinner (6-6) has tiles on all four arms, and more."""
    deal = [
        ["6-6", "6-2", "0-0", "1-0", "2-0", "3-0", "4-0"],
        ["6-5", "5-5", "5-4", "1-1", "2-1", "3-1", "4-1"],
        ["6-4", "4-4", "4-3", "4-2", "2-2", "3-2", "5-0"],
        ["6-3", "3-3", "5-3", "6-1", "5-2", "5-1", "6-0"],
    ]
    state = new_hand(rules_from_spec("brazilian"), deal)
    for action in ["6-6", "6-5@left", "6-4@right", "6-3@up", "6-2@down"]:
        state = apply(state, action)[0]
    for _ in range(10):
        if state.status != "play":
            break
        state = apply(state, legal_actions(state)[0])[0]
    return state


@pytest.mark.parametrize("size", [*SIZES, *NARROW])
def test_the_brazilian_spinner_has_four_arms(chromium, asgi_server, size):
    users = in_thread(make_players, 1)
    table = in_thread(table_with_bots, users[0], {"preset": "brazilian", "turn_seconds": 60})
    state = spinner_state()
    in_thread(
        lambda: Table.objects.filter(pk=table.pk).update(
            state=to_record(state), version=table.version + 1
        )
    )
    page = open_table(chromium, asgi_server, table, None, size)
    page.wait_for_selector("#board .domino.spinner")
    for end in ("left", "right", "up", "down"):
        assert page.locator(f"#board .domino[data-end={end}]").count() >= 1, end
    assert page.locator("#board .domino").count() == len(state.line)
    assert_line_fits(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / f"spinner-{size}.png", full_page=True)
    # The arms leave the spinner on its four sides.
    # Read in one go: an update (a seat's presence, say) may redraw the board in between.
    boxes = page.evaluate(
        """() => {
            const box = (el) => {
                const r = el.getBoundingClientRect();
                return {x: r.x, y: r.y, width: r.width, height: r.height};
            };
            const first = (sel) => box(document.querySelector(sel));
            return {
                spinner: first("#board .domino.spinner"),
                left: first("#board .domino[data-end=left]"),
                right: first("#board .domino[data-end=right]"),
                up: first("#board .domino[data-end=up]"),
                down: first("#board .domino[data-end=down]"),
            };
        }"""
    )
    box = boxes.pop("spinner")
    centre = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    first = boxes
    assert first["left"]["x"] + first["left"]["width"] <= centre[0]
    assert first["right"]["x"] >= centre[0]
    assert first["up"]["y"] + first["up"]["height"] <= centre[1]
    assert first["down"]["y"] >= centre[1]
    assert re.match(r"^\d+$", page.get_attribute("#table-app", "data-version"))
    page.context.close()
