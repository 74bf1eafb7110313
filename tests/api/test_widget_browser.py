"""The bracket embed in a real Chromium, framed at a phone's and a laptop's width."""

from operator import sub
from pathlib import Path

import pytest

from league.models import Event
from league.services import events
from league.tournaments.services import brackets
from league.tournaments.services.brackets import bracket_view
from tests.conftest import in_thread
from tests.tournaments.conftest import build
from tests.tournaments.conftest import play as tournament_play

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


# Each line's ends and each match's joining points (right and left middles), in the page.
LINES = """() => {
  const lines = [...document.querySelectorAll("svg.bracket-lines path")].map((path) => {
    const box = path.ownerSVGElement.getBoundingClientRect();
    const [a, b] = [0, path.getTotalLength()].map((at) => path.getPointAtLength(at));
    return [a.x + box.left, a.y + box.top, b.x + box.left, b.y + box.top];
  });
  const matches = {};
  document.querySelectorAll(".bracket-match").forEach((m) => {
    const r = m.getBoundingClientRect(), middle = (r.top + r.bottom) / 2;
    matches[m.dataset.number] = {out: [r.right, middle], in: [r.left, middle]};
  });
  return {lines, matches};
}"""


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1366, 768)])
def test_the_bracket_embed_fits_a_club_page(chromium, asgi_server, tmp_path, width, height):
    data = build(Event.Format.DOUBLE_ELIMINATION, 8, tag=f"b{width}", grand_final_reset=True)
    events.set_status(data.organiser, data.event, Event.Status.REGISTRATION)
    bracket = brackets.create_bracket(data.organiser, data.event)
    for _ in range(3):  # three waves of results: the winners' side is decided
        for view in [v for v in bracket_view(bracket) if v.match and v.winner is None]:
            in_thread(tournament_play, data, view.match)
    embed = f"{asgi_server}/widget/events/{data.event.slug}/bracket/?lang=es"
    host = tmp_path / "club.html"
    host.write_text(
        f'<!doctype html><meta name="viewport" content="width=device-width">'
        f'<h1>Club</h1><iframe src="{embed}" width="100%" height="560" style="border:0">'
        "</iframe>"
    )
    context = chromium.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(embed)
    assert page.locator(".bracket-match").count() >= 8
    assert page.locator(".side.won").count() >= 4
    # A line from each match to the one its winner goes to, on the same side of the bracket.
    feeds = [(f, v.number) for v in bracket_view(bracket) for f in v.fed_by]
    assert len(feeds) >= 8
    drawn = page.evaluate(LINES)
    joins = [[*drawn["matches"][str(a)]["out"], *drawn["matches"][str(b)]["in"]] for a, b in feeds]
    assert len(drawn["lines"]) == len(joins)
    for join in joins:  # a line for each, from the one match's right to the other's left
        assert any(max(map(abs, map(sub, line, join))) < 1.5 for line in drawn["lines"]), join
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(Path(tmp_path) / f"bracket-{width}.png"), full_page=True)
    page.goto(host.as_uri())
    frame = page.frame_locator("iframe")
    assert frame.locator(".bracket-match").first.is_visible()
    context.close()
