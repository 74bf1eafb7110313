"""Ranked play counts: a finished ranked table rates its four players in the global pool,
through the ratings' Celery task, once; leaving a ranked match loses it."""

import random
import time
from datetime import timedelta

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from openskill.models import PlackettLuce

from games.models import Seat, Table
from games.services import matchmaking, tables, timers
from games.services.messages import finish_reason, hand_state
from games.services.ratings import rating_of
from league.models import Entry, Event, Match, Organisation, Player, Result, Round
from league.ratings import services
from league.ratings.models import RatedMatch, Rating, RatingChange, provisional_below
from league.ratings.tasks import recalculate_pool
from tests.conftest import run_async

from .conftest import TableSocket, make_players, play_match, play_step
from .test_timers import overdue, play_hand_without

pytestmark = pytest.mark.django_db(transaction=True)


def ranked_table(users: list, rules: str = "dominican") -> Table:
    """The four users queue for a ranked match; the last one's press opens the table."""
    found = [matchmaking.join_queue(user, "ranked", rules=rules) for user in users]
    assert found[:3] == [None] * 3 and found[3].kind == Table.Kind.RANKED
    return Table.objects.get(pk=found[3].pk)


def pairs(table: Table) -> tuple[list[int], list[int]]:
    """The player ids of pair 0 (seats 0 and 2) and pair 1 (seats 1 and 3)."""
    seats = dict(Seat.objects.filter(table=table).values_list("number", "user__player__id"))
    return [seats[0], seats[2]], [seats[1], seats[3]]


def by_openskill(table: Table, winner: int) -> dict[int, tuple[float, float]]:
    """openskill's own update for new players, the pair `winner` first."""
    first, second = pairs(table)
    model = PlackettLuce()
    teams = model.rate(
        [[model.rating(), model.rating()], [model.rating(), model.rating()]],
        ranks=[0, 1] if winner == 0 else [1, 0],
    )
    return {p: (r.mu, r.sigma) for p, r in zip(first + second, teams[0] + teams[1], strict=True)}


def stored(players: list[int]) -> dict[int, tuple[float, float, int]]:
    rows = Rating.objects.filter(pool=services.global_pool(), player_id__in=players)
    return {r.player_id: (r.mu, r.sigma, r.matches) for r in rows}


def wait_until_rated(pool_id: int, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while services.pending(pool_id):
        assert time.monotonic() < deadline, "the worker did not rate the ranked table"
        time.sleep(0.2)


def test_a_ranked_match_over_real_sockets_rates_its_four_players_once(
    redis_layer, asgi_server, celery_worker_process
):
    users = make_players(4, "rk")
    table = ranked_table(users)
    assert table.rules == {"preset": "dominican"}  # clasificatoria: the Dominican defaults
    pool = services.global_pool()

    seated = [seat.user for seat in Seat.objects.filter(table=table).order_by("number")]

    async def scenario():
        sockets = [TableSocket(asgi_server, table.pk, user) for user in seated]
        for socket in sockets:
            await socket.connect()
        await play_match(sockets, random.Random(19))
        for socket in sockets:
            await socket.socket.close()
        return sockets[0].state["table"]

    facts = run_async(scenario())
    assert facts["status"] == "finished" and facts["finish"] == "target"
    table.refresh_from_db()
    winner = table.match["winner"]
    slot = RatedMatch.objects.get(table=table)
    assert (slot.pool_id, slot.played_at) == (pool.pk, table.finished)

    # The table's last transaction queued the ratings' task; the worker rates the table.
    wait_until_rated(pool.pk)
    players = [p for pair in pairs(table) for p in pair]
    expected = by_openskill(table, winner)
    first = stored(players)
    assert {p: (mu, sigma) for p, (mu, sigma, _n) in first.items()} == expected
    assert all(n == 1 for _mu, _sigma, n in first.values())
    assert RatingChange.objects.filter(table=table).count() == 4
    winners = pairs(table)[winner]
    assert all(first[p][0] > 25 for p in winners)  # openskill's new player: mu 25
    assert all(first[p][0] < 25 for p in players if p not in winners)

    # The task delivered twice more, and the finished table's hook once more: nothing changes.
    for _ in range(2):
        assert recalculate_pool.delay(pool.pk).get(timeout=60) == 0
    services.table_counted(table.pk, table.finished)
    wait_until_rated(pool.pk)
    assert stored(players) == first
    assert RatingChange.objects.filter(table=table).count() == 4
    assert RatedMatch.objects.filter(table=table).count() == 1
    assert celery_worker_process.poll() is None

    # Ranked matchmaking reads the new ratings; the leaderboard lists the four players.
    assert rating_of(users[0]) == Rating.objects.get(player=users[0].player).ordinal
    from django.test import Client

    page = Client().get(reverse("ratings:leaderboard", args=[pool.slug])).content.decode()
    for user in users:
        assert user.player.display_name in page
    assert page.count("provisional</span>") >= 4 and provisional_below() > 1


def test_leaving_a_ranked_match_loses_it(eager):
    """A seat absent for a whole hand (only its turn timer acted) forfeits the match for its
    pair, after the live tables' absence rule; the forfeit is rated as a loss."""
    users = make_players(4, "lv")
    table = ranked_table(users, "brazilian")
    absent = hand_state(table).turn
    table = play_hand_without(overdue(table), absent)
    assert table.status == Table.Status.FINISHED
    assert table.forfeit_side == absent % 2 and not Seat.objects.filter(bot=True).exists()
    assert not services.pending(services.global_pool().pk)
    players = [p for pair in pairs(table) for p in pair]
    expected = by_openskill(table, 1 - absent % 2)
    assert {p: (mu, sigma) for p, (mu, sigma, _n) in stored(players).items()} == expected
    leavers = pairs(table)[absent % 2]
    assert all(stored(players)[p][0] < 25 for p in leavers)


def test_a_late_league_result_is_rated_before_a_later_ranked_table(eager):
    """The global pool replays in order: an online league's result played before a ranked
    table, but entered after it was rated, lands before it; rebuilding the pool from the
    start (the operators' command) gives the same ratings."""
    users = make_players(4, "ro")
    table = ranked_table(users, "dominican")
    absent = hand_state(table).turn
    table = play_hand_without(overdue(table), absent)
    pool = services.global_pool()
    a, b = pairs(table)
    club = Organisation.objects.create(name="Club Rk", slug="club-rk")
    event = Event.objects.create(
        organisation=club, name="Liga Rk", slug="liga-rk", mode=Event.Mode.ONLINE
    )
    services.feed(event, pool)
    # Partners crossed: the players of the two pairs at the table met in other pairs.
    people = {p.pk: p for p in Player.objects.filter(pk__in=a + b)}
    entry_a = Entry.objects.create(
        event=event, name="A", player_1=people[a[0]], player_2=people[b[0]]
    )
    entry_b = Entry.objects.create(
        event=event, name="B", player_1=people[a[1]], player_2=people[b[1]]
    )
    match = Match.objects.create(
        event=event,
        round=Round.objects.create(event=event, number=1),
        entry_a=entry_a,
        entry_b=entry_b,
        scheduled=table.finished - timedelta(hours=1),
        status=Match.Status.PLAYED,
    )
    Result.objects.create(
        match=match,
        status=Result.Status.CONFIRMED,
        games_a=1,
        games_b=0,
        points_a=200,
        points_b=40,
        confirmed=timezone.now(),
    )
    with transaction.atomic():
        services.result_counted(match)
    model = PlackettLuce()
    fresh = [[model.rating(), model.rating()], [model.rating(), model.rating()]]
    new = model.rate(fresh, ranks=[0, 1])
    ratings = dict(zip([a[0], b[0], a[1], b[1]], new[0] + new[1], strict=True))
    loser = absent % 2
    teams = [[ratings[p] for p in a], [ratings[p] for p in b]]
    new = model.rate(teams, ranks=[1, 0] if loser == 0 else [0, 1])
    expected = {p: (r.mu, r.sigma, 2) for p, r in zip(a + b, new[0] + new[1], strict=True)}
    assert stored(a + b) == expected
    RatedMatch.objects.filter(table=table).delete()  # as if the table's slot were lost
    services.reindex(pool)
    assert RatedMatch.objects.filter(table=table, pool=pool).count() == 1
    assert stored(a + b) == expected


def unrated(table: Table) -> bool:
    """Nobody at the table was rated: no slot in the global pool, no rating, no change."""
    players = [p for pair in pairs(table) for p in pair]
    return not (
        RatedMatch.objects.filter(table=table).exists()
        or Rating.objects.filter(player_id__in=players).exists()
        or RatingChange.objects.filter(table=table).exists()
    )


def test_a_ranked_table_nobody_opened_is_abandoned_and_rates_nobody(
    redis_layer, celery_worker_process
):
    """Four players pressed Ranked and never opened the table: the worker's countdowns play
    every turn (one second each, for the test), and the hand ends with both pairs absent.
    Nobody wins a match nobody played: the table is abandoned and rates nobody."""
    users = make_players(4, "na")
    table = ranked_table(users)
    quick = {"preset": "dominican", "turn_seconds": 1}
    now = timezone.now()
    Table.objects.filter(pk=table.pk).update(
        rules=quick, state=table.state | {"rules": quick}, deadline=now
    )
    timers.schedule(table.pk, table.version, now)  # the worker takes it from here
    deadline = time.monotonic() + 120
    while table.status != Table.Status.FINISHED:
        assert time.monotonic() < deadline, "the worker did not play the hand out"
        time.sleep(0.5)
        table.refresh_from_db()
    assert all(a.endswith("!auto") for a in table.hands.get().record["actions"])
    assert finish_reason(table) == "abandoned" and table.forfeit_side is None
    assert not table.match["over"] and table.match["winner"] is None
    # The worker rates a finished ranked table at once; give it the time it took above.
    time.sleep(2)
    assert not services.pending(services.global_pool().pk)
    assert unrated(table)
    assert celery_worker_process.poll() is None


def test_one_absent_player_in_each_pair_forfeits_neither(eager):
    """A forfeit needs a pair that was there: with a player of each pair absent for the
    whole hand, the ranked table is abandoned, unrated."""
    users = make_players(4, "ea")
    table = ranked_table(users, "brazilian")
    absent = {hand_state(table).turn, (hand_state(table).turn + 1) % 4}
    rng = random.Random(4)
    while table.status == Table.Status.PLAYING:
        state = hand_state(table)
        if state.turn in absent:
            tables.time_out(overdue(table).pk, table.version)
        else:
            play_step(table, rng)
        table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert finish_reason(table) == "abandoned" and table.forfeit_side is None
    assert unrated(table)
    services.reindex(services.global_pool())  # the operators' rebuild rates it neither
    assert unrated(table)
