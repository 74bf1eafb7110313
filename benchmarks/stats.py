"""Statistics of a player with 10,000 recorded hands: the page's query and the update after
one hand.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
        .venv/bin/python benchmarks/stats.py

Creates its own PostgreSQL database (`capicua_bench_stats`, dropped at the end unless
`--keep`). Loads (not timed) one player's 10,000 finished live hands, played out by the
engine with random legal moves, whole matches at one table each under three rule sets
(Dominican, Brazilian, tournament), beside five partners in turn and among 24 other players,
and their `HandStat` rows and tallies (every seat's, as the task writes them). Then it times:

- the statistics page's query (`games.stats.selectors.statistics`: every figure per rule
  set, partner and opening, in one SQL statement over the player's tallies), and the whole
  page through Django's test client, with its query count at 1,000 and at 10,000 hands
  (they must be equal);
- the incremental update after one more hand (`services.count_live_hand`: the Celery task's
  work for a hand just stored).

Targets: the page's query under 50 ms, the update under 20 ms.
"""

import argparse
import os
import random
import statistics
import sys
import time

from _database import bench_database

os.environ.setdefault("ALLOWED_HOSTS", "testserver")  # Django's test client asks as it
NAME = "capicua_bench_stats"
HANDS = 10_000
RULES = ["dominican"] * 6 + ["brazilian"] * 3 + ["tournament"]


def played_record(rules_name: str, rng: random.Random) -> dict:
    """A first hand played to its end with random legal moves."""
    from games.engine import ENDED, apply, legal_actions, new_hand, to_record, variant

    while True:
        state = new_hand(variant(rules_name), rng=rng)
        while state.status not in ENDED:
            state = apply(state, rng.choice(legal_actions(state)))[0]
        if state.status != "redeal":
            return to_record(state)


def played_match(rules_name: str, rng: random.Random, most: int) -> list[dict]:
    """The hands of a match played to its end (at most `most` hands) with random moves."""
    from games.engine import (
        ENDED,
        apply,
        finish_hand,
        legal_actions,
        new_match,
        start_hand,
        to_record,
        variant,
    )

    match, records = new_match(variant(rules_name)), []
    while not match.over and len(records) < most:
        state = start_hand(match, rng=rng)
        while state.status not in ENDED:
            state = apply(state, rng.choice(legal_actions(state)))[0]
        match = finish_hand(match, state)
        if state.status != "redeal":
            records.append(to_record(state))
    return records


def load(hands: int, seed: int) -> tuple:
    """The player, and the users of everyone else; `hands` hands of the player, whole
    matches at one table each, stored and counted."""
    from django.contrib.auth import get_user_model

    from games.models import Hand, Seat, Table
    from games.stats import services
    from games.stats.models import HandStat
    from league.models import Player

    rng = random.Random(seed)
    User = get_user_model()
    users = User.objects.bulk_create([User(username=f"bench{seed}-{i}") for i in range(30)])
    players = Player.objects.bulk_create(
        [Player(user=u, display_name=f"Player {i}") for i, u in enumerate(users)]
    )
    me, partners, others = players[0], players[1:6], players[6:]
    matches: list[tuple[str, list[dict]]] = []
    total = 0
    while total < hands:
        rules = RULES[len(matches) % len(RULES)]
        records = played_match(rules, rng, hands - total)
        matches.append((rules, records))
        total += len(records)
    tables = Table.objects.bulk_create(
        [Table(rules={"preset": rules}, status=Table.Status.FINISHED) for rules, _ in matches]
    )
    seats, stored = [], []
    seated: dict[int, dict[int, int]] = {}
    for i, (table, (_rules, records)) in enumerate(zip(tables, matches, strict=True)):
        mine = rng.randrange(4)
        people = rng.sample(others, 2)
        at = {mine: me, (mine + 2) % 4: partners[i % len(partners)]}
        at[(mine + 1) % 4], at[(mine + 3) % 4] = people
        seated[table.pk] = {n: player.pk for n, player in at.items()}
        seats += [Seat(table=table, number=n, user_id=at[n].user_id, name="x") for n in range(4)]
        for number, record in enumerate(records, start=1):
            stored.append(Hand(table=table, number=number, record=record, ruling={}))
    Seat.objects.bulk_create(seats)
    stored = Hand.objects.bulk_create(stored, batch_size=2000)
    rows = []
    for hand in stored:
        rows += services._rows(
            hand.record,
            None,
            seated[hand.table_id],
            hand=hand,
            match_key=f"t{hand.table_id}",
            played=hand.finished,
            number=hand.number,
        )
    HandStat.objects.bulk_create(rows, batch_size=5000)
    services.rebuild_tallies()
    return me, users, tables[-1]


def timed(function, repeat: int) -> tuple[float, float]:
    """(median, best) wall time in ms."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), min(times)


def page_queries(client, player) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"/players/{player.pk}/statistics/")
    assert response.status_code == 200, response.status_code
    return len(queries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=HANDS)
    parser.add_argument("--repeat", type=int, default=25)
    parser.add_argument("--keep", action="store_true", help="keep the benchmark database")
    args = parser.parse_args()
    with bench_database(NAME, keep=args.keep):
        from django.db import connection
        from django.test import Client

        from games.engine import adjudicate
        from games.models import Hand
        from games.stats import services
        from games.stats.models import HandStat
        from games.stats.selectors import statistics as figures

        client = Client()
        small, _users, _table = load(args.hands // 10, seed=7)
        start = time.perf_counter()
        me, _users, last_table = load(args.hands, seed=11)
        loaded = time.perf_counter() - start
        rows = HandStat.objects.filter(player=me).count()
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        print(
            f"loaded {rows:,} hands of one player ({HandStat.objects.count():,} rows in all) "
            f"in {loaded:.1f} s"
        )
        overall = figures(me.pk).overall.figures
        print(
            f"  {overall.hands:,} hands, {overall.hands_won:,} won, {overall.matches:,} matches,"
            f" {overall.points_per_hand_won} points per hand won"
        )
        figures(me.pk)  # warm
        median, best = timed(lambda: figures(me.pk), args.repeat)
        verdict = "ok" if median < 50 else "OVER"
        print(
            f"page query (every figure, one statement): median {median:.1f} ms,"
            f" best {best:.1f} ms  [target < 50 ms: {verdict}]"
        )
        client.get(f"/players/{me.pk}/statistics/")
        median_page, best_page = timed(
            lambda: client.get(f"/players/{me.pk}/statistics/"), max(5, args.repeat // 3)
        )
        print(f"whole page through Django: median {median_page:.1f} ms, best {best_page:.1f} ms")
        few, many = page_queries(client, small), page_queries(client, me)
        print(f"page queries: {few} at {args.hands // 10:,} hands, {many} at {args.hands:,} hands")

        rng = random.Random(3)
        new_hands = []
        for n in range(args.repeat):
            record = played_record("dominican", rng)
            new_hands.append(
                Hand.objects.create(
                    table=last_table,
                    number=1000 + n,
                    record=record,
                    ruling=adjudicate(record),
                )
            )
        pending = iter(new_hands)
        median, best = timed(lambda: services.count_live_hand(next(pending).pk), args.repeat)
        verdict = "ok" if median < 20 else "OVER"
        print(
            f"update after one hand (count_live_hand): median {median:.1f} ms,"
            f" best {best:.1f} ms  [target < 20 ms: {verdict}]"
        )
        after = figures(me.pk).overall.figures.hands
        print(f"  the player's hands after the updates: {after:,}")
        print(f"load average: {os.getloadavg()[0]:.1f}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
