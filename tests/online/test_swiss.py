"""An online Swiss runs itself from check-in to podium (#34): the start withdraws who did not
check in, each round is paired by the organiser's own function, its tables open at once
with the pairs seated crosswise, the next round follows the last table, and the finish
writes the podium and queues ratings once; every step in the audit log with its reason."""

from datetime import timedelta

import pytest
from django.db import transaction
from django.db.models import F
from django.utils import translation

from games.models import Table
from games.services import autopilot as live_autopilot
from league.models import AuditEntry, Entry, Event, Match, Notification, Result
from league.ratings.services import feed, global_pool
from league.services import audit, entries
from league.tournaments.services import swiss

from .conftest import after_start, check_in_all, configure, online_event, play_tables

pytestmark = pytest.mark.django_db(transaction=True)


class Rollback(Exception):
    pass


def organiser_pairing(data, number: int) -> list[tuple[int, int | None]]:
    """What the organiser's "Pair round N" gives for the standings before round `number`
    (the later rounds put aside, then everything rolled back)."""
    found = []
    try:
        with transaction.atomic():
            data.event.rounds.filter(number__gte=number).delete()
            found = [
                (p.entry_a_id, p.entry_b_id) for p in swiss.pair_round(data.organiser, data.event)
            ]
            raise Rollback
    except Rollback:
        pass
    return found


def published(event: Event, number: int) -> list[tuple[int, int | None]]:
    matches = Match.objects.filter(event=event, round__number=number, parent__isnull=True)
    in_order = matches.order_by(F("table").asc(nulls_last=True), "pk")  # the bye last
    return [(m.entry_a_id, m.entry_b_id) for m in in_order]


def test_an_online_swiss_runs_from_check_in_to_podium(rng):
    data = online_event(Event.Format.SWISS, 6, rounds=3)
    feed(data.event, global_pool())
    pilot = configure(data)
    check_in_all(data, skip=1)  # the first pair never checks in
    late = data.entries[0]
    assert live_autopilot.tick(data.event.pk) == []  # before the start: nothing
    steps = live_autopilot.tick(data.event.pk, after_start(pilot))
    assert steps == ["started", "round 1 started"]
    late.refresh_from_db()
    assert late.status == Entry.Status.WITHDRAWN
    told = Notification.objects.filter(user=late.player_1.user, url=data.event.get_absolute_url())
    assert told.count() == 1
    for number in (1, 2, 3):
        round_ = data.event.rounds.get(number=number)
        matches = list(round_.matches.filter(entry_b__isnull=False))
        assert len(matches) == 2 and round_.matches.filter(entry_b__isnull=True).count() == 1
        assert published(data.event, number) == organiser_pairing(data, number)
        for match in matches:
            table = Table.objects.get(fixture=match)
            seated = list(table.seats.order_by("number").values_list("user", flat=True))
            a, b = match.entry_a, match.entry_b
            assert seated == [
                a.player_1.user_id,
                b.player_1.user_id,
                a.player_2.user_id,
                b.player_2.user_id,
            ]
            assert table.status == Table.Status.PLAYING and table.ends is not None
            for user in seated:
                assert Notification.objects.filter(
                    user_id=user, url=f"/play/t/{table.code}/"
                ).exists()
        assert play_tables(data.event, rng) == 2
        # the worker, told of the last result, may have taken the step already
        live_autopilot.tick(data.event.pk)
        assert live_autopilot.tick(data.event.pk) == []  # the same step again: nothing
    steps = AuditEntry.objects.filter(event=data.event, action__startswith="autopilot.")
    assert [(e.action, e.after.get("round")) for e in steps.order_by("pk")] == [
        ("autopilot.configure", None),
        ("autopilot.start", None),
        ("autopilot.round_start", None),
        ("autopilot.round_end", 1),
        ("autopilot.round_start", 1),
        ("autopilot.round_end", 2),
        ("autopilot.round_start", 2),
        ("autopilot.round_end", 3),
        ("autopilot.finish", None),
        ("autopilot.ratings", None),
    ]
    data.event.refresh_from_db()
    pilot.refresh_from_db()
    assert data.event.status == Event.Status.FINISHED
    assert pilot.finished and pilot.ratings_queued
    assert Match.objects.filter(event=data.event, entry_b__isnull=False).count() == 6
    assert Result.objects.filter(match__event=data.event, status="confirmed").count() == 6
    assert Table.objects.filter(fixture__event=data.event).count() == 6
    log = AuditEntry.objects.filter(event=data.event, action__startswith="autopilot.")
    assert log.filter(action="autopilot.round_start").count() == 3
    assert log.filter(action="autopilot.finish").count() == 1
    assert log.filter(action="autopilot.ratings").count() == 1
    podium = log.get(action="autopilot.finish").after["podium"]
    assert [place for place, _pk, _name in podium][:1] == [1]
    with translation.override("en"):
        second = log.filter(action="autopilot.round_start").order_by("pk")[1]
        text = audit.reason_text(second.after)
        assert text.startswith("the last match of round 1 ended at ")
        rows = audit.described(list(log))
    assert any(row["why"].startswith("the last match of round") for row in rows)


def test_too_few_check_ins_postpone_once_then_cancel():
    data = online_event(Event.Format.SWISS, 3, tag="pp", rounds=2)
    pilot = configure(data, check_in_minutes=10)
    entries_ = data.entries
    entries.check_in(data.organiser, entries_[0])
    first = pilot.starts
    assert live_autopilot.tick(data.event.pk, after_start(pilot)) == ["postponed"]
    pilot.refresh_from_db()
    assert pilot.starts == first + timedelta(minutes=10) and pilot.postponed
    assert data.event.entries.filter(status=Entry.Status.ACCEPTED).count() == 3
    players = {p.user_id for e in entries_ for p in e.players}
    told = Notification.objects.filter(url=data.event.get_absolute_url())
    assert sorted(told.values_list("user", flat=True)) == sorted(players)
    assert live_autopilot.tick(data.event.pk, after_start(pilot)) == ["cancelled"]
    data.event.refresh_from_db()
    assert data.event.status == Event.Status.CANCELLED
    assert live_autopilot.tick(data.event.pk, after_start(pilot)) == []
    assert not data.event.rounds.exists()
