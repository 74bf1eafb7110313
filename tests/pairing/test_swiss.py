from functools import partial
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.pairing import SwissEntrant, pair_swiss, swiss
from league.pairing.simulation import swiss_event


def field(scores, opponents=None, byes=()):
    opponents = opponents or {}
    return [
        SwissEntrant(i, s, frozenset(opponents.get(i, ())), i in byes) for i, s in enumerate(scores)
    ]


def seated(result):
    bye = [] if result.bye is None else [result.bye]
    return sorted([e for pair in result.pairings for e in pair] + bye)


def test_first_round_slides_top_half_against_bottom_half():
    result = pair_swiss(field([0] * 8))
    assert result.pairings == ((0, 4), (1, 5), (2, 6), (3, 7))
    assert result.bye is None and result.rematches == 0


def test_adjacent_style_pairs_neighbours():
    result = pair_swiss(field([0] * 8), style="adjacent")
    assert result.pairings == ((0, 1), (2, 3), (4, 5), (6, 7))


def test_score_groups_stay_together_and_table_one_is_the_top_group():
    result = pair_swiss(field([2, 2, 2, 2, 1, 1, 1, 1, 0, 0]))
    assert result.pairings == ((0, 2), (1, 3), (4, 6), (5, 7), (8, 9))


def test_odd_group_floats_its_lowest_member_to_the_top_of_the_next_group():
    result = pair_swiss(field([1, 1, 1, 0, 0, 0]))
    assert (2, 3) in result.pairings
    assert (0, 1) in result.pairings


def test_rematches_and_forbidden_pairings_are_avoided():
    result = pair_swiss(field([0] * 4, {0: {2}, 2: {0}}), forbidden=[(1, 3)])
    assert set(result.pairings) == {(0, 3), (1, 2)}
    assert result.rematches == 0


def test_bye_goes_to_lowest_ranked_entrant_without_one():
    result = pair_swiss(field([3, 2, 2, 1, 0], byes={4, 3}))
    assert result.bye == 2
    assert seated(result) == list(range(5))


def test_everyone_had_a_bye_means_the_lowest_gets_another():
    result = pair_swiss(field([1, 1, 1], byes={0, 1, 2}))
    assert result.bye == 2 and result.rematches == 0


def test_unavoidable_rematch_is_reported_and_minimised():
    everyone = {i: {j for j in range(4) if j != i} for i in range(4)}
    result = pair_swiss(field([0] * 4, everyone))
    assert result.rematches == 2 and seated(result) == [0, 1, 2, 3]


def violations(entrants, forbidden, pairs, bye):
    banned = {frozenset(p) for p in forbidden}
    by_id = {e.id: e for e in entrants}
    count = sum(b in by_id[a].opponents or frozenset((a, b)) in banned for a, b in pairs)
    if bye is not None and by_id[bye].had_bye and not all(e.had_bye for e in entrants):
        count += 1
    return count


def matchings(ids):
    if not ids:
        yield []
        return
    first, rest = ids[0], ids[1:]
    for i, other in enumerate(rest):
        for tail in matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *tail]


def best_possible(entrants, forbidden):
    """Brute force: fewest violations, and the lowest-ranked bye compatible with that."""
    ids = [e.id for e in entrants]
    options = [(None, ids)] if len(ids) % 2 == 0 else [(b, [i for i in ids if i != b]) for b in ids]
    best = {}
    for bye, rest in options:
        fewest = min(violations(entrants, forbidden, m, bye) for m in matchings(rest))
        best.setdefault(fewest, []).append(bye)
    fewest = min(best)
    return fewest, max(best[fewest], key=lambda b: -1 if b is None else b)


@st.composite
def small_fields(draw):
    count = draw(st.integers(2, 9))
    scores = sorted(draw(st.lists(st.integers(0, 3), min_size=count, max_size=count)), reverse=True)
    pairs = list(combinations(range(count), 2))
    played = draw(st.sets(st.sampled_from(pairs), max_size=len(pairs)))
    forbidden = draw(st.sets(st.sampled_from(pairs), max_size=3))
    byes = draw(st.sets(st.integers(0, count - 1)))
    opponents = {i: {b if a == i else a for a, b in played if i in (a, b)} for i in range(count)}
    return field(scores, opponents, byes), sorted(forbidden)


@settings(max_examples=150, deadline=None)
@given(small_fields())
def test_rematches_only_when_unavoidable(case):
    entrants, forbidden = case
    result = pair_swiss(entrants, forbidden)
    assert seated(result) == list(range(len(entrants)))
    assert result.rematches == violations(entrants, forbidden, result.pairings, result.bye)
    fewest, bye = best_possible(entrants, forbidden)
    assert result.rematches == fewest
    if fewest == 0:
        assert result.bye == bye


@settings(max_examples=40, deadline=None)
@given(st.integers(4, 40), st.integers(0, 2**32))
def test_no_rematch_or_second_bye_over_a_tournament(count, seed):
    # After r rounds the graph of unplayed pairs has minimum degree >= count - 1 - r; while
    # that is at least half the entrants still to pair (Dirac), a Hamiltonian cycle and so a
    # rematch-free round exists, even with the bye fixed on the lowest eligible entrant.
    rounds = max(1, count // 2 - 2)
    byes = []
    for entrants, result in swiss_event(count, rounds, seed):
        assert result.rematches == 0
        assert seated(result) == list(range(count))
        if result.bye is not None:
            byes.append(result.bye)
            assert result.bye == [e.id for e in entrants if not e.had_bye][-1]
    assert len(byes) == len(set(byes))


def test_large_field_is_paired_without_rematches():
    rounds = list(swiss_event(300, 8, seed=7))
    assert all(result.rematches == 0 for _, result in rounds)
    entrants, result = rounds[-1]
    groups = {e.id: e.score for e in entrants}
    floats = sum(groups[a] != groups[b] for a, b in result.pairings)
    assert floats <= len({e.score for e in entrants})  # at most one float per score group


@pytest.mark.parametrize(("count", "seed"), [(100, 1), (99, 2)])
def test_windowed_matching_agrees_with_the_exact_global_one(count, seed, monkeypatch):
    """On the dominant criteria (rematches, bye, score-group integrity) the fast windowed
    matching matches one exact matching over the complete graph."""
    entrants, _ = list(swiss_event(count, 9, seed))[-1]
    fast = pair_swiss(entrants)
    exact_matcher = partial(swiss.match_sequence, window=10**6, neighbours=10**6)
    monkeypatch.setattr(swiss, "match_sequence", exact_matcher)
    exact = pair_swiss(entrants)
    score = {e.id: e.score for e in entrants}
    groups = sorted(set(score.values()), reverse=True)

    def integrity(result):
        return sum(
            (groups.index(score[a]) - groups.index(score[b])) ** 2 for a, b in result.pairings
        )

    assert (fast.rematches, fast.bye, integrity(fast)) == (0, exact.bye, integrity(exact))
    assert exact.rematches == 0
