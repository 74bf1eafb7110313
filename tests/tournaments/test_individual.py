from collections import Counter

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import translation

from league.models import Event
from league.pairing import WhistScheduleError
from league.services.errors import ServiceError
from league.tournaments.models import Seat, SitOut, TableResult
from league.tournaments.services import individual
from league.tournaments.services.standings import individual_table

INDIVIDUAL = Event.Format.INDIVIDUAL


def partnerships(round_) -> set[frozenset[int]]:
    seats = {(s.table, s.seat): s.player_id for s in round_.seats.all()}
    tables = {t for t, _seat in seats}
    return {frozenset((seats[t, x], seats[t, y])) for t in tables for x, y in ((1, 3), (2, 4))}


def finish(data, round_):
    for table in sorted(set(round_.seats.values_list("table", flat=True))):
        result = individual.enter_table_result(data.referee, round_, table, 150, 40 + table)
        assert result.status == "confirmed"  # a referee's entry counts at once


def test_rotating_partners_and_fair_sit_outs(build_event):
    data = build_event(INDIVIDUAL, 9, rounds=4, sit_out_score=0.5, sit_out_points=75)
    seen: set[frozenset[int]] = set()
    for _ in range(4):
        round_ = individual.seat_round(data.organiser, data.event)
        assert round_.seats.count() == 8 and round_.sit_outs.count() == 1
        pairs = partnerships(round_)
        assert not pairs & seen  # nobody partners anyone twice
        seen |= pairs
        finish(data, round_)
    sat = Counter(SitOut.objects.filter(round__event=data.event).values_list("player", flat=True))
    assert sorted(sat.values()) == [1, 1, 1, 1]  # four different players sat out once
    table = individual_table(data.event)
    assert len(table) == 9
    sitter = next(r for r in table if r.sat_out)
    assert sitter.played == 3 and sitter.score == sitter.won + 0.5
    assert sum(r.won for r in table) == 4 * 2 * 2  # two winners at each of two tables
    assert "partner_aware" in table[0].values
    assert [r.position for r in table] == sorted(r.position for r in table)


def test_whist_schedule(build_event):
    data = build_event(INDIVIDUAL, 8, whist=True)
    seen: set[frozenset[int]] = set()
    for _ in range(7):
        round_ = individual.seat_round(data.organiser, data.event)
        seen |= partnerships(round_)
        finish(data, round_)
    assert len(seen) == 8 * 7 // 2  # everyone partnered everyone, once
    with pytest.raises(ServiceError) as error:
        individual.seat_round(data.organiser, data.event)
    assert error.value.code == "schedule_complete"


@pytest.mark.parametrize("count", [24, 60])
def test_whist_for_24_and_60_players_is_seated_at_once(build_event, count):
    # 24 players used to be refused, after seconds of search, with a message that was false;
    # 60 was the last count up to 64 without a schedule on hand.
    data = build_event(INDIVIDUAL, count, whist=True)
    round_ = individual.seat_round(data.organiser, data.event)
    assert round_.seats.count() == count and not round_.sit_outs.exists()


def test_whist_refusal_for_65_players_says_every_count_up_to_64_is_ready(build_event):
    data = build_event(INDIVIDUAL, 65, whist=True)
    with pytest.raises(ServiceError) as error, translation.override("en"):
        individual.seat_round(data.organiser, data.event)
    assert error.value.code == "whist_unavailable"
    message = str(error.value.message)
    assert "for 65 players exists" in message
    assert "up to 64, and for larger prime numbers of players" in message


def test_whist_refusals_say_why(build_event, monkeypatch):
    data = build_event(INDIVIDUAL, 6, whist=True)
    with pytest.raises(ServiceError) as error:
        individual.seat_round(data.organiser, data.event)
    assert error.value.code == "no_whist"
    assert "4n + 1" in str(error.value.message)

    def not_on_hand(players):
        raise WhistScheduleError(len(players), exists=True)

    monkeypatch.setattr(individual, "whist_schedule", not_on_hand)
    with pytest.raises(ServiceError) as error:
        individual.seat_round(data.organiser, data.event)
    assert error.value.code == "whist_unavailable"
    message = str(error.value.message)
    assert " 6 " in message and f" {individual.WHIST_READY_UP_TO}," in message
    assert all(f" {count}" in message for count in individual.WHIST_READY_ABOVE)


def test_table_results_need_a_second_person(build_event):
    data = build_event(INDIVIDUAL, 4)
    round_ = individual.seat_round(data.organiser, data.event)
    with pytest.raises(ServiceError) as error:
        individual.seat_round(data.organiser, data.event)
    assert error.value.code == "round_unfinished"
    seat = Seat.objects.get(round=round_, seat=1)
    player_user = seat.player.player_1.user
    with pytest.raises(PermissionDenied):
        individual.enter_table_result(data.stranger, round_, 1, 150, 20)
    for bad in ((150, 150), (-1, 150), ("150", 20), (20, 30)):
        with pytest.raises(ServiceError) as error:
            individual.enter_table_result(player_user, round_, 1, *bad)
        assert error.value.code == "bad_score"
    result = individual.enter_table_result(player_user, round_, 1, 150, 20)
    with pytest.raises(ServiceError):
        individual.enter_table_result(data.referee, round_, 1, 150, 20)  # double click
    partner = Seat.objects.get(round=round_, seat=3).player.player_1.user
    with pytest.raises(ServiceError) as error:
        individual.confirm_table_result(partner, result)  # own side
    assert error.value.code == "second_person"
    opponent = Seat.objects.get(round=round_, seat=2).player.player_1.user
    individual.confirm_table_result(opponent, result)
    assert TableResult.objects.get().status == TableResult.Status.CONFIRMED
    winners = {r.player.pk for r in individual_table(data.event) if r.won}
    assert winners == set(
        Seat.objects.filter(round=round_, seat__in=[1, 3]).values_list("player", flat=True)
    )


def test_unseat_latest_round(build_event):
    data = build_event(INDIVIDUAL, 5)
    round_ = individual.seat_round(data.organiser, data.event)
    assert individual.unseat_round(data.organiser, data.event) == 1
    round_ = individual.seat_round(data.organiser, data.event)
    individual.enter_table_result(data.referee, round_, 1, 150, 20)
    with pytest.raises(ServiceError):
        individual.unseat_round(data.organiser, data.event)
    with pytest.raises(PermissionDenied):
        individual.seat_round(data.stranger, data.event)
