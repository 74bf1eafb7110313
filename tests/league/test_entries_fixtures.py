"""Entries (cap, waiting list, withdrawals), fixtures, scheduling, invitations, settings."""

from datetime import date, timedelta
from itertools import combinations

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import timezone

from league.models import AuditEntry, Entry, Event, Match, Membership, Result, Round
from league.services import entries, events, fixtures, invitations, results, standings
from league.services.errors import ServiceError

from .conftest import build_league, game, make_user

pytestmark = pytest.mark.django_db


def pair(tag: str):
    return make_user(f"{tag}1").player, make_user(f"{tag}2").player


def test_single_round_robin_every_pair_meets_every_other_once(league):
    matches = Match.objects.filter(event=league.event).exclude(entry_b=None)
    met = sorted(tuple(sorted((m.entry_a_id, m.entry_b_id))) for m in matches)
    assert met == sorted(combinations(sorted(e.pk for e in league.pairs), 2))
    assert league.event.rounds.count() == 5
    assert all(e.lot for e in Entry.objects.filter(event=league.event))
    assert league.event.status == Event.Status.RUNNING
    with pytest.raises(ServiceError) as caught:
        fixtures.generate_fixtures(league.organiser, league.event)
    assert caught.value.code == "fixtures_exist"
    assert league.event.rounds.count() == 5


def test_double_round_robin_with_an_odd_count_has_byes_and_dates(db):
    league = build_league(5, generate=False, legs=2)
    fixtures.generate_fixtures(league.organiser, league.event, first_date=date(2026, 1, 5))
    rounds = list(Round.objects.filter(event=league.event))
    assert len(rounds) == 10 and rounds[1].date == date(2026, 1, 12)
    assert Match.objects.filter(event=league.event, status=Match.Status.BYE).count() == 10
    assert Match.objects.filter(event=league.event).exclude(entry_b=None).count() == 20


def test_team_fixtures_have_one_board_per_pair(db, client):
    league = build_league(0, generate=False, entry_kind="team", boards=2)
    organiser, event = league.organiser, league.event
    teams = []
    for t in range(3):
        captain = make_user(f"cap{t}", league.club).player
        team = entries.register(organiser, event, name=f"Team {t}", captain=captain)
        for k in range(2):
            p1, p2 = pair(f"t{t}{k}")
            entries.register(organiser, event, player_1=p1, player_2=p2, team=team)
        teams.append(team)
    fixtures.generate_fixtures(organiser, event)
    fixture = Match.objects.filter(event=event, parent=None).exclude(entry_b=None).first()
    boards = list(fixture.boards.all())
    assert len(boards) == 2
    with pytest.raises(ServiceError):
        results.enter_result(organiser, fixture, game(100, 0))
    # A board is entered by the team captain and confirmed by the other team's captain.
    captain_a = fixture.entry_a.captain.user
    captain_b = fixture.entry_b.captain.user
    for board in boards:
        results.confirm_result(captain_b, results.enter_result(captain_a, board, game(100, 40)))
    fixture.refresh_from_db()
    assert fixture.status == Match.Status.PLAYED
    rows = {r.entry: r for r in standings.table(event).standings}
    assert rows[fixture.entry_a].won == 1 and rows[fixture.entry_a].games_won == 2
    assert set(rows) == set(teams)
    sheets = client.get(reverse("scoresheets", args=[event.slug]) + "?round=1")
    assert sheets.content.decode().count('class="scoresheet"') == 2  # the boards of 1 fixture


def test_the_cap_fills_then_the_waiting_list_is_promoted(db):
    league = build_league(0, generate=False, capacity=2)
    event = league.event
    events.set_status(league.organiser, event, Event.Status.REGISTRATION)
    made = []
    for tag in "abc":
        p1, p2 = pair(tag)
        made.append(entries.register(p1.user, event, player_1=p1, player_2=p2))
    assert [e.status for e in made] == ["accepted", "accepted", "waitlisted"]
    with pytest.raises(ServiceError) as caught:  # the same player twice
        entries.register(
            made[0].player_1.user, event, player_1=made[0].player_1, player_2=make_user("x").player
        )
    assert caught.value.code == "already_entered"
    entries.withdraw(made[0].player_2.user, made[0])
    made[2].refresh_from_db()
    assert made[2].status == Entry.Status.ACCEPTED
    assert AuditEntry.objects.filter(action="entry.promote", target=f"entry:{made[2].pk}").exists()


def test_players_may_only_enter_their_own_pair_while_registration_is_open(db):
    league = build_league(0, generate=False)
    event = league.event
    p1, p2 = pair("own")
    stranger = make_user("stranger")
    with pytest.raises(PermissionDenied):  # still a draft
        entries.register(p1.user, event, player_1=p1, player_2=p2)
    event.status = Event.Status.REGISTRATION
    event.registration_closes = timezone.now() - timedelta(hours=1)
    event.save()
    with pytest.raises(ServiceError) as caught:
        entries.register(p1.user, event, player_1=p1, player_2=p2)
    assert caught.value.code == "registration_closed"
    event.registration_closes = None
    event.save()
    with pytest.raises(ServiceError) as caught:
        entries.register(stranger, event, player_1=p1, player_2=p2)
    assert caught.value.code == "not_yours"
    assert not Entry.objects.filter(event=event).exists()


@pytest.mark.parametrize("absence", ["forfeit", "bye"])
def test_a_withdrawal_turns_the_remaining_fixtures_into_forfeits_or_byes(db, absence):
    league = build_league(4, absence=absence, forfeit_games=1, forfeit_points=100)
    for match in league.matches(1):
        results.enter_result(league.organiser, match, game(100, 50))
    leaving = league.pairs[0]
    entries.withdraw(league.organiser, leaving, reason="Moved away")
    remaining = Match.objects.filter(event=league.event, round__number__gt=1).filter(
        entry_a=leaving
    ) | Match.objects.filter(event=league.event, round__number__gt=1, entry_b=leaving)
    assert remaining.count() == 2
    rows = {r.entry: r for r in standings.table(league.event).standings}
    if absence == "forfeit":
        forfeits = Result.objects.filter(forfeit=True, status="confirmed")
        assert forfeits.count() == 2
        assert rows[leaving].played == 3 and rows[leaving].lost >= 2
        assert all(m.status == Match.Status.PLAYED for m in remaining)
    else:
        assert all(m.status == Match.Status.BYE for m in remaining)
        assert rows[leaving].played == 1
    assert rows[leaving].entry.status == Entry.Status.WITHDRAWN
    with pytest.raises(ServiceError):
        entries.withdraw(league.organiser, leaving)


def test_a_late_entry_gets_catch_up_fixtures(league):
    p1, p2 = pair("late")
    late = entries.register(league.organiser, league.event, player_1=p1, player_2=p2)
    assert late.late
    assert Match.objects.filter(entry_a=late).count() == 6
    assert league.event.rounds.count() == 5 + 6


def test_check_in_and_disqualification_need_the_right_people(league):
    entry = league.pairs[0]
    other = league.players(league.pairs[1])[0]
    with pytest.raises(PermissionDenied):
        entries.check_in(other, entry)
    assert entries.check_in(entry.player_1.user, entry).checked_in
    with pytest.raises(PermissionDenied):
        entries.withdraw(entry.player_1.user, entry, disqualify=True)
    entries.withdraw(league.organiser, entry, disqualify=True)
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.DISQUALIFIED


def test_reschedule_and_postpone(league):
    match = league.matches(2)[0]
    fixtures.postpone(league.organiser, match)
    assert Match.objects.get(pk=match.pk).status == Match.Status.POSTPONED
    when = timezone.now() + timedelta(days=3)
    fixtures.reschedule(league.organiser, match, when, venue="Sede", table=9)
    match.refresh_from_db()
    assert (match.status, match.venue, match.table) == ("scheduled", "Sede", 9)
    assert match.entry_a.player_1.user.notifications.exists()
    with pytest.raises(PermissionDenied):
        fixtures.postpone(league.players(match.entry_a)[0], match)


def test_bad_rules_and_tiebreaks_are_refused(db):
    league = build_league(0, generate=False)
    for bad in (
        {"rule_preset": "poker"},
        {"rule_overrides": {"target": "lots"}},
        {"rule_overrides": ["target"]},
        {"tiebreaks": ["match_wins", "match_wins"]},
        {"tiebreaks": ["charisma"]},
        {"match_format": "best_of", "best_of": 2},
    ):
        with pytest.raises(ServiceError):
            events.create_event(league.organiser, league.club, name="Bad", **bad)
    assert Event.objects.count() == 1


def test_tiebreaks_are_locked_once_play_starts(league):
    events.update_event(league.organiser, league.event, tiebreaks=["match_wins", "lots"])
    match = league.matches(1)[0]
    results.enter_result(league.organiser, match, game(100, 0))
    with pytest.raises(ServiceError) as caught:
        events.update_event(league.organiser, league.event, tiebreaks=["lots"])
    assert caught.value.code == "locked_in_play"
    events.update_event(league.organiser, league.event, venue="Club house")
    league.event.refresh_from_db()
    assert league.event.tiebreaks == ["match_wins", "lots"]


def test_invitation_link_makes_a_member_once(league):
    invitation = invitations.invite(league.owner, league.club, Membership.Role.REFEREE)
    newcomer = make_user("newref")
    with pytest.raises(PermissionDenied):
        invitations.invite(newcomer, league.club, Membership.Role.OWNER)
    membership = invitations.accept(newcomer, invitation.token)
    assert membership.role == "referee" and membership.user == newcomer
    with pytest.raises(ServiceError) as caught:
        invitations.accept(make_user("late"), invitation.token)
    assert caught.value.code == "invitation_used"
    with pytest.raises(ServiceError):
        invitations.invite(league.organiser, league.club, Membership.Role.OWNER)


def test_an_emailed_invitation_is_for_that_address(league, django_capture_on_commit_callbacks):
    invitation = invitations.invite(league.organiser, league.club, "player", "ana@example.com")
    with pytest.raises(ServiceError) as caught:
        invitations.accept(make_user("bob"), invitation.token)
    assert caught.value.code == "wrong_account"
    invitation.expires = timezone.now()
    invitation.save()
    with pytest.raises(ServiceError) as caught:
        invitations.accept(make_user("ana"), invitation.token)
    assert caught.value.code == "invitation_expired"
