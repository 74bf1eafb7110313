"""A hand played at a live table is counted by the real Celery worker."""

import time
import uuid

import pytest

from games.engine import legal_actions, replay
from games.models import Table
from games.services import tables
from games.stats.selectors import statistics
from tests.conftest import in_thread, worker_said

from .conftest import make_player

pytestmark = pytest.mark.django_db(transaction=True)


def play_one_hand_against_bots(player) -> Table:
    """The player against three bots, under rules where one hand decides the match."""
    user = player.user
    table = tables.create_table(host=user, rules={"preset": "tournament", "target": 1})
    tables.sit(table.pk, user, 0)
    for seat in (1, 2, 3):
        tables.add_bot(table.pk, user, seat)
    while True:
        table = Table.objects.get(pk=table.pk)
        if table.status != Table.Status.PLAYING:
            return table
        state = replay(table.state)
        action = legal_actions(state)[0]
        tables.act(table.pk, user, action=action, version=table.version, client_id=uuid.uuid4().hex)


def test_the_worker_counts_a_finished_hand(celery_worker_process):
    player = in_thread(make_player, "Hana")
    table = in_thread(play_one_hand_against_bots, player)
    hands = list(table.hands.all())  # one, unless a tied tranque left the match open
    won = sum(h.ruling["winner"] is not None and h.ruling["winner"]["side"] == 0 for h in hands)
    deadline = time.monotonic() + 60
    while (figures := statistics(player.pk).overall.figures).hands < len(hands):
        assert time.monotonic() < deadline, worker_said(celery_worker_process)
        time.sleep(0.2)
    over = table.status == Table.Status.FINISHED
    assert (figures.hands, figures.hands_won, figures.matches) == (len(hands), won, int(over))
