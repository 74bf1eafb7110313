"""Turn timers: one idempotent handler, races with moves, restarts, the Celery countdown."""

import asyncio
import threading
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.utils import timezone

from games.engine import legal_actions, new_hand, rules_from_spec
from games.models import Action, Seat, Table
from games.services import tables, timers
from games.services.messages import hand_state
from tests.conftest import run_async, start_server, stop

from .conftest import SHORT, TableSocket, full_table

pytestmark = pytest.mark.django_db(transaction=True)


def swept_just_now() -> None:
    """A sweep ran a moment ago: the next one fires due timers (after a silence, the first
    sweep only extends deadlines)."""
    cache.set(timers.SWEEP_KEY, timezone.now().timestamp(), timeout=None)


def overdue(table: Table, seconds: float = 1) -> Table:
    Table.objects.filter(pk=table.pk).update(deadline=timezone.now() - timedelta(seconds=seconds))
    table.refresh_from_db()
    return table


def test_timeout_plays_the_automatic_action_once(players):
    table = overdue(full_table(players, "dominican"))
    state = hand_state(table)
    assert tables.time_out(table.pk, table.version) is True
    assert tables.time_out(table.pk, table.version) is False  # the same timer again
    action = Action.objects.get(table=table)
    assert action.auto and action.action.endswith("!auto") and action.seat == state.turn
    table.refresh_from_db()
    assert table.state["actions"] == [action.action]
    assert table.deadline > timezone.now()  # the next turn's deadline


def test_timeout_before_the_deadline_does_nothing(players):
    table = full_table(players, "dominican")
    assert tables.time_out(table.pk, table.version) is False
    assert not Action.objects.filter(table=table).exists()


def run_together(*calls) -> list:
    """Run the calls at once in threads (each with its own connection); their outcomes."""
    barrier = threading.Barrier(len(calls))
    outcomes: list = [None] * len(calls)

    def run(i, call):
        barrier.wait()
        try:
            outcomes[i] = call()
        except tables.TableError as error:
            outcomes[i] = error.code
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def test_a_move_racing_its_timeout_is_applied_once(players):
    for _ in range(8):
        table = overdue(full_table(players, "dominican"))
        state = hand_state(table)
        user = Seat.objects.get(table=table, number=state.turn).user
        move = legal_actions(state)[-1]
        outcomes = run_together(
            lambda t=table, u=user, m=move: tables.act(
                t.pk, u, action=m, version=t.version, client_id="x"
            ),
            lambda t=table: tables.time_out(t.pk, t.version),
        )
        assert Action.objects.filter(table=table).count() == 1, outcomes
        won = Action.objects.get(table=table)
        assert (outcomes[1] is True) == won.auto
        assert outcomes[0] == "stale" if won.auto else outcomes[0]["type"] == "ack"


def test_two_timers_racing_apply_one_action(players):
    table = overdue(full_table(players, "dominican"))
    outcomes = run_together(*[lambda: tables.time_out(table.pk, table.version)] * 4)
    assert outcomes.count(True) == 1
    assert Action.objects.filter(table=table).count() == 1


def test_a_silent_sweeper_extends_deadlines_instead_of_firing(players):
    table = overdue(full_table(players, "dominican"))
    cache.delete(timers.SWEEP_KEY)
    assert timers.sweep() == 0  # the first sweep after a silence
    table.refresh_from_db()
    assert table.deadline > timezone.now() + timedelta(seconds=timers.GRACE_SECONDS - 5)
    assert not Action.objects.filter(table=table).exists()
    overdue(table)
    assert timers.sweep() == 1  # the sweeper is running now: due timers fire
    assert Action.objects.filter(table=table, auto=True).count() == 1


def test_a_web_process_told_not_to_sweep_never_does(settings, players):
    """WEB_SWEEPER off: a web process never sweeps, in the embedded mode either (a server
    sharing its database with one that sweeps, as the suite's session server does)."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    table = overdue(full_table(players, "dominican"), seconds=5)
    cache.set(timers.SWEEP_KEY, timezone.now().timestamp(), timeout=None)  # no silence
    settings.WEB_SWEEPER = False
    assert timers.sweep_from_web() == 0
    assert not Action.objects.filter(table=table).exists()
    settings.WEB_SWEEPER = True
    assert timers.sweep_from_web() == 1
    assert Action.objects.get(table=table).auto


def test_two_sweeps_after_a_silence_decide_the_grace_once(postgres, players):
    """Two sweeps at once after a restart, and a countdown task left from before it: the
    overdue turns all get the grace, none fires; once it is over each fires exactly once."""
    from games.tasks import time_out_table

    made = [full_table(players, "dominican") for _ in range(3)]
    for _ in range(5):
        for table in made:
            overdue(table, seconds=timers.GAP_SECONDS + 5)
        cache.set(timers.SWEEP_KEY, timezone.now().timestamp() - 60, timeout=None)
        first = made[0]
        outcomes = run_together(
            timers.sweep, timers.sweep, lambda t=first: time_out_table(t.pk, t.version)
        )
        assert outcomes == [0, 0, False]
        assert not Action.objects.filter(table__in=made).exists()
        graced = timezone.now() + timedelta(seconds=timers.GRACE_SECONDS - 5)
        assert all(Table.objects.get(pk=t.pk).deadline > graced for t in made)
    for table in made:
        overdue(table)
    outcomes = run_together(timers.sweep, timers.sweep)
    assert sum(outcomes) == 3
    assert Action.objects.filter(table__in=made, auto=True).count() == 3


def test_a_web_process_sweeps_while_no_worker_does(redis_layer, service_env, log_dir, players):
    """Without a worker (no heartbeat), a web process plays the overdue turn; while a
    worker's heartbeat is fresh, it leaves the sweep to the worker."""
    table = overdue(full_table(players, "dominican"))
    process, url = start_server(service_env | {"WEB_SWEEPER": "1"}, log_dir / "web-sweep.log")

    def beat() -> None:  # what a worker's sweep leaves behind
        stamp = timezone.now().timestamp()
        cache.set(timers.WORKER_KEY, stamp, timeout=None)
        cache.set(timers.SWEEP_KEY, stamp, timeout=None)

    async def scenario():
        await asyncio.to_thread(beat)
        socket = TableSocket(url, table.pk, players[0])
        await socket.connect()
        for _ in range(8):  # four seconds with a worker
            await asyncio.to_thread(beat)
            await asyncio.sleep(0.5)
        quiet = "last" not in socket.state
        while "last" not in socket.state:  # the worker stops
            await socket.recv(timeout=30)
        return quiet, socket.state

    try:
        quiet, state = run_async(scenario())
    finally:
        stop(process)
    assert quiet
    assert state["last"]["action"].endswith("!auto")
    assert Action.objects.filter(table=table, auto=True).count() == 1


def play_hand_without(table: Table, absent: int) -> Table:
    """Everybody but `absent` plays; `absent` acts only through its turn timer."""
    while table.status == Table.Status.PLAYING:
        state = hand_state(table)
        if state.turn == absent:
            tables.time_out(overdue(table).pk, table.version)
        else:
            user = Seat.objects.get(table=table, number=state.turn).user
            tables.act(
                table.pk,
                user,
                action=legal_actions(state)[0],
                version=table.version,
                client_id=f"m{table.version}",
            )
        table.refresh_from_db()
    return table


def test_a_seat_absent_all_hand_gets_a_bot_at_a_casual_table(players):
    table = full_table(players, {"preset": "dominican", "target": 500})
    absent = (hand_state(table).turn + 1) % 4
    table = play_hand_without(table, absent)
    autos = Action.objects.filter(table=table, seat=absent).values_list("auto", flat=True)
    assert autos and all(autos)
    assert Seat.objects.get(table=table, number=absent).bot
    assert table.status == Table.Status.BETWEEN and absent in table.ready


def test_a_player_takes_back_the_seat_a_bot_took_over(players):
    table = full_table(players, {"preset": "dominican", "target": 500})
    absent = (hand_state(table).turn + 1) % 4
    table = play_hand_without(table, absent)
    user = Seat.objects.get(table=table, number=absent).user
    with pytest.raises(tables.TableError) as refused:
        tables.take_back(table.pk, players[(absent + 1) % 4])  # a seat no bot plays
    assert refused.value.code == "not_replaced"
    tables.take_back(table.pk, user)
    seat = Seat.objects.get(table=table, number=absent)
    assert not seat.bot and seat.user == user
    after = Table.objects.get(pk=table.pk)
    assert after.version == table.version + 1 and absent not in after.ready
    for other in set(range(4)) - {absent}:
        tables.press_next(table.pk, Seat.objects.get(table=table, number=other).user)
    assert Table.objects.get(pk=table.pk).status == Table.Status.BETWEEN  # waits for the player
    tables.press_next(table.pk, user)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and table.hand_number == 2
    while hand_state(table).turn != absent:  # the player, not a bot, acts for the seat
        state = hand_state(table)
        mover = Seat.objects.get(table=table, number=state.turn).user
        tables.act(
            table.pk,
            mover,
            action=legal_actions(state)[0],
            version=table.version,
            client_id=f"n{table.version}",
        )
        table.refresh_from_db()
    answer = tables.act(
        table.pk,
        user,
        action=legal_actions(hand_state(table))[0],
        version=table.version,
        client_id="back-1",
    )
    assert answer["type"] == "ack"
    assert Action.objects.get(table=table, version=answer["version"]).user == user


def test_a_seat_absent_all_hand_forfeits_in_competition(players):
    table = full_table(
        players,
        {"preset": "dominican", "target": 500},
        kind=Table.Kind.FIXTURE,
        absence=Table.Absence.FORFEIT,
    )
    absent = hand_state(table).turn
    while table.status == Table.Status.PLAYING:
        state = hand_state(table)
        if state.turn == absent:
            tables.time_out(overdue(table).pk, table.version)
        else:
            user = Seat.objects.get(table=table, number=state.turn).user
            tables.act(
                table.pk,
                user,
                action=legal_actions(state)[0],
                version=table.version,
                client_id=f"m{table.version}",
            )
        table.refresh_from_db()
    assert table.status == Table.Status.FINISHED and table.forfeit_side == absent % 2


def test_extended_deadlines_reach_the_connected_players(redis_layer, asgi_server, players):
    """After a silence, the sweeper's extension is an update every socket gets at once."""
    # Late past the gap, as after an outage: a countdown armed when the table was made (a
    # worker may be running) leaves it to the sweep.
    table = overdue(full_table(players, "dominican"), seconds=timers.GAP_SECONDS + 5)

    async def scenario():
        socket = TableSocket(asgi_server, table.pk, players[0])
        await socket.connect()
        before = socket.state["table"]["deadline"]
        cache.delete(timers.SWEEP_KEY)
        await asyncio.to_thread(timers.sweep)
        update = await socket.expect("update")
        while update["table"]["deadline"] == before:  # a seat's presence, not the sweep
            update = await socket.expect("update")
        return before, update

    before, update = run_async(scenario())
    table.refresh_from_db()
    assert update["version"] == table.version and update["table"]["deadline"] > before
    assert update["table"]["deadline"] == pytest.approx(table.deadline.timestamp())
    assert update["hand"]["hand"] and not Action.objects.filter(table=table).exists()


@pytest.mark.parametrize("timer", ["countdown", "in_server"])
def test_a_silent_seat_is_played_by_its_timer(request, timer, players):
    """Redis layer: the worker's countdown reaches the sockets served by the server.
    Embedded mode: no worker can reach the in-memory layer; the server's sweeper plays. A
    server just started has no sweep behind it, so its first sweep gives the overdue seat
    the grace of a restart (GRACE_SECONDS) before it plays: the wait allows for that."""
    if timer == "countdown":
        request.getfixturevalue("redis_layer")
        request.getfixturevalue("celery_worker_process")
        base = request.getfixturevalue("asgi_server")
    else:
        base = request.getfixturevalue("embedded_server")
    table = full_table(players, SHORT | {"turn_seconds": 1})

    async def scenario():
        socket = TableSocket(base, table.pk, players[0])
        await socket.connect()
        while "last" not in socket.state:
            await socket.recv(timeout=timers.GRACE_SECONDS + 20)
        return socket.state

    state = run_async(scenario())
    assert state["last"]["action"].endswith("!auto")
    assert Action.objects.filter(table=table, auto=True).exists()


def test_the_sweeper_arms_the_countdown_of_a_deadline_coming_near(
    redis_layer, celery_worker_process, asgi_server, players
):
    """A far deadline costs no task when it is set; the sweep before it arms its countdown,
    and the worker, not the sweeper, plays on time."""
    table = full_table(players, SHORT | {"turn_seconds": 600})
    swept_just_now()

    async def scenario():
        socket = TableSocket(asgi_server, table.pk, players[0])
        await socket.connect()
        await asyncio.sleep(2)
        quiet = "last" not in socket.state  # nothing armed a 600-second timer
        deadline = timezone.now() + timedelta(seconds=3)
        await asyncio.to_thread(lambda: Table.objects.filter(pk=table.pk).update(deadline=deadline))
        fired = await asyncio.to_thread(timers.sweep)
        while "last" not in socket.state:
            await socket.recv(timeout=30)
        return quiet, fired, deadline, timezone.now()

    quiet, fired, deadline, played = run_async(scenario())
    assert quiet and fired == 0
    assert deadline <= played < deadline + timedelta(seconds=2)
    assert Action.objects.get(table=table).auto


def test_the_five_doubles_choice_has_its_own_timer(players, monkeypatch):
    rules = rules_from_spec("brazilian")
    deal = [
        ["0-0", "1-1", "2-2", "3-3", "4-4", "0-1", "0-2"],
        ["5-5", "6-6", "0-3", "0-4", "0-5", "0-6", "1-2"],
        ["1-3", "1-4", "1-5", "1-6", "2-3", "2-4", "2-5"],
        ["2-6", "3-4", "3-5", "3-6", "4-5", "4-6", "5-6"],
    ]
    monkeypatch.setattr(tables, "start_hand", lambda match: new_hand(match.rules, deal))
    table = full_table(players, "brazilian")
    assert hand_state(table).status == "declare" and hand_state(table).turn == 0
    left = (table.deadline - timezone.now()).total_seconds()
    assert rules.five_doubles_seconds - 2 < left <= rules.five_doubles_seconds < rules.turn_seconds
    assert tables.time_out(overdue(table).pk, table.version)
    action = Action.objects.get(table=table)
    assert (action.seat, action.action, action.auto) == (0, "points", True)
    table.refresh_from_db()
    assert table.state["declarations"] == [{"seat": 0, "choice": "points"}]
    assert hand_state(table).status == "play"


def play_hand(table: Table) -> Table:
    """Every seat plays its own turns (none through a timer) until the hand ends."""
    while table.status == Table.Status.PLAYING:
        state = hand_state(table)
        tables.act(
            table.pk,
            Seat.objects.get(table=table, number=state.turn).user,
            action=legal_actions(state)[0],
            version=table.version,
            client_id=f"h{table.version}",
        )
        table.refresh_from_db()
    return table


def test_between_hands_only_an_absent_seat_has_a_deadline(players):
    """Players who are there must all press "next"; a deadline runs only while a seat that
    has not pressed is offline, and when the sweep finds it passed that seat counts as
    ready, not the ones who are there."""
    from games.services import presence

    table = full_table(players, {"preset": "dominican", "target": 500}, next_hand_seconds=45)
    for n, user in enumerate(players):
        presence.arrive(table.pk, user, f"socket-{n}")
    table = play_hand(table)
    assert table.status == Table.Status.BETWEEN and table.deadline is None  # everybody is here
    presence.leave(table.pk, "socket-3")
    table.refresh_from_db()
    left = (table.deadline - timezone.now()).total_seconds()
    assert table.offline == [3] and 40 < left <= 45  # the table's own length
    presence.arrive(table.pk, players[3], "socket-3b")  # back in time: no deadline
    assert Table.objects.get(pk=table.pk).deadline is None
    presence.leave(table.pk, "socket-3b")
    tables.press_next(table.pk, players[0])
    overdue(table)
    swept_just_now()
    assert timers.sweep() == 1
    table.refresh_from_db()
    assert table.status == Table.Status.BETWEEN and table.ready == [0, 3]
    assert table.deadline is None  # seats 1 and 2 are there: they wait for nobody's clock
    tables.press_next(table.pk, players[1])
    tables.press_next(table.pk, players[2])
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and table.hand_number == 2


def test_an_absent_seats_deadline_is_fired_by_the_worker(
    redis_layer, celery_worker_process, asgi_server, players
):
    """The real path: three players at the table, the fourth away. The worker's countdown
    counts the absent seat as ready; the players there start the next hand by pressing."""
    table = full_table(players, {"preset": "dominican", "target": 500}, next_hand_seconds=2)

    async def scenario():
        sockets = [TableSocket(asgi_server, table.pk, user) for user in players[:3]]
        for socket in sockets:
            await socket.connect()
        ended = await asyncio.to_thread(lambda: play_hand(Table.objects.get(pk=table.pk)))
        watcher = sockets[0]
        while watcher.state["table"]["ready"] != [3]:  # the worker's countdown
            await watcher.recv(timeout=30)
        counted = watcher.state["table"]
        for socket in sockets:
            await socket.send({"type": "next", "id": "next-1"})
            await socket.expect("ok")
        while watcher.state["table"]["status"] != "playing":
            await watcher.recv()
        for socket in sockets:
            await socket.socket.close()
        return ended, counted, watcher.state

    ended, counted, playing = run_async(scenario())
    assert ended.status == Table.Status.BETWEEN and ended.offline == [3]
    assert counted["status"] == "between" and counted["deadline"] is None
    assert playing["table"]["hand_number"] == 2
