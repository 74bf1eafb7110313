"""In Chromium, on a desktop, one organiser runs a club night alone, signed in once: they
sign up, create a club and a Swiss event, import 12 pairs of players without accounts from a
CSV file, run three rounds (pair, enter each round on the round sheet, pair the next), open
the projector view, print the scoresheets (one PDF page per table) and export the standings
as CSV, which match the page."""

import csv
import io
import re

import pytest

from league.models import Entry, Event, Player, Result
from tests.conftest import in_thread

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]
PASSWORD = "tranque-y-capicua-9"
NAMES = [
    ("Ana Pérez", "Luis Peña"),
    ("Marta Núñez", "João Brandão"),
    ("Carmen Rosario", "Pedro Almánzar"),
    ("Rosa Jiménez", "Héctor Ureña"),
    ("Lucía Báez", "Ramón Tavárez"),
    ("Inés Gómez", "Julio Ñañez"),
    ("Teresa Díaz", "Andrés Suárez"),
    ("Sofía Cruz", "Mateo Ortíz"),
    ("Elena Paredes", "Víctor Mejía"),
    ("Paula Ríos", "Óscar Batista"),
    ("Clara Vidal", "Tomás Acosta"),
    ("Nieves Soto", "Raúl Familia"),
]


def pdf_pages(data: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", data))


def prepare(page, base: str, tmp_path) -> None:
    """Sign up (the only sign-in of the evening), create a club and a Swiss event of three
    rounds, and import its 12 pairs from a Latin-1 CSV file as a spreadsheet writes it."""
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": base}])
    page.goto(base + "/accounts/signup/")
    page.fill("#id_username", "noche")
    page.fill("#id_email", "noche@example.org")
    page.fill("#id_display_name", "Nora Organiza")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("main form button[type=submit]")
    page.goto(base + "/dashboard/")
    page.click("main a[href='/clubs/new/']")
    page.fill("#id_name", "Club del Parque")
    page.fill("#id_city", "Santo Domingo")
    page.click("main form button[type=submit]")
    page.wait_for_url(re.compile(r".*/clubs/club-del-parque/$"))

    # The format first, then its fields.
    page.click("main a[href$='/events/new/']")
    page.click("a[data-format=swiss]")
    page.fill("#id_name", "Noche suiza")
    page.select_option("#id_rule_preset", "tournament")
    page.click("#save-event")
    page.wait_for_url(re.compile(r".*/events/noche-suiza/manage/$"))

    lines = ["player 1;player 2;seed"] + [f"{a};{b};{i}" for i, (a, b) in enumerate(NAMES, 1)]
    path = tmp_path / "parejas.csv"
    path.write_bytes("\r\n".join(lines).encode("cp1252"))
    page.click("#import-csv")
    page.set_input_files("input[type=file]", str(path))
    page.click("main form[enctype] button[type=submit]")
    assert page.locator("table.preview tr[data-line]").count() == 12
    assert page.locator("table.preview .badge.new").count() == 24
    assert in_thread(lambda: Entry.objects.count()) == 0  # nothing saved before confirming
    page.click("#confirm-import")
    page.wait_for_url(re.compile(r".*/events/noche-suiza/manage/$"))
    assert in_thread(
        lambda: (Entry.objects.count(), Player.objects.filter(user__isnull=True).count())
    ) == (12, 24)
    page.goto(base + "/events/noche-suiza/tournament/run/")
    page.fill("#options [name=rounds]", "3")
    page.click("#options button[type=submit]")


def print_scoresheets(page, base: str, number: int) -> None:
    page.goto(base + f"/events/noche-suiza/scoresheets/?round={number}")
    assert pdf_pages(page.pdf(format="A4")) == 6  # one page per table


def standings_match_the_export(page, base: str) -> None:
    page.goto(base + "/events/noche-suiza/tournament/")
    shown = [
        (row.locator("td").nth(0).inner_text(), row.locator("td").nth(1).inner_text())
        for row in page.locator("#standings table.standings tbody tr").all()
    ]
    page.goto(base + "/events/noche-suiza/tournament/run/")
    page.click(".csv-menu summary")
    with page.expect_download() as download:
        page.click("#export-standings")
    text = download.value.path().read_bytes().decode("utf-8-sig")
    exported = list(csv.DictReader(io.StringIO(text)))
    assert len(shown) == 12
    assert [(r["position"], r["entry"]) for r in exported] == shown


def test_one_organiser_prepares_a_club_night(page, asgi_server, tmp_path):
    """Up to the first round: pair, publish, print; the standings exported match the page."""
    base = asgi_server
    prepare(page, base, tmp_path)
    page.click("#pair-round")
    page.click("#publish")
    assert in_thread(lambda: Event.objects.get().status) == Event.Status.RUNNING
    print_scoresheets(page, base, 1)
    standings_match_the_export(page, base)


def scores_of(table: int, number: int) -> tuple[int, int]:
    """A different score at every table of every round; side A wins at odd tables."""
    margin = 10 * table + number
    return (100, 100 - margin) if table % 2 else (100 - margin, 100)


def test_one_organiser_runs_a_club_night(page, chromium, asgi_server, tmp_path):
    """The whole evening: three Swiss rounds entered on the round sheet, the projector view,
    the scoresheets printed, the standings exported as on the page."""
    base = asgi_server
    prepare(page, base, tmp_path)
    for number in (1, 2, 3):
        page.click("#pair-round")
        page.click("#publish")
        if number == 1:
            print_scoresheets(page, base, 1)
            page.goto(base + "/events/noche-suiza/tournament/run/")
        page.click("#round-sheet-link")
        rows = page.locator("[data-result-row]")
        assert rows.count() == 6
        for i in range(rows.count()):
            row = rows.nth(i)
            a, b = scores_of(int(row.get_attribute("data-table")), number)
            row.locator(".side.a input").first.fill(str(a))
            row.locator(".side.b input").first.fill(str(b))
        page.click("#save-round")
        page.wait_for_selector(".message.success")
        confirmed = in_thread(
            lambda n=number: Result.objects.filter(
                match__round__number=n, status=Result.Status.CONFIRMED
            ).count()
        )
        assert confirmed == 6  # entered by the organiser: they count at once
        page.goto(base + "/events/noche-suiza/tournament/run/")
    assert page.locator("#pair-round").count() == 0  # the three rounds are played

    # The projector, in a second window of the same browser session.
    projector = page.context.new_page()
    projector.goto(base + "/events/noche-suiza/projector/")
    text = projector.locator("body").inner_text()
    assert all(name in text for name, _partner in NAMES)
    projector.close()

    standings_match_the_export(page, base)
