"""A league with a referee, a chief referee and a match whose result holds a disputed hand."""

from dataclasses import dataclass

import pytest

from demo.disputes import CORRECT_ACTION, illegal_pass_record
from games.disputes.services import settings_for
from league.models import Match, Membership, Result
from league.services import results
from tests.league.conftest import League, build_league, make_user


@dataclass
class Referees:
    league: League
    chief: object
    match: Match
    result: Result

    @property
    def a(self) -> list:
        return self.league.players(self.match.entry_a)

    @property
    def b(self) -> list:
        return self.league.players(self.match.entry_b)


def corrected_record() -> dict:
    record = illegal_pass_record()
    index, action = CORRECT_ACTION
    record["actions"][index] = action
    return record


def game_with_hand(points_a: int = 110, points_b: int = 60) -> list[dict]:
    return [{"points_a": points_a, "points_b": points_b, "hands": [illegal_pass_record()]}]


def build_referees(tag: str = "") -> Referees:
    league = build_league(size=4, tag=tag)
    chief = make_user(f"chief{tag}", league.club, Membership.Role.REFEREE)
    settings = settings_for(league.event)
    settings.chief_referee = chief
    settings.save()
    match = league.matches(1)[0]
    result = results.enter_result(league.players(match.entry_a)[0], match, game_with_hand())
    return Referees(league=league, chief=chief, match=match, result=result)


@pytest.fixture
def refs(db) -> Referees:
    return build_referees()
