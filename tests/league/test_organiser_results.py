"""Results an organiser can finish: official entries count at once, the round sheet, and
the lisa rule on recorded and typed results (#15)."""

import pytest
from django.core.exceptions import PermissionDenied

from games.engine import adjudicate
from league.models import AuditEntry, Match, Result
from league.services import events, fixtures, results, standings
from league.services.errors import ServiceError
from tests.engine.records import first_match, record

from .conftest import build_league, game

pytestmark = pytest.mark.django_db

# Dominican rules on 2-tile hands to 7: A opens 6-6 and earns the opening bonus (capped at
# 6, the target less one), then B wins the hand and the match with 7 normal points. A has 6
# points and no normal points: a lisa (seed 000: bonuses never save a side from the lisa).
SMALL_DOMINICAN = {"preset": "dominican", "tiles_per_hand": 2, "target": 7}
DEAL = [["6-6", "0-0"], ["1-2", "1-3"], ["6-1", "2-2"], ["6-3", "3-4"]]
BONUS_ONLY = record(
    SMALL_DOMINICAN, DEAL, ["6-6", "pass", "6-1", "6-3", "pass", "1-3@right", "pass", "3-4"]
)


def dominican_league():
    overrides = {"tiles_per_hand": 2, "target": 7}
    league = build_league(size=2, tag="d", rule_preset="dominican", rule_overrides=overrides)
    return league, league.matches(1)[0]


def test_an_organisers_entry_counts_at_once_and_the_audit_names_them(league):
    match = league.matches(1)[0]
    result = results.enter_result(league.organiser, match, game(100, 40))
    assert result.status == Result.Status.CONFIRMED
    assert result.entered_by == result.confirmed_by == league.organiser
    assert Match.objects.get(pk=match.pk).status == Match.Status.PLAYED
    entry = AuditEntry.objects.get(target=f"result:{result.pk}")
    assert (entry.action, entry.actor) == ("result.enter", league.organiser)
    assert entry.after["status"] == "confirmed"
    rows = {row.entry: row for row in standings.table(league.event).standings}
    assert rows[match.entry_a].won == 1


def test_a_referees_entry_counts_at_once(league):
    result = results.enter_result(league.referee, league.matches(1)[0], game(40, 100))
    assert result.status == Result.Status.CONFIRMED and result.confirmed_by == league.referee


def test_players_enter_results_only_when_the_event_lets_them(league):
    match = league.matches(1)[0]
    captain = league.players(match.entry_a)[0]
    events.update_event(league.organiser, league.event, players_enter_results=False)
    match.event.refresh_from_db()
    with pytest.raises(ServiceError) as caught:
        results.enter_result(captain, match, game(100, 40))
    assert caught.value.code == "organisers_enter_results"
    assert not Result.objects.exists()
    stranger = league.players(league.matches(1)[1].entry_a)[0]
    with pytest.raises(PermissionDenied):
        results.enter_result(stranger, match, game(100, 40))


def test_an_official_entry_settles_a_players_proposal(league):
    first, second = league.matches(1)[:2]
    same = results.enter_result(league.players(first.entry_a)[0], first, game(100, 40))
    confirmed = results.enter_result(league.organiser, first, game(100, 40))
    assert confirmed.pk == same.pk and confirmed.status == Result.Status.CONFIRMED
    assert confirmed.entered_by == league.players(first.entry_a)[0]
    assert confirmed.confirmed_by == league.organiser
    wrong = results.enter_result(league.players(second.entry_b)[0], second, game(100, 40))
    replaced = results.enter_result(league.referee, second, game(40, 100))
    assert replaced.status == Result.Status.CONFIRMED and replaced.corrects_id == wrong.pk
    assert Result.objects.get(pk=wrong.pk).status == Result.Status.REJECTED
    assert AuditEntry.objects.filter(action="result.enter", actor=league.referee).exists()


def test_a_confirmed_result_is_not_changed_by_a_second_entry(league):
    match = league.matches(1)[0]
    results.enter_result(league.organiser, match, game(100, 40))
    with pytest.raises(ServiceError) as caught:
        results.enter_result(league.organiser2, match, game(40, 100))
    assert caught.value.code == "already_confirmed"
    assert Result.objects.get().points_a == 100


# The lisa --------------------------------------------------------------------------------


def test_recorded_hands_the_engine_decides_the_lisa_whatever_the_tick():
    league, match = dominican_league()
    ruling = adjudicate(BONUS_ONLY)
    assert ruling["shutout"] and ruling["points"] == [6, 7]  # the engine: a lisa for B
    games = [{"points_a": 6, "points_b": 7, "hands": [BONUS_ONLY]}]
    result = results.enter_result(league.organiser, match, games, lisa=False)
    assert result.shutout is True
    assert result.shutout == ruling["shutout"]
    rows = {row.entry: row for row in standings.table(league.event).standings}
    assert rows[match.entry_b].shutouts == 1 and rows[match.entry_b].match_points == 2


def test_recorded_hands_with_normal_points_for_the_losers_are_no_lisa_even_if_ticked():
    league, match = dominican_league()
    hands, played = first_match(lambda m: not m.shutout)  # the losers made normal points
    games = [{"points_a": played.scores[0], "points_b": played.scores[1], "hands": hands}]
    result = results.enter_result(league.organiser, match, games, lisa=True)
    assert result.shutout is False


def test_typed_totals_the_organiser_ticks_the_lisa(league):
    first, second, third = league.matches(1)[:3]
    assert results.enter_result(league.organiser, first, game(100, 0)).shutout is True
    # bonuses only for the losers: the organiser ticks it, and it is a lisa
    assert results.enter_result(league.organiser, second, game(30, 100), lisa=True).shutout
    # the tick taken off: not a lisa even at 0
    assert not results.enter_result(league.organiser, third, game(100, 0), lisa=False).shutout


def test_a_correction_keeps_the_lisa_rule(league):
    match = league.matches(1)[0]
    results.enter_result(league.organiser, match, game(100, 0))
    corrected = results.correct_result(league.organiser, match, game(100, 5), "Misread", lisa=True)
    assert corrected.shutout is True


# The round sheet --------------------------------------------------------------------------


def test_a_round_sheet_saves_the_good_rows_and_refuses_the_impossible_ones(league):
    ok, tied, short = league.matches(1)
    rows = [
        results.SheetRow(ok.pk, game(100, 60)),
        results.SheetRow(tied.pk, game(100, 100)),
        results.SheetRow(short.pk, game(60, 40)),  # nobody reached the target
    ]
    saved, errors = results.enter_round(league.organiser, ok.round, rows)
    assert [r.match_id for r in saved] == [ok.pk]
    assert set(errors) == {tied.pk, short.pk}
    assert {e.code for e in errors.values()} == {"bad_score"}
    assert not Result.objects.filter(match__in=[tied, short]).exists()
    assert Result.objects.get(match=ok).status == Result.Status.CONFIRMED


def test_a_round_sheet_sent_twice_changes_nothing_and_never_overwrites(league):
    first, second, _third = league.matches(1)
    round_ = first.round
    rows = [results.SheetRow(first.pk, game(100, 60)), results.SheetRow(second.pk, game(50, 100))]
    results.enter_round(league.organiser, round_, rows)
    saved, errors = results.enter_round(league.organiser, round_, rows)
    assert saved == [] and errors == {}
    changed = [results.SheetRow(first.pk, game(60, 100))]
    saved, errors = results.enter_round(league.organiser, round_, changed)
    assert errors[first.pk].code == "already_confirmed"
    assert Result.objects.get(match=first).points_a == 100


def test_only_the_events_staff_use_the_round_sheet(league):
    match = league.matches(1)[0]
    captain = league.players(match.entry_a)[0]
    with pytest.raises(PermissionDenied):
        results.enter_round(captain, match.round, [results.SheetRow(match.pk, game(100, 0))])
    other_round = league.matches(2)[0]
    _saved, errors = results.enter_round(
        league.organiser, match.round, [results.SheetRow(other_round.pk, game(100, 0))]
    )
    assert errors[other_round.pk].code == "not_in_round"
    assert not Result.objects.exists()


# Table numbers ----------------------------------------------------------------------------


def test_table_numbers_stay_unique_within_a_round_after_corrections(league):
    first, second, _third = league.matches(1)
    with pytest.raises(ServiceError) as caught:
        fixtures.reschedule(league.organiser, second, None, table=first.table)
    assert caught.value.code == "table_taken"
    assert Match.objects.get(pk=second.pk).table == second.table
    moved = fixtures.reschedule(league.organiser, second, None, table=9)
    assert moved.table == 9


def test_a_round_sheet_confirms_a_players_recorded_entry_without_losing_its_hands():
    league, match = dominican_league()
    captain = league.players(match.entry_b)[0]
    games = [{"points_a": 6, "points_b": 7, "hands": [BONUS_ONLY]}]
    proposed = results.enter_result(captain, match, games)
    typed = [results.SheetRow(match.pk, game(6, 7), lisa=False)]  # the sheet has no hands
    saved, errors = results.enter_round(league.organiser, match.round, typed)
    assert errors == {} and [r.pk for r in saved] == [proposed.pk]
    result = Result.objects.get(pk=proposed.pk)
    assert result.status == Result.Status.CONFIRMED and result.confirmed_by == league.organiser
    assert result.games[0]["hands"] == [BONUS_ONLY] and result.shutout  # the engine's lisa
