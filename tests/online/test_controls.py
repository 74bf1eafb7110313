"""The organiser's controls of an online event that runs itself (#34): pause and resume,
extend a round, withdraw an entry, pair a round again until its first move; each refused
when sent twice or too late, with its code and nothing changed. And the autopilot's own
rule: a pair that forfeits two rounds in a row is withdrawn."""

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import timezone

from games.models import Table
from games.services import autopilot as live_autopilot
from league.models import AuditEntry, Autopilot, Entry, Event, Match, Notification, Result
from league.services import autopilot
from league.services.errors import ServiceError

from .conftest import after_start, bot_step, check_in_all, configure, online_event, play_tables

pytestmark = pytest.mark.django_db(transaction=True)


def started(tag: str, size: int = 4, rounds: int = 3, **settings):
    """An online Swiss at the start of its first round."""
    data = online_event(Event.Format.SWISS, size, tag=tag, rounds=rounds)
    pilot = configure(data, **settings)
    check_in_all(data)
    live_autopilot.tick(data.event.pk, after_start(pilot))
    pilot.refresh_from_db()
    assert pilot.round == 1
    return data, pilot


def refused(code: str, call, *args):
    """`call` is refused with `code`, and the autopilot and the event's log stay as they were."""
    event = args[1].event if isinstance(args[1], Entry) else args[1]
    before = list(Autopilot.objects.filter(event=event).values())
    logged = AuditEntry.objects.filter(event=event).count()
    with pytest.raises(ServiceError) as error:
        call(*args)
    assert error.value.code == code
    assert list(Autopilot.objects.filter(event=event).values()) == before
    assert AuditEntry.objects.filter(event=event).count() == logged


def test_a_paused_autopilot_takes_no_step_until_resumed(rng):
    data, pilot = started("pa")
    with pytest.raises(PermissionDenied):
        autopilot.pause(data.stranger, data.event)
    autopilot.pause(data.organiser, data.event)
    refused("already_paused", autopilot.pause, data.organiser, data.event)
    play_tables(data.event, rng)  # matches in play go on
    assert live_autopilot.tick(data.event.pk) == []
    assert not data.event.rounds.filter(number=2).exists()
    autopilot.resume(data.organiser, data.event)
    # The step due since the pause is taken first (a web sweeper left running by an earlier
    # test in this process may take it), so that nothing changes under the refusal below.
    live_autopilot.tick(data.event.pk)
    assert data.event.rounds.filter(number=2).count() == 1
    refused("not_paused", autopilot.resume, data.organiser, data.event)
    actions = AuditEntry.objects.filter(
        event=data.event, action__in=["autopilot.pause", "autopilot.resume"]
    )
    assert [(a.action, a.actor_id) for a in actions.order_by("pk")] == [
        ("autopilot.pause", data.organiser.pk),
        ("autopilot.resume", data.organiser.pk),
    ]


def test_a_round_is_extended_before_its_deadline_only():
    data, pilot = started("ex")
    deadline = pilot.round_deadline
    for minutes in (0, -5, "10", True, 500, None):
        refused("bad_minutes", live_autopilot.extend_round, data.organiser, data.event, minutes)
    live_autopilot.extend_round(data.organiser, data.event, 10)
    pilot.refresh_from_db()
    assert pilot.round_deadline == deadline + timedelta(minutes=10)
    ends = set(Table.objects.filter(fixture__event=data.event).values_list("ends", flat=True))
    assert ends == {pilot.round_deadline}
    Autopilot.objects.filter(pk=pilot.pk).update(
        round_deadline=timezone.now() - timedelta(seconds=1)
    )
    refused("deadline_passed", live_autopilot.extend_round, data.organiser, data.event, 5)


def test_a_round_is_paired_again_until_its_first_move(rng):
    data, pilot = started("rp", size=6)
    before = list(Table.objects.filter(fixture__event=data.event).values_list("pk", flat=True))
    pairs = list(Match.objects.filter(event=data.event).values_list("entry_a", "entry_b"))
    live_autopilot.repair_round(data.organiser, data.event)
    after = Table.objects.filter(fixture__event=data.event)
    assert len(after) == 3 and not set(before) & {t.pk for t in after}
    assert data.event.rounds.count() == 1
    assert list(Match.objects.filter(event=data.event).values_list("entry_a", "entry_b")) == pairs
    bot_step(after.order_by("pk").first(), rng)  # the first move
    kept = sorted(after.values_list("pk", flat=True))
    refused("round_started", live_autopilot.repair_round, data.organiser, data.event)
    assert (
        sorted(Table.objects.filter(fixture__event=data.event).values_list("pk", flat=True)) == kept
    )


def test_withdrawing_an_entry_in_play_closes_its_table(rng):
    data, pilot = started("wd", size=4)
    match = Match.objects.filter(event=data.event, entry_b__isnull=False).order_by("table").first()
    leaving = match.entry_b
    live_autopilot.withdraw_entry(data.organiser, leaving)
    table = Table.objects.get(fixture=match)
    assert table.status == Table.Status.FINISHED and table.forfeit_side == 1
    result = Result.objects.get(match=match)
    assert result.forfeit and result.winner == "a"
    refused("not_active", live_autopilot.withdraw_entry, data.organiser, leaving)
    play_tables(data.event, rng)
    live_autopilot.tick(data.event.pk)
    second = Match.objects.filter(event=data.event, round__number=2)
    assert second.count() == 2  # three pairs left: one table and a bye
    assert (
        not second.filter(entry_a=leaving).exists() and not second.filter(entry_b=leaving).exists()
    )


@pytest.mark.parametrize("action", ["withdraw", "disqualify"])
def test_the_manage_pages_withdrawal_closes_the_entrys_table_too(client, action):
    """Withdrawn or disqualified from the event's Manage page (not the autopilot's control):
    the entry's table in play closes all the same, forfeited by its side."""
    data, pilot = started(f"mw{action[0]}", size=4)
    match = Match.objects.filter(event=data.event, entry_b__isnull=False).order_by("table").first()
    leaving = match.entry_a
    client.force_login(data.organiser)
    url = reverse("entry_action", args=[leaving.pk, action])
    assert client.post(url, {"reason": "left the room"}).status_code == 302
    table = Table.objects.get(fixture=match)
    assert table.status == Table.Status.FINISHED and table.forfeit_side == 0
    result = Result.objects.get(match=match)
    assert result.forfeit and result.winner == "b"
    others = Table.objects.filter(fixture__event=data.event).exclude(fixture=match)
    assert others.exists() and not others.filter(status=Table.Status.FINISHED).exists()


def test_a_pair_that_forfeits_two_rounds_in_a_row_is_withdrawn(rng):
    data, pilot = started("ff", size=4)
    absent = data.entries[0]
    for number in (1, 2):
        play_tables(data.event, rng, absent=(absent,))
        lost = Result.objects.get(
            match__round__number=number, match__event=data.event, forfeit=True
        )
        assert absent.pk in (lost.match.entry_a_id, lost.match.entry_b_id)
        live_autopilot.tick(data.event.pk)
    absent.refresh_from_db()
    assert absent.status == Entry.Status.WITHDRAWN
    why = AuditEntry.objects.get(event=data.event, action="autopilot.withdraw")
    assert why.after == {"reason": "two_forfeits", "first": 1, "second": 2}
    assert Notification.objects.filter(
        user=absent.player_1.user, url=data.event.get_absolute_url()
    ).exists()
    third = Match.objects.filter(event=data.event, round__number=3)
    assert not third.filter(entry_a=absent).exists() and not third.filter(entry_b=absent).exists()


def test_a_match_both_sides_left_is_not_played_and_counts_as_their_forfeit(rng):
    data, pilot = started("ab", size=4)
    match = Match.objects.filter(event=data.event, entry_b__isnull=False).order_by("table").first()
    both = (match.entry_a, match.entry_b)
    play_tables(data.event, rng, absent=both)
    table = Table.objects.get(fixture=match)
    assert table.status == Table.Status.FINISHED and table.forfeit_side is None
    assert not Result.objects.filter(match=match).exists()  # nobody won it
    live_autopilot.tick(data.event.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.CANCELLED
    assert data.event.rounds.filter(number=2).count() == 1  # the round ended all the same
    unplayed = AuditEntry.objects.get(event=data.event, action="autopilot.unplayed")
    assert unplayed.target == f"match:{match.pk}"
    play_tables(data.event, rng, absent=both)  # absent again: both withdrawn
    live_autopilot.tick(data.event.pk)
    for entry in both:
        entry.refresh_from_db()
        assert entry.status == Entry.Status.WITHDRAWN
