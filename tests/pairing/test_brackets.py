import random
from collections import Counter

import pytest

from league.pairing import (
    Source,
    advance,
    dependents_to_reset,
    double_elimination,
    playoff_seeds,
    seeding_order,
    single_elimination,
    snake_groups,
)

COUNTS = range(2, 65)


def first_round(bracket):
    return [
        (m.home.ref, m.away.ref) for m in bracket.matches if m.stage == "winners" and m.round == 1
    ]


def test_seeding_order():
    assert seeding_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert seeding_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    with pytest.raises(ValueError):
        seeding_order(12)


def test_first_round_of_full_brackets():
    assert first_round(single_elimination(8)) == [(1, 8), (4, 5), (2, 7), (3, 6)]
    assert first_round(single_elimination(16)) == [
        (1, 16),
        (8, 9),
        (4, 13),
        (5, 12),
        (2, 15),
        (7, 10),
        (3, 14),
        (6, 11),
    ]


@pytest.mark.parametrize("count", COUNTS)
def test_single_elimination_structure_and_byes(count):
    bracket = single_elimination(count, third_place=True)
    assert len(bracket.matches) == count - 1 + (count >= 4)
    assert all(bracket.match(m.id) is m for m in bracket.matches)
    size = 1 << (count - 1).bit_length()
    byes = size - count
    seeds = [s.ref for m in bracket.matches for s in (m.home, m.away) if s.kind == "seed"]
    assert sorted(seeds) == list(range(1, count + 1))
    # Byes go to the top seeds, who enter in round 2; round 1 holds everyone else.
    entering_late = {
        s.ref for m in bracket.matches if m.round > 1 for s in (m.home, m.away) if s.kind == "seed"
    }
    assert entering_late == set(range(1, byes + 1))
    assert all(
        m.round == 2
        for m in bracket.matches
        if {m.home.kind, m.away.kind} & {"seed"} and m.round > 1
    )
    # In the full layout no two byes meet, and byes are spread evenly over halves and quarters.
    slots = seeding_order(size)
    assert not any(a > count and b > count for a, b in zip(slots[::2], slots[1::2], strict=True))
    for parts in (2, 4):
        if size >= 2 * parts:
            width = size // parts
            per_part = [sum(s > count for s in slots[i : i + width]) for i in range(0, size, width)]
            assert max(per_part) - min(per_part) <= 1
    # Every winner feeds exactly one later match; every loser feeds at most the third place.
    fed = Counter((s.kind, s.ref) for m in bracket.matches for s in (m.home, m.away))
    final = max(m.id for m in bracket.matches if m.stage == "winners")
    for m in bracket.matches:
        assert fed[("winner", m.id)] == (m.id != final and m.stage == "winners")


@pytest.mark.parametrize("count", COUNTS)
def test_double_elimination_match_counts(count):
    assert len(double_elimination(count).matches) == 2 * count - 1
    assert len(double_elimination(count, grand_final_reset=False).matches) == 2 * count - 2


def play(bracket, rng):
    """Play every match with random winners; return the results and final states."""
    seeds = [f"s{i}" for i in range(1, bracket.entrants + 1)]
    results = {}
    for match in bracket.matches:
        state = advance(bracket, seeds, results)[match.id]
        if state.needed:
            assert None not in (state.home, state.away)
            results[match.id] = rng.choice((state.home, state.away))
    return seeds, results, advance(bracket, seeds, results)


@pytest.mark.parametrize("count", COUNTS)
def test_double_elimination_everyone_but_the_champion_loses_twice(count):
    rng = random.Random(count)
    bracket = double_elimination(count)
    for _ in range(5):
        seeds, results, states = play(bracket, rng)
        losses = Counter(s.loser for s in states.values() if s.winner is not None)
        champion = states[len(bracket.matches)].winner or states[len(bracket.matches) - 1].winner
        assert losses[champion] <= 1
        assert all(losses[s] == 2 for s in seeds if s != champion)


@pytest.mark.parametrize("count", COUNTS)
def test_single_elimination_everyone_but_the_champion_loses_once(count):
    bracket = single_elimination(count)
    seeds, results, states = play(bracket, random.Random(count))
    losses = Counter(s.loser for s in states.values())
    assert sorted(losses.values()) == [1] * (count - 1)
    assert len(results) == count - 1


@pytest.mark.parametrize("count", [8, 16, 32, 64])
def test_losers_bracket_drops_avoid_immediate_rematches(count):
    bracket = double_elimination(count)
    first_drop = {m.id for m in bracket.matches if m.stage == "losers" and m.round == 2}
    for seed in range(20):
        _, _, states = play(bracket, random.Random(seed))
        met = set()
        for match in bracket.matches:
            state = states[match.id]
            pair = frozenset((state.home, state.away))
            if match.id in first_drop:
                assert pair not in met
            met.add(pair)


def test_grand_final_reset_only_when_the_losers_champion_wins():
    bracket = double_elimination(2)
    assert [m.stage for m in bracket.matches] == ["winners", "grand_final", "grand_final_reset"]
    states = advance(bracket, ["a", "b"], {1: "a", 2: "a"})
    assert not states[3].needed
    with pytest.raises(ValueError):
        advance(bracket, ["a", "b"], {1: "a", 2: "a", 3: "a"})
    states = advance(bracket, ["a", "b"], {1: "a", 2: "b"})
    assert states[3].needed and {states[3].home, states[3].away} == {"a", "b"}


def test_advance_rejects_impossible_results():
    bracket = single_elimination(4)
    with pytest.raises(ValueError):
        advance(bracket, list("abcd"), {1: "b"})  # 1 v 4 is a v d
    with pytest.raises(ValueError):
        advance(bracket, list("abcd"), {3: "a"})  # final not yet known
    with pytest.raises(ValueError):
        advance(bracket, list("abc"), {})
    with pytest.raises(ValueError):
        advance(bracket, list("abcd"), {9: "a"})


def test_advance_fills_next_slots():
    bracket = single_elimination(5, third_place=False)
    # 4 v 5 in round 1; 1 v winner, 2 v 3 in round 2; final.
    assert [(m.home, m.away) for m in bracket.matches][:2] == [
        (Source("seed", 4), Source("seed", 5)),
        (Source("seed", 1), Source("winner", 1)),
    ]
    states = advance(bracket, list("abcde"), {1: "e", 3: "c"})
    assert (states[2].home, states[2].away) == ("a", "e")
    assert (states[4].home, states[4].away) == (None, "c")


def test_dependents_to_reset_follow_played_matches_only():
    bracket = single_elimination(8, third_place=True)
    # 1-4 round 1, 5-6 semis, 7 final, 8 third place.
    assert [m.stage for m in bracket.matches][-1] == "third_place"
    results = {1: "s1", 2: "s4", 3: "s2", 4: "s3", 5: "s1", 6: "s2", 7: "s1", 8: "s4"}
    assert dependents_to_reset(bracket, 1, results) == {5, 7, 8}
    assert dependents_to_reset(bracket, 1, {1: "s1", 2: "s4"}) == set()
    assert dependents_to_reset(bracket, 7, results) == set()
    double = double_elimination(4)
    seeds, results, _ = play(double, random.Random(1))
    reset = dependents_to_reset(double, 1, results)
    grand_final = next(m.id for m in double.matches if m.stage == "grand_final")
    assert grand_final in reset and 1 not in reset


def test_snake_groups():
    assert snake_groups(range(1, 13), 4) == [[1, 8, 9], [2, 7, 10], [3, 6, 11], [4, 5, 12]]
    assert snake_groups("abcde", 2) == [["a", "d", "e"], ["b", "c"]]


def halves(seeds):
    size = 1 << (len(seeds) - 1).bit_length()
    slot = {s: i for i, s in enumerate(seeding_order(size))}
    return {e: slot[n] * 2 // size for n, e in enumerate(seeds, 1)}, {
        e: slot[n] * 4 // size for n, e in enumerate(seeds, 1)
    }


@pytest.mark.parametrize("groups", [2, 3, 4, 6, 8])
def test_playoff_keeps_group_mates_apart(groups):
    standings = [[f"{g}{place}" for place in range(4)] for g in "ABCDEFGH"[:groups]]
    seeds = playoff_seeds(standings, 2)
    assert seeds[:groups] == [members[0] for members in standings]
    half, quarter = halves(seeds)
    for members in standings:
        assert half[members[0]] != half[members[1]]
    if groups >= 4:
        winners_quarters = [quarter[members[0]] for members in standings]
        assert Counter(winners_quarters).most_common(1)[0][1] <= -(-groups // 4)


def test_playoff_orders_tiers_and_adds_best_of_the_rest():
    standings = [["A1", "A2", "A3"], ["B1", "B2", "B3"], ["C1", "C2", "C3"]]
    overall = ["B1", "A1", "C1", "A2", "C2", "B2", "C3", "A3", "B3"]
    seeds = playoff_seeds(standings, 2, best_of_rest=2, overall=overall)
    assert seeds[:3] == ["B1", "A1", "C1"]
    assert set(seeds[3:6]) == {"A2", "B2", "C2"}
    assert set(seeds[6:]) == {"C3", "A3"}
    half, _ = halves(seeds)
    for group in "ABC":
        assert half[f"{group}1"] != half[f"{group}2"]
    with pytest.raises(ValueError):
        playoff_seeds(standings, 2, best_of_rest=1)
