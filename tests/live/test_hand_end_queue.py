"""A hand's last action reaches the table's sockets and is acked even when the tasks it
queues (the players' statistics, fair play) cannot be queued: the broker down, say."""

import random

import pytest

from core import tasks
from games.engine import ENDED, legal_actions
from games.models import Action, Hand, Table
from games.services import messages
from games.services import tables as table_services
from games.services.messages import hand_state
from tests.live.conftest import full_table, make_players

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_last_action_of_a_hand_is_rung_when_its_tasks_cannot_be_queued(monkeypatch):
    queued = []

    class Unreachable:
        def __init__(self, name: str) -> None:
            self.name = name

        def apply_async(self, *args, **kwargs):
            queued.append(self.name)
            raise ConnectionError("the broker is down")

    monkeypatch.setattr(tasks, "task", Unreachable)
    users = make_players(4)
    table = full_table(users)
    outbox: list[tuple[str, dict]] = []
    token = messages._outbox.set(outbox)  # what call_service collects, as a consumer would
    rng = random.Random(2)
    try:
        while (state := hand_state(table)).status not in ENDED:
            outbox.clear()
            answer = table_services.act(
                table.pk,
                table.seats.get(number=state.turn).user,
                action=rng.choice(legal_actions(state)),
                version=table.version,
                client_id=f"c{table.version}",
            )
            table = Table.objects.get(pk=table.pk)
    finally:
        messages._outbox.reset(token)
    assert answer == {"type": "ack", "id": answer["id"], "version": table.version}
    assert Action.objects.filter(table=table, version=table.version).exists()
    assert Hand.objects.filter(table=table).count() == 1
    assert queued  # the hand's tasks were tried, and failed
    rung = [message for _, message in outbox]
    assert [(m["version"], m["event"]["kind"]) for m in rung] == [(table.version, "action")]
