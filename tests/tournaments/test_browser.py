"""An organiser runs tournaments in a real Chromium against the real ASGI server."""

import pytest

from league.models import Event, Match, Result
from league.services import events, results
from league.tournaments.models import Bracket
from league.tournaments.services.brackets import bracket_view
from tests.conftest import in_thread

from .conftest import PASSWORD, build, game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def log_in(page, base: str, username: str) -> None:
    page.goto(base + "/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(base + "/dashboard/")


def no_errors(page) -> None:
    assert page.locator(".message.error").count() == 0, page.locator(".messages").inner_text()


def play(data, match, points) -> None:
    in_thread(results.enter_result, data.organiser, match, game(*points))


def play_by_services(data, number: int) -> None:
    """The higher-ranked pair (side A) wins every match of the round still open."""
    for match in Match.objects.filter(
        event=data.event, round__number=number, entry_b__isnull=False
    ):
        if match.results.filter(status__in=["confirmed", *Result.OPEN]).exists():
            continue
        play(data, match, (150, 70 + match.table))


def test_organiser_runs_a_16_pair_4_round_swiss(page, chromium, asgi_server):
    data = build(Event.Format.SWISS, 16, rounds=4)
    run_url = f"{asgi_server}/events/{data.event.slug}/tournament/run/"
    log_in(page, asgi_server, data.organiser.username)
    second = chromium.new_context(locale="es-ES", viewport={"width": 390, "height": 844})
    referee_page = second.new_page()
    log_in(referee_page, asgi_server, data.organiser2.username)
    for number in range(1, 5):
        page.goto(run_url)
        page.click("#pair-round")
        page.wait_for_selector("table.draft")
        no_errors(page)
        assert page.locator("table.draft tbody tr").count() == 8
        if number == 1:  # swap two pairs by hand before publishing
            page.select_option("select[name=first]", index=0)
            page.select_option("select[name=second]", index=2)
            page.click("form[action$='/swap/'] button")
            page.wait_for_load_state()
            no_errors(page)
            assert page.locator("table.draft input[name=pinned][value='0']").count() == 2
        page.click("#publish")
        page.wait_for_selector("#enter-results")
        no_errors(page)
        assert Match.objects.filter(event=data.event, round__number=number).count() == 8
        if number == 1:
            form = page.locator("form[data-match]").first
            match_id = int(form.get_attribute("data-match"))
            form.locator("input[name=game_1_a]").fill("150")
            form.locator("input[name=game_1_b]").fill("90")
            form.locator("button").click()
            page.wait_for_load_state()
            no_errors(page)  # an organiser's entry counts at once: nobody else confirms it
            confirmed = in_thread(Result.objects.get, match_id=match_id, status="confirmed")
            assert (confirmed.points_a, confirmed.points_b) == (150, 90)
            assert page.locator("#confirm-results").count() == 0
        play_by_services(data, number)
    pairs = [
        frozenset((a, b))
        for a, b in Match.objects.filter(event=data.event).values_list("entry_a", "entry_b")
    ]
    assert len(pairs) == len(set(pairs)) == 32  # 4 rounds of 8 tables, no rematch
    page.goto(f"{asgi_server}/events/{data.event.slug}/tournament/")
    rows = page.locator("table.standings tbody tr")
    assert rows.count() == 16
    assert rows.first.locator("td").nth(3).inner_text() == "4"  # the leader won every round
    assert "Buchholz" in page.locator("#standings").inner_text()
    page.goto(f"{asgi_server}/events/{data.event.slug}/tournament/rounds/4/print/")
    assert page.locator(".table-card").count() == 8
    # The public page fits a phone screen.
    referee_page.goto(f"{asgi_server}/events/{data.event.slug}/tournament/")
    wide = referee_page.evaluate(
        "[...document.querySelectorAll('body *')]"
        ".filter(e => e.getBoundingClientRect().right > 391)"
        ".map(e => e.tagName + '.' + e.className).slice(0, 8)"
    )
    width = referee_page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, wide
    # Nor does the standings table scroll sideways inside its card.
    box = referee_page.locator("#standings .scroll")
    assert box.evaluate("e => e.scrollWidth <= e.clientWidth"), box.evaluate("e => e.scrollWidth")
    second.close()


def test_8_pair_double_elimination_through_the_grand_final_reset(page, asgi_server):
    data = build(Event.Format.DOUBLE_ELIMINATION, 8, tag="de", grand_final_reset=True)
    log_in(page, asgi_server, data.organiser.username)
    page.goto(f"{asgi_server}/events/{data.event.slug}/tournament/run/")
    page.click("#draw-bracket")
    page.wait_for_selector("#bracket")
    no_errors(page)
    bracket = Bracket.objects.get(event=data.event)
    for _ in range(20):
        pending = [v for v in bracket_view(bracket) if v.match and v.winner is None]
        if not pending:
            break
        for view in pending:
            if view.stage == "grand_final_reset":
                continue  # entered through the page below
            a_wins = view.stage != "grand_final"  # the losers' champion takes the final
            play(data, view.match, (150, 60) if a_wins else (60, 150))
        if any(v.stage == "grand_final_reset" and v.match for v in pending):
            break
    reset = next(v for v in bracket_view(bracket) if v.stage == "grand_final_reset")
    assert reset.needed and reset.match is not None
    page.goto(f"{asgi_server}/events/{data.event.slug}/tournament/run/")
    form = page.locator(f"form[data-match='{reset.match.pk}']")
    form.locator("input[name=game_1_a]").fill("150")
    form.locator("input[name=game_1_b]").fill("120")
    form.locator("button").click()
    page.wait_for_load_state()
    no_errors(page)
    page.goto(f"{asgi_server}/events/{data.event.slug}/tournament/")
    assert page.locator(".bracket-match").count() == 2 * 8 - 1
    final = page.locator(".bracket-match").last
    assert final.locator(".side.won .who").inner_text() == str(reset.match.entry_a)
    assert Match.objects.filter(event=data.event).count() == 15


# What a phone reader of the bracket page gets: nothing beyond the screen's right edge except
# inside the bracket's own scroll area, every pair's name whole beside its score, each
# player's name on one line, the type no smaller than 14 px, and a hint that more rounds lie
# to the right (the fade at the edge goes once the last round is scrolled into view).
READING = """() => {
  const width = document.documentElement.clientWidth;
  const report = {pageWidth: document.documentElement.scrollWidth};
  Object.assign(report, {outside: [], cut: [], small: [], split: []});
  for (const el of document.querySelectorAll("main *")) {
    const box = el.getBoundingClientRect();
    if (box.width && box.right > width + 1 && !el.closest(".bracket"))
      report.outside.push(el.className || el.tagName);
  }
  for (const side of document.querySelectorAll(".bracket-match .side")) {
    const who = side.querySelector(".who"), pts = side.querySelector(".pts");
    const match = side.closest(".bracket-match").getBoundingClientRect();
    const name = who.getBoundingClientRect();
    const score = pts && pts.getBoundingClientRect();
    if (who.scrollWidth > who.clientWidth + 1 || name.right > match.right ||
        (score && (score.left < name.right || score.right > match.right)))
      report.cut.push(who.textContent);
    if (parseFloat(getComputedStyle(who).fontSize) < 14) report.small.push(who.textContent);
  }
  for (const part of document.querySelectorAll(".bracket .name-part"))
    if (part.getClientRects().length !== 1) report.split.push(part.textContent);
  return report;
}"""


def test_a_phone_reads_the_demo_double_elimination_bracket(chromium, asgi_server):
    from demo import club as demo
    from demo.tournaments import CUP_NAME

    in_thread(demo.run)
    event = Event.objects.get(name=CUP_NAME)
    for locale in ("es-ES", "pt-BR"):
        context = chromium.new_context(locale=locale, viewport={"width": 390, "height": 844})
        page = context.new_page()
        page.goto(f"{asgi_server}/events/{event.slug}/tournament/")
        report = page.evaluate(READING)
        assert report["pageWidth"] <= 390, report
        assert report["outside"] == [] and report["cut"] == [] and report["small"] == [], report
        assert report["split"] == [], report
        assert page.locator(".bracket-match .pts").count() == 2 * 9  # the played matches' scores
        assert page.locator(".bracket-hint").is_visible()
        pairs = page.locator(".round table.pairings td:nth-child(2)").evaluate_all(
            "all => all.map(cell => cell.getBoundingClientRect().width)"
        )
        assert len(pairs) == 11 and min(pairs) > 200, pairs  # a round's pairs, a line each
        winners, losers, _finals = page.locator(".bracket").all()
        assert "more-right" in winners.get_attribute("class")
        # the losers' bracket opens on its round still to play, the rounds played to its left
        assert "more-left" in losers.get_attribute("class")
        box, first_open = losers.evaluate(
            "b => [b.getBoundingClientRect().left,"
            " b.querySelector('.bracket-match.open').getBoundingClientRect().left]"
        )
        assert abs(first_open - box) < 2
        winners.evaluate("box => { box.scrollLeft = box.scrollWidth; }")
        page.wait_for_function(
            "() => !document.querySelector('.bracket').classList.contains('more-right')"
        )
        # the event's page: each pair a line of the card's width, its players' names whole;
        # the event's own venue said once, not under every match
        page.goto(f"{asgi_server}/events/{event.slug}/")
        widths = page.locator(".fixture .side").evaluate_all(
            "all => all.map(side => side.getBoundingClientRect().width)"
        )
        assert len(widths) == 2 * 11 and min(widths) > 150, widths
        split = page.evaluate(
            "() => [...document.querySelectorAll('.fixture .name-part')]"
            ".filter(part => part.getClientRects().length !== 1).map(part => part.textContent)"
        )
        assert split == []
        assert page.locator("main").inner_text().count("Sede del club") == 1
        context.close()


def test_a_refused_csv_on_a_phone_shows_every_problem_in_sight(chromium, asgi_server, tmp_path):
    from league.services import clubs

    data = build(Event.Format.SWISS, 0, tag="csv")
    in_thread(clubs.add_player, data.organiser, data.club, display_name="Ana Rosario")
    path = tmp_path / "parejas.csv"
    path.write_text(
        "player 1,player 2,club,seed\n"
        "María Altagracia Fernández de la Cruz,José Miguel Rodríguez Santana,,1\n"
        "Ana Rosario,Luis Peña,,2\n"
        "Ana Rosario,,,x\n"
        "Nuevo Jugador,Otro Nuevo,Club Desconocido del Este,3\n"
    )
    context = chromium.new_context(locale="pt-BR", viewport={"width": 390, "height": 844})
    page = context.new_page()
    log_in(page, asgi_server, data.organiser.username)
    page.goto(f"{asgi_server}/events/{data.event.slug}/entries/import/")
    page.set_input_files("input[type=file]", str(path))
    page.click("main form[enctype] button[type=submit]")
    problems = page.locator("table.preview .problem")
    assert problems.count() == 3  # a club the site does not have is kept as written, not refused
    assert "Club Desconocido del Este" in page.locator("tr[data-line='5']").inner_text()
    assert page.locator("tr[data-line='5'] .badge.new").count() >= 1
    for box in problems.evaluate_all("all => all.map(p => p.getBoundingClientRect().toJSON())"):
        assert box["left"] >= 0 and box["right"] <= 390 - 16, box  # inside the card, unscrolled
    # named twice, Ana is still the roster's player, not a new one
    assert page.locator("tr[data-line='4'] .badge.new").count() == 0
    assert page.locator("tr[data-line='4'] .badge").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()


def test_the_manage_page_on_a_phone_lists_entries_and_the_audit_log_readably(chromium, asgi_server):
    data = build(Event.Format.SWISS, 4, tag="mp")
    in_thread(events.set_status, data.organiser, data.event, Event.Status.REGISTRATION)
    context = chromium.new_context(locale="pt-BR", viewport={"width": 390, "height": 844})
    page = context.new_page()
    log_in(page, asgi_server, data.organiser.username)
    page.goto(f"{asgi_server}/events/{data.event.slug}/manage/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # the audit log's "what" is a line of the card's width, not a word a line cut at its edge
    cells = page.locator("table.audit td:nth-child(4)")
    assert cells.count() >= 4
    for box in cells.evaluate_all("all => all.map(c => c.getBoundingClientRect().toJSON())"):
        assert box["right"] <= 390 - 16 and box["width"] > 250, box
    # each entry's actions one under another, every one inside the card
    actions = page.locator("td.actions button").evaluate_all(
        "all => all.map(b => b.getBoundingClientRect().toJSON())"
    )
    assert actions and all(box["right"] <= 390 - 16 for box in actions)
    first = [box for box in actions if abs(box["top"] - actions[0]["top"]) < 4]
    assert len(first) == 1, first  # the second action is on a line of its own
    # the code for a club's site, opened, is as wide as the page, not 80 columns
    page.goto(f"{asgi_server}/events/{data.event.slug}/")
    page.click("details.widget-snippet summary")
    assert page.locator("details.widget-snippet textarea").first.is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()
