"""What the table page is told beyond the engine's view: passes, the hand's reckoning, why
a table finished, and a five-doubles redeal that deals again at once."""

import pytest

from games.engine import apply, legal_actions, new_hand, rules_from_spec, to_record
from games.models import Hand, Seat, Table
from games.services import tables
from games.services.messages import hand_message, snapshot, viewer_message

from .conftest import full_table

pytestmark = pytest.mark.django_db(transaction=True)

DEAL = [
    ["6-6", "6-5", "6-4", "1-0", "2-0", "3-0", "4-0"],
    ["5-5", "5-4", "5-3", "1-1", "2-1", "3-1", "4-1"],
    ["4-4", "4-3", "4-2", "2-2", "3-2", "5-0", "6-0"],
    ["3-3", "6-3", "6-2", "6-1", "5-2", "5-1", "0-0"],
]


def test_passes_and_the_reckoning_of_a_block():
    rules = rules_from_spec("dominican")
    state = new_hand(rules, DEAL)
    for action in ["6-6", "pass", "6-0@left", "6-3@right"]:
        state = apply(state, action)[0]
    hand = hand_message(state, 0)
    assert hand["passed"] == [1]
    assert "reckoning" not in hand
    while state.status == "play":
        state = apply(state, legal_actions(state)[0])[0]
    hand = hand_message(state, None)
    counted = hand["reckoning"]
    assert counted["pips"] == [
        sum(int(n) for tile in tiles for n in tile.split("-")) for tiles in hand["hands"]
    ]
    assert sum(counted["side_pips"]) == sum(counted["pips"])
    assert counted["block_winner"] == "blocker_vs_next"
    if state.status == "block":
        blocker = hand["result"]["blocker"]
        assert counted["compared"] == [blocker, (blocker + 1) % 4]
        assert hand["passed"] == [0, 1, 2, 3]
    per_side = [sum(e["points"] for e in hand["events"] if e["side"] == s) for s in (0, 1)]
    assert per_side == hand["points"]
    assert [b + p for b, p in zip(hand["scores_before"], hand["points"], strict=True)] == hand[
        "scores"
    ]


def test_a_five_doubles_redeal_deals_again_at_once(players):
    table = full_table(players, {"preset": "brazilian", "turn_seconds": 60})
    five = [
        ["6-6", "3-0", "4-0", "5-5", "4-4", "3-3", "2-2"],
        ["6-5", "5-4", "5-3", "1-1", "2-1", "3-1", "4-1"],
        ["6-4", "4-3", "4-2", "1-0", "3-2", "5-0", "6-0"],
        ["2-0", "6-3", "6-2", "6-1", "5-2", "5-1", "0-0"],
    ]
    state = new_hand(rules_from_spec(table.rules), five)
    assert state.status == "declare" and state.turn == 0
    Table.objects.filter(pk=table.pk).update(state=to_record(state))
    table.refresh_from_db()
    answer = tables.act(table.pk, players[0], action="redeal", version=table.version, client_id="r")
    assert answer["type"] == "ack"
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and table.hand_number == 2
    assert Hand.objects.get(table=table, number=1).record["declarations"] == [
        {"seat": 0, "choice": "redeal"}
    ]
    assert table.state["deal"] != five
    message = viewer_message("snapshot", snapshot(table.pk, players[0]))
    assert message["table"]["scores"] == [0, 0] and message["hand"]["hand_number"] == 2
    assert message["table"]["history"] == [{"hand": 1, "ended": "redeal", "points": [0, 0]}]


def test_a_finished_table_says_why(players):
    table = full_table(players, "tournament")
    facts = viewer_message("snapshot", snapshot(table.pk, None))["table"]
    assert facts["finish"] is None and facts["direction"] == "ccw"
    Seat.objects.filter(table=table).update(bot=True)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    assert viewer_message("snapshot", snapshot(table.pk, None))["table"]["finish"] == "abandoned"
    Table.objects.filter(pk=table.pk).update(forfeit_side=1)
    assert viewer_message("snapshot", snapshot(table.pk, None))["table"]["finish"] == "forfeit"
    Table.objects.filter(pk=table.pk).update(forfeit_side=None, match={"over": True, "winner": 0})
    assert viewer_message("snapshot", snapshot(table.pk, None))["table"]["finish"] == "target"
    brazilian = full_table(players[::-1], "brazilian")
    assert viewer_message("snapshot", snapshot(brazilian.pk, None))["table"]["direction"] == "cw"
