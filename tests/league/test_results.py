import pytest
from django.core.exceptions import PermissionDenied

from league.models import AuditEntry, Match, Result
from league.services import events, results, standings
from league.services.errors import ServiceError
from league.signals import result_confirmed

from .conftest import game

pytestmark = pytest.mark.django_db


def test_captain_enters_other_captain_confirms(league, django_capture_on_commit_callbacks):
    match = league.matches(1)[0]
    a_player, b_player = league.players(match.entry_a)[0], league.players(match.entry_b)[1]
    result = results.enter_result(a_player, match, game(100, 40))
    assert result.status == Result.Status.PROPOSED
    assert b_player.notifications.count() == 1
    assert standings.table(league.event).standings[0].played == 0  # not counted yet

    heard = []
    result_confirmed.connect(lambda **kw: heard.append(kw), weak=False, dispatch_uid="t")
    try:
        with django_capture_on_commit_callbacks(execute=True):
            results.confirm_result(b_player, result)
    finally:
        result_confirmed.disconnect(dispatch_uid="t")
    result.refresh_from_db()
    assert result.status == Result.Status.CONFIRMED and result.confirmed_by == b_player
    assert Match.objects.get(pk=match.pk).status == Match.Status.PLAYED
    assert heard and heard[0]["result"] == result and heard[0]["correction"] is False
    table = {row.entry: row for row in standings.table(league.event).standings}
    assert table[match.entry_a].won == 1 and table[match.entry_b].lost == 1
    assert list(
        AuditEntry.objects.filter(target=f"result:{result.pk}").values_list("action", flat=True)
    ) == ["result.confirm", "result.enter"]


def test_the_same_side_cannot_confirm_its_own_result(league):
    match = league.matches(1)[0]
    first, partner = league.players(match.entry_a)
    result = results.enter_result(first, match, game(100, 40))
    for user in (first, partner):
        with pytest.raises(PermissionDenied):
            results.confirm_result(user, result)
    assert Result.objects.get(pk=result.pk).status == Result.Status.PROPOSED


def test_a_players_result_is_confirmed_by_an_organiser_or_a_referee(league):
    first, second = league.matches(1)[:2]
    for match, official in ((first, league.organiser), (second, league.referee)):
        result = results.enter_result(league.players(match.entry_a)[0], match, game(100, 40))
        results.confirm_result(official, result)
        assert Result.objects.get(pk=result.pk).status == Result.Status.CONFIRMED


@pytest.mark.parametrize(
    "games",
    [
        "nonsense",
        [],
        [{"points_a": "100", "points_b": 3}],
        [{"points_a": -5, "points_b": 100}],
        [{"points_a": 100, "points_b": 100}],
        [{"points_a": 60, "points_b": 40}],  # nobody reached the target (100)
        [{"points_a": 100, "points_b": 0}, {"points_a": 100, "points_b": 0}],
        [{"points_a": True, "points_b": 100}],
        [None],
    ],
)
def test_nonsense_scores_are_refused_and_nothing_is_written(league, games):
    match = league.matches(1)[0]
    with pytest.raises(ServiceError) as caught:
        results.enter_result(league.organiser, match, games)
    assert caught.value.code == "bad_score"
    assert (
        not Result.objects.exists()
        and not AuditEntry.objects.filter(action="result.enter").exists()
    )


def test_a_second_submission_or_second_confirmation_changes_nothing(league):
    match = league.matches(1)[0]
    captain_a, captain_b = league.players(match.entry_a)[0], league.players(match.entry_b)[0]
    result = results.enter_result(captain_a, match, game(100, 40))
    with pytest.raises(ServiceError) as caught:
        results.enter_result(captain_a, match, game(100, 40))
    assert caught.value.code == "result_pending"
    results.confirm_result(captain_b, result)
    with pytest.raises(ServiceError) as caught:
        results.confirm_result(league.organiser, result)
    assert caught.value.code == "not_awaiting"
    with pytest.raises(ServiceError) as caught:
        results.enter_result(captain_b, match, game(40, 100))
    assert caught.value.code == "already_confirmed"
    assert Result.objects.count() == 1
    assert Result.objects.get().confirmed_by == captain_b


def test_a_dispute_goes_to_the_organiser_who_settles_it(league):
    match = league.matches(1)[0]
    captain_a, captain_b = league.players(match.entry_a)[0], league.players(match.entry_b)[0]
    result = results.enter_result(captain_a, match, game(100, 40))
    results.dispute_result(captain_b, result, note="We won")
    assert Result.objects.get(pk=result.pk).status == Result.Status.DISPUTED
    assert league.organiser.notifications.filter(url=match.get_absolute_url()).exists()
    with pytest.raises(PermissionDenied):
        results.resolve_dispute(captain_b, result, game(40, 100))
    with pytest.raises(ServiceError):
        results.confirm_result(league.organiser, result)
    settled = results.resolve_dispute(league.organiser, result, game(40, 100), note="Checked")
    assert settled.status == Result.Status.CONFIRMED and settled.corrects == result
    assert Result.objects.get(pk=result.pk).status == Result.Status.REJECTED
    table = {row.entry: row for row in standings.table(league.event).standings}
    assert table[match.entry_b].won == 1


def test_a_correction_after_later_rounds_recomputes_standings_and_is_audited(
    league, django_capture_on_commit_callbacks
):
    for number in (1, 2, 3):
        for match in league.matches(number):
            results.enter_result(league.organiser, match, game(100, 10))
    first = league.matches(1)[0]
    before = standings.table(league.event)
    winner_before = first.entry_a
    heard = []
    result_confirmed.connect(lambda **kw: heard.append(kw), weak=False, dispatch_uid="t")
    try:
        with django_capture_on_commit_callbacks(execute=True):
            corrected = results.correct_result(
                league.organiser, first, game(10, 100), note="Scoresheet misread"
            )
    finally:
        result_confirmed.disconnect(dispatch_uid="t")
    assert heard[0]["correction"] is True and heard[0]["result"] == corrected
    after = standings.table(league.event)
    rows_before = {r.entry: r for r in before.standings}
    rows_after = {r.entry: r for r in after.standings}
    assert rows_after[winner_before].won == rows_before[winner_before].won - 1
    assert after.positions != before.positions or after.standings != before.standings
    old = Result.objects.get(pk=corrected.corrects_id)
    assert old.status == Result.Status.SUPERSEDED
    entry = AuditEntry.objects.get(action="result.correct")
    assert entry.actor == league.organiser
    assert entry.before["points_a"] == 100 and entry.after["points_a"] == 10
    assert entry.before["status"] == "confirmed"
    assert Result.objects.filter(match=first, status="confirmed").count() == 1


def test_correction_needs_a_reason_and_an_organiser(league):
    match = league.matches(1)[0]
    captain_a, captain_b = league.players(match.entry_a)[0], league.players(match.entry_b)[0]
    results.confirm_result(captain_b, results.enter_result(captain_a, match, game(100, 40)))
    with pytest.raises(PermissionDenied):
        results.correct_result(captain_b, match, game(40, 100), note="no")
    with pytest.raises(ServiceError) as caught:
        results.correct_result(league.organiser, match, game(40, 100))
    assert caught.value.code == "note_required"
    assert Result.objects.get().points_a == 100


def test_hand_records_are_adjudicated_and_faults_shown(league):
    match = league.matches(1)[0]
    bad_hand = {"format": "domino-hand/1", "rules": "tournament", "deal": "nonsense"}
    result = results.enter_result(
        league.organiser, match, [{"points_a": 100, "points_b": 20, "hands": [bad_hand]}]
    )
    assert result.games[0]["rulings"][0]["valid"] is False
    found = results.faults(result)
    assert found and found[0]["game"] == 1 and found[0]["code"]


def test_best_of_three(db):
    from .conftest import build_league

    league = build_league(4, match_format="best_of", best_of=3)
    match = league.matches(1)[0]
    with pytest.raises(ServiceError):
        results.enter_result(league.organiser, match, game(100, 0))  # undecided
    result = results.enter_result(
        league.organiser,
        match,
        [
            {"points_a": 100, "points_b": 20},
            {"points_a": 30, "points_b": 100},
            {"points_a": 100, "points_b": 50},
        ],
    )
    assert (result.games_a, result.games_b, result.points_a, result.points_b) == (2, 1, 230, 170)


def test_no_results_in_a_cancelled_event(league):
    events.set_status(league.organiser, league.event, "cancelled")
    with pytest.raises(ServiceError) as caught:
        results.enter_result(league.organiser, league.matches(1)[0], game(100, 0))
    assert caught.value.code == "event_not_in_play" and not Result.objects.exists()
