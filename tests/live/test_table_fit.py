"""The table on a small phone and on a laptop, at every rule set and player count: at each of
the player's turns their tiles, every open end of the line and the score with its target are
on the screen together, at scroll 0; the line's tiles are large (at least 24 x 48 px on a
320 px phone, 45 x 90 px on a 1,366 x 657 laptop while the line is short), and the arms
round a Brazilian spinner keep apart.

One player opens the same table at the four sizes at once and plays a hand against bots on
the smallest; every page is measured at every turn. Long Brazilian lines with one arm much
longer than the others (which random play seldom makes) are measured at the four sizes too.
Screenshots go to test-results/table-fit/ (not kept in the repository) for a person to look
at.
"""

import random
from collections import Counter

import pytest

from games.engine import VARIANTS, apply, legal_actions, new_hand, rules_from_spec, to_record, view
from games.models import Table
from games.services import tables
from games.services.messages import hand_state
from tests.conftest import BASE_DIR, in_thread

from .conftest import make_players
from .test_table_board import my_turn, open_table

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = BASE_DIR / "test-results" / "table-fit"
SIZES = {
    "320x640": {"width": 320, "height": 640},
    "360x740": {"width": 360, "height": 740},
    "390x844": {"width": 390, "height": 844},
    "1366x657": {"width": 1366, "height": 657},
}
# Every preset with four players, and the forms for three and for two (one with a boneyard).
RULES = ["dominican", "brazilian", "tournament", "latin", "vog", "vog_3p", "tournament_1v1"]

MEASURE = """() => {
  const vw = window.innerWidth, vh = window.innerHeight;
  const box = (e) => e.getBoundingClientRect();
  const inside = (r) => r.width > 0 && r.left >= -1 && r.top >= -1
    && r.right <= vw + 1 && r.bottom <= vh + 1;
  const scores = [...document.querySelectorAll('.scorebar .score')];
  const line = [...document.querySelectorAll('#board .domino')];
  const ends = [...document.querySelectorAll('#board .end-target')];
  // Pieces of two arms past their first two (which meet at the opening) keep apart.
  const seen = {};
  const pieces = [...line, ...ends].filter((e) => e.dataset.end !== 'opening').map((e) => {
    const arm = e.dataset.end;
    seen[arm] = (seen[arm] || 0) + 1;
    return { arm, index: seen[arm] - 1, r: box(e) };  // an open end after its arm's tiles
  });
  let closest = Infinity;
  const round = document.querySelector('#board .domino.spinner') ? pieces : [];
  round.forEach((p, i) => round.slice(i + 1).forEach((q) => {
    if (p.arm === q.arm || (p.index < 2 && q.index < 2)) return;
    const dx = Math.max(p.r.left - q.r.right, q.r.left - p.r.right, 0);
    const dy = Math.max(p.r.top - q.r.bottom, q.r.top - p.r.bottom, 0);
    closest = Math.min(closest, Math.max(dx, dy));
  }));
  return {
    scroll: window.scrollY,
    wide: document.documentElement.scrollWidth > vw + 1,
    tiles: document.querySelectorAll('#my-hand .tile').length,
    tilesIn: [...document.querySelectorAll('#my-hand .tile')].every((e) => inside(box(e))),
    ends: ends.length,
    endsIn: ends.every((e) => inside(box(e))),
    scoresIn: scores.length > 0 && scores.every((e) => inside(box(e))
      && inside(box(e.querySelector('.of'))) && e.querySelector('.of').textContent.trim()),
    line: line.length,
    spinner: Boolean(document.querySelector('#board .domino.spinner')),
    unit: Math.min(...line.map((e) => Math.min(box(e).width, box(e).height))),
    apart: closest,
  };
}"""


def seated_with_bots(name: str) -> tuple:
    """A player at seat 0 of a `name` table, bots in every other seat, the hand dealt."""
    user = make_players(1, prefix="fit")[0]
    spec = VARIANTS.get(name, {"preset": name}) | {"turn_seconds": 120}
    table = tables.create_table(host=user, rules=spec)
    tables.sit(table.pk, user, 0)
    for seat in range(1, rules_from_spec(spec).players):
        tables.add_bot(table.pk, user, seat, "easy")
    return user, Table.objects.get(pk=table.pk)


def open_ends(table_pk: int) -> int:
    """How many open ends the line has now (the engine's view of the live hand)."""
    return len(view(hand_state(Table.objects.get(pk=table_pk)), 0)["ends"])


def check(page, size: str, ends: int, rules: str) -> dict:
    seen = page.evaluate(MEASURE)
    try:
        assert_fits(seen, size, ends)
    except AssertionError:
        page.screenshot(path=SHOTS / f"{rules}-{size}-failed.png")
        raise AssertionError((rules, size, seen)) from None
    return seen


def assert_fits(seen: dict, size: str, ends: int) -> None:
    assert seen["scroll"] == 0 and not seen["wide"]
    assert seen["tiles"] and seen["tilesIn"]
    assert seen["scoresIn"]
    if seen["line"]:
        assert seen["ends"] == ends and seen["endsIn"]
        if size == "320x640":  # 24 x 48 px, a pixel's rounding allowed
            assert seen["unit"] >= 23.5
        if size == "1366x657" and seen["line"] < 8:
            # A spinner's up and down arms stack in the board's height even while the line
            # is short (seven tiles, a double at the end of each: eight units tall, 37 px):
            # it is held to the floor of every line at this size (34 px) instead.
            assert seen["unit"] >= (33.5 if seen["spinner"] else 44.5)
        assert seen["apart"] >= 0.9 * seen["unit"]


@pytest.mark.parametrize("rules", RULES)
def test_at_every_turn_the_tiles_the_ends_and_the_score_are_on_screen(chromium, asgi_server, rules):
    user, table = in_thread(seated_with_bots, rules)
    pages = {size: open_table(chromium, asgi_server, table, user, SIZES[size]) for size in SIZES}
    SHOTS.mkdir(parents=True, exist_ok=True)
    player = pages["320x640"]
    turns = 0
    for _ in range(300):
        if player.locator("#result h2").count():
            break
        mine = player.locator("#my-hand .tile.playable, #controls button[data-action]")
        if not mine.count():
            player.wait_for_timeout(100)
            continue
        version = player.get_attribute("#table-app", "data-version")
        ends = in_thread(open_ends, table.pk)
        for size, page in pages.items():
            page.wait_for_function(
                f"document.getElementById('table-app').dataset.version === '{version}'"
            )
            check(page, size, ends, rules)
            if turns == 2:
                page.screenshot(path=SHOTS / f"{rules}-{size}-turn.png")
        turns += 1
        my_turn(player, "board")
    assert turns >= 1
    for size, page in pages.items():
        page.wait_for_selector("#result h2")
        page.screenshot(path=SHOTS / f"{rules}-{size}-end.png", full_page=True)
        page.context.close()


def test_a_table_is_set_up_on_a_small_phone(chromium, asgi_server):
    """On a 320 px phone the host sits down and gives the other seats to bots with the
    seats' own buttons, all on screen; the last bot deals the first hand."""
    user = in_thread(make_players, 1, prefix="setup")[0]
    table = in_thread(tables.create_table, host=user, rules="dominican")
    page = open_table(chromium, asgi_server, table, user, SIZES["320x640"])
    page.click(".seat[data-pos=bottom] button[data-sit]")
    for left in (3, 2, 1):
        page.wait_for_function(f"document.querySelectorAll('button[data-bot]').length === {left}")
        if left == 3:
            page.screenshot(path=SHOTS / "setup-seats-320x640.png")
        button = page.locator("button[data-bot]").first
        box = button.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 320, box
        button.click()
    page.wait_for_selector("#my-hand .tile")
    page.screenshot(path=SHOTS / "setup-320x640.png")
    check(page, "320x640", in_thread(open_ends, table.pk), "dominican")
    page.context.close()


def lopsided_brazilian(seed: int, arm: str):
    """A Brazilian hand at seat 0's turn, with a tile to play, whose line has 18 tiles or
    more, 10 or more of them on the arm `arm` (play that puts every tile it can there)."""
    rules = rules_from_spec("brazilian")
    rng = random.Random(seed)
    while True:
        state = new_hand(rules, rng=rng)
        while state.status == "play":
            line = view(state, 0)["line"]
            arms = Counter(piece["end"] for piece in line)
            actions = legal_actions(state)
            tiles = [action for action in actions if action != "pass"]
            if state.turn == 0 and tiles and len(line) >= 18 and arms[arm] >= 10:
                return state
            chosen = [action for action in tiles if action.endswith("@" + arm)]
            state = apply(state, rng.choice(chosen or tiles or actions))[0]


@pytest.mark.parametrize(("seed", "arm"), [(1, "right"), (2, "up"), (3, "left")])
def test_a_long_brazilian_arm_wraps_at_every_size(chromium, asgi_server, seed, arm):
    """One arm of ten tiles or more against three short ones: the line turns and snakes
    instead of shrinking, and at the player's turn their tiles, the four open ends and the
    score with its target stay on screen, at every size."""
    user, table = in_thread(seated_with_bots, "brazilian")
    state = lopsided_brazilian(seed, arm)
    in_thread(
        lambda: Table.objects.filter(pk=table.pk).update(
            state=to_record(state), version=table.version + 1
        )
    )
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size, viewport in SIZES.items():
        page = open_table(chromium, asgi_server, table, user, viewport)
        page.wait_for_selector("#my-hand .tile.playable")
        seen = check(page, size, in_thread(open_ends, table.pk), f"long-{arm}")
        assert seen["spinner"] and seen["line"] == len(state.line) >= 18
        page.screenshot(path=SHOTS / f"long-{arm}-{size}.png")
        page.context.close()
