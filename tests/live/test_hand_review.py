"""The analysis of a finished live hand: a real Celery worker fills it in, once; only the
hand's players and its event's staff see it, on its page and through the API."""

import random

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.engine import ENDED, PRESETS, apply, bot_action, new_hand, to_record
from games.models import Hand, HandReview
from games.services import reviews
from tests.conftest import in_thread, worker_finished

from .conftest import full_table, make_players

pytestmark = pytest.mark.django_db(transaction=True)


def finished_hand(prefix: str, seed: int = 4) -> tuple[Hand, list]:
    """A table of four players and one finished hand of theirs, played by medium bots."""
    users = make_players(4, prefix)
    table = full_table(users)
    rng = random.Random(seed)
    state = new_hand(PRESETS["dominican"], rng=rng, players=[u.player.display_name for u in users])
    while state.status not in ENDED:
        state = apply(state, bot_action(state, rng, "medium"))[0]
    hand = Hand.objects.create(table=table, number=1, record=to_record(state), ruling={})
    return hand, users


def test_a_worker_analyses_a_hand_once(celery_worker_process):
    hand, users = in_thread(finished_hand, "w")
    review = in_thread(reviews.request_review, hand.record)
    assert review.status == HandReview.Status.PENDING
    review = worker_finished(review, "analyse the hand", timeout=90)
    assert review.status == HandReview.Status.DONE
    assert review.done == review.total == len(review.result["moves"]) > 0
    first = review.result
    # A second request, and a second delivery of the task, change nothing.
    assert in_thread(reviews.request_review, hand.record).pk == review.pk
    in_thread(reviews.run_review, review.pk)
    review.refresh_from_db()
    assert review.result == first and HandReview.objects.count() == 1
    data = reviews.payload(review, reviews.seat_names(hand.record))
    assert data["verdict"] and all(m["player"].startswith("W") for m in data["moves"])


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_only_the_players_and_the_staff_see_a_hand():
    hand, users = in_thread(finished_hand, "v")
    stranger = in_thread(make_players, 1, "x")[0]
    player = client_for(users[1])
    outsider = client_for(stranger)
    page = reverse("hand", args=[hand.table.code, hand.number])
    api = reverse("api:hand_analysis", args=[hand.pk])
    assert player.get(page).status_code == 200
    assert outsider.get(page).status_code == 404
    assert (
        outsider.post(reverse("hand_analysis", args=[hand.table.code, hand.number])).status_code
        == 404
    )
    assert outsider.get(api).status_code == 404
    assert Client().get(api).status_code in (401, 403)
    assert player.get(api).json() == {"status": "none"}
    assert HandReview.objects.count() == 0
    answer = player.post(api)
    assert answer.status_code == 200 and answer.json()["status"] == "pending"
    assert HandReview.objects.count() == 1


def test_a_record_that_cannot_be_reviewed_is_refused():
    with pytest.raises(reviews.ReviewError) as bad:
        reviews.request_review({"format": "domino-hand/1", "rules": "dominican"})
    assert bad.value.code == "bad_record" and bad.value.message
    rng = random.Random(2)
    state = new_hand(PRESETS["dominican"], rng=rng)
    state = apply(state, bot_action(state, rng))[0]
    with pytest.raises(reviews.ReviewError) as unfinished:
        reviews.request_review(to_record(state))
    assert unfinished.value.code == "not_ended"
    assert HandReview.objects.count() == 0


@pytest.mark.parametrize("size", [(390, 844), (1366, 768)])
def test_the_hand_page_shows_where_the_hand_was_lost(chromium, asgi_server, log_dir, size):
    hand, users = in_thread(finished_hand, "p")
    review = in_thread(reviews.request_review, hand.record)
    in_thread(reviews.run_review, review.pk)  # as the worker would
    users[0].set_password("mesa-de-domino-9")
    in_thread(users[0].save)
    context = chromium.new_context(locale="es-ES", viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.goto(asgi_server + "/accounts/login/")
    page.fill("#id_username", users[0].username)
    page.fill("#id_password", "mesa-de-domino-9")
    page.click("main form button[type=submit]")
    page.wait_for_url("**/dashboard/")
    page.goto(f"{asgi_server}/play/t/{hand.table.code}/hands/{hand.number}/")
    page.wait_for_selector("#analysis-verdict:not([hidden])")
    verdict = page.inner_text("#analysis-verdict")
    result = in_thread(lambda: HandReview.objects.get(pk=review.pk).result)
    with translation.override("es"):
        expected = reviews.verdict_text(result["verdict"], reviews.seat_names(hand.record))
    assert verdict == expected
    moves = page.locator("#analysis-moves li")
    assert moves.count() == len(result["moves"])
    assert page.locator("#analysis-moves li.costly").count() == len(result["costly"])
    chosen = result["moves"][len(result["moves"]) // 2]
    moves.nth(len(result["moves"]) // 2).locator("button").click()
    assert page.input_value("#slider") == str(chosen["index"])
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= size[0], "the page scrolls sideways"
    page.screenshot(path=str(log_dir / f"hand-analysis-{size[0]}.png"), full_page=True)
    context.close()
