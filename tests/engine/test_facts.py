"""The per-seat facts of a hand record (games/engine/facts.py), against figures counted by
hand from the records of tests/stats/records.py."""

from games.engine import hand_facts, rule_set_name, seats_facts, variant
from games.engine.facts import LOST, NEITHER, WON
from tests.stats.records import BLOCK, CAPICUA, DOMINO, MATCH_BLOCK


def test_the_example_domino():
    ana, luis, carmen, marco = seats_facts(DOMINO)
    assert (ana.result, ana.ended, ana.points, ana.capicua) == (WON, "domino", 48, False)
    assert (ana.passes_forced, ana.passes_suffered, ana.opened) == (0, 0, False)
    assert (carmen.opened, carmen.opening, carmen.partner) == (True, "5-5", 0)
    assert (carmen.passes_forced, carmen.passes_suffered) == (1, 1)
    assert (luis.result, luis.points, luis.passes_forced, luis.passes_suffered) == (LOST, 0, 1, 0)
    assert (marco.passes_forced, marco.passes_suffered) == (0, 1)
    assert not any(f.match_over for f in (ana, luis, carmen, marco))
    assert ana.rule_set == "dominican"


def test_a_capicua():
    facts = seats_facts(CAPICUA)
    assert [f.capicua for f in facts] == [True] * 4
    assert [f.result for f in facts] == [LOST, WON, LOST, WON]
    assert [f.points for f in facts] == [0, 50, 0, 50]
    assert facts[1].opening == "6-6"
    assert [(f.passes_forced, f.passes_suffered) for f in facts] == [(0, 1), (0, 0), (0, 0), (1, 0)]


def test_a_tranque_and_the_match_it_ends():
    blocker = hand_facts(BLOCK, 3)
    assert (blocker.ended, blocker.result, blocker.points) == ("block", WON, 68)
    assert (blocker.passes_forced, blocker.passes_suffered) == (2, 1)
    assert not blocker.match_over
    facts = seats_facts(MATCH_BLOCK)
    assert [f.result for f in facts] == [WON, LOST, WON, LOST]
    assert [f.match_result for f in facts] == [WON, LOST, WON, LOST]
    assert facts[0].points == 82 and facts[0].rule_set == "tournament"


def test_faulty_unfinished_and_absent_seats_have_no_facts():
    assert hand_facts({**BLOCK, "actions": BLOCK["actions"][:-1]}, 0) is None
    assert hand_facts({**BLOCK, "actions": ["1-1"]}, 0) is None
    assert hand_facts({"format": "nope"}, 0) is None
    assert hand_facts(BLOCK, 4) is None and hand_facts(BLOCK, -1) is None
    assert seats_facts({**BLOCK, "actions": []}) == []


def test_rule_set_names():
    assert rule_set_name(variant("vog_2p")) == "vog_2p"
    assert rule_set_name(variant("vog_draw_3p", turn_seconds=5)) == "vog_draw_3p"
    assert rule_set_name(variant("vog_goat", target=77)) == "vog"
    assert rule_set_name(variant("vog_2p", target=77)) == "vog_2p"
    assert rule_set_name(variant("tournament_classic")) == "tournament"
    assert NEITHER == 0
