"""The fair-play detector: every decision a person made valued twice, once per hand and
record, a colluding pair flagged and an honest one not; bots never scored."""

import random

import pytest
from celery.signals import task_prerun
from django.db import IntegrityError, transaction
from django.test import override_settings

from games.disputes.models import Dispute, Ruling
from games.fairplay import services
from games.fairplay.models import Case, Decision, HandCheck
from games.models import Hand, Table
from tests.league.conftest import build_league
from tests.live.conftest import full_table, make_players, play_step

from .conftest import FAST, FLAGGED_HANDS, make_table, play_and_store

pytestmark = pytest.mark.django_db


@override_settings(FAIRPLAY=FAST)
def test_a_colluding_pair_is_flagged_and_an_honest_one_is_not():
    users = make_players(4, "c")
    table = make_table(users)
    hands = play_and_store(table, users, FLAGGED_HANDS, seed=1, colluders=(0, 2))
    for hand in hands:
        services.check_hand(hand.pk)
    cheats = services.partnership_statistic(users[0].pk, users[2].pk)
    honest = services.partnership_statistic(users[1].pk, users[3].pk)
    threshold = services.option("THRESHOLD")
    assert cheats.shown and cheats.z >= threshold
    assert honest.shown and honest.z < threshold
    cases = Case.objects.filter(kind=Case.Kind.PARTNERSHIP)
    assert [(c.player_id, c.partner_id) for c in cases] == [
        tuple(sorted((users[0].pk, users[2].pk)))
    ]
    assert cases[0].statistic["hands"] == cheats.hands <= FLAGGED_HANDS
    assert cases[0].status == Case.Status.OPEN  # nothing is automatic


# The suite's small budgets (6 deals a valuation) make the analysis noisier than the
# product's, for which its agreement threshold is calibrated: a lower one here.
@override_settings(FAIRPLAY={**FAST, "PROGRAM_DECISIONS": 20, "PROGRAM_AGREEMENT": 0.9})
def test_a_player_copying_a_program_at_an_even_pace_is_queued_and_nobody_else():
    """Seats 0 and 1 play the program's moves, seats 2 and 3 their own (medium level); seats
    0 and 2 take five to six seconds a move, the others one to twelve."""
    users = make_players(4, "p")
    table = make_table(users)
    even = (5, 6)
    hands = play_and_store(table, users, 24, seed=13, programs=(0, 1), pace={0: even, 2: even})
    for hand in hands:
        services.check_hand(hand.pk)
    copier, uneven_copier, even_honest, honest = (services.player_statistic(u.pk) for u in users)
    agreement = services.option("PROGRAM_AGREEMENT")
    evenness = services.option("PROGRAM_EVENNESS")
    assert copier.decisions >= 20 and copier.agreement >= agreement
    assert copier.evenness >= evenness
    assert uneven_copier.agreement >= agreement and uneven_copier.evenness < evenness
    assert even_honest.evenness >= evenness and even_honest.agreement < agreement
    assert honest.agreement < agreement
    cases = Case.objects.filter(kind=Case.Kind.PROGRAM)
    assert [(c.player_id, c.partner_id) for c in cases] == [(users[0].pk, None)]
    assert cases[0].statistic["agreement"] == round(copier.agreement, 3)


@override_settings(FAIRPLAY=FAST)
def test_a_check_runs_once_and_a_ruling_that_replaces_the_record_runs_it_again():
    users = make_players(4, "o")
    table = make_table(users)
    (hand,) = play_and_store(table, users, 1, seed=3)
    services.check_hand(hand.pk)
    rows = Decision.objects.values_list("index", "picked", "evidence").order_by("index")
    first = list(rows)
    check = HandCheck.objects.get(hand=hand)
    assert check.status == HandCheck.Status.DONE and first
    services.check_hand(hand.pk)  # a second delivery
    assert (
        list(Decision.objects.values_list("index", "picked", "evidence").order_by("index")) == first
    )
    assert HandCheck.objects.get(hand=hand).checked == check.checked
    # A referee's ruling replaces the record: its last action is taken back.
    record = hand.record
    fixed = {**record, "actions": record["actions"][:-1]}
    league = build_league(size=2, tag="fp")
    match = league.matches(1)[0]
    dispute = Dispute.objects.create(
        event=league.event,
        match=match,
        game=1,
        hand=1,
        live_hand_id=hand.pk,
        record=record,
        played=hand.finished,
        reason="x",
    )
    Ruling.objects.create(
        dispute=dispute,
        kind=Ruling.Kind.CORRECT,
        by=league.referee,
        reason="x",
        record_before=record,
        record_after=fixed,
        points_before=[0, 0],
        points_after=[0, 0],
    )
    services.check_hand(hand.pk)
    again = HandCheck.objects.get(hand=hand)
    assert again.digest != check.digest
    assert Decision.objects.filter(hand=hand).count() <= len(first)


@override_settings(FAIRPLAY=FAST)
def test_bots_are_never_scored_nor_a_person_on_a_bots_decisions():
    users = make_players(2, "b")
    seated = [users[0], None, users[1], None]  # two people partnered, two bots
    table = make_table(seated)
    hands = play_and_store(table, seated, 3, seed=5)
    for hand in hands:
        services.check_hand(hand.pk)
    rows = Decision.objects.all()
    assert rows and {r.seat for r in rows} <= {0, 2}
    assert {r.player_id for r in rows} <= {users[0].pk, users[1].pk}
    bots_only = make_table([None] * 4)
    (hand,) = play_and_store(bots_only, [None] * 4, 1, seed=6)
    services.check_hand(hand.pk)
    check = HandCheck.objects.get(hand=hand)
    assert check.status == HandCheck.Status.SKIPPED and check.reason == "bots_only"


@override_settings(FAIRPLAY=FAST)
def test_casual_tables_only_on_request_and_a_bad_record_is_stated():
    users = make_players(4, "k")
    table = make_table(users, kind=Table.Kind.PRIVATE)
    (hand,) = play_and_store(table, users, 1, seed=7)
    services.check_hand(hand.pk)
    assert not HandCheck.objects.filter(hand=hand).exists()
    services.check_hand(hand.pk, on_request=True)
    assert HandCheck.objects.get(hand=hand).status == HandCheck.Status.DONE
    ranked = make_table(users)
    (broken,) = play_and_store(ranked, users, 1, seed=8)
    Hand.objects.filter(pk=broken.pk).update(record={**broken.record, "actions": ["9-9"]})
    services.check_hand(broken.pk)
    check = HandCheck.objects.get(hand=broken)
    assert check.status == HandCheck.Status.FAILED and check.reason == "no_replay"
    assert Hand.objects.get(pk=broken.pk).record["actions"] == ["9-9"]  # nothing lost


@override_settings(FAIRPLAY=FAST)
def test_no_statistic_below_the_minimum_of_hands():
    users = make_players(4, "m")
    table = make_table(users)
    hands = play_and_store(table, users, 3, seed=9, colluders=(0, 2))
    for hand in hands:
        services.check_hand(hand.pk)
    stat = services.partnership_statistic(users[0].pk, users[2].pk)
    assert stat.hands == 3 and not stat.shown
    assert not Case.objects.exists()


def test_one_open_case_per_partnership_and_per_player_alone_on_every_database():
    """The guard holds on SQLite too (two partial indexes, not NULLS NOT DISTINCT); a second
    case may open once the first is decided."""
    ana, bea = make_players(2)
    Case.objects.create(kind=Case.Kind.PROGRAM, player=ana)
    Case.objects.create(kind=Case.Kind.PARTNERSHIP, player=ana, partner=bea)
    for partner in (None, bea):
        kind = Case.Kind.PROGRAM if partner is None else Case.Kind.PARTNERSHIP
        with pytest.raises(IntegrityError), transaction.atomic():
            Case.objects.create(kind=kind, player=ana, partner=partner)
    Case.objects.update(status=Case.Status.CLEARED)
    Case.objects.create(kind=Case.Kind.PROGRAM, player=ana)
    assert Case.objects.filter(status=Case.Status.OPEN).count() == 1


@override_settings(FAIRPLAY=FAST)
@pytest.mark.parametrize(
    ("kind", "checked"), [(Table.Kind.PRIVATE, False), (Table.Kind.RANKED, True)]
)
def test_a_hand_end_queues_a_check_only_where_hands_are_checked(
    kind, checked, eager, django_capture_on_commit_callbacks
):
    """A casual table's finished hand costs no fair-play task at all (each one used to
    queue a task that found nothing to do); a ranked table's is checked."""
    ran: list[str] = []

    def record(sender=None, **kwargs):
        ran.append(sender.name)

    users = make_players(4, "q")
    table = full_table(users, kind=kind)
    rng = random.Random(5)
    task_prerun.connect(record, weak=False)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            while not Hand.objects.filter(table=table).exists():
                play_step(Table.objects.get(pk=table.pk), rng)
    finally:
        task_prerun.disconnect(record)
    assert "stats.count_live_hand" in ran  # the hand's end queued its tasks
    assert ("fairplay.check_hand" in ran) is checked
    assert HandCheck.objects.filter(hand__table=table).exists() is checked
