"""Players' statistics from hand records written out in full, against figures counted by
hand; counted again, after a referee's ruling, and from league results."""

import io

from django.core.management import call_command

from games.disputes import services as disputes
from games.engine import adjudicate, replay
from games.models import Table
from games.services import tables
from games.stats import services
from games.stats.models import TALLIED, HandStat, Tally, contribution, tally_key
from games.stats.selectors import statistics
from league.services import results
from tests.referee.conftest import build_referees, corrected_record

from .conftest import live_table, store_hand
from .records import BLOCK, CAPICUA, DOMINO, MATCH_BLOCK


def play_the_three_tables(four) -> list:
    """Pedro's four hands at three tables (records.py says what happened in each):

    - table 1, dominican, Pedro seat 0 and Quique seat 2: DOMINO (Pedro's side wins by
      domino, 48; Pedro neither opens nor passes), then CAPICUA (lost to a capicúa; Pedro
      passes once);
    - table 2, dominican, Pedro seat 3 and Quique seat 1: BLOCK (Pedro opens 6-6, makes the
      tranque and wins it, 68; forces two passes on Rosa and Sara, passes once);
    - table 3, tournament to 1 point, Pedro seat 0: MATCH_BLOCK (his side wins the tranque,
      82, and the match; Pedro passes once).
    """
    p, q, r, s = four.pedro, four.quique, four.rosa, four.sara
    first = live_table([p, r, q, s], "dominican")
    second = live_table([r, q, s, p], "dominican")
    third = live_table([p, r, q, s], {"preset": "tournament", "target": 1})
    hands = [
        store_hand(first, 1, DOMINO),
        store_hand(first, 2, CAPICUA),
        store_hand(second, 1, BLOCK),
        store_hand(third, 1, MATCH_BLOCK),
    ]
    Table.objects.filter(pk=third.pk).update(status=Table.Status.FINISHED)
    for hand in hands:
        assert services.count_live_hand(hand.pk) == 4
    return hands


def test_figures_counted_by_hand(four):
    play_the_three_tables(four)
    stats = statistics(four.pedro.pk)
    overall = stats.overall.figures
    assert (overall.hands, overall.hands_won, overall.hands_lost) == (4, 3, 1)
    # matches played to the end: only table 3's (tables 1 and 2 are still being played)
    assert (overall.matches, overall.matches_won, overall.matches_lost) == (1, 1, 0)
    assert (overall.dominoes_won, overall.dominoes_lost) == (1, 1)
    assert (overall.capicuas_won, overall.capicuas_lost) == (0, 1)
    assert (overall.tranques_won, overall.tranques_lost) == (2, 0)
    assert (overall.passes_forced, overall.passes_suffered) == (2, 3)
    assert overall.points_won == 48 + 68 + 82
    assert overall.points_per_hand_won == 66.0
    assert (overall.opened, overall.opening_rate) == (1, 0.25)
    assert [(o.tile, o.figures.hands, o.figures.hands_won) for o in stats.overall.openings] == [
        ("6-6", 1, 1)
    ]
    assert [(p.name, p.figures.hands, p.figures.hands_won) for p in stats.overall.partners] == [
        ("Quique", 4, 3)
    ]

    dominican, tournament = stats.rule_sets
    assert dominican.rule_set == "dominican" and tournament.rule_set == "tournament"
    d = dominican.figures
    assert (d.hands, d.hands_won, d.matches, d.matches_won, d.points_won) == (3, 2, 0, 0, 116)
    assert (d.passes_forced, d.passes_suffered, d.tranques_won) == (2, 2, 1)
    t = tournament.figures
    assert (t.hands, t.hands_won, t.matches_won, t.tranques_won, t.points_won) == (1, 1, 1, 1, 82)
    assert stats.of("tournament") is tournament and stats.of("nope") is None

    # Rosa, always against Pedro: she lost 3 of her 4 hands, and the match.
    rosa = statistics(four.rosa.pk).overall.figures
    assert (rosa.hands, rosa.hands_won, rosa.matches_lost, rosa.capicuas_won) == (4, 1, 1, 1)
    assert rosa.passes_forced == 1  # CAPICUA: Pedro (seat 0) passed after her play (seat 3)


def test_counting_again_changes_nothing_and_bots_are_not_counted(four):
    hands = play_the_three_tables(four)
    before = statistics(four.pedro.pk)
    for hand in hands:
        services.count_live_hand(hand.pk)
    assert statistics(four.pedro.pk) == before
    assert HandStat.objects.count() == 16
    botted = live_table([four.pedro, None, None, None], "dominican")
    assert services.count_live_hand(store_hand(botted, 1, DOMINO).pk) == 1
    assert statistics(four.pedro.pk).overall.partners[-1].player_id is None


def test_a_hand_is_counted_by_its_task_when_stored(four, eager, django_capture_on_commit_callbacks):
    """The live table queues the task by name as it stores the hand."""
    table = live_table([four.pedro, four.rosa, four.quique, four.sara], "dominican")
    with django_capture_on_commit_callbacks(execute=True):
        tables._end_hand(Table.objects.with_seats(table.pk, lock=True), replay(DOMINO))
    assert statistics(four.pedro.pk).overall.figures.hands_won == 1


def test_a_referees_ruling_on_a_live_hand_changes_the_figures(
    db, eager, django_capture_on_commit_callbacks
):
    refs = build_referees("live")
    match = refs.match
    a, b = match.entry_a, match.entry_b
    seated = [a.player_1, b.player_1, a.player_2, b.player_2]
    table = live_table(seated, "dominican", kind=Table.Kind.FIXTURE, fixture=match)
    hand = store_hand(table, 1, DOMINO)
    services.count_live_hand(hand.pk)
    ana = statistics(a.player_1.pk).overall.figures
    assert (ana.hands_won, ana.dominoes_won, ana.points_won) == (1, 1, 48)

    dispute = disputes.open_live_dispute(refs.b[0], hand, "They talked across the table.")
    with django_capture_on_commit_callbacks(execute=True):
        disputes.rule(
            refs.league.referee, dispute, "award", "Table talk: the hand goes to B.", side=1,
            points=60,
        )  # fmt: skip
    ana = statistics(a.player_1.pk).overall.figures
    assert (ana.hands, ana.hands_won, ana.hands_lost, ana.dominoes_won) == (1, 0, 1, 0)
    assert (ana.awarded_lost, ana.points_won) == (1, 0)
    luis = statistics(b.player_1.pk).overall.figures
    assert (luis.awarded_won, luis.points_won, luis.points_per_hand_won) == (1, 60, 60.0)


def test_league_hands_count_once_confirmed_and_follow_a_correction(
    db, eager, django_capture_on_commit_callbacks
):
    refs = build_referees("obt")
    a = refs.match.entry_a
    with django_capture_on_commit_callbacks(execute=True):
        results.confirm_result(refs.b[0], refs.result)
    # the record holds an illegal pass: a faulty hand counts for nobody
    assert HandStat.objects.filter(league_match=refs.match).count() == 0
    assert adjudicate(refs.result.games[0]["hands"][0])["valid"] is False

    dispute = disputes.open_result_dispute(refs.b[0], refs.match, 1, 1, "He held 5-2.")
    with django_capture_on_commit_callbacks(execute=True):
        disputes.rule(
            refs.league.referee, dispute, "correct", "5-2 fits.", record=corrected_record()
        )
    # corrected: the example hand, A's first player (seat 0) dominoes for 48, and A won the
    # match (110-60)
    ana = statistics(a.player_1.pk).overall
    f = ana.figures
    assert (f.hands, f.hands_won, f.points_won, f.matches, f.matches_won) == (1, 1, 48, 1, 1)
    assert ana.rule_set == "" and statistics(a.player_1.pk).rule_sets[0].rule_set == "dominican"
    assert [p.name for p in ana.partners] == [a.player_2.display_name]
    carmen = statistics(a.player_2.pk).overall
    assert [(o.tile, o.figures.hands) for o in carmen.openings] == [("5-5", 1)]
    assert services.count_league_match(refs.match.pk) == 4  # again: the same rows
    assert HandStat.objects.filter(league_match=refs.match).count() == 4


def test_backfill_counts_everything_once(four):
    play_the_three_tables(four)
    HandStat.objects.all().delete()
    hands, matches = services.backfill()
    assert hands == 4 and matches == 0
    assert statistics(four.pedro.pk).overall.figures.hands == 4
    out = io.StringIO()
    call_command("count_statistics", stdout=out)
    assert out.getvalue().strip() == "4 live hands and 0 league matches counted."
    assert HandStat.objects.count() == 16
    assert statistics(four.pedro.pk).overall.figures.hands == 4


def assert_tallies_match_the_hands() -> None:
    """The tallies are what the hands' rows add up to, group by group."""
    expected: dict = {}
    for row in HandStat.objects.all():
        total = expected.setdefault(tally_key(row), dict.fromkeys(TALLIED, 0))
        for column, value in contribution(row).items():
            total[column] += value
    found = {
        (t.player_id, t.rule_set, t.pairs, t.partner_key, t.opening): {
            c: getattr(t, c) for c in TALLIED
        }
        for t in Tally.objects.all()
        if any(getattr(t, c) for c in TALLIED)
    }
    assert found == expected


def test_the_tallies_follow_every_count_recount_and_ruling(
    four, eager, django_capture_on_commit_callbacks
):
    hands = play_the_three_tables(four)
    assert_tallies_match_the_hands()
    for hand in hands:
        services.count_live_hand(hand.pk)
    assert_tallies_match_the_hands()
    HandStat.objects.filter(hand=hands[0]).delete()  # lost rows: the backfill repairs them
    Tally.objects.all().delete()
    services.backfill()
    assert_tallies_match_the_hands()
    refs = build_referees("tally")
    with django_capture_on_commit_callbacks(execute=True):
        results.confirm_result(refs.b[0], refs.result)
    dispute = disputes.open_result_dispute(refs.b[0], refs.match, 1, 1, "He held 5-2.")
    with django_capture_on_commit_callbacks(execute=True):
        disputes.rule(
            refs.league.referee, dispute, "correct", "5-2 fits.", record=corrected_record()
        )
    assert_tallies_match_the_hands()
    assert HandStat.objects.filter(league_match=refs.match).count() == 4
