"""Each preset's special rules, on hand-made records (small hands via tiles_per_hand)."""

import random

import pytest

from games.engine import (
    ENDED,
    PRESETS,
    VARIANTS,
    EngineError,
    Match,
    RulesError,
    adjudicate,
    apply,
    bot_action,
    finish_hand,
    is_over,
    legal_actions,
    new_hand,
    new_match,
    replay,
    rules_from_spec,
    start_hand,
    variant,
    view,
)
from tests.engine.records import events, record, rest_of

DOM2 = {"preset": "dominican", "tiles_per_hand": 2}
BRA2 = {"preset": "brazilian", "tiles_per_hand": 2}

# Dominican -------------------------------------------------------------------------------

PASO = [["6-6", "6-5"], ["1-2", "0-1"], ["2-3", "3-4"], ["0-3", "1-4"]]
PASO_ACTIONS = ["6-6", "pass", "pass", "pass", "6-5"]


def test_dominican_paso_corrido_on_the_domino():
    ruling = adjudicate(record(DOM2, PASO, PASO_ACTIONS, leader=0))
    assert ruling["valid"] and ruling["ended"] == "domino"
    assert events(ruling) == [(4, 0, 0, "paso_corrido", 30), (4, 0, 0, "hand", 24)]
    assert ruling["next_leader"] == 0


def test_dominican_bonus_cap_and_shutout():
    ruling = adjudicate(
        record(DOM2, PASO, PASO_ACTIONS, leader=0, scores_before=[180, 50], normal_before=[170, 0])
    )
    assert events(ruling) == [(4, 0, 0, "paso_corrido", 19), (4, 0, 0, "hand", 24)]
    assert ruling["scores_after"] == [223, 50]
    assert ruling["match_over"] and ruling["match_winner"] == 0 and ruling["shutout"]


def test_dominican_capped_bonus_is_listed_at_zero():
    ruling = adjudicate(record(DOM2, PASO, PASO_ACTIONS, leader=0, scores_before=[199, 0]))
    assert events(ruling)[0] == (4, 0, 0, "paso_corrido", 0)
    assert ruling["points"] == [24, 0]


def test_dominican_capicua():
    deal = [["5-3", "5-2"], ["3-2", "6-6"], ["1-1", "0-1"], ["4-4", "0-4"]]
    ruling = adjudicate(record(DOM2, deal, ["5-3", "3-2", "pass", "pass", "5-2"], leader=0))
    assert events(ruling) == [(4, 0, 0, "capicua", 30), (4, 0, 0, "hand", 27)]


def test_dominican_same_numbers_at_both_ends_is_no_capicua():
    deal = [["5-5", "5-2"], ["1-1", "6-6"], ["2-3", "0-1"], ["4-4", "0-4"]]
    ruling = adjudicate(record(DOM2, deal, ["5-5", "pass", "pass", "pass", "5-2"], leader=0))
    assert [e[3] for e in events(ruling)] == ["paso_corrido", "hand"]


def test_dominican_opening_bonus_other_tile_is_60():
    deal = [["5-3", "6-6"], ["1-1", "0-1"], ["3-2", "4-4"], ["0-4", "2-1"]]
    ruling = adjudicate(record(DOM2, deal, ["5-3"], leader=0))
    assert ruling["valid"] and ruling["ended"] == "incomplete"
    assert events(ruling) == [(0, 0, 0, "opening_bonus", 60)]
    assert ruling["next_leader"] is None


def test_dominican_no_opening_bonus_when_the_next_seat_can_play():
    deal = [["5-3", "6-6"], ["1-3", "0-1"], ["3-2", "4-4"], ["0-4", "2-1"]]
    assert adjudicate(record(DOM2, deal, ["5-3"], leader=0))["events"] == []


BLOCK = [["0-0", "6-6"], ["1-1", "2-2"], ["3-3", "1-2"], ["4-4", "2-3"]]
BLOCK_ACTIONS = ["0-0", "pass", "pass", "pass", "pass"]


def test_dominican_block_blocker_vs_next():
    ruling = adjudicate(record(DOM2, BLOCK, BLOCK_ACTIONS, leader=0))
    assert ruling["ended"] == "block" and ruling["blocker"] == 0
    assert ruling["winner"] == {"seat": 1, "side": 1}
    assert events(ruling) == [(4, 1, 1, "hand", 12 + 9 + 13)]
    assert ruling["next_leader"] == 1


def test_dominican_block_tie_goes_to_the_blocker():
    deal = [["0-0", "2-4"], ["1-1", "2-2"], ["3-3", "1-2"], ["4-4", "2-3"]]
    ruling = adjudicate(record(DOM2, deal, BLOCK_ACTIONS, leader=0))
    assert ruling["winner"] == {"seat": 0, "side": 0}
    assert events(ruling) == [(4, 0, 0, "hand", 6 + 9 + 13)]


def test_dominican_first_hand_forces_6_6():
    deal = [["5-3", "6-6"], ["1-1", "0-1"], ["3-2", "4-4"], ["0-4", "2-1"]]
    ruling = adjudicate(record(DOM2, deal, ["5-3"]))
    assert ruling["error"]["code"] == "wrong_opening_tile"
    assert adjudicate(record(DOM2, deal, ["6-6"]))["opener"] == 0


def test_dominican_shutout_counts_double_in_a_match():
    rules = PRESETS["dominican"].with_options(tiles_per_hand=2)
    match = Match(rules, (180, 0), (176, 0), hand_number=7, leader=0)
    state = start_hand(match, deal=PASO)
    for action in PASO_ACTIONS:
        state = apply(state, action)[0]
    done = finish_hand(match, state)
    assert done.over and done.winner == 0 and done.shutout and done.wins == 2
    assert done.scores == (180 + 19 + 24, 0) and done.leader == 0 and done.hand_number == 8


def test_a_match_plays_to_its_end():
    match = new_match(PRESETS["dominican"])
    rng = random.Random(3)
    while not match.over:
        state = start_hand(match, rng=rng)
        while not is_over(state):
            state = apply(state, bot_action(state, rng))[0]
        match = finish_hand(match, state)
    assert max(match.scores) >= 200 and match.winner == match.scores.index(max(match.scores))


# Tournament, Latin: blocks by the lowest side ---------------------------------------------

TIE = [["0-0", "6-6"], ["1-1", "2-2"], ["3-3", "1-2"], ["4-4", "3-4"]]


@pytest.mark.parametrize("preset", ["tournament", "latin"])
def test_block_tie_scores_nothing(preset):
    ruling = adjudicate(
        record({"preset": preset, "tiles_per_hand": 2}, TIE, BLOCK_ACTIONS, leader=0)
    )
    assert ruling["ended"] == "block" and ruling["winner"] is None and ruling["events"] == []
    assert ruling["next_leader"] == 0  # the blocker / the previous opener


def test_tournament_block_all_hands_and_blocker_leads():
    ruling = adjudicate(
        record({"preset": "tournament", "tiles_per_hand": 2}, BLOCK, BLOCK_ACTIONS, leader=0)
    )
    assert ruling["winner"] == {"seat": None, "side": 1}
    assert events(ruling) == [(4, None, 1, "hand", 40)]
    assert ruling["next_leader"] == 0


def test_latin_block_opponents_and_the_pairs_lowest_seat_leads():
    ruling = adjudicate(
        record({"preset": "latin", "tiles_per_hand": 2}, BLOCK, BLOCK_ACTIONS, leader=0)
    )
    assert events(ruling) == [(4, None, 1, "hand", 21)]
    assert ruling["next_leader"] == 1


def test_tournament_domino_scores_all_hands_latin_only_opponents():
    deal = [["6-6", "6-5"], ["1-2", "0-1"], ["2-3", "3-4"], ["0-3", "1-4"]]
    for preset, points in (("tournament", 24), ("latin", 12)):
        ruling = adjudicate(record({"preset": preset, "tiles_per_hand": 2}, deal, PASO_ACTIONS))
        assert events(ruling) == [(4, 0, 0, "hand", points)]


def test_tournament_variants():
    assert variant("tournament_short").target == 50
    assert variant("tournament_classic").target == 100
    assert variant("tournament_long").target == 200
    assert variant("tournament", target=150).target == 150


# Brazilian --------------------------------------------------------------------------------


def test_brazilian_table_pass_and_galo():
    deal = [["5-5", "5-0"], ["1-1", "2-3"], ["1-2", "3-3"], ["6-6", "4-4"]]
    ruling = adjudicate(record(BRA2, deal, ["5-5", "pass", "pass", "pass", "5-0"], leader=0))
    assert events(ruling) == [
        (0, 0, 0, "table", 10),
        (1, 0, 0, "pass", 20),
        (4, 0, 0, "table", 10),
        (4, 0, 0, "galo", 50),
        (4, 0, 0, "hand", 25),
    ]
    assert ruling["points"] == [115, 0] and ruling["normal_points"] == [25, 0]


def test_brazilian_double_domino_and_pass_for_the_last_player():
    deal = [["5-5", "0-0"], ["5-0", "6-6"], ["1-1", "2-3"], ["4-4", "1-2"]]
    ruling = adjudicate(record(BRA2, deal, ["5-5", "5-0", "pass", "pass", "0-0"], leader=0))
    assert events(ruling) == [
        (0, 0, 0, "table", 10),
        (1, 1, 1, "table", 10),
        (2, 1, 1, "pass", 20),
        (4, 0, 0, "table", 10),
        (4, 0, 0, "double_domino", 20),
        (4, 0, 0, "hand", 20),
    ]


def test_brazilian_spinner_arms_and_counts():
    deal = [
        ["5-5", "5-1", "2-2"],
        ["5-0", "3-3", "1-3"],
        ["5-4", "0-0", "6-6"],
        ["5-6", "1-1", "4-4"],
    ]
    rules = {"preset": "brazilian", "tiles_per_hand": 3}
    ruling = adjudicate(record(rules, deal, ["5-5", "5-0", "5-4", "5-6", "5-1"], leader=0))
    assert ruling["valid"]
    assert [e for e in events(ruling) if e[3] == "table"] == [
        (0, 0, 0, "table", 10),
        (1, 1, 1, "table", 10),
        (3, 3, 1, "table", 10),
    ]
    seen = view(replay(record(rules, deal, ["5-5", "5-0", "5-4", "5-6", "5-1"], leader=0)), 0)
    assert [p["end"] for p in seen["line"]] == [None, "right", "left", "up", "down"]
    assert seen["line"][0]["spinner"] is True
    assert {e["end"]: e["shows"] for e in seen["ends"]} == {
        "left": 4,
        "right": 0,
        "up": 6,
        "down": 1,
    }
    assert seen["table_count"] == 11


def test_brazilian_winner_double_passes_the_opening_with_a_penalty():
    deal = [["0-1", "2-3"], ["1-2", "0-3"], ["4-4", "1-4"], ["5-5", "0-5"]]
    ok = adjudicate(record(BRA2, deal, ["4-4"], leader=0))
    assert ok["opener"] == 2 and events(ok)[0] == (None, None, 1, "no_double_penalty", 20)
    bad = adjudicate(record(BRA2, deal, ["1-4"], leader=0))
    assert bad["error"]["code"] == "wrong_opening_tile" and bad["error"]["action"] == 0
    wrong = adjudicate(record(BRA2, deal, ["4-4"], leader=0, opener=0))
    assert wrong["error"]["code"] == "wrong_opener" and wrong["points"] == [0, 20]


FIVE = [["1-1", "2-2", "3-3", "4-4", "5-5", "0-1", "0-2"]]


def five_doubles_deal():
    rest = rest_of(FIVE)
    return [rest[0:7], FIVE[0], rest[7:14], rest[14:21]]


def test_brazilian_five_doubles_points_and_redeal():
    deal = five_doubles_deal()
    declared = adjudicate(
        record("brazilian", deal, [], declarations=[{"seat": 1, "choice": "points"}])
    )
    silent = adjudicate(record("brazilian", deal, []))
    assert events(declared) == events(silent) == [(None, 1, 1, "five_doubles", 50)]
    redeal = adjudicate(
        record("brazilian", deal, [], leader=3, declarations=[{"seat": 1, "choice": "redeal"}])
    )
    assert redeal["ended"] == "redeal" and redeal["valid"] and redeal["next_leader"] == 3
    assert redeal["opener"] is None and redeal["points"] == [0, 0]


def test_replay_and_adjudicate_agree_on_a_redeal_whatever_opener_it_names():
    """A redeal opens nobody, so its record's opener is not checked, by either reader."""
    deal = five_doubles_deal()
    for opener in (0, 1, 2, 3):
        redealt = record(
            "brazilian",
            deal,
            [],
            leader=3,
            opener=opener,
            declarations=[{"seat": 1, "choice": "redeal"}],
        )
        assert adjudicate(redealt)["valid"]
        assert replay(redealt).status == "redeal"
    played = record("brazilian", deal, [], leader=3, opener=2)
    assert adjudicate(played)["error"]["code"] == "wrong_opener"
    with pytest.raises(EngineError) as refused:
        replay(played)
    assert refused.value.code == "wrong_opener"


def test_brazilian_round_to_5_and_multiples():
    deal = [["5-5", "5-0"], ["1-1", "2-3"], ["1-2", "3-3"], ["6-6", "4-4"]]
    ruling = adjudicate(record(BRA2, deal, ["5-5", "pass", "pass", "pass", "5-0"], leader=0))
    assert all(p % 5 == 0 for p in ruling["points"])


def test_brazilian_after_block_first_rule():
    deal = [["0-0", "6-6"], ["1-1", "2-2"], ["3-3", "1-2"], ["4-4", "2-3"]]
    ruling = adjudicate(record(BRA2, deal, BLOCK_ACTIONS, leader=0))
    assert ruling["ended"] == "block" and ruling["next_leader"] is None
    assert variant("brazilian_300").target == 300 and variant("brazilian_no_pass").pass_points == 0


# VOG --------------------------------------------------------------------------------------


def test_vog_lowest_double_opens_with_any_tile():
    rules = {"preset": "vog", "players": 2, "pairs": False, "tiles_per_hand": 2}
    assert adjudicate(record(rules, [["0-3", "2-2"], ["1-1", "0-4"]], ["0-4"]))["opener"] == 1
    no_double = adjudicate(record(rules, [["0-0", "0-1"], ["0-2", "1-2"]], ["0-1"]))
    assert no_double["opener"] == 0


def test_vog_international_winner_opens_the_next_round_a_won_block_included():
    for name in ("vog_international", "vog_international_2p", "vog_international_3p"):
        rules = variant(name)
        assert (rules.first_opener, rules.next_opener, rules.after_block_opener) == (
            "highest_tile",
            "winner_any",
            "winner",
        )


def test_vog_international_highest_tile_opens():
    rules = {
        "preset": "vog",
        "players": 2,
        "pairs": False,
        "tiles_per_hand": 2,
        "first_opener": "highest_tile",
    }
    assert adjudicate(record(rules, [["5-5", "0-1"], ["6-4", "0-2"]], ["0-2"]))["opener"] == 1


DRAW = {"preset": "vog", "boneyard": True, "players": 2, "pairs": False, "tiles_per_hand": 2}
DRAW_DEAL = [["1-1", "1-2"], ["3-4", "5-6"]]


def draw_boneyard():
    rest = [t for t in rest_of(DRAW_DEAL) if t not in ("6-6", "1-0")]
    return ["6-6", "1-0", *rest]


def test_vog_draw_draws_until_a_tile_fits():
    actions = ["1-1", "draw", "draw", "0-1", "1-2"]
    ruling = adjudicate(record(DRAW, DRAW_DEAL, actions, boneyard=draw_boneyard()))
    assert ruling["valid"] and ruling["ended"] == "domino"
    assert events(ruling) == [(4, 0, 0, "hand", 7 + 11 + 12)]


def test_vog_draw_faults():
    bone = draw_boneyard()
    cases = [
        (["1-1", "pass"], "illegal_pass", 1),  # tiles left to draw
        (["1-1", "draw", "draw", "draw"], "illegal_draw", 3),  # holds a tile that fits
        (["draw"], "illegal_draw", 0),  # as the opening
    ]
    for actions, code, index in cases:
        error = adjudicate(record(DRAW, DRAW_DEAL, actions, boneyard=bone))["error"]
        assert (error["code"], error["action"]) == (code, index)
    assert adjudicate(record(DRAW, DRAW_DEAL, []))["error"]["code"] == "bad_record"


def test_vog_draw_variants():
    assert variant("vog_draw").tiles_per_hand == 5 and variant("vog_draw").boneyard
    assert variant("vog_draw_2p").tiles_per_hand == 7 and variant("vog_draw_2p").players == 2
    assert variant("vog_draw_3p").tiles_per_hand == 5 and not variant("vog_draw_3p").pairs


def test_vog_goat_penalty_scoring():
    rules = {
        "preset": "vog",
        "scoring": "penalty",
        "target": 101,
        "players": 3,
        "pairs": False,
        "tiles_per_hand": 2,
    }
    deal = [["1-1", "1-2"], ["3-4", "5-6"], ["0-5", "2-6"]]
    ruling = adjudicate(
        record(rules, deal, ["1-1", "pass", "pass", "1-2"], scores_before=[0, 90, 0])
    )
    assert events(ruling) == [(3, None, 1, "hand", 18), (3, None, 2, "hand", 13)]
    assert ruling["winner"] == {"seat": 0, "side": 0}
    assert ruling["match_over"] and ruling["match_winner"] == 0 and not ruling["shutout"]
    assert ruling["next_leader"] is None  # vog: next hands follow the first-hand rule


def test_every_variant_is_valid_rules():
    for name in VARIANTS:
        assert variant(name).preset in PRESETS


# Rules validation -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "overrides",
    [
        {"players": 3},  # pairs without 4 players
        {"tiles_per_hand": 8},  # 32 tiles
        {"boneyard": True},  # an empty boneyard
        {"tiles_per_hand": 1},
        {"players": "4"},
        {"spinner": 1},
        {"table_points": 3},
        {"opening_tile": "7-7"},
        {"scoring": "golf"},
        {"colour": "red"},
    ],
)
def test_impossible_rules_are_refused(overrides):
    with pytest.raises(RulesError):
        rules_from_spec({"preset": "dominican", **overrides})
    assert (
        adjudicate(record({"preset": "dominican", **overrides}, [], []))["error"]["code"]
        == "bad_record"
    )


def test_rules_are_immutable_values():
    rules = PRESETS["latin"]
    with pytest.raises(AttributeError):
        rules.target = 5
    assert rules.with_options(target=5).target == 5 and rules.target == 100


@pytest.mark.parametrize(
    "name", ["vog_international", "vog_international_2p", "vog_international_3p"]
)
def test_after_a_won_block_the_winner_opens_the_international_game(name):
    """rules.md §3: from the second round the previous round's winner opens, a won block
    included (`after_block_opener = winner`)."""
    rules = variant(name)
    assert rules.after_block_opener == "winner"
    rng = random.Random(3)
    blocks = 0
    for _ in range(400):
        state = new_hand(rules, rng=rng)
        while state.status not in ENDED:
            state = apply(state, rng.choice(legal_actions(state)))[0]
        result = state.result
        if state.status == "block" and result.winner_side is not None:
            # Under pairs, the winning pair's seat with the fewest pips (decision 2).
            assert state.setup.side[result.next_leader] == result.winner_side
            if result.winner_seat is not None:
                assert result.next_leader == result.winner_seat
            blocks += 1
    assert blocks > 5
