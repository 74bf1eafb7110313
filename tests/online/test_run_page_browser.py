"""The run page of an online Swiss in Chromium at 390×844, in Spanish (#34): the organiser
lets the event run itself from the page (a refused setting shown in Spanish, nothing
changed), then, once the autopilot has started round 1, the page shows where it is and its
controls instead of "Pair round 1"; pausing, resuming and extending the round work from
it. The page fits 320, 390 and 1,366 px."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.services import autopilot as live_autopilot
from league.models import Autopilot, Event
from tests.conftest import in_thread
from tests.tournaments.test_browser import log_in, no_errors
from tests.tournaments.test_round_sheet import shot

from .conftest import check_in_all, online_event

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

SIZES = ((320, 640), (390, 844), (1366, 768))


def fits(page, name: str) -> None:
    """No sideways scrolling at any of the widths; a screenshot of each."""
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        assert page.evaluate("document.documentElement.scrollWidth") <= width, (name, width)
        shot(page, f"{name}-{width}")
    page.set_viewport_size({"width": 390, "height": 844})


def test_an_organiser_runs_an_online_swiss_from_its_run_page(chromium, asgi_server):
    data = online_event(Event.Format.SWISS, 4, tag="rb", rounds=2)
    event = data.event
    context = chromium.new_context(locale="es-ES", viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(60000)
    log_in(page, asgi_server, data.organiser.username)
    page.goto(f"{asgi_server}/events/{event.slug}/tournament/run/")
    settings = page.locator("#autopilot-settings")
    assert settings.is_visible() and "juegue solo" in settings.inner_text()
    fits(page, "run-autopilot-settings")
    # the time limit shows only for its match format (the event form's script)
    time_limit = page.locator("#id_time_limit")
    assert page.input_value("#id_match_format") != "time_limit" and not time_limit.is_visible()
    page.select_option("#id_match_format", "time_limit")
    assert time_limit.is_visible()
    page.select_option("#id_match_format", "target")

    starts = timezone.localtime(timezone.now() + timedelta(hours=1))
    typed = {"starts": starts.strftime("%Y-%m-%dT%H:%M"), "check_in_minutes": "10"}
    typed |= {"pause_seconds": "-5", "round_minutes": "30", "turn_seconds": "60"}
    for name, value in typed.items():
        page.fill(f"#id_{name}", value)
    page.click("#autopilot-save")
    page.wait_for_selector("#autopilot-settings .error")
    refusal = page.locator("#autopilot-settings .field:has(#id_pause_seconds) .error")
    assert "La pausa entre rondas" in refusal.inner_text()  # under the field it is about
    page.set_viewport_size({"width": 1366, "height": 768})  # three fields a row, lined up
    rows = [("starts", "check_in_minutes", "pause_seconds"), ("match_format", "round_minutes")]
    for row in rows:
        tops = {page.locator(f"#id_{name}").bounding_box()["y"] for name in row}
        assert len(tops) == 1, (row, tops)  # a label on two lines moves its row's inputs down
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.input_value("#id_check_in_minutes") == "10"  # what was typed, kept
    assert not Autopilot.objects.filter(event=event).exists()
    fits(page, "run-autopilot-refused")

    page.fill("#id_pause_seconds", "0")
    page.click("#autopilot-save")
    page.wait_for_selector("#autopilot-state")
    no_errors(page)
    assert page.locator("#autopilot-state").get_attribute("data-state") == "scheduled"
    assert page.locator("#pair-round").count() == 0
    pilot = Autopilot.objects.get(event=event)
    assert (pilot.check_in_minutes, pilot.round_minutes) == (10, 30)

    # the clock reaches the start: the autopilot (as beat would) starts round 1
    Autopilot.objects.filter(pk=pilot.pk).update(starts=timezone.now() + timedelta(minutes=1))
    in_thread(check_in_all, data)
    in_thread(live_autopilot.tick, event.pk, timezone.now() + timedelta(minutes=2))
    page.reload()
    assert page.locator("#autopilot-state").get_attribute("data-state") == "round"
    assert "Ronda 1" in page.locator("#autopilot").inner_text()
    assert page.locator("#pair-round").count() == 0
    assert page.locator("#autopilot-settings").count() == 0  # fixed once it started
    fits(page, "run-autopilot-round")

    page.click("#autopilot-pause")
    page.wait_for_selector("#autopilot-resume")
    no_errors(page)
    assert page.locator("#autopilot-state").get_attribute("data-state") == "paused"
    assert Autopilot.objects.get(pk=pilot.pk).paused is not None
    page.click("#autopilot-resume")
    page.wait_for_selector("#autopilot-pause")
    assert Autopilot.objects.get(pk=pilot.pk).paused is None

    deadline = Autopilot.objects.get(pk=pilot.pk).round_deadline
    page.fill("#autopilot input[name=minutes]", "5")
    page.click("#autopilot-extend")
    page.wait_for_selector(".message.success")
    no_errors(page)
    extended = Autopilot.objects.get(pk=pilot.pk).round_deadline
    assert extended == deadline + timedelta(minutes=5)
    context.close()
