"""A round's deadline (#34): a match still playing at it ends after the hand in play and the
side ahead wins, short of the target; level, one more hand decides. The deadline is written
to the audit log once, and a table waiting between hands ends at once."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.engine import PRESETS, new_match, time_up
from games.models import Table
from games.services import autopilot as live_autopilot
from games.services import tables
from league.models import AuditEntry, Autopilot, Event, Result

from .conftest import after_start, bot_step, check_in_all, configure, online_event

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_side_ahead_wins_at_the_time_limit_and_level_goes_on():
    rules = PRESETS["tournament"]
    match = new_match(rules)
    assert time_up(match) == match  # level at 0-0: the next hand decides
    ahead = time_up(match.__class__(rules, (35, 20), (35, 20)))
    assert ahead.over and ahead.winner == 0 and not ahead.shutout
    behind = time_up(match.__class__(rules, (0, 20), (0, 20)))
    assert behind.over and behind.winner == 1 and not behind.shutout  # no lisa on time
    assert time_up(match.__class__(rules, (20, 20), (20, 20))).over is False


def long_event(tag: str):
    """An online Swiss in its first round, its matches to 500 (many hands each)."""
    data = online_event(Event.Format.SWISS, 4, tag=tag, rounds=2)
    Event.objects.filter(pk=data.event.pk).update(
        rule_overrides={"target": 500, "turn_seconds": 60}
    )
    data.event.refresh_from_db()
    pilot = configure(data, round_minutes=30)
    check_in_all(data)
    live_autopilot.tick(data.event.pk, after_start(pilot))
    pilot.refresh_from_db()
    return data, pilot


def play_hand(table: Table, rng) -> Table:
    hand = table.hand_number
    while table.status == Table.Status.PLAYING and table.hand_number == hand:
        bot_step(table, rng)
        table.refresh_from_db()
    return table


def past(pilot: Autopilot, table: Table | None = None) -> None:
    gone = timezone.now() - timedelta(seconds=1)
    Autopilot.objects.filter(pk=pilot.pk).update(round_deadline=gone)
    Table.objects.filter(**({"pk": table.pk} if table else {})).update(ends=gone)


def test_a_match_at_the_deadline_ends_after_the_hand_in_play(rng):
    data, pilot = long_event("dl")
    table = Table.objects.filter(fixture__event=data.event).order_by("pk").first()
    bot_step(table, rng)  # the hand is under way when the deadline comes
    table.refresh_from_db()
    past(pilot, table)
    table = play_hand(table, rng)
    while table.status == Table.Status.BETWEEN:  # level: one more hand
        assert table.match["scores"][0] == table.match["scores"][1]
        bot_step(table, rng)
        table = play_hand(Table.objects.get(pk=table.pk), rng)
    scores = table.match["scores"]
    assert table.status == Table.Status.FINISHED and table.match["timed"]
    assert max(scores) < 500 and table.match["winner"] == scores.index(max(scores))
    result = Result.objects.get(match=table.fixture)
    assert result.status == Result.Status.CONFIRMED and not result.shutout
    assert (result.points_a, result.points_b) == tuple(scores)


def test_the_deadline_ends_tables_between_hands_and_is_written_once(rng):
    data, pilot = long_event("db")
    playing = list(Table.objects.filter(fixture__event=data.event).order_by("pk"))
    for table in playing:
        play_hand(table, rng)
    past(pilot)
    live_autopilot.tick(data.event.pk)
    live_autopilot.tick(data.event.pk)
    logged = AuditEntry.objects.filter(event=data.event, action="autopilot.deadline")
    assert [entry.after["round"] for entry in logged] == [1]
    for table in playing:
        table.refresh_from_db()
        level = table.match["scores"][0] == table.match["scores"][1]
        assert table.status == (Table.Status.BETWEEN if level else Table.Status.FINISHED)
        if not level:
            assert table.match["timed"] and tables.call_time(table.pk) is False
