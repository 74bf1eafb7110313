"""The inlined Plackett–Luce update gives exactly openskill's numbers."""

from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from league.ratings.skill import MatchOutcome, initial, ordinal, outcome_of, rate_match

MODEL = PlackettLuce()
skills = st.tuples(st.floats(-20, 80), st.floats(0.05, 12))


def by_openskill(team_a, team_b, outcome: MatchOutcome):
    teams = [
        [MODEL.create_rating(list(s)) for s in team_a],
        [MODEL.create_rating(list(s)) for s in team_b],
    ]
    new = MODEL.rate(teams, ranks=outcome.ranks)
    return [[(r.mu, r.sigma) for r in team] for team in new]


def ours(team_a, team_b, outcome: MatchOutcome):
    return [list(team) for team in rate_match(tuple(team_a), tuple(team_b), outcome)]


def test_four_new_players_a_win_by_hand():
    new = initial()
    (a1, a2), (b1, b2) = rate_match((new, new), (new, new), MatchOutcome.A_WINS)
    # Worked by hand: sigma² + tau² = 69.4514, each team 138.903, c = sqrt(2·138.903 +
    # 2·17.361) = 17.6785; equal teams, p = 1/2, so omega = ±1/2·138.903/17.6785 = ±3.9286,
    # each player taking half: mu = 25 ± 1.9643. delta = 1/4·(138.903/17.6785²)·
    # (sqrt(138.903)/17.6785) = 0.074075, sigma = 8.33375·sqrt(1 − delta/2) = 8.17796.
    assert a1 == a2 and b1 == b2
    assert round(a1[0], 4) == 26.9643 and round(b1[0], 4) == 23.0357
    assert a1[1] == b1[1] and round(a1[1], 4) == 8.1780
    assert ours([new, new], [new, new], MatchOutcome.A_WINS) == by_openskill(
        [new, new], [new, new], MatchOutcome.A_WINS
    )


def test_an_upset_moves_more_than_an_expected_win():
    strong, weak = (35.0, 3.0), (18.0, 3.0)
    expected = rate_match((strong, strong), (weak, weak), MatchOutcome.A_WINS)
    upset = rate_match((strong, strong), (weak, weak), MatchOutcome.B_WINS)
    assert upset[1][0][0] - weak[0] > expected[0][0][0] - strong[0] > 0
    for outcome in MatchOutcome:
        assert ours([strong, strong], [weak, weak], outcome) == by_openskill(
            [strong, strong], [weak, weak], outcome
        )


def test_a_draw_between_equals_changes_only_sigma():
    new = initial()
    (a1, _), (b1, _) = rate_match((new, new), (new, new), MatchOutcome.DRAW)
    assert a1[0] == b1[0] == 25.0 and a1[1] < new[1]


@given(st.tuples(skills, skills), st.tuples(skills, skills), st.sampled_from(list(MatchOutcome)))
def test_equal_to_openskill_for_any_ratings(team_a, team_b, outcome):
    assert ours(team_a, team_b, outcome) == by_openskill(team_a, team_b, outcome)


@given(skills)
def test_ordinal_is_openskills(skill):
    assert ordinal(skill) == MODEL.create_rating(list(skill)).ordinal()


def test_outcome_is_the_games_won_never_the_margin():
    assert outcome_of(2, 0) is outcome_of(2, 1) is MatchOutcome.A_WINS
    assert outcome_of(0, 1) is MatchOutcome.B_WINS
    assert outcome_of(1, 1) is MatchOutcome.DRAW
