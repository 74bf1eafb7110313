"""Every format runs itself (#34): single and double elimination (byes, the final, the
grand final and its reset), groups and playoff, and individual events with rotating
partners, from check-in to podium with no organiser action; each round by the format's own
functions, its tables opened at once."""

import pytest

from games.models import Table
from games.services import autopilot as live_autopilot
from league.models import AuditEntry, Autopilot, Event, Match, Round
from league.services.errors import ServiceError
from league.tournaments.models import Bracket, TableResult
from league.tournaments.services.standings import individual_table

from .conftest import (
    after_start,
    check_in_all,
    configure,
    online_event,
    play_tables,
    run_to_the_end,
)

pytestmark = pytest.mark.django_db(transaction=True)


def run(fmt: str, size: int, tag: str, rng, **options) -> tuple:
    data = online_event(fmt, size, tag=tag, **options)
    configure(data)
    check_in_all(data)
    run_to_the_end(data, rng)
    data.event.refresh_from_db()
    assert data.event.status == Event.Status.FINISHED
    log = AuditEntry.objects.filter(event=data.event)
    assert log.filter(action="autopilot.finish").count() == 1
    assert log.exclude(actor=None).filter(action__startswith="autopilot.").count() == 1  # set-up
    return data, log.get(action="autopilot.finish").after["podium"]


def assert_tables_for_every_match(event: Event) -> None:
    played = Match.objects.filter(event=event, entry_b__isnull=False, parent__isnull=True)
    assert Table.objects.filter(fixture__event=event).count() == played.count()
    assert not played.exclude(status=Match.Status.PLAYED).exists()


def test_a_single_elimination_with_byes_runs_to_its_final(rng):
    data, podium = run(Event.Format.SINGLE_ELIMINATION, 6, "se", rng, third_place=True)
    assert_tables_for_every_match(data.event)
    bracket = Bracket.objects.get(event=data.event)
    rounds = list(data.event.rounds.order_by("number").values_list("name", flat=True))
    assert rounds[-2:] in (["Final", "Third-place match"], ["Third-place match", "Final"])
    assert sorted(place for place, _pk, _name in podium) == [1, 2, 3]
    assert bracket.slots.count() == Match.objects.filter(event=data.event).count()


def test_a_double_elimination_runs_through_its_grand_final(rng):
    data, podium = run(Event.Format.DOUBLE_ELIMINATION, 4, "de", rng)
    assert_tables_for_every_match(data.event)
    names = set(data.event.rounds.values_list("name", flat=True))
    assert "Grand final" in names
    assert [place for place, _pk, _name in podium][:2] == [1, 2]


def test_groups_and_their_playoff_run_to_the_final(rng):
    data, podium = run(Event.Format.GROUPS_PLAYOFF, 8, "gp", rng, groups=2, qualifiers_per_group=2)
    assert_tables_for_every_match(data.event)
    bracket = Bracket.objects.get(event=data.event)
    group_rounds = Round.objects.filter(event=data.event, number__lt=bracket.first_round)
    assert group_rounds.count() == 3  # a round robin of four in each group
    assert Match.objects.filter(round__in=group_rounds).count() == 12
    assert podium[0][0] == 1


def test_an_individual_event_seats_every_round_at_live_tables(rng):
    data, podium = run(Event.Format.INDIVIDUAL, 9, "in", rng, rounds=3)
    rounds = list(data.event.rounds.all())
    assert len(rounds) == 3
    for round_ in rounds:
        tables = set(round_.seats.values_list("table", flat=True))
        assert len(tables) == 2 and round_.sit_outs.count() == 1
        live = Table.objects.filter(seating=round_)
        assert sorted(live.values_list("seating_table", flat=True)) == sorted(tables)
        for table in live:
            seated = list(table.seats.order_by("number").values_list("user", flat=True))
            players = dict(
                round_.seats.filter(table=table.seating_table).values_list(
                    "seat", "player__player_1__user"
                )
            )
            assert seated == [players[1], players[2], players[3], players[4]]
        results = TableResult.objects.filter(round=round_, status=TableResult.Status.CONFIRMED)
        assert results.count() == 2
    standings = individual_table(data.event)
    assert podium[0][1] == standings[0].player.pk


def test_a_format_rule_refusing_the_next_step_pauses_the_autopilot(rng):
    """Four groups for four entries: the draw refuses, the autopilot stops and says why."""
    data = online_event(Event.Format.GROUPS_PLAYOFF, 4, tag="gx", groups=4)
    configure(data)
    check_in_all(data)
    run_to_the_end(data, rng, rounds=3)
    pilot = Autopilot.objects.get(event=data.event)
    assert pilot.paused is not None
    blocked = AuditEntry.objects.get(event=data.event, action="autopilot.pause")
    assert blocked.after["reason"] == "blocked" and blocked.actor is None
    with pytest.raises(ServiceError) as error:
        live_autopilot.repair_round(data.organiser, data.event)
    assert error.value.code == "not_repairable"


def test_an_individual_round_is_seated_again_and_a_withdrawn_player_forfeits(rng):
    data = online_event(Event.Format.INDIVIDUAL, 8, tag="ic", rounds=2)
    pilot = configure(data)
    check_in_all(data)
    live_autopilot.tick(data.event.pk, after_start(pilot))
    first = set(Table.objects.filter(seating__event=data.event).values_list("pk", flat=True))
    live_autopilot.repair_round(data.organiser, data.event)
    round_ = data.event.rounds.get(number=1)
    again = Table.objects.filter(seating=round_)
    assert again.count() == 2 and not first & set(again.values_list("pk", flat=True))
    leaving = round_.seats.get(table=1, seat=2).player
    live_autopilot.withdraw_entry(data.organiser, leaving)
    table = again.get(seating_table=1)
    assert table.status == Table.Status.FINISHED and table.forfeit_side == 1
    result = TableResult.objects.get(round=round_, table=1)
    assert (result.points_a, result.points_b) == (data.event.forfeit_points, 0)
    play_tables(data.event, rng)
    live_autopilot.tick(data.event.pk)
    second = data.event.rounds.get(number=2)
    assert not second.seats.filter(player=leaving).exists()
    assert second.sit_outs.count() == 3  # seven players: one table of four
