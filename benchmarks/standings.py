"""Standings of a 500-pair league with 9 rounds of confirmed results, and the query count.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
        .venv/bin/python benchmarks/standings.py

Creates its own PostgreSQL database (`capicua_bench_standings`, or BENCH_DATABASE; dropped at
the end), loads two
leagues through the league's models (bulk inserts, not timed): 50 and 500 pairs, each with the
first 9 rounds of its round robin played and every result confirmed (some of them shutouts,
under the Dominican rules so the multiplier applies). Then it times `standings.compute` (the
table and every entry's position after each round, uncached) and the table alone, counts
their SQL queries at both sizes (they must be equal), and times a cached read. Times are the
CPU time of this process (medians), next to a peer measured in the same run: the same rows
read plainly, summed per entry and sorted by one key (`peer`); the last line gives both
figures at 500 pairs and their ratios to the peer (issue #28: table <= 20 ms, with
positions <= 50 ms, on a quiet machine).
"""

import argparse
import os
import random
import statistics
import sys
import time

from _database import bench_database

NAME = os.environ.get("BENCH_DATABASE", "capicua_bench_standings")
ROUNDS = 9


def load(pairs: int, seed: int):
    """A league of `pairs` pairs with ROUNDS rounds of confirmed results."""
    from league.models import Entry, Event, Match, Organisation, Player, Result, Round
    from league.pairing import round_robin

    rng = random.Random(seed)
    club = Organisation.objects.create(name=f"Club {pairs}", slug=f"club-{pairs}")
    Player.objects.bulk_create(
        [Player(display_name=f"P{pairs}-{i}", club=club) for i in range(pairs * 2)]
    )
    people = list(Player.objects.filter(club=club).values_list("pk", flat=True))
    event = Event.objects.create(
        organisation=club,
        name=f"Liga {pairs}",
        slug=f"liga-{pairs}",
        rule_preset="dominican",
        tiebreaks=[
            "match_wins",
            "games_won",
            "point_difference",
            "points_for",
            "head_to_head",
            "lots",
        ],
    )
    Entry.objects.bulk_create(
        Entry(
            event=event,
            name=f"Pair {i}",
            player_1_id=people[2 * i],
            player_2_id=people[2 * i + 1],
            lot=i + 1,
        )
        for i in range(pairs)
    )
    entries = list(Entry.objects.filter(event=event).values_list("pk", flat=True))
    schedule = round_robin(entries)[:ROUNDS]
    rounds = Round.objects.bulk_create(Round(event=event, number=r.number) for r in schedule)
    matches = Match.objects.bulk_create(
        Match(event=event, round=rnd, entry_a_id=a, entry_b_id=b, table=t, status="played")
        for rnd, planned in zip(rounds, schedule, strict=True)
        for t, (a, b) in enumerate(planned.pairings, start=1)
    )
    results = []
    for match in matches:
        loser = 0 if rng.random() < 0.1 else rng.randrange(10, 195)
        winner = 200 + rng.randrange(0, 40)
        a_wins = rng.random() < 0.5
        results.append(
            Result(
                match=match,
                status="confirmed",
                games_a=int(a_wins),
                games_b=int(not a_wins),
                points_a=winner if a_wins else loser,
                points_b=loser if a_wins else winner,
                shutout=loser == 0,
            )
        )
    Result.objects.bulk_create(results, batch_size=5000)
    return event


def timed(function, repeat: int) -> tuple[float, int]:
    """Median CPU milliseconds of this process over `repeat` runs (other load on a shared
    machine disturbs them little; the database's own work is not in them), and the SQL
    queries of one run."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        function()
    times = []
    for _ in range(repeat):
        start = time.process_time()
        function()
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times), len(queries)


def peer(event) -> list:
    """The floor: the same two tables read as plain rows (entries, confirmed results), summed
    per entry and sorted by (match wins, games, point difference, points for, lot)."""
    from league.models import Entry, Result

    ids = Entry.objects.filter(event=event, team__isnull=True).values_list("pk", "lot")
    rows = Result.objects.filter(status="confirmed", match__event=event).values_list(
        "match__entry_a_id", "match__entry_b_id", "games_a", "games_b", "points_a", "points_b"
    )
    totals = {pk: [0, 0, 0, 0, -(lot or 0)] for pk, lot in ids}
    for a, b, games_a, games_b, points_a, points_b in rows:
        for me, gf, ga, pf, pa in (
            (a, games_a, games_b, points_a, points_b),
            (b, games_b, games_a, points_b, points_a),
        ):
            t = totals[me]
            t[0] += gf > ga
            t[1] += gf
            t[2] += pf - pa
            t[3] += pf
    return sorted(totals, key=totals.__getitem__, reverse=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--keep", action="store_true", help="keep the benchmark database")
    args = parser.parse_args()
    with bench_database(NAME, keep=args.keep):
        run(args)


def run(args) -> None:

    from league.services import standings

    events = {size: load(size, seed=size) for size in (50, 500)}
    counts, ratios = {}, {}
    print(
        f"{'pairs':>6} {'results':>8} {'compute (table + positions)':>28} "
        f"{'table only':>12} {'queries':>8} {'cached':>8} {'peer':>9}"
    )
    for size, event in events.items():

        def table_only(event=event, size=size):
            rows = standings.rank(
                standings.entries_for(event),
                standings.outcomes_for(event),
                event.tiebreaks,
                standings.rules_of(event).shutout_multiplier,
            )
            assert len(rows) == size

        peer_ms, _ = timed(lambda event=event: peer(event), args.repeat)
        full_ms, full_queries = timed(lambda event=event: standings.compute(event), args.repeat)
        table_ms, table_queries = timed(table_only, args.repeat)
        peer_ms = statistics.median(
            [peer_ms, timed(lambda event=event: peer(event), args.repeat)[0]]
        )
        standings.table(event)  # fills the cache
        cached_ms, _ = timed(lambda event=event: standings.table(event), args.repeat)
        counts[size] = (full_queries, table_queries)
        played = standings.outcomes_for(event)
        print(
            f"{size:>6} {len(played):>8} {full_ms:>25.1f} ms {table_ms:>9.1f} ms "
            f"{full_queries:>8} {cached_ms:>5.1f} ms {peer_ms:>6.1f} ms"
        )
        ratios[size] = (table_ms / peer_ms, full_ms / peer_ms, table_ms, full_ms)
    same = counts[50] == counts[500]
    print(
        f"query count at 50 and 500 pairs: {counts[50]} and {counts[500]} "
        f"({'the same' if same else 'DIFFERENT'})"
    )
    table_x, full_x, table_ms, full_ms = ratios[500]
    print("peer: the same rows read plainly, summed per entry and sorted by a key, in the same run")
    print(f"load average: {os.getloadavg()[0]:.1f}")
    print(
        f"standings at 500 pairs: table {table_ms:.1f} ms = {table_x:.2f}x the peer, "
        f"with positions {full_ms:.1f} ms = {full_x:.2f}x the peer"
    )
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
