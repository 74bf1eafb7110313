import pytest
from django.core.exceptions import PermissionDenied

from league.models import Event, Match, Result
from league.pairing import pair_swiss
from league.services.errors import ServiceError
from league.tournaments.models import DraftPairing
from league.tournaments.services import swiss
from league.tournaments.services.standings import pairs_table

from .conftest import play

SWISS = Event.Format.SWISS


def published_pairs(event, number):
    return {
        frozenset((m.entry_a_id, m.entry_b_id))
        for m in Match.objects.filter(event=event, round__number=number, entry_b__isnull=False)
    }


def play_round(data, number, top_wins=True):
    for match in Match.objects.filter(
        event=data.event, round__number=number, entry_b__isnull=False
    ):
        play(data, match, a_wins=top_wins)


def test_draft_publish_and_standings(build_event):
    data = build_event(SWISS, 7, rounds=3)
    pairings = swiss.pair_round(data.organiser, data.event)
    assert len(pairings) == 4
    assert [p.table for p in pairings] == [1, 2, 3, None]
    assert pairings[-1].entry_b is None  # the bye, lowest-ranked entrant
    assert not Match.objects.filter(event=data.event).exists()  # a draft is not playable
    round_ = swiss.publish(data.organiser, data.event)
    data.event.refresh_from_db()
    assert data.event.status == Event.Status.RUNNING
    assert round_.matches.filter(status=Match.Status.BYE).count() == 1
    assert not DraftPairing.objects.filter(event=data.event).exists()
    with pytest.raises(ServiceError) as error:
        swiss.pair_round(data.organiser, data.event)
    assert error.value.code == "round_unfinished"
    play_round(data, 1)
    bye = round_.matches.get(status=Match.Status.BYE).entry_a
    table = pairs_table(data.event)
    assert next(r for r in table if r.entry == bye).won == 1  # the bye counts as a win
    assert sum(r.won for r in table) == 4
    # Round 2: no rematch, winners meet winners, a new bye.
    swiss.pair_round(data.organiser, data.event)
    swiss.publish(data.organiser, data.event)
    assert not published_pairs(data.event, 1) & published_pairs(data.event, 2)
    byes = Match.objects.filter(event=data.event, entry_b__isnull=True).values_list(
        "entry_a", flat=True
    )
    assert len(set(byes)) == 2
    winners = {r.entry.pk for r in table if r.won}
    top = Match.objects.get(event=data.event, round__number=2, table=1)
    assert {top.entry_a_id, top.entry_b_id} <= winners


def test_swap_pin_and_repair(build_event):
    data = build_event(SWISS, 8)
    first, second, *_rest = swiss.pair_round(data.organiser, data.event)
    a, b = first.entry_a, second.entry_a
    swiss.swap(data.organiser, data.event, a, b)
    tables = swiss.draft(data.event)
    assert {tables[0].entry_a_id, tables[0].entry_b_id} == {b.pk, first.entry_b_id}
    assert tables[0].pinned and tables[1].pinned and not tables[2].pinned
    swiss.pin(data.organiser, tables[2], True)
    swiss.pin(data.organiser, tables[3], False)
    kept = {frozenset((t.entry_a_id, t.entry_b_id)) for t in tables[:3]}
    again = swiss.pair_round(data.organiser, data.event)
    assert kept <= {frozenset((t.entry_a_id, t.entry_b_id)) for t in again}
    with pytest.raises(ServiceError) as error:
        swiss.swap(data.organiser, data.event, again[0].entry_a, again[0].entry_b)
    assert error.value.code == "same_table"
    round_ = swiss.publish(data.organiser, data.event)
    assert sorted(round_.matches.values_list("table", flat=True)) == [1, 2, 3, 4]
    with pytest.raises(ServiceError):  # a double click on "publish"
        swiss.publish(data.organiser, data.event)


def test_unpair_latest_round(build_event):
    data = build_event(SWISS, 6)
    swiss.pair_round(data.organiser, data.event)
    swiss.publish(data.organiser, data.event)
    assert swiss.unpair(data.organiser, data.event) == 1
    assert not data.event.rounds.exists()
    swiss.pair_round(data.organiser, data.event)
    swiss.publish(data.organiser, data.event)
    match = Match.objects.filter(event=data.event).first()
    from league.services import results

    results.enter_result(data.organiser, match, [{"points_a": 150, "points_b": 20}])
    with pytest.raises(ServiceError) as error:
        swiss.unpair(data.organiser, data.event)
    assert error.value.code == "results_entered"
    assert Result.objects.filter(match=match).exists()


def test_forbidden_pairings_are_avoided(build_event):
    data = build_event(SWISS, 4)
    e = data.entries
    swiss.forbid_pairing(data.organiser, data.event, e[0], e[2], "siblings")
    swiss.forbid_pairing(data.organiser, data.event, e[1], e[3], "family")
    swiss.forbid_pairing(data.organiser, data.event, e[3], e[1])  # again: nothing new
    pairs = {
        frozenset((p.entry_a_id, p.entry_b_id))
        for p in swiss.pair_round(data.organiser, data.event)
    }
    assert frozenset((e[0].pk, e[2].pk)) not in pairs
    assert frozenset((e[1].pk, e[3].pk)) not in pairs
    with pytest.raises(ServiceError):
        swiss.forbid_pairing(data.organiser, data.event, e[0], e[0])


def test_avoid_same_club(build_event):
    data = build_event(SWISS, 4, avoid_same_club=True)
    other = data.other_organiser.memberships.first().organisation
    for entry in data.entries[:2]:
        entry.club = other
        entry.save()
    banned = swiss.forbidden_pairs(data.event, data.entries)
    assert frozenset((data.entries[0].pk, data.entries[1].pk)) in banned
    pairs = {
        frozenset((p.entry_a_id, p.entry_b_id))
        for p in swiss.pair_round(data.organiser, data.event)
    }
    assert frozenset((data.entries[0].pk, data.entries[1].pk)) not in pairs
    assert frozenset((data.entries[2].pk, data.entries[3].pk)) not in pairs


def test_only_the_events_organisers(build_event):
    data = build_event(SWISS, 4)
    for user in (data.stranger, data.other_organiser, data.referee):
        with pytest.raises(PermissionDenied):
            swiss.pair_round(user, data.event)
    swiss.pair_round(data.organiser, data.event)
    for action in (swiss.publish, swiss.discard_draft, swiss.unpair):
        with pytest.raises(PermissionDenied):
            action(data.other_organiser, data.event)
    with pytest.raises(PermissionDenied):
        swiss.swap(data.stranger, data.event, data.entries[0], data.entries[1])


def test_pure_core_is_what_we_use():
    # A sanity check of the contract we rely on: the bye is the lowest-ranked entrant.
    from league.pairing import SwissEntrant

    paired = pair_swiss([SwissEntrant(i, 0) for i in range(5)])
    assert paired.bye == 4


def test_buchholz_counts_the_bye_of_an_opponent(build_event):
    from league.services.standings import CountedMatch, rank

    data = build_event(SWISS, 6)
    p, q, r, s, x, y = data.entries
    x.lot, y.lot = 2, 1  # lots alone would put Y first
    won = [
        CountedMatch(1, p.pk, x.pk, 1, 0, 150, 50, False),
        CountedMatch(1, q.pk, y.pk, 1, 0, 150, 50, False),
        CountedMatch(2, x.pk, r.pk, 1, 0, 150, 50, False),
        CountedMatch(2, y.pk, s.pk, 1, 0, 150, 50, False),
    ]
    bye = CountedMatch(2, p.pk, None, 1, 0, 100, 0, False)
    order = ["match_wins", "buchholz", "lots"]

    def first_of_x_and_y(outcomes):
        return next(
            row.entry for row in rank(data.entries, outcomes, order, 1) if row.entry in (x, y)
        )

    assert first_of_x_and_y(won) == y
    assert first_of_x_and_y([*won, bye]) == x  # X's opponent P also won a bye


def test_a_late_entry_is_paired_from_the_next_round(build_event):
    from league.services import entries

    from .conftest import make_user

    data = build_event(SWISS, 4)
    assert data.event.tiebreaks[:3] == ["match_wins", "buchholz", "sonneborn_berger"]
    swiss.pair_round(data.organiser, data.event)
    swiss.publish(data.organiser, data.event)
    late = entries.register(
        data.organiser,
        data.event,
        player_1=make_user("late1").player,
        player_2=make_user("late2").player,
    )
    assert late.late and data.event.rounds.count() == 1  # no league catch-up rounds
    play_round(data, 1)
    drafted = swiss.pair_round(data.organiser, data.event)
    assert late.pk in {p.entry_a_id for p in drafted} | {p.entry_b_id for p in drafted}


def test_pairing_looks_ahead_to_the_rounds_still_to_pair(build_event, monkeypatch):
    data = build_event(SWISS, 6, rounds=5)
    calls = []

    def spy(*args, **kwargs):
        calls.append(kwargs.get("rounds_left"))
        return pair_swiss(*args, **kwargs)

    monkeypatch.setattr(swiss, "pair_swiss", spy)
    swiss.pair_round(data.organiser, data.event)
    swiss.publish(data.organiser, data.event)
    play_round(data, 1)
    swiss.pair_round(data.organiser, data.event)
    assert calls == [4, 3]
