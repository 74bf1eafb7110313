"""Clubs anyone can found, rosters of players without accounts, and claiming a record."""

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied

from league import accounts
from league.models import Membership, Organisation
from league.permissions import can
from league.services import clubs, entries, invitations
from league.services.errors import ServiceError

from .conftest import build_league, make_user


@pytest.fixture
def league(db):
    return build_league(size=0, generate=False)


def test_anyone_signed_in_founds_a_club_and_owns_it(db):
    user = make_user("founder")
    club = clubs.create_club(user, name="  Los   Tranques ", city="Santo Domingo", country="do")
    assert (club.name, club.slug, club.country) == ("Los Tranques", "los-tranques", "DO")
    assert Membership.objects.filter(organisation=club, user=user, role="owner").exists()
    assert can(user, "organisation.manage", club)
    second = clubs.create_club(user, name="Los Tranques", city="Santiago")
    assert second.slug == "los-tranques-2"
    with pytest.raises(ServiceError) as caught:
        clubs.create_club(user, name="los tranques", city="santo domingo")
    assert caught.value.code == "club_exists"
    with pytest.raises(ServiceError) as caught:
        clubs.create_club(user, name="   ")
    assert caught.value.code == "name_required"


def test_roster_players_without_accounts_and_search(league):
    ana = clubs.add_player(
        league.organiser, league.club, display_name="Ana  Pérez", email="ANA@x.org", phone="809 1"
    )
    assert (ana.display_name, ana.email, ana.user, ana.club) == (
        "Ana Pérez",
        "ana@x.org",
        None,
        league.club,
    )
    assert ana.contact_email == "ana@x.org"
    elsewhere = Organisation.objects.create(name="Elsewhere", slug="elsewhere")
    make_user("ana-elsewhere", elsewhere)
    assert clubs.search_roster(league.club, "ana") == [ana]
    assert clubs.search_roster(league.club, "ana@x.org") == [ana]
    assert clubs.search_roster(league.club, " ") == []
    # A federation's roster holds its clubs' players.
    federation = Organisation.objects.create(name="Fed", slug="fed", kind="federation")
    league.club.parent = federation
    league.club.save()
    assert ana in clubs.search_roster(federation, "pérez")
    with pytest.raises(PermissionDenied):
        clubs.add_player(league.referee, league.club, display_name="Nadie")


def test_roster_players_are_edited_by_the_club_not_account_holders(league):
    ana = clubs.add_player(league.organiser, league.club, display_name="Ana")
    clubs.update_player(
        league.organiser, league.club, ana, display_name="Ana María", email="", phone="1"
    )
    ana.refresh_from_db()
    assert (ana.display_name, ana.phone) == ("Ana María", "1")
    with pytest.raises(ServiceError) as caught:
        clubs.update_player(
            league.organiser,
            league.club,
            league.referee.player,
            display_name="X",
            email="",
            phone="",
        )
    assert caught.value.code == "has_account"


def test_an_invitation_lets_the_person_claim_the_record_and_its_history(league):
    ana = clubs.add_player(league.organiser, league.club, display_name="Ana", email="ana@x.org")
    luis = clubs.add_player(league.organiser, league.club, display_name="Luis")
    entry = entries.register(league.organiser, league.event, player_1=ana, player_2=luis)
    invitation = invitations.invite(league.organiser, league.club, "player", player=ana)
    assert invitation.email == "ana@x.org"

    newcomer = accounts.register_player(
        username="ana", email="ana@x.org", password="tranque-y-capicua-9", display_name="Anita"
    ).user
    invitations.accept(newcomer, invitation.token)
    newcomer = get_user_model().objects.get(pk=newcomer.pk)
    assert newcomer.player == ana
    assert accounts.player_for(newcomer) == ana
    entry.refresh_from_db()
    assert entry.player_1.user == newcomer
    assert Membership.objects.filter(user=newcomer, organisation=league.club).exists()
    assert league.event.entries.count() == 1


def test_a_claimed_record_cannot_be_claimed_again_nor_merged_into_history(league):
    ana = clubs.add_player(league.organiser, league.club, display_name="Ana")
    with pytest.raises(ServiceError) as caught:
        invitations.invite(league.organiser, league.club, "player", player=league.referee.player)
    assert caught.value.code == "player_claimed"
    veteran = make_user("veteran", league.club)
    other = make_user("other", league.club)
    entries.register(league.organiser, league.event, player_1=veteran.player, player_2=other.player)
    invitation = invitations.invite(league.organiser, league.club, "player", player=ana)
    with pytest.raises(ServiceError) as caught:
        invitations.accept(veteran, invitation.token)
    assert caught.value.code == "own_history"
    ana.refresh_from_db()
    assert ana.user is None
    elsewhere = Organisation.objects.create(name="Elsewhere", slug="elsewhere")
    stranger = clubs.add_player(league.organiser, league.club, display_name="S")
    stranger.club = elsewhere
    stranger.save()
    with pytest.raises(ServiceError) as caught:
        invitations.invite(league.organiser, league.club, "player", player=stranger)
    assert caught.value.code == "not_on_roster"
