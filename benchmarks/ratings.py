"""Replaying a rating pool of 100,000 matches among 2,000 players, database included.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python benchmarks/ratings.py

Creates its own PostgreSQL database (`capicua_bench_ratings`, or BENCH_DATABASE; dropped at the
end), loads a club, 2,000 players, pair entries and one over-the-board league of 100,000 matches
with confirmed results through the league's models (bulk inserts, not timed), and the pool the
league feeds. Then it times what the operators' `recalculate_ratings` does: indexing the pool's
matches (`services.reindex`'s `RatedMatch` rows), a replay from the first match with no history
yet, and a second one that replaces the 400,000 rating changes the first wrote. Each replay
reads the matches, results and entries in one query and rates them in memory; the first writes
its changes with a binary COPY, the second overwrites each change in its row (every value
written again, batch by batch), both while the next matches are rated; then one upsert of the
ratings (league/ratings/README.md, "Speed"). For scale on a busy machine it then times
openskill's own `PlackettLuce.rate` over the same matches in memory, and checks that both give
the same ratings; it prints the load average, then both replays' times as ratios to openskill's
(issue #28: the replay within openskill's time, ratings equal).
"""

import argparse
import os
import random
import time
from datetime import UTC, datetime, timedelta

from _database import bench_database

NAME = os.environ.get("BENCH_DATABASE", "capicua_bench_ratings")


def load(matches: int, players: int, seed: int):
    from django.utils import timezone

    from league.models import Entry, Event, Match, Organisation, Player, Result, Round
    from league.ratings import services

    rng = random.Random(seed)
    club = Organisation.objects.create(name="Club Bench", slug="club-bench", country="DO")
    Player.objects.bulk_create(
        [Player(display_name=f"Player {i:04d}", club=club, country="DO") for i in range(players)],
        batch_size=5000,
    )
    people = list(Player.objects.values_list("pk", flat=True))
    event = Event.objects.create(organisation=club, name="Liga Bench", slug="liga-bench")
    pool = services.organisation_pool(club)
    services.feed(event, pool)
    pairs = {}
    for _ in range(players * 10):
        first, second = rng.sample(people, 2)
        pairs.setdefault(
            (first, second), Entry(event=event, name="pair", player_1_id=first, player_2_id=second)
        )
    Entry.objects.bulk_create(pairs.values(), batch_size=5000)
    entries = list(
        Entry.objects.filter(event=event).values_list("pk", "player_1_id", "player_2_id")
    )
    per_round = 50
    start = datetime(2024, 1, 1, 19, tzinfo=UTC)
    Round.objects.bulk_create(
        [
            Round(event=event, number=n + 1, date=(start + timedelta(days=n // 3)).date())
            for n in range(matches // per_round + 1)
        ],
        batch_size=5000,
    )
    rounds = list(Round.objects.filter(event=event).order_by("number").values_list("pk", flat=True))
    rows = []
    while len(rows) < matches:
        a, b = rng.sample(entries, 2)
        if len({a[1], a[2], b[1], b[2]}) < 4:
            continue
        i = len(rows)
        rows.append(
            Match(
                event=event,
                round_id=rounds[i // per_round],
                entry_a_id=a[0],
                entry_b_id=b[0],
                status=Match.Status.PLAYED,
                scheduled=start + timedelta(minutes=7 * i),
            )
        )
    Match.objects.bulk_create(rows, batch_size=5000)
    now = timezone.now()
    results, games = [], []
    players_of = {pk: (first, second) for pk, first, second in entries}
    for pk, a, b in (
        Match.objects.filter(event=event)
        .order_by("scheduled")
        .values_list("pk", "entry_a_id", "entry_b_id")
    ):
        games_a = rng.choice((0, 1, 2)) if rng.random() < 0.02 else rng.choice((0, 2))
        games_b = 1 if games_a == 1 else 2 - games_a
        results.append(
            Result(
                match_id=pk,
                status=Result.Status.CONFIRMED,
                games_a=games_a,
                games_b=games_b,
                points_a=100 * games_a,
                points_b=100 * games_b,
                confirmed=now,
            )
        )
        ranks = [0, 0] if games_a == games_b else ([0, 1] if games_a > games_b else [1, 0])
        games.append((players_of[a] + players_of[b], ranks))
    Result.objects.bulk_create(results, batch_size=5000)
    return pool, games


def by_openskill(games) -> dict:
    """openskill's own PlackettLuce.rate over the same matches, in memory: the reference."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {}
    for four, ranks in games:
        teams = [
            [ratings.get(p) or model.rating() for p in four[:2]],
            [ratings.get(p) or model.rating() for p in four[2:]],
        ]
        new = model.rate(teams, ranks=ranks)
        ratings.update(zip(four, new[0] + new[1], strict=True))
    return {p: (r.mu, r.sigma) for p, r in ratings.items()}


def timed(label: str, function, *args, matches: int | None = None):
    """What `function` returns, and the seconds it took (printed)."""
    started = time.perf_counter()
    value = function(*args)
    elapsed = time.perf_counter() - started
    rate = f", {matches / elapsed:,.0f} matches/s" if matches else ""
    print(f"{label:<40} {elapsed:7.2f} s{rate}")
    return value, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    args = parser.parse_args()
    with bench_database(NAME, keep=args.keep):
        run(args)


def run(args) -> None:
    from django.db import connection, transaction

    from league.ratings import services
    from league.ratings.models import RatedMatch, Rating, RatingChange

    print(
        f"{args.matches:,} matches among {args.players:,} players (PostgreSQL "
        f"{connection.pg_version // 10000})"
    )
    (pool, games), _ = timed(
        "load the league (not part of the replay)", load, args.matches, args.players, args.seed
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")

    def index():
        with transaction.atomic():
            services.reindex(pool)

    timed("index the pool's matches", index)
    assert RatedMatch.objects.filter(pool=pool).count() == args.matches
    rated, fresh_s = timed(
        "replay, no history yet",
        services.replay,
        pool.pk,
        services.FROM_START,
        matches=args.matches,
    )
    rated_again, again_s = timed(
        "replay, replacing the whole history",
        services.replay,
        pool.pk,
        services.FROM_START,
        matches=args.matches,
    )
    assert rated == rated_again == args.matches
    assert RatingChange.objects.filter(pool=pool).count() == 4 * args.matches
    print(
        f"{Rating.objects.filter(pool=pool).count():,} ratings, "
        f"{4 * args.matches:,} rating changes written"
    )
    reference, openskill_s = timed(
        "openskill alone, in memory (reference)", by_openskill, games, matches=args.matches
    )
    stored = {r.player_id: (r.mu, r.sigma) for r in Rating.objects.filter(pool=pool)}
    print("the replay's ratings equal openskill's:", stored == reference)
    print("load average:", " ".join(f"{x:.1f}" for x in os.getloadavg()))
    print(
        f"rating replay of {args.matches:,} matches: replacing the history {again_s:.2f} s = "
        f"{again_s / openskill_s:.2f}x openskill's {openskill_s:.2f} s (no history yet "
        f"{fresh_s:.2f} s = {fresh_s / openskill_s:.2f}x), ratings "
        f"{'equal' if stored == reference else 'DIFFERENT'}"
    )


if __name__ == "__main__":
    main()
