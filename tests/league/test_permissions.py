"""The permission matrix: role × action, all decided by league.permissions.can."""

import pytest
from django.contrib.auth.models import AnonymousUser

from league.models import Membership, Organisation
from league.permissions import can
from league.services import results

from .conftest import build_league, game, make_user

ACTIONS = [
    "organisation.manage",
    "event.manage",
    "event.referee",
    "event.enter",
    "entry.act",
    "result.enter",
    "result.confirm",
    "result.resolve",
]
# Who may do what. The result was proposed by a player of side A of the match; entry.act is
# asked about side A's entry. The event is in play (registration closed).
MATRIX = {
    "owner": {*ACTIONS},
    "organiser": {*ACTIONS},
    "federation_organiser": {*ACTIONS},
    "referee": {"event.referee", "result.enter", "result.confirm"},
    "club_captain": set(),
    "club_player": set(),
    "side_a_player": {"entry.act", "result.enter"},
    "side_b_player": {"result.enter", "result.confirm"},
    "other_pair_player": set(),
    "other_club_owner": set(),
    "anonymous": set(),
}


@pytest.fixture
def world(db):
    league = build_league(4)
    federation = Organisation.objects.create(name="Fed", slug="fed", kind="federation")
    league.club.parent = federation
    league.club.save()
    match = league.matches(1)[0]
    side_a = league.players(match.entry_a)
    result = results.enter_result(side_a[0], match, game(100, 20))
    other_club = Organisation.objects.create(name="Other", slug="other")
    others = [e for e in league.pairs if e not in (match.entry_a, match.entry_b)]
    users = {
        "owner": league.owner,
        "organiser": league.organiser,
        "federation_organiser": make_user("fedorg", federation, Membership.Role.ORGANISER),
        "referee": league.referee,
        "club_captain": make_user("clubcap", league.club, Membership.Role.CAPTAIN),
        "club_player": make_user("clubplayer", league.club, Membership.Role.PLAYER),
        "side_a_player": side_a[1],
        "side_b_player": league.players(match.entry_b)[0],
        "other_pair_player": league.players(others[0])[0],
        "other_club_owner": make_user("otherowner", other_club, Membership.Role.OWNER),
        "anonymous": AnonymousUser(),
    }
    objects = {
        "organisation.manage": league.club,
        "event.manage": league.event,
        "event.referee": league.event,
        "event.enter": league.event,
        "entry.act": match.entry_a,
        "result.enter": match,
        "result.confirm": result,
        "result.resolve": result,
    }
    return users, objects


@pytest.mark.parametrize("role", list(MATRIX))
def test_permission_matrix(world, role):
    users, objects = world
    allowed = {action for action in ACTIONS if can(users[role], action, objects[action])}
    assert allowed == MATRIX[role]


def test_the_proposer_never_confirms_their_own_result(world):
    users, objects = world
    result = objects["result.confirm"]
    assert not can(result.entered_by, "result.confirm", result)


def test_a_named_captain_speaks_for_the_pair_instead_of_its_players(db):
    league = build_league(4)
    match = league.matches(1)[0]
    entry = match.entry_a
    captain = make_user("named", league.club)
    entry.captain = captain.player
    entry.save()
    assert can(captain, "result.enter", match)
    assert not can(entry.player_1.user, "result.enter", match)


def test_registration_open_lets_players_enter(db):
    league = build_league(2, generate=False)
    outsider = make_user("newcomer")
    assert not can(outsider, "event.enter", league.event)
    league.event.status = "registration"
    assert can(outsider, "event.enter", league.event)
