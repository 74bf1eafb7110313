"""Every error code of docs/hand-record.md, with its first-fault index."""

import pytest

from games.engine import adjudicate
from tests.engine.records import EXAMPLE, example, record, rest_of

A = EXAMPLE["actions"]
DEAL = EXAMPLE["deal"]


def fault(ruling):
    error = ruling["error"]
    return error and (error["code"], error["action"], error["seat"])


@pytest.mark.parametrize(
    "rec",
    [
        "not a dict",
        [],
        example(format="domino-hand/2"),
        example(actions=None),
        example(deal=None),
        example(rules="vog_draw"),  # a variant is no preset
        example(rules={"preset": "dominican", "pairs": "yes"}),
        example(rules={"preset": "dominican", "players": 3}),
        example(deal=DEAL[:3]),
        example(deal=[[1, 2]] * 4),
        example(scores_before=[1, 2, 3]),
        example(normal_before=["a", "b"]),
        example(leader=4),
        example(opener=True),
        example(hand_number=0),
        example(players=["a"]),
        example(actions="5-5"),
        example(declarations=[{"seat": "one"}]),
    ],
)
def test_bad_record(rec):
    ruling = adjudicate(rec)
    assert fault(ruling) == ("bad_record", None, None)
    assert not ruling["valid"] and ruling["ended"] == "incomplete" and ruling["events"] == []


def test_bad_record_arrays_are_zeros_or_empty():
    assert adjudicate(example(rules="nope"))["points"] == []
    ruling = adjudicate(example(deal=DEAL[:3]))
    assert ruling["points"] == ruling["scores_after"] == ruling["normal_after"] == [0, 0]


def test_bad_tile():
    deal = [list(h) for h in DEAL]
    deal[1][0] = "7-2"
    assert fault(adjudicate(example(deal=deal))) == ("bad_tile", None, None)
    assert fault(adjudicate(example(actions=["5-5", "pass", "9-9"]))) == ("bad_tile", 2, 0)
    assert fault(adjudicate(example(actions=["5-5@middle"]))) == ("bad_tile", 0, 2)
    assert fault(adjudicate(example(actions=["5-5", 7]))) == ("bad_tile", 1, 3)


def test_bad_deal():
    twice = [list(h) for h in DEAL]
    twice[0][0] = "5-5"
    short = [h[:6] for h in DEAL]
    for deal in (twice, short):
        assert fault(adjudicate(example(deal=deal))) == ("bad_deal", None, None)
    assert fault(adjudicate(example(boneyard=["6-6"]))) == ("bad_deal", None, None)
    assert adjudicate(example(boneyard=[]))["valid"]
    rules = {"preset": "dominican", "tiles_per_hand": 6}
    deal = [h[:6] for h in DEAL]
    good = record(rules, deal, [], boneyard=rest_of(deal))
    assert adjudicate(good)["valid"]
    bad = record(rules, deal, [], boneyard=rest_of(deal)[:3])
    assert fault(adjudicate(bad)) == ("bad_deal", None, None)


def test_bad_declaration():
    assert fault(adjudicate(example(declarations=[{"seat": 1, "choice": "points"}]))) == (
        "bad_declaration",
        None,
        1,
    )
    from tests.engine.test_presets import five_doubles_deal

    deal = five_doubles_deal()
    for declarations, seat in (
        ([{"seat": 0, "choice": "points"}], 0),
        ([{"seat": 1, "choice": "points"}, {"seat": 1, "choice": "redeal"}], 1),
        ([{"seat": 1, "choice": "maybe"}], 1),
    ):
        ruling = adjudicate(record("brazilian", deal, [], declarations=declarations))
        assert fault(ruling) == ("bad_declaration", None, seat)
    kept = adjudicate(
        record(
            "brazilian",
            deal,
            [],
            declarations=[{"seat": 1, "choice": "points"}, {"seat": 1, "choice": "points"}],
        )
    )
    assert kept["points"] == [0, 50]  # the scores before the fault are kept


def test_wrong_opener():
    ruling = adjudicate(example(opener=1))
    assert fault(ruling) == ("wrong_opener", None, 1) and ruling["opener"] is None
    assert adjudicate(example(opener=2))["valid"]


def test_wrong_opening_tile():
    ruling = adjudicate(example(leader=None, actions=["2-6"]))
    assert fault(ruling) == ("wrong_opening_tile", 0, 3)  # Marco holds 6-6: he must open it


def test_not_in_hand():
    assert fault(adjudicate(example(actions=["6-6"]))) == ("not_in_hand", 0, 2)
    ruling = adjudicate(example(actions=["5-5", "pass", "5-2"]))
    assert fault(ruling) == ("not_in_hand", 2, 0)
    assert ruling["points"] == [30, 0] and ruling["opener"] == 2  # points so far are kept


def test_does_not_fit():
    assert fault(adjudicate(example(actions=["5-5", "pass", "4-6"]))) == ("does_not_fit", 2, 0)
    actions = A[:22] + ["1-2@up"]
    assert fault(adjudicate(example(actions=actions))) == ("does_not_fit", 22, 0)


def test_ambiguous_end():
    actions = A[:22] + ["1-2"]
    assert fault(adjudicate(example(actions=actions))) == ("ambiguous_end", 22, 0)


def test_last_tile_may_omit_its_end_without_table_points():
    assert adjudicate(example(actions=A[:-1] + ["4-4"]))["valid"]


def test_illegal_pass():
    assert fault(adjudicate(example(actions=["pass"]))) == ("illegal_pass", 0, 2)
    assert fault(adjudicate(example(actions=["5-5", "pass", "pass"]))) == ("illegal_pass", 2, 0)


def test_illegal_draw():
    assert fault(adjudicate(example(actions=["5-5", "draw"]))) == ("illegal_draw", 1, 3)


def test_after_end_keeps_the_result():
    ruling = adjudicate(example(actions=A + ["pass"]))
    assert fault(ruling) == ("after_end", 27, None)
    assert ruling["ended"] == "domino" and ruling["points"] == [48, 0]
    assert ruling["next_leader"] == 0 and not ruling["valid"]


def test_auto_suffix_is_the_same_action():
    actions = [a + "!auto" for a in A]
    ruling = adjudicate(example(actions=actions))
    assert ruling["valid"] and ruling["points"] == [48, 0]


def test_only_the_first_fault_is_reported():
    ruling = adjudicate(example(actions=["5-5", "3-3", "pass", "9-9"]))
    assert fault(ruling) == ("not_in_hand", 1, 3)
    assert ruling["error"]["message"]
