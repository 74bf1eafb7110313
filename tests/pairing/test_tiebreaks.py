import pytest

from league.pairing import (
    MatchResult,
    buchholz,
    head_to_head,
    match_wins,
    partner_aware,
    point_difference,
    rank,
    sonneborn_berger,
)

R = MatchResult

# A 3-0, B 2-1, C 1-2 (beat D), D 0-3; one draw-free round robin with points.
LEAGUE = [
    R("A", "B", "A", 100, 80),
    R("A", "C", "A", 100, 60),
    R("A", "D", "A", 100, 90),
    R("B", "C", "B", 100, 95),
    R("B", "D", "B", 100, 50),
    R("C", "D", "C", 100, 99),
]


def ranks(standings):
    return [(s.id, s.rank) for s in standings]


def test_basic_arithmetic():
    assert match_wins(LEAGUE) == {"A": 3, "B": 2, "C": 1, "D": 0}
    assert point_difference(LEAGUE) == {"A": 70, "B": 5 + 50 - 20, "C": 1 - 40 - 5, "D": -61}
    scores = match_wins(LEAGUE)
    assert buchholz(LEAGUE, scores) == {"A": 3, "B": 4, "C": 5, "D": 6}
    assert buchholz(LEAGUE, scores, cut=1) == {"A": 3, "B": 4, "C": 5, "D": 5}
    assert sonneborn_berger(LEAGUE, scores) == {"A": 3, "B": 1, "C": 0, "D": 0}


def test_draws_count_half():
    results = [R("A", "B", None), R("A", "C", "A")]
    scores = match_wins(results)
    assert scores == {"A": 1.5, "B": 0.5, "C": 0}
    assert sonneborn_berger(results, scores) == {"A": 0.25, "B": 0.75, "C": 0}


def test_rank_by_score_then_point_difference():
    assert ranks(rank("DCBA", LEAGUE, ["match_wins", "point_difference"])) == [
        ("A", 1),
        ("B", 2),
        ("C", 3),
        ("D", 4),
    ]


CYCLE = [
    R("A", "B", "A", 10, 5),
    R("B", "C", "B", 10, 8),
    R("C", "A", "C", 10, 9),
    R("A", "D", "A"),
    R("B", "D", "B"),
    R("C", "D", "C"),
]


def test_head_to_head_among_three_tied_in_a_cycle_falls_through_to_next_key():
    standings = rank("ABCD", CYCLE, ["score", "head_to_head", "point_difference"])
    assert ranks(standings) == [("A", 1), ("C", 2), ("B", 3), ("D", 4)]
    assert standings[0].values["head_to_head"] == 1


def test_full_ties_share_a_rank():
    assert ranks(rank("ABCD", CYCLE, ["score", "head_to_head"])) == [
        ("A", 1),
        ("B", 1),
        ("C", 1),
        ("D", 4),
    ]


def test_head_to_head_separates_three_tied():
    results = [R("A", "B", "A"), R("A", "C", "A"), R("B", "C", "B"), R("D", "A", "D")]
    results += [R("X", e, "X") for e in "ABC"]
    stats = {e: {"score": 1} for e in "ABC"}
    standings = rank("CBA", results, ["score", "head_to_head"], stats=stats)
    assert ranks(standings) == [("A", 1), ("B", 2), ("C", 3)]


def test_head_to_head_is_reapplied_to_the_group_still_tied():
    results = [
        R("A", "B", "A"),
        R("A", "C", "C"),
        R("A", "D", "A"),
        R("B", "C", "B"),
        R("B", "D", "B"),
        R("C", "D", "D"),
    ]
    # Mini-table: A 2, B 2, C 1, D 1; then A beat B and D beat C.
    stats = {e: {"score": 5} for e in "ABCD"}
    standings = rank("ABCD", results, ["score", "head_to_head"], stats=stats)
    assert ranks(standings) == [("A", 1), ("B", 2), ("D", 3), ("C", 4)]
    assert head_to_head("ABCD", results) == {"A": 2, "B": 2, "C": 1, "D": 1}


def test_lots_are_deterministic_and_break_every_tie():
    first = rank(list(range(10)), [], ["score", "lots"], seed=42)
    assert [s.rank for s in first] == list(range(1, 11))
    assert first == rank(list(range(10)), [], ["score", "lots"], seed=42)
    assert [s.id for s in first] != [s.id for s in rank(list(range(10)), [], ["lots"], seed=7)]


def test_partner_aware_for_rotating_partners():
    # Round 1: P+Q beat R+S; round 2: P+R beat Q+S.
    results = [
        R("P", "R", "P", partner_a="Q", partner_b="S"),
        R("P", "Q", "P", partner_a="R", partner_b="S"),
    ]
    scores = match_wins(results)
    assert scores == {"P": 2, "Q": 1, "R": 1, "S": 0}
    assert partner_aware(results, scores) == {
        "P": (1 + 0 - 1) + (1 + 0 - 1),
        "Q": (1 + 0 - 2) + (2 + 1 - 0),
        "R": (2 + 1 - 0) + (1 + 0 - 2),
        "S": (2 + 1 - 1) + (2 + 1 - 1),
    }
    standings = rank("SRQP", results, ["score", "partner_aware"])
    assert ranks(standings) == [("P", 1), ("R", 2), ("Q", 2), ("S", 4)]


def test_games_points_and_custom_stats():
    results = [R("A", "B", "A", 150, 120, 2, 1), R("B", "C", "B", 150, 40, 2, 0)]
    standings = rank("ABC", results, ["games_won", "points_for"])
    assert ranks(standings) == [("B", 1), ("A", 2), ("C", 3)]
    stats = {"A": {"fair_play": 3}, "B": {"fair_play": 9}, "C": {"fair_play": 1}}
    assert ranks(rank("ABC", results, ["fair_play"], stats=stats))[0] == ("B", 1)
    with pytest.raises(ValueError):
        rank("ABC", results, ["fair_play"])


def test_invalid_winner():
    with pytest.raises(ValueError):
        match_wins([R("A", "B", "C")])


def test_a_win_counts_its_value_in_match_wins_and_head_to_head():
    results = [
        MatchResult("A", "B", "A", value=3),
        MatchResult("B", "C", "B"),
        MatchResult("C", "A", None, value=3),
    ]
    assert match_wins(results) == {"A": 3.5, "B": 1, "C": 0.5}
    assert head_to_head("AB", results) == {"A": 3, "B": 0}
