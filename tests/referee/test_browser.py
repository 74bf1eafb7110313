"""A referee steps through a disputed hand, finds the illegal pass, corrects it and rules."""

import pytest

from games.disputes import services
from games.disputes.models import Ruling
from league.models import Result
from tests.conftest import in_thread

from .conftest import build_referees

pytestmark = pytest.mark.django_db(transaction=True)


def test_referee_finds_the_illegal_pass_corrects_it_and_rules(page, asgi_server):
    refs = in_thread(build_referees, "w")
    dispute = in_thread(services.open_result_dispute, refs.b[0], refs.match, 1, 1, "Pase ilegal.")
    referee = refs.league.referee
    referee.set_password("arbitro-de-mesa-7")
    referee.save()

    page.goto(asgi_server + "/accounts/login/")
    page.fill("#id_username", referee.username)
    page.fill("#id_password", "arbitro-de-mesa-7")
    page.click("main form button[type=submit]")
    page.wait_for_url(asgi_server + "/dashboard/")
    page.goto(f"{asgi_server}/disputes/{dispute.pk}/")

    # step through: the deal, forward, back, the slider, then the first fault
    page.wait_for_selector(".seat-0 .domino")
    assert page.locator(".seat-0 .domino").count() == 7
    page.click("#step-forward")
    assert page.locator("#line .domino").count() == 1
    page.click("#step-forward")
    page.click("#step-back")
    assert page.input_value("#slider") == "1"
    page.click("#first-fault")
    assert page.input_value("#slider") == "3"
    assert page.locator("#step-label").evaluate("el => el.classList.contains('at-fault')")
    assert page.locator(".seat-1.at-fault").is_visible()
    assert page.inner_text("#fault-code") == "illegal_pass"
    assert page.inner_text("#fault-rule")
    assert page.locator("#actions li.fault input").input_value() == "pass"

    # correct the pass: the engine adjudicates the edited record again
    page.fill("#action-3", "5-2")
    page.press("#action-3", "Tab")
    page.wait_for_selector("#fault", state="hidden")
    assert "ok" in page.get_attribute("#verdict", "class")
    assert "48–0" in page.inner_text("#points-line")
    page.click("#step-last")
    assert page.input_value("#slider") == "27"

    page.select_option("#rule-kind", "correct")
    page.fill("#rule-reason", "Tenía el 5-2: debía jugarlo.")
    page.click("#rule-form button[type=submit]")
    page.wait_for_selector("#ruling-log")
    assert "Tenía el 5-2" in page.inner_text("#ruling-log")

    ruling = Ruling.objects.get(dispute=dispute)
    assert ruling.kind == "correct" and ruling.by == referee
    assert ruling.record_after["actions"][3] == "5-2"
    result = Result.objects.get(match=refs.match, status=Result.Status.CONFIRMED)
    assert (result.points_a, result.points_b) == (128, 60)

    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{asgi_server}/disputes/{dispute.pk}/")
    page.wait_for_selector(".seat-0 .domino")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 400
