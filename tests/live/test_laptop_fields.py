"""On a 1,366 x 768 laptop, in each of the site's languages: every select of the lobby and of
the table page shows its longest choice whole and stays inside its field, and the table's
"This hand" log is never shown empty (before the deal, seated, dealt, through a hand against
bots to its reckoning).

Screenshots go to test-results/laptop/ (not kept in the repository) for a person to look at.
"""

import pytest
from django.conf import settings

from games.services import tables
from tests.conftest import BASE_DIR, in_thread

from .conftest import make_players, session_cookie
from .test_table_board import my_turn

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = BASE_DIR / "test-results" / "laptop"
LAPTOP = {"width": 1366, "height": 768}

# Each shown select: its width, the width it takes to show its widest choice whole (the same
# select sized to that choice alone) and whether it stays inside its field.
SELECTS = """() => [...document.querySelectorAll('select')].filter((s) => s.offsetParent)
.map((s) => {
  const widest = Math.max(...[...s.options].map((option) => {
    const probe = s.cloneNode(false);
    probe.removeAttribute('id');
    probe.appendChild(new Option(option.text));
    Object.assign(probe.style,
      { width: 'auto', maxWidth: 'none', position: 'absolute', visibility: 'hidden' });
    s.parentElement.appendChild(probe);
    const width = probe.getBoundingClientRect().width;
    probe.remove();
    return width;
  }));
  const box = s.getBoundingClientRect();
  const field = (s.closest('.field, .seat, .langswitch') || s.parentElement)
    .getBoundingClientRect();
  return { name: s.id || s.name || s.className, width: box.width, widest,
    inside: box.left >= field.left - 0.5 && box.right <= field.right + 0.5 };
})"""
# Whether the log was ever shown with nothing in it, watched on every change of the page.
WATCH_LOG = """() => {
  window.emptyLog = [];
  const look = () => {
    const box = document.getElementById('log-box');
    if (box && !box.hidden && box.offsetParent && !document.querySelectorAll('#log li').length) {
      window.emptyLog.push(document.getElementById('status').textContent);
    }
  };
  new MutationObserver(look)
    .observe(document.body, { subtree: true, childList: true, attributes: true });
  look();
}"""


def laptop_page(chromium, base: str, user, locale: str):
    context = chromium.new_context(locale=locale, viewport=LAPTOP)
    value = in_thread(session_cookie, user).split("=", 1)[1]
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": value, "url": base}])
    page = context.new_page()
    page.set_default_timeout(15000)
    return page


def assert_selects_fit(page, where: str) -> None:
    selects = page.evaluate(SELECTS)
    assert selects, where
    for select in selects:
        assert select["inside"], (where, select)
        assert select["widest"] <= select["width"] + 0.5, (where, select)


@pytest.mark.parametrize("locale", ["es-ES", "pt-BR", "en-US"])
def test_selects_fit_and_this_hand_is_never_empty(chromium, asgi_server, locale):
    SHOTS.mkdir(parents=True, exist_ok=True)
    user = in_thread(make_players, 1, "laptop")[0]
    page = laptop_page(chromium, asgi_server, user, locale)
    page.goto(f"{asgi_server}/play/")
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    assert_selects_fit(page, "lobby")
    page.screenshot(path=SHOTS / f"lobby-{locale}.png", full_page=True)

    table = in_thread(tables.create_table, host=user, rules="dominican")
    page.goto(f"{asgi_server}/play/t/{table.code}/")
    page.wait_for_selector(".seat[data-pos=bottom] button[data-sit]")
    page.evaluate(WATCH_LOG)
    assert_selects_fit(page, "table, before the deal")
    page.click(".seat[data-pos=bottom] button[data-sit]")
    for left in (3, 2, 1):
        page.wait_for_function(f"document.querySelectorAll('button[data-bot]').length === {left}")
        if left == 3:
            assert_selects_fit(page, "table, seated")
            page.screenshot(path=SHOTS / f"table-seated-{locale}.png")
        page.locator("button[data-bot]").first.click()
    page.wait_for_selector("#my-hand .tile")
    for _ in range(300):
        if page.locator("#result h2").count():
            break
        if not page.locator("#my-hand .tile.playable, #controls button[data-action]").count():
            page.wait_for_timeout(100)
            continue
        my_turn(page, "board")
    page.wait_for_selector("#result h2")
    page.screenshot(path=SHOTS / f"table-reckoning-{locale}.png", full_page=True)
    assert page.evaluate("window.emptyLog") == []
    assert page.locator("#log li").count() >= 1
    page.context.close()
