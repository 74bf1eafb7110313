"""Online events that run themselves, measured (#34): a Swiss and an arena on the production
stack (PostgreSQL, the Redis broker and channel layer, a Celery worker and Celery beat
asking the autopilots every second), with bots playing every seat at full speed (no turn
waits) through the table services, as the web processes' sockets would.

Prints, for the Swiss: the organiser actions needed (0), the round turnover (from the last
table of a round ending to every table of the next open with its seats) p50/p99 over the
rounds, and whether each round's pairing equals what the organiser's "Pair round N" gives
for the standings at that moment (checked right after the autopilot published it, in a
transaction rolled back: unpair, pair again, compare). For the arena: the clock factor, the
time from a table's end to its players' next table p50/p99, and the longest any free entry
waited. Its last line, for scripts:

    online-event: organiser actions N; swiss turnover p99 X s at T tables;
        arena next table p99 Y s; pairings equal E/R rounds      (on one line)

    python benchmarks/online_event.py [--pairs 256] [--rounds 7] [--players 1024]
        [--arena-minutes 30] [--factor 10]

Each Swiss round after the first also prints where its turnover went: the last table's end
to its result, the result to the tick that closed the round, the pairing, the first table,
every table seen open (committed), and the tasks waiting in each queue (`celery`, `live`)
when the last table ended. Two workers run as the Procfile runs them (`-Q celery` and
`-Q live`), and Celery beat.

Needs PostgreSQL on 127.0.0.1:5432 (user postgres; its database BENCH_ONLINE_DB, default
capicua_bench_online, made afresh) and Redis (BENCH_REDIS_URL, default database 15 of
127.0.0.1:6379, flushed); BENCH_WORKER_LOG=INFO logs every task the workers run
(var/bench/online-*.log). Run it with `nice -n 10`.
"""

import argparse
import contextlib
import os
import random
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

BASE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE))

from _server import production_env  # noqa: E402

DB = os.environ.get("BENCH_ONLINE_DB", "capicua_bench_online")
ENV = production_env(DB, WEB_SWEEPER="0")
WORKER_LOG = os.environ.get("BENCH_WORKER_LOG", "WARNING")  # INFO: every task in its log

from core.processes import end_group, start_group  # noqa: E402

# A match a hand, and no turn timer fires: this one process plays every table in turn, and
# reaching the last of an arena's 256 first tables takes it longer than 2 minutes (with 120 s
# the timers of the tables it had not reached fired together, ~70 at once, and the worker's
# autopilot ticks waited behind them: a harness's lag, not a player's). 300 s is the most an
# organiser may set (league/services/autopilot.py TURN_SECONDS); a round's limit is then at
# least a hand of such turns (140 minutes), never reached: each round ends with its last table.
RULES = {"target": 1, "turn_seconds": 300}


def percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def prepare(factor: float) -> list[subprocess.Popen]:
    for sql in (f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)", f"CREATE DATABASE {DB}"):
        subprocess.run(
            ["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", sql],
            check=True,
            capture_output=True,
        )
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=BASE, check=True)
    import redis

    redis.Redis.from_url(ENV["REDIS_URL"]).flushdb()
    logs = BASE / "var" / "bench"
    logs.mkdir(parents=True, exist_ok=True)
    celery = [sys.executable, "-m", "celery", "-A", "config"]
    workers = [
        start_group(
            celery  # as the Procfile runs them: prefork, two processes each
            + ["worker", "-Q", queue, "--concurrency", "2", "-l", WORKER_LOG]
            + ["--without-gossip", "--without-mingle", "-n", f"{name}-{os.getpid()}@%h"],
            cwd=BASE,
            stdout=(logs / f"online-{name}.log").open("w"),
            stderr=subprocess.STDOUT,
        )
        for name, queue in (("worker", "celery"), ("live", "live"))
    ]
    beat = start_group(
        celery + ["beat", "-l", "WARNING", "-s", str(logs / "online-beat"), "--pidfile="],
        cwd=BASE,
        stdout=(logs / "online-beat.log").open("w"),
        stderr=subprocess.STDOUT,
    )
    return [*workers, beat]


def stop(processes: list[subprocess.Popen]) -> None:
    for process in processes:
        process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=10)
        end_group(process.pid, 5, leader=process)


def setup(tag: str, fmt: str, players: int):
    """A club, its organiser, `players` players (their users), and an online event of
    `fmt`, open for registration."""
    from django.contrib.auth import get_user_model

    from league.models import Event, Membership, Organisation, Player
    from league.services import events

    User = get_user_model()
    club = Organisation.objects.create(name=f"Bench {tag}", slug=f"bench-{tag}")
    organiser = User.objects.create_user(f"org-{tag}")
    Membership.objects.create(organisation=club, user=organiser, role=Membership.Role.ORGANISER)
    users = User.objects.bulk_create(User(username=f"{tag}{i}") for i in range(players))
    Player.objects.bulk_create(
        Player(user=user, display_name=user.username, club=club) for user in users
    )
    event = events.create_event(
        organiser, club, name=f"Bench {tag}", format=fmt, rule_preset="tournament"
    )
    Event.objects.filter(pk=event.pk).update(
        mode=Event.Mode.ONLINE, status=Event.Status.REGISTRATION, rule_overrides=RULES
    )
    event.refresh_from_db()
    return (
        club,
        organiser,
        event,
        [user.player for user in User.objects.filter(pk__in=[u.pk for u in users]).order_by("pk")],
    )


def play(table, rng: random.Random) -> None:
    """Bots play the table to its end, every seat at full speed."""
    from games.engine import ENDED, bot_action
    from games.models import Table
    from games.services import tables
    from games.services.messages import hand_state

    while table.status in (Table.Status.PLAYING, Table.Status.BETWEEN):
        if table.status == Table.Status.BETWEEN:
            for seat in table.seats.exclude(user=None):
                if seat.number not in table.ready:
                    tables.press_next(table.pk, seat.user)
        else:
            state = hand_state(table)
            if state is not None and state.status not in ENDED:
                seat = table.seats.get(number=state.turn)
                try:
                    tables.act(
                        table.pk,
                        seat.user,
                        action=bot_action(state, rng, "easy"),
                        version=table.version,
                        client_id=f"b{table.pk}-{table.version}",
                    )
                except tables.TableError as error:
                    if error.code != "stale":
                        raise
        table.refresh_from_db()


def wait_until(condition, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"online-event: timed out waiting for {what}")
        time.sleep(0.05)


def organiser_actions(event, organiser, before: int) -> int:
    from league.models import AuditEntry

    return AuditEntry.objects.filter(event=event, actor=organiser).count() - before


def table_of(pairing) -> tuple[int, int]:
    """A table's two entries (0 for a bye), in order."""
    return tuple(sorted((pairing.entry_a_id, pairing.entry_b_id or 0)))


def queue_lengths() -> str:
    """The tasks waiting in each of the broker's queues (the moment a round's last table
    ended)."""
    import redis
    from django.conf import settings

    client = redis.Redis.from_url(ENV["REDIS_URL"])
    prefix = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("global_keyprefix", "")
    return ", ".join(
        f"{queue.name} {client.llen(prefix + queue.name)}" for queue in settings.CELERY_TASK_QUEUES
    )


def turnover_parts(event, number: int, ended, opened_at, queued: str) -> str:
    """Where round `number`'s turnover went: the last table's end to its result, the result
    to the tick that closed the round, the pairing, the first table, the last table's
    commit (when the benchmark saw every table open)."""
    from django.db.models import Max, Min

    from games.models import Table
    from league.models import AuditEntry, Result

    result = Result.objects.filter(
        match__event=event, match__round__number=number - 1, status=Result.Status.CONFIRMED
    ).aggregate(at=Max("confirmed"))["at"]
    log = AuditEntry.objects.filter(event=event)
    closed = log.get(action="autopilot.round_end", after__round=number - 1).at
    paired = log.filter(action="autopilot.round_start").order_by("at")[number - 1].at
    first = Table.objects.filter(fixture__event=event, fixture__round__number=number).aggregate(
        at=Min("created")
    )["at"]
    parts = {
        "result": result - ended,
        "wait for the tick": closed - result,
        "pairing": paired - closed,
        "first table": first - paired,
        "every table open": opened_at - first,
    }
    shown = ", ".join(f"{k} {v.total_seconds():.2f} s" for k, v in parts.items())
    return f"round {number}: {shown}; queued when the last table ended: {queued}"


class Rollback(Exception):
    pass


def organisers_pairing(event, organiser) -> list:
    """What "Pair round N" gives for the standings now, in place of the round the autopilot
    just published (nothing of it kept)."""
    from django.db import transaction

    from league.tournaments.services import swiss

    try:
        with transaction.atomic():
            swiss.unpair(organiser, event)
            drafted = swiss.pair_round(organiser, event)
            raise Rollback(
                sorted(tuple(sorted((p.entry_a_id, p.entry_b_id or 0))) for p in drafted)
            )
    except Rollback as done:
        return done.args[0]


def run_swiss(pairs: int, rounds: int, rng: random.Random) -> dict:
    from django.db.models import Max
    from django.utils import timezone

    from games.models import Table
    from league.models import AuditEntry, Autopilot, Event, Match
    from league.services import autopilot, entries
    from league.tournaments.services.common import tournament_of

    club, organiser, event, players = setup("sw", Event.Format.SWISS, 2 * pairs)
    tournament = tournament_of(event)
    tournament.rounds = rounds
    tournament.save()
    made = [
        entries.register(organiser, event, player_1=a, player_2=b, name=f"P{i}")
        for i, (a, b) in enumerate(zip(players[::2], players[1::2], strict=True))
    ]
    starts = timezone.now() + timedelta(minutes=2)
    autopilot.configure(
        organiser, event, starts=starts, check_in_minutes=1, pause_seconds=0, round_minutes=150
    )
    Autopilot.objects.filter(event=event).update(starts=timezone.now() + timedelta(minutes=1))
    for entry in made:
        entries.check_in(organiser, entry)
    before = AuditEntry.objects.filter(event=event, actor=organiser).count()
    Autopilot.objects.filter(event=event).update(starts=timezone.now())
    turnovers, equal, tables_per_round = [], 0, pairs // 2
    queued = ""
    for number in range(1, rounds + 1):

        def opened(number=number) -> bool:
            due = Match.objects.filter(
                event=event, round__number=number, entry_b__isnull=False, parent__isnull=True
            )
            return due.exists() and not due.filter(live_table__isnull=True).exists()

        wait_until(opened, 600, f"round {number}'s tables")
        seen = timezone.now()  # every table committed, open with its seats
        round_tables = Table.objects.filter(fixture__event=event, fixture__round__number=number)
        if number > 1:
            ended = Table.objects.filter(
                fixture__event=event, fixture__round__number=number - 1
            ).aggregate(at=Max("finished"))["at"]
            turnovers.append((seen - ended).total_seconds())
            print("  " + turnover_parts(event, number, ended, seen, queued), flush=True)
        stored = sorted(
            table_of(m)
            for m in Match.objects.filter(event=event, round__number=number, parent__isnull=True)
        )
        equal += stored == organisers_pairing(event, organiser)
        for table in round_tables.order_by("pk"):
            play(table, rng)
        queued = queue_lengths()
        print(f"  swiss round {number}: {round_tables.count()} tables played", flush=True)
    wait_until(
        lambda: Autopilot.objects.filter(event=event, finished__isnull=False).exists(),
        600,
        "the Swiss's finish",
    )
    return {
        "actions": organiser_actions(event, organiser, before),
        "turnover": turnovers,
        "equal": equal,
        "rounds": rounds,
        "tables": tables_per_round,
    }


def run_arena(players_count: int, minutes: int, rng: random.Random) -> dict:
    from django.utils import timezone

    from games.models import Table
    from league.models import ArenaGame, ArenaSpot, AuditEntry, Autopilot, Event
    from league.services import arena, autopilot

    club, organiser, event, players = setup("ar", Event.Format.ARENA, players_count)
    autopilot.configure(  # far enough ahead that every player joins before its start
        organiser, event, starts=timezone.now() + timedelta(days=1), arena_minutes=minutes
    )
    before = AuditEntry.objects.filter(event=event, actor=organiser).count()
    for player in players:
        arena.join(player.user, event)
    Autopilot.objects.filter(event=event).update(starts=timezone.now())
    wait_until(lambda: ArenaGame.objects.filter(event=event).exists(), 120, "the arena's start")
    while not Autopilot.objects.filter(event=event, finished__isnull=False).exists():
        playing = Table.objects.filter(arena_game__event=event).exclude(
            status=Table.Status.FINISHED
        )
        for table in playing.order_by("pk"):
            play(table, rng)
        time.sleep(0.05)
    waits, longest = [], 0.0
    last_end: dict[int, object] = {}
    table_end = dict(
        Table.objects.filter(arena_game__event=event).values_list("arena_game_id", "finished")
    )
    for game in ArenaGame.objects.filter(event=event).order_by("started", "pk"):
        for entry_id in game.entries:
            if entry_id in last_end:  # from its table's end to its next table
                waits.append((game.started - last_end[entry_id]).total_seconds())
            last_end[entry_id] = table_end.get(game.pk) or game.ended
    end = Autopilot.objects.get(event=event).round_deadline
    for spot in ArenaSpot.objects.filter(event=event, waiting__isnull=False):
        longest = max(longest, (end - spot.waiting).total_seconds())  # never seated again
    return {
        "actions": organiser_actions(event, organiser, before),
        "waits": waits,
        "longest": max([longest, *waits]),
        "games": ArenaGame.objects.filter(event=event).count(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--players", type=int, default=1024)
    parser.add_argument("--arena-minutes", type=int, default=30)
    parser.add_argument("--factor", type=float, default=10.0)
    args = parser.parse_args()
    os.environ.update(ENV | {"ARENA_CLOCK_FACTOR": str(args.factor)})
    processes = prepare(args.factor)
    try:
        import django

        django.setup()
        rng = random.Random(34)
        started = time.monotonic()
        swiss = run_swiss(args.pairs, args.rounds, rng)
        turn = swiss["turnover"]
        print(
            f"swiss: {args.pairs} pairs, {args.rounds} rounds, {swiss['tables']} tables a round; "
            f"turnover p50 {percentile(turn, 0.5):.2f} s, "
            f"p99 {percentile(turn, 0.99):.2f} s (goal ≤ 2 s at 128 tables); pairings equal "
            f"{swiss['equal']}/{swiss['rounds']}; {time.monotonic() - started:.0f} s",
            flush=True,
        )
        started = time.monotonic()
        arena = run_arena(args.players, args.arena_minutes, rng)
        waits = arena["waits"]
        print(
            f"arena: {args.players} single players, {args.arena_minutes} minutes at clock "
            f"factor {args.factor:g} ({args.arena_minutes * 60 / args.factor:.0f} s real), "
            f"{arena['games']} tables; next table p50 {percentile(waits, 0.5):.2f} s, "
            f"p99 {percentile(waits, 0.99):.2f} s (goal ≤ 1 s); longest wait "
            f"{arena['longest']:.2f} s; {time.monotonic() - started:.0f} s",
            flush=True,
        )
        actions = swiss["actions"] + arena["actions"]
        print(
            f"online-event: organiser actions {actions}; swiss turnover p99 "
            f"{percentile(turn, 0.99):.2f} s at {swiss['tables']} tables; arena next table p99 "
            f"{percentile(waits, 0.99):.2f} s; "
            f"pairings equal {swiss['equal']}/{swiss['rounds']} rounds"
        )
    finally:
        from django.db import connections

        connections.close_all()
        stop(processes)


if __name__ == "__main__":
    main()
