"""A real Celery worker checks a finished hand off the request path, once."""

import time

import pytest

from games.fairplay import services
from games.fairplay.models import HandCheck
from tests.conftest import in_thread
from tests.live.conftest import make_players

from .conftest import make_table, play_and_store

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_worker_checks_a_finished_hand_once(celery_worker_process):
    def stored():
        users = make_players(4, "w")
        return play_and_store(make_table(users), users, 1, seed=11)[0]

    hand = in_thread(stored)
    in_thread(services.queue_hand, hand.pk)
    in_thread(services.queue_hand, hand.pk)  # delivered twice
    deadline = time.monotonic() + 120
    while not in_thread(lambda: HandCheck.objects.filter(hand=hand).exists()):
        assert time.monotonic() < deadline, "the worker did not check the hand"
        time.sleep(0.5)
    check = in_thread(HandCheck.objects.get, hand=hand)
    assert check.status == HandCheck.Status.DONE
    time.sleep(2)
    assert in_thread(lambda: HandCheck.objects.filter(hand=hand).count()) == 1
    assert in_thread(HandCheck.objects.get, hand=hand).checked == check.checked
