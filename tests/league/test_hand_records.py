"""A result that comes with its hand records: the records decide the score and the lisa
(messages in Spanish, the site's default)."""

import pytest

from games.engine import adjudicate
from league.models import Result
from league.services import results, standings
from league.services.errors import ServiceError
from tests.engine.records import first_match, played_match

from .conftest import build_league

pytestmark = pytest.mark.django_db


@pytest.fixture
def dominican(db):
    return build_league(4, rule_preset="dominican")


def typed(hands: list[dict], a: int, b: int, lisa: bool = False) -> list[dict]:
    return [{"points_a": a, "points_b": b, "hands": hands}]


def refused(league, hands: list[dict], a: int, b: int, lisa: bool = False) -> str:
    match = league.matches(1)[0]
    with pytest.raises(ServiceError) as caught:
        results.enter_result(league.organiser, match, typed(hands, a, b), lisa=lisa)
    assert caught.value.code == "records_disagree"
    assert not Result.objects.filter(match=match).exists()
    return str(caught.value.message)


def test_one_record_under_a_whole_matchs_score_is_refused_naming_the_hand(dominican):
    hands, match = played_match(seed=0)
    first = adjudicate(hands[0])["scores_after"]
    message = refused(dominican, hands[:1], *match.scores)
    assert f"termina en {first[0]}–{first[1]} tras la mano 1" in message
    assert f"no en el {match.scores[0]}–{match.scores[1]} anotado" in message


def test_all_the_records_under_another_score_are_refused_naming_the_last_hand(dominican):
    hands, match = played_match(seed=0)
    a, b = match.scores
    message = refused(dominican, hands, a, b + 7)
    assert f"{a}–{b} tras la mano {len(hands)}" in message


def test_a_missing_hand_breaks_the_chain_where_it_is_missing(dominican):
    hands, match = played_match(seed=0)
    message = refused(dominican, hands[:2] + hands[3:], *match.scores)
    ended = adjudicate(hands[1])["scores_after"]
    assert "mano 3: empieza en" in message and f"mano 2 terminó en {ended[0]}–{ended[1]}" in message


def test_records_that_start_mid_game_are_refused(dominican):
    hands, match = played_match(seed=0)
    assert "mano 1: empieza en" in refused(dominican, hands[2:], *match.scores)


def test_made_up_normal_points_before_a_hand_are_refused(dominican):
    hands, match = played_match(seed=0)
    hands[4]["normal_before"] = [hands[4]["normal_before"][0], 0]
    assert "mano 5: cuenta" in refused(dominican, hands, *match.scores)


def test_a_lisa_the_records_show_counts_even_when_the_losers_have_bonus_points(dominican):
    hands, match = first_match(lambda m: m.shutout and min(m.scores) > 0)
    played = dominican.matches(1)[0]
    result = results.enter_result(dominican.organiser, played, typed(hands, *match.scores))
    assert result.shutout is True
    winner = played.entry_a if match.winner == 0 else played.entry_b
    row = next(r for r in standings.table(dominican.event).standings if r.entry == winner)
    assert (row.shutouts, row.match_points) == (1, 2)  # the dominican lisa counts twice


def test_a_faulty_hand_is_left_to_the_referees_and_the_typed_score_stands(dominican):
    hands, match = played_match(seed=0)
    hands[3]["actions"] = hands[3]["actions"][:1] + ["pass", "pass", "pass", "pass"]
    played = dominican.matches(1)[0]
    result = results.enter_result(dominican.organiser, played, typed(hands, *match.scores))
    assert [f["hand"] for f in results.faults(result)] == [4]
    assert (result.points_a, result.points_b) == match.scores
