"""The round sheet in Chromium, on a desktop and on a phone: one organiser types a whole
round from the paper scoresheets, tabbing through the grid; impossible scores save no bad row
and lose none of the typed ones (#15). Also the projector view and the printed scoresheets."""

import os
import re
from pathlib import Path

import pytest

from league.models import Event, Match, Result
from league.tournaments.services import swiss
from tests.conftest import in_thread

from .conftest import build
from .test_browser import log_in, no_errors

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]
SHOTS = os.environ.get("SCREENSHOTS")  # a directory: keep screenshots of the pages to look at


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


# Badges taller than two lines of their type and rounded like a pill: a state tag that wrapped
# and was stretched instead of becoming a tag with rounded corners.
STRETCHED_PILLS = """() => [...document.querySelectorAll("main .badge")].filter(badge => {
  const style = getComputedStyle(badge), size = parseFloat(style.fontSize);
  const height = badge.getBoundingClientRect().height;
  return height > 2 * size && parseFloat(style.borderTopLeftRadius) >= size;
}).map(badge => badge.textContent)"""


def published(tag: str):
    data = build(Event.Format.SWISS, 12, tag=tag, rounds=3)
    swiss.pair_round(data.organiser, data.event)
    round_ = swiss.publish(data.organiser, data.event)
    return data, round_


def line(page, table: int):
    return page.locator(f".sheet-line[data-table='{table}']")


def typed(page, table: int) -> tuple[str, str]:
    row = line(page, table)
    return (
        row.locator("input[data-side=a]").input_value(),
        row.locator("input[data-side=b]").input_value(),
    )


@pytest.mark.parametrize(
    "viewport",
    [{"width": 1366, "height": 768}, {"width": 390, "height": 844}],
    ids=["desktop", "phone"],
)
def test_a_round_typed_on_the_round_sheet(chromium, asgi_server, viewport):
    tag = "d" if viewport["width"] > 400 else "p"
    data, round_ = in_thread(published, tag)
    context = chromium.new_context(locale="es-ES", viewport=viewport)
    page = context.new_page()
    page.set_default_timeout(15000)
    log_in(page, asgi_server, data.organiser.username)
    page.goto(f"{asgi_server}/events/{data.event.slug}/tournament/run/")
    page.click("#round-sheet-link")
    page.wait_for_selector("#round-sheet")
    assert page.locator(".sheet-line").count() == 6
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"]  # nothing cut off or scrolling sideways
    shot(page, f"round-sheet-{tag}-empty")

    # Typed as from paper, with the keyboard only: A, Tab, B, Tab (the lisa), Tab, next table.
    scores = {1: ("150", "60"), 2: ("150", "150"), 3: ("60", "40"), 4: ("0", "150"), 5: ("", "")}
    scores[6] = ("151", "")  # half a row
    line(page, 1).locator("input[data-side=a]").focus()
    for table in range(1, 7):
        a, b = scores[table]
        page.keyboard.type(a)
        page.keyboard.press("Tab")
        page.keyboard.type(b)
        page.keyboard.press("Tab")
        page.keyboard.press("Tab")
    assert line(page, 4).locator("input[data-lisa]").is_checked()  # ticked for a 0
    assert not line(page, 1).locator("input[data-lisa]").is_checked()
    page.click("#save-round")
    page.wait_for_selector(".sheet-line.has-error")

    # The two good rows are saved; the impossible ones keep what was typed, with a message.
    errors = page.locator(".sheet-line.has-error")
    assert errors.count() == 3
    for table in (2, 3, 6):
        assert typed(page, table) == scores[table]
        assert line(page, table).locator(".state .error").inner_text().strip()
    assert line(page, 1).locator(".badge.ok").count() == 1
    assert line(page, 4).locator(".lisa .badge.ok").count() == 1  # saved as a lisa
    assert typed(page, 5) == ("", "")  # not played yet: nothing typed, nothing saved
    shot(page, f"round-sheet-{tag}-refused")
    saved = in_thread(
        lambda: {
            r.match.table: (r.points_a, r.points_b, r.shutout, r.status)
            for r in Result.objects.filter(match__round=round_).select_related("match")
        }
    )
    assert saved == {1: (150, 60, False, "confirmed"), 4: (0, 150, True, "confirmed")}

    # Fixed and sent again: the whole round is in, nothing confirmed changed.
    for table, (a, b) in {
        2: ("150", "100"),
        3: ("40", "150"),
        5: ("150", "0"),
        6: ("151", "9"),
    }.items():
        line(page, table).locator("input[data-side=a]").fill(a)
        line(page, table).locator("input[data-side=b]").fill(b)
    line(page, 5).locator("input[data-lisa]").uncheck()  # a 0 by bonuses only? no lisa here
    page.click("#save-round")
    page.wait_for_selector(".message.success")
    no_errors(page)
    assert page.locator(".sheet-line.done").count() == 6
    assert page.locator("#round-complete").is_visible() and page.locator("#save-round").count() == 0
    shot(page, f"round-sheet-{tag}-done")
    for language in ("es", "pt-br"):  # Portuguese wraps "the round is complete" on a phone
        context.add_cookies([{"name": "django_language", "value": language, "url": asgi_server}])
        page.reload()
        assert page.evaluate(STRETCHED_PILLS) == [], language
    saved = in_thread(
        lambda: {
            r.match.table: (r.points_a, r.points_b, r.shutout)
            for r in Result.objects.filter(match__round=round_, status="confirmed").select_related(
                "match"
            )
        }
    )
    assert saved[1] == (150, 60, False) and saved[5] == (150, 0, False) and saved[4][2]
    assert len(saved) == 6
    assert in_thread(lambda: Result.objects.filter(match__round=round_).count()) == 6
    assert in_thread(
        lambda: set(
            Match.objects.filter(round=round_, entry_b__isnull=False).values_list(
                "status", flat=True
            )
        )
    ) == {"played"}
    context.close()


def test_projector_and_printed_scoresheets(page, asgi_server):
    data, round_ = in_thread(published, "pr")
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{asgi_server}/events/{data.event.slug}/projector/")
    assert page.locator("#pairings .tables li").count() == 6
    assert page.locator(".topbar").count() == 0  # no site menus on the projector
    assert page.locator("#standings").is_hidden()
    shot(page, "projector-tables")
    page.wait_for_selector("#standings:not([hidden])", timeout=30000)
    assert page.locator("#pairings").is_hidden()
    assert page.locator(".projector-standings tbody tr").count() == 12
    shot(page, "projector-standings")

    log_in(page, asgi_server, data.organiser.username)
    page.goto(f"{asgi_server}/events/{data.event.slug}/scoresheets/?round={round_.number}")
    assert page.locator(".scoresheet").count() == 6
    page.emulate_media(media="print")
    assert page.locator(".topbar").is_hidden()
    assert pages(page.pdf(format="A4")) == 6  # one page per table
    page.goto(f"{asgi_server}/events/{data.event.slug}/tournament/rounds/{round_.number}/print/")
    assert pages(page.pdf(format="A4")) == 6  # table cards, one per page


def pages(pdf: bytes) -> int:
    """The page count of a PDF Chromium printed."""
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))
