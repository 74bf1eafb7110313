"""The club night's last mile in Chromium, in Spanish, on a phone (390×844) and a laptop
(1,366×768): what an organiser also does besides the happy path (#30).

`SCREENSHOTS=<folder>` keeps a screenshot of each page looked at."""

import json
import os
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from league.models import Entry, Event, Result
from tests.conftest import in_thread
from tests.engine.records import first_match, played_match

from .conftest import build_league, make_user
from .test_club_night import pdf_pages

# Whole names, as a club night's sheet has them: the long ones must stay whole.
PLAYERS = [
    "Ítalo Pérez Almánzar", "Conceição Magalhães", "Yolanda Batista", "Rafael Guzmán Peña",
    "María Altagracia Núñez", "João Brandão Filho", "Carmen Rosario", "Pedro Almánzar",
    "Rosa Jiménez", "Héctor Ureña", "Lucía Báez", "Ramón Tavárez", "Inés Gómez",
    "Julio Ñañez", "Teresa Díaz", "Andrés Suárez", "Sofía Cruz", "Mateo Ortíz",
    "Elena Paredes", "Víctor Mejía", "Paula Ríos", "Óscar Batista", "Clara Vidal",
    "Tomás Acosta", "Nieves Soto", "Raúl Familia", "Altagracia Encarnación",
    "Francisco Javier Rodríguez", "Milagros Santana", "Bienvenido Castillo",
    "Fernanda Conceição", "Wellington Polanco",
]  # fmt: skip


def swiss_night(tag: str, pairs: int = 12, rounds: int = 3):
    """A Swiss event of `pairs` pairs of players with whole, long names."""
    from league.services import entries, events
    from league.tournaments.services.common import tournament_of

    league = build_league(0, generate=False, tag=tag)
    league.event = events.create_event(
        league.organiser,
        league.club,
        name=f"Noche suiza {tag}",
        format="swiss",
        rule_preset="tournament",
    )
    tournament = tournament_of(league.event)
    tournament.rounds = rounds
    tournament.save()
    for i in range(pairs):
        first, second = (make_user(f"{tag}j{i}{k}", league.club).player for k in "ab")
        for player, name in ((first, PLAYERS[2 * i]), (second, PLAYERS[2 * i + 1])):
            player.display_name = name
            player.save()
        league.pairs.append(
            entries.register(league.organiser, league.event, player_1=first, player_2=second)
        )
    league.event.refresh_from_db()
    return league


pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]
SHOTS = os.environ.get("SCREENSHOTS")
PHONE, LAPTOP = {"width": 390, "height": 844}, {"width": 1366, "height": 768}
VIEWPORTS = pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])


def shot(page, name: str, whole: bool = True) -> None:
    """The whole page, or (`whole` false) the screen as the user sees it."""
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=whole)


def _session(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def signed_in(chromium, base: str, user, viewport: dict):
    """A page in Spanish at `viewport`, signed in as `user`."""
    context = chromium.new_context(locale="es-ES", viewport=viewport)
    cookie = {"name": settings.SESSION_COOKIE_NAME, "value": in_thread(_session, user)}
    context.add_cookies([{**cookie, "url": base}])
    page = context.new_page()
    page.set_default_timeout(15000)
    return page


def tag_of(viewport: dict) -> str:
    return f"w{viewport['width']}"


def fits(page, viewport: dict) -> None:
    """Nothing cut off or scrolling sideways."""
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]


# 1. The hand records decide ---------------------------------------------------------------


@VIEWPORTS
def test_hand_records_that_disagree_with_the_typed_score_save_nothing(
    chromium, asgi_server, viewport
):
    tag = tag_of(viewport)
    league = in_thread(build_league, 4, tag=tag, rule_preset="dominican")
    match = in_thread(lambda: league.matches(1)[0])
    hands, played = played_match(seed=0)
    a, b = played.scores
    page = signed_in(chromium, asgi_server, league.organiser, viewport)
    page.goto(f"{asgi_server}/matches/{match.pk}/")
    page.fill("#id_game_1_a", str(a))
    page.fill("#id_game_1_b", str(b))
    page.fill("#id_game_1_hands", json.dumps(hands[:1]))
    page.click("#result-form button[type=submit]")
    error = page.locator(".message.error")
    first = in_thread(lambda: Result.objects.filter(match=match).count())
    assert first == 0
    assert "tras la mano 1" in error.inner_text() and f"no en el {a}–{b}" in error.inner_text()
    assert page.input_value("#id_game_1_hands") != ""  # what was pasted is still there
    shot(page, f"1-records-refused-{tag}")
    fits(page, viewport)

    page.fill("#id_game_1_hands", json.dumps(hands))
    page.click("#result-form button[type=submit]")
    page.wait_for_selector("#result-status.ok")
    assert page.locator("#result-lisa").count() == 0  # the records show no lisa
    assert in_thread(lambda: Result.objects.get(match=match).points_a) == a


@VIEWPORTS
def test_a_lisa_comes_from_the_records_only_when_they_show_it(chromium, asgi_server, viewport):
    tag = tag_of(viewport)
    league = in_thread(build_league, 4, tag=tag, rule_preset="dominican")
    lisa_match, plain_match = in_thread(lambda: league.matches(1))
    page = signed_in(chromium, asgi_server, league.organiser, viewport)
    for match, found, tick, lisa in (
        (plain_match, lambda m: not m.shutout, True, False),
        (lisa_match, lambda m: m.shutout and min(m.scores) > 0, False, True),
    ):
        hands, played = first_match(found)
        page.goto(f"{asgi_server}/matches/{match.pk}/")
        page.fill("#id_game_1_a", str(played.scores[0]))
        page.fill("#id_game_1_b", str(played.scores[1]))
        page.fill("#id_game_1_hands", json.dumps(hands))
        page.set_checked("#id_lisa", tick)  # the engine decides, whatever the tick
        page.click("#result-form button[type=submit]")
        page.wait_for_selector("#result-status.ok")
        assert page.locator("#result-lisa").count() == int(lisa)
    shot(page, f"1-records-lisa-{tag}")


# 2. Cancelling asks first, and a cancelled event reopens ---------------------------------


@VIEWPORTS
def test_cancelling_asks_first_and_the_event_reopens_where_it_was(chromium, asgi_server, viewport):
    tag = tag_of(viewport)
    league = in_thread(build_league, 4, tag=tag)
    page = signed_in(chromium, asgi_server, league.organiser, viewport)
    page.goto(f"{asgi_server}/events/{league.event.slug}/manage/")
    page.click("#cancel-event")
    confirm = page.locator("#cancel-confirm")
    assert "6 encuentros que faltan no se jugarán" in confirm.inner_text()
    assert "vuelve a «En juego»" in confirm.inner_text()
    assert in_thread(lambda: Event.objects.get(pk=league.event.pk).status) == "running"
    shot(page, f"2-cancel-confirm-{tag}")
    fits(page, viewport)
    page.click("#confirm-cancel")
    page.wait_for_selector("#reopen-event")
    assert in_thread(lambda: Event.objects.get(pk=league.event.pk).status) == "cancelled"
    assert page.locator("#cancel-event").count() == 0
    shot(page, f"2-cancelled-{tag}")
    page.click("#reopen-event")
    page.wait_for_selector("#cancel-event")
    assert in_thread(lambda: Event.objects.get(pk=league.event.pk).status) == "running"
    audit = page.locator("table.audit").inner_text()
    assert "Evento reabierto" in audit and "Evento cancelado" in audit
    shot(page, f"2-reopened-{tag}")
    fits(page, viewport)


# 3. The Swiss draft on a phone -------------------------------------------------------------


@VIEWPORTS
def test_the_swiss_draft_fits_the_screen(chromium, asgi_server, viewport):
    tag = tag_of(viewport)
    league = in_thread(swiss_night, tag)
    page = signed_in(chromium, asgi_server, league.organiser, viewport)
    page.goto(f"{asgi_server}/events/{league.event.slug}/tournament/run/")
    page.click("#pair-round")
    page.wait_for_selector("table.draft")
    shot(page, f"3-draft-{tag}")
    fits(page, viewport)
    for name in PLAYERS[:24]:
        assert page.locator("table.draft", has_text=name).count() == 1  # whole
    page.select_option("select[name=first]", index=0)
    page.select_option("select[name=second]", index=3)
    page.click("form[action$='/swap/'] button")
    page.wait_for_selector("table.draft")
    fits(page, viewport)
    assert page.locator(".message.error").count() == 0


# 4. The projector: every row on the screen, names whole -----------------------------------

PROJECTORS = pytest.mark.parametrize(
    "viewport", [LAPTOP, {"width": 1920, "height": 1080}], ids=["1366", "1920"]
)
# Rows of `selector` shown whole on the screen, and names cut (wider than their box).
ON_SCREEN = """(selector) => [...document.querySelectorAll(selector)].filter(row => {
  const box = row.getBoundingClientRect();
  return box.height > 0 && box.top >= 0 && box.bottom <= innerHeight && box.right <= innerWidth;
}).length"""
CUT = """() => [...document.querySelectorAll(".pair, .name")].filter(name =>
  name.offsetParent && name.scrollWidth > name.clientWidth + 1).length"""


def round_one_played(tag: str, pairs: int = 16):
    """A Swiss night whose first round is out, every table but the last two played."""
    from league.services import results
    from league.tournaments.services import swiss

    league = swiss_night(tag, pairs=pairs, rounds=4)
    swiss.pair_round(league.organiser, league.event)
    round_ = swiss.publish(league.organiser, league.event)
    for match in list(round_.matches.order_by("table"))[:-2]:
        game = [{"points_a": 100, "points_b": 40 + match.table}]
        results.enter_result(league.organiser, match, game)
    return league


@PROJECTORS
def test_the_projector_shows_every_row_of_16_pairs_with_names_whole(
    chromium, asgi_server, viewport
):
    tag = f"p{viewport['width']}"
    league = in_thread(round_one_played, tag)
    context = chromium.new_context(locale="es-ES", viewport=viewport)
    page = context.new_page()
    page.goto(f"{asgi_server}/events/{league.event.slug}/projector/?seconds=5")
    page.wait_for_selector("#pairings:not([hidden])")
    shot(page, f"4-projector-tables-{tag}")
    assert page.evaluate(ON_SCREEN, "#pairings .tables > li") == 8
    assert page.evaluate(CUT) == 0
    for name in PLAYERS:
        assert page.locator("#pairings", has_text=name).count() == 1
    page.wait_for_selector("#standings:not([hidden])", timeout=15000)
    shot(page, f"4-projector-standings-{tag}")
    assert page.evaluate(ON_SCREEN, ".projector-standings tbody tr") == 16
    assert page.evaluate(CUT) == 0
    assert page.get_attribute("#standings", "data-pages") == "1"
    assert page.evaluate("document.documentElement.scrollHeight") <= viewport["height"]
    context.close()


def test_a_projector_too_small_for_the_standings_turns_their_pages(chromium, asgi_server):
    league = in_thread(round_one_played, "small")
    context = chromium.new_context(locale="es-ES", viewport={"width": 1024, "height": 420})
    page = context.new_page()
    page.goto(f"{asgi_server}/events/{league.event.slug}/projector/?seconds=5")
    page.wait_for_selector("#standings:not([hidden])", timeout=30000)
    pages = int(page.get_attribute("#standings", "data-pages"))
    assert pages > 1
    seen = set()
    for number in range(1, pages + 1):
        page.wait_for_selector(f"#standings[data-page='{number}']", timeout=15000)
        shown = page.locator(".projector-standings tbody tr:not([hidden])")
        assert page.evaluate(ON_SCREEN, ".projector-standings tbody tr:not([hidden])") == (
            shown.count()
        )
        seen |= set(shown.all_inner_texts())
        shot(page, f"4-projector-small-page-{number}")
    assert len(seen) == 16  # every row, on one page or another
    context.close()


# 5. The round sheet on a phone: no box under the bar, the date box out of the way ----------

# The focused element's box and the sticky bar's top, as the screen shows them.
UNDER_BAR = """() => {
  const box = document.activeElement.getBoundingClientRect();
  const bar = document.querySelector(".sheet-actions").getBoundingClientRect();
  return box.bottom > bar.top && box.top < bar.bottom && box.bottom <= innerHeight + 1;
}"""


def paired(tag: str):
    from league.tournaments.services import swiss

    league = swiss_night(tag)
    swiss.pair_round(league.organiser, league.event)
    return league, swiss.publish(league.organiser, league.event)


@VIEWPORTS
def test_a_focused_score_box_is_never_under_the_save_bar(chromium, asgi_server, viewport):
    tag = tag_of(viewport)
    league, round_ = in_thread(paired, tag)
    page = signed_in(chromium, asgi_server, league.organiser, viewport)
    page.goto(f"{asgi_server}/rounds/{round_.pk}/sheet/")
    assert page.locator("details.round-time[open]").count() == 1  # the first round: asked
    boxes = page.locator(".sheet-line .points input")
    assert boxes.count() == 12
    boxes.first.focus()
    shot(page, f"5-sheet-first-box-{tag}", whole=False)
    assert not page.evaluate(UNDER_BAR)
    for _ in range(11):  # Tab by Tab: the next box (past the lisa tick)
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.type") == "checkbox":
            page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.dataset.side") in ("a", "b")
        assert not page.evaluate(UNDER_BAR)
    shot(page, f"5-sheet-last-box-{tag}", whole=False)
    fits(page, viewport)


@VIEWPORTS
def test_the_round_date_box_stays_closed_once_set_or_skipped(chromium, asgi_server, viewport):
    from league.tournaments.services import swiss

    tag = tag_of(viewport)
    league, round_ = in_thread(paired, tag)
    page = signed_in(chromium, asgi_server, league.organiser, viewport)
    page.goto(f"{asgi_server}/rounds/{round_.pk}/sheet/")
    for line in range(6):  # the round saved without a date: skipped
        row = page.locator(".sheet-line").nth(line)
        row.locator("input[data-side=a]").fill("100")
        row.locator("input[data-side=b]").fill(str(30 + line))
    page.click("#save-round")
    page.wait_for_selector("#round-complete")
    assert page.locator("details.round-time[open]").count() == 0

    def second_round():
        swiss.pair_round(league.organiser, league.event)
        return swiss.publish(league.organiser, league.event)

    second = in_thread(second_round)
    page.goto(f"{asgi_server}/rounds/{second.pk}/sheet/")
    assert page.locator("details.round-time").count() == 1
    assert page.locator("details.round-time[open]").count() == 0
    assert page.locator(".sheet-line").first.is_visible()
    shot(page, f"5-sheet-second-round-{tag}")
    fits(page, viewport)


# 6. A club night's sheet names each player's home club as text ----------------------------


@VIEWPORTS
def test_a_csv_whose_clubs_are_not_on_the_site_imports_whole(
    chromium, asgi_server, viewport, tmp_path
):
    tag = tag_of(viewport)
    league = in_thread(build_league, 0, generate=False, tag=tag)
    lines = ["jugador 1;jugador 2;club"]
    lines += [f"{PLAYERS[2 * i]};{PLAYERS[2 * i + 1]};Club Los Mina" for i in range(3)]
    lines += [f"{PLAYERS[6]};{PLAYERS[7]};Club Testw{viewport['width']}"]  # the site's own
    path = tmp_path / "noche.csv"
    path.write_bytes("\r\n".join(lines).encode("cp1252"))
    page = signed_in(chromium, asgi_server, league.organiser, viewport)
    page.goto(f"{asgi_server}/events/{league.event.slug}/entries/import/")
    page.set_input_files("input[type=file]", str(path))
    page.click("main form[enctype] button[type=submit]")
    preview = page.locator("table.preview")
    assert preview.locator("tr.bad").count() == 0
    assert preview.locator("td", has_text="Club Los Mina").count() == 3
    club = preview.locator("td", has_text="Club Los Mina").first.bounding_box()
    assert club["x"] + club["width"] <= viewport["width"]  # in sight, not scrolled to
    shot(page, f"6-import-preview-{tag}")
    fits(page, viewport)
    page.click("#confirm-import")
    page.wait_for_selector(".entry-club")
    assert page.locator(".entry-club", has_text="Club Los Mina").count() == 3
    saved = in_thread(
        lambda: sorted(Entry.objects.filter(event=league.event).values_list("club_name", flat=True))
    )
    assert saved == ["", "Club Los Mina", "Club Los Mina", "Club Los Mina"]


# 8. An invitation starts from the least powerful role; 10. the club's country ------------


@VIEWPORTS
def test_the_club_page_invites_as_a_player_and_names_its_country(chromium, asgi_server, viewport):
    tag = tag_of(viewport)
    league = in_thread(build_league, 0, generate=False, tag=tag)

    def in_the_dominican_republic():
        league.club.country, league.club.city = "DO", "Santo Domingo"
        league.club.save()

    in_thread(in_the_dominican_republic)
    page = signed_in(chromium, asgi_server, league.owner, viewport)
    page.goto(f"{asgi_server}/clubs/{league.club.slug}/")
    assert page.inner_text("#club-country") == "República Dominicana"
    role = page.locator("form[action$='/invite/'] select[name=role]")
    assert role.input_value() == "player"
    assert role.locator("option").first.inner_text() == "Jugador"
    page.click("form[action$='/invite/'] button[type=submit]")
    assert in_thread(lambda: league.club.invitations.get().role) == "player"
    shot(page, f"8-club-{tag}")
    fits(page, viewport)


# 9. After the last round, "Finish the event" where the organiser looks --------------------


def all_rounds_played(tag: str):
    """A Swiss night of 6 pairs whose 2 rounds are all played."""
    from league.services import results
    from league.tournaments.services import swiss

    league = swiss_night(tag, pairs=6, rounds=2)
    for _ in range(2):
        swiss.pair_round(league.organiser, league.event)
        round_ = swiss.publish(league.organiser, league.event)
        for match in round_.matches.filter(entry_b__isnull=False):
            game = [{"points_a": 100, "points_b": 40 + match.table}]
            results.enter_result(league.organiser, match, game)
    return league


@VIEWPORTS
def test_after_the_last_round_the_event_is_finished_from_the_dashboard_or_run_page(
    chromium, asgi_server, viewport
):
    tag = f"fin{viewport['width']}"
    league = in_thread(all_rounds_played, tag)
    slug = league.event.slug
    page = signed_in(chromium, asgi_server, league.organiser, viewport)
    page.goto(f"{asgi_server}/dashboard/")
    card = page.locator(f"[data-event='{slug}']")
    assert "Todo está jugado: finaliza el evento" in card.inner_text()
    assert "Aquí no hay nada pendiente" not in card.inner_text()
    shot(page, f"9-dashboard-{tag}")
    fits(page, viewport)
    card.locator("li", has_text="finaliza el evento").locator("a").click()
    page.wait_for_url(f"**/events/{slug}/tournament/run/#finish")
    finish = page.locator("#finish-event")
    assert finish.inner_text() == "Finalizar el evento"
    assert finish.is_visible()
    shot(page, f"9-run-finish-{tag}", whole=False)
    fits(page, viewport)
    assert page.locator("#import-csv").count() == 1  # still running: entries may come
    finish.click()
    page.wait_for_url(f"**/events/{slug}/tournament/run/")
    assert "El evento está finalizado" in page.inner_text(".messages")
    assert in_thread(lambda: Event.objects.get(pk=league.event.pk).status) == "finished"
    # 10. A finished event takes no more entries and no check-in.
    assert page.locator("#finish-event").count() == 0
    assert page.locator("#import-csv").count() == 0
    assert page.locator("form[action*='/check-in/']").count() == 0
    shot(page, f"10-finished-run-{tag}")
    page.goto(f"{asgi_server}/events/{slug}/manage/")
    assert page.locator("#import-csv").count() == 0
    assert page.locator("form[action*='/check-in/']").count() == 0
    page.goto(f"{asgi_server}/dashboard/")
    assert page.locator(f"[data-event='{slug}']").count() == 0  # nothing waits any more


# 10. The phone's header on one line, and the run page in parts a thumb reaches ------------

PARTS = {
    "Ahora": ".steps",
    "Inscripciones": "#entries",
    "Opciones": "#forbidden",
    "Clasificación": "#standings",
    "Rondas": "#round-1",
}


WHOLE_TABS = """[...document.querySelectorAll('#run-tabs a')]
  .every(a => a.scrollWidth <= a.clientWidth)"""


@VIEWPORTS
def test_the_header_is_one_line_and_the_run_page_comes_in_parts(chromium, asgi_server, viewport):
    tag = f"parts{viewport['width']}"
    league, _round = in_thread(paired, tag)
    run = f"{asgi_server}/events/{league.event.slug}/tournament/run/"
    page = signed_in(chromium, asgi_server, league.organiser, viewport)
    page.goto(run)
    header = page.locator("header.topbar").bounding_box()
    language = page.locator("#language-select").bounding_box()
    brand = page.locator("header.topbar .brand").bounding_box()
    # The language beside the brand, not below the menu.
    assert language["y"] < brand["y"] + brand["height"]
    tabs = page.locator("#run-tabs")
    if viewport is PHONE:
        assert header["height"] <= 90
        assert not page.locator("#mainnav").is_visible()
        page.click(".menu-button")
        assert page.get_by_role("link", name="Mis eventos").is_visible()
        shot(page, f"10-menu-open-{tag}", whole=False)
        page.click(".menu-button")
        assert not page.locator("#mainnav").is_visible()
        # The parts' bar at the bottom of the screen, one part shown at a time.
        bar = tabs.bounding_box()
        assert bar["y"] + bar["height"] <= viewport["height"] + 1
        assert bar["y"] >= viewport["height"] - 90
        assert tabs.locator("a").all_inner_texts() == list(PARTS)
        assert page.evaluate(WHOLE_TABS)
        for name, shown in PARTS.items():
            tabs.get_by_role("link", name=name).click()
            assert page.locator(shown).first.is_visible()
            for other, hidden in PARTS.items():
                if other != name:
                    assert not page.locator(hidden).first.is_visible()
            assert page.evaluate("document.documentElement.scrollHeight") < 3000
            fits(page, viewport)
            shot(page, f"10-part-{name}-{tag}")
        # A link to a part of the page (the dashboard's) opens that part.
        page.goto(run + "#entries")
        assert page.locator("#entries").is_visible() and not page.locator(".steps").is_visible()
    else:
        assert header["height"] <= 60
        assert not page.locator(".menu-button").is_visible() and not tabs.is_visible()
        for shown in PARTS.values():
            assert page.locator(shown).first.is_visible()
        shot(page, f"10-run-{tag}")
    fits(page, viewport)


def test_a_printed_scoresheet_has_an_even_header_and_fills_its_a4_page(chromium, asgi_server):
    """As printed (A4, 12 mm margins): the event and round on the left with the date below,
    the table's number on the right, on one line; the sheet fills its page."""
    league, round_ = in_thread(paired, "sheet")
    page = signed_in(chromium, asgi_server, league.organiser, {"width": 794, "height": 1123})
    page.goto(f"{asgi_server}/events/{league.event.slug}/scoresheets/?round={round_.number}")
    assert pdf_pages(page.pdf(format="A4")) == 6  # one page per table
    page.emulate_media(media="print")
    page.set_viewport_size({"width": 703, "height": 1032})  # A4 less its margins, in CSS px
    sheet = page.locator(".scoresheet").first
    title = sheet.locator(".sheet-title").bounding_box()
    table = sheet.locator(".sheet-table").bounding_box()
    assert abs((title["y"] + title["height"] / 2) - (table["y"] + table["height"] / 2)) <= 2
    assert table["x"] + table["width"] >= 703 - 2  # the table's number at the right edge
    assert title["x"] <= 1
    assert sheet.bounding_box()["height"] >= 0.95 * 1032
    shot(page, "10-scoresheet-print", whole=False)
