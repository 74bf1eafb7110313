"""The pages people use, checked by axe-core (the engine browsers' accessibility tools use)
in Chromium on a phone and a laptop: no serious or critical violation."""

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.urls import reverse

from tests.conftest import in_thread

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"phone": (390, 844), "laptop": (1366, 768)}


def _demo_pages() -> list[str]:
    """The demo's pages, and a live table its organiser plays with three bots."""
    from django.contrib.auth import get_user_model

    from demo import club as demo
    from games.services import tables
    from league.models import Event, Match, Organisation, Round

    demo.run()
    club = Organisation.objects.get(slug=demo.CLUB_SLUG)
    match = Match.objects.filter(event__organisation=club, results__isnull=False).first()
    league = match.event
    cup = Event.objects.get(organisation=club, format=Event.Format.DOUBLE_ELIMINATION)
    organiser = get_user_model().objects.get(username="organiser")
    table = tables.create_table(host=organiser, rules="dominican")
    tables.sit(table.pk, organiser, 0)
    for seat in (1, 2, 3):
        tables.add_bot(table.pk, organiser, seat)
    return [
        reverse("home"),
        reverse("events"),
        reverse("club", args=[club.slug]),
        reverse("event", args=[league.slug]),
        reverse("standings", args=[league.slug]),
        reverse("match", args=[match.pk]),
        reverse("round_sheet", args=[Round.objects.filter(event=league).first().pk]),
        reverse("event", args=[cup.slug]),
        reverse("standings", args=[cup.slug]),
        reverse("tournament", args=[cup.slug]),
        reverse("dashboard"),
        reverse("event_manage", args=[league.slug]),
        reverse("play"),
        reverse("table", args=[table.code]),
        reverse("ratings:pools"),
        reverse("disputes"),
    ]


# Rules that fail whatever impact axe gives them: a page has one h1, headings go down one
# level at a time, and a region that scrolls can be reached with the keyboard.
ALWAYS = {"page-has-heading-one", "heading-order", "scrollable-region-focusable"}


def _describe(node: dict) -> str:
    data = (node.get("any") or [{}])[0].get("data") or {}
    colours = f" {data['fgColor']} on {data['bgColor']}" if "fgColor" in data else ""
    return node["target"][0] + colours


def _violations(page) -> list[str]:
    results = Axe().run(page)
    return [
        f"{violation['id']} ({violation['impact']}): "
        + "; ".join(_describe(node) for node in violation["nodes"][:3])
        for violation in results.response["violations"]
        if violation["impact"] in ("serious", "critical") or violation["id"] in ALWAYS
    ]


def test_the_pages_people_use_have_no_serious_accessibility_violation(chromium, asgi_server):
    pages = in_thread(_demo_pages)
    found = {}
    for size, (width, height) in SIZES.items():
        context = chromium.new_context(locale="es-ES", viewport={"width": width, "height": height})
        page = context.new_page()
        page.set_default_timeout(20000)
        page.goto(asgi_server + reverse("login"))
        page.fill("#id_username", "organiser")
        page.fill("#id_password", "capicua")
        page.click("main form button[type=submit]")
        page.wait_for_url("**/dashboard/")
        for path in pages:
            page.goto(asgi_server + path)
            page.wait_for_load_state("networkidle")
            if violations := _violations(page):
                found[f"{size} {path}"] = violations
        context.close()
    assert found == {}, "\n".join(f"{where}: {v}" for where, v in found.items())
