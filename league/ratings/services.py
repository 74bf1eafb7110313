"""Ratings' business rules: pools, what triggers a recalculation, the replay, and reading.

What is rated. A competition's match with a counted result, in the pool its event feeds;
and every finished ranked table of online play (matchmaking's clasificatoria), in the global
pool. A ranked table's pair that was absent for a whole hand forfeits (the live tables'
absence rule) and loses: unlike a competition's forfeit, which is not rated, leaving a
ranked match counts as a loss.

Order of a pool. A pool's matches are rated in the order of `(played_at, match id)`, where
`played_at` is when the match was played: its scheduled time, else its round's date
(midnight, in the site's time zone), else the time its first result was entered; a ranked
table's is the time it finished, and at the same instant it comes after the competitions'
matches, tables in the order of their ids. A late result, a referee's ruling or a
correction on an earlier match therefore lands in its place in that order, and the pool is
replayed from there on.

Recalculation. Every trigger (a confirmed result, a correction, an event joining or leaving
a pool, the operators' command) only lowers the pool's `dirty_from` marker and queues the
`ratings.recalculate_pool` task. The task holds the pool's lock (a PostgreSQL advisory lock;
on SQLite every write transaction is already exclusive) while it replays; a task that
cannot get the lock leaves at once, and the holder takes the marker up again before it
lets go, so a request made during a replay is merged into it. A replay from a point first
puts every player back to their rating before that point (`RatingChange.mu_before`), then
rates the matches from there on, in one transaction: replaying twice gives the same state,
and the (match, player, pool) unique constraint refuses any double update. On PostgreSQL
the rating changes from that point are overwritten in place, each in its row (a HOT update,
which touches no index), new ones inserted and those no longer rated deleted; elsewhere they
are deleted and written again.
"""

import struct
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.db import connection, transaction
from django.db.models import Count, Exists, F, Min, OuterRef, Q, QuerySet, Window
from django.db.models.functions import RowNumber
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from core.tasks import queue_on_commit
from league.models import Entry, Event, Match, Organisation, Player, Result
from league.permissions import can, lineage, require
from league.services.errors import ServiceError

from .models import EventPool, RatedMatch, Rating, RatingChange, RatingPool
from .skill import Skill, initial, ordinal, outcome_of, rate_four
from .sources import ranked_tables

# The `dirty_from` that replays a pool from its first match.
FROM_START = datetime(1900, 1, 1, tzinfo=UTC)
# pg_try_advisory_lock(namespace, pool id): the namespace keeps these locks apart from others.
LOCK_NAMESPACE = 0x52617465  # "Rate"
BATCH = 5000
# Slots placed or removed at once from which their table's statistics are renewed.
ANALYZE_AFTER = 10_000


# Pools -------------------------------------------------------------------------------


def global_pool() -> RatingPool:
    pool, _created = RatingPool.objects.get_or_create(
        kind=RatingPool.Kind.GLOBAL,
        defaults={"name": "Online ranking", "slug": "online"},  # shown translated: __str__
    )
    return pool


def organisation_pool(organisation: Organisation) -> RatingPool:
    """The organisation's own ranking of its over-the-board events (created on first use)."""
    pool = RatingPool.objects.filter(organisation=organisation).first()
    if pool is None:
        slug = slugify(organisation.slug)[:70] or f"organisation-{organisation.pk}"
        if RatingPool.objects.filter(slug=slug).exists():
            slug = f"{slug}-{organisation.pk}"
        pool = RatingPool.objects.create(
            kind=RatingPool.Kind.ORGANISATION,
            organisation=organisation,
            name=organisation.name,
            slug=slug,
        )
    return pool


def check_feed(event: Event, pool: RatingPool) -> None:
    """May `event` feed `pool`? Online events feed the global pool; an organisation's pool
    takes the over-the-board events of that organisation and of its member clubs."""
    if pool.kind == RatingPool.Kind.GLOBAL:
        if event.mode != Event.Mode.ONLINE:
            raise ServiceError("wrong_pool", _("Only online events feed the global ranking."))
    elif event.mode != Event.Mode.OVER_THE_BOARD:
        raise ServiceError(
            "wrong_pool", _("Only over-the-board events feed an organisation's ranking.")
        )
    elif pool.organisation_id not in lineage(event.organisation):
        raise ServiceError(
            "wrong_pool",
            _("%(event)s is not an event of %(organisation)s or of one of its clubs.")
            % {"event": event, "organisation": pool.organisation},
        )


@transaction.atomic
def feed(event: Event, pool: RatingPool | None) -> None:
    """Make `event` feed `pool` (None: no pool); both pools are recalculated as needed."""
    if pool is not None:
        check_feed(event, pool)
        EventPool.objects.update_or_create(event=event, defaults={"pool": pool})
    else:
        EventPool.objects.filter(event=event).delete()
    _request_all(_place(pool, Match.objects.filter(event=event)))


GLOBAL = "global"


def pool_choices(user: AbstractBaseUser, event: Event) -> dict[str, Organisation | None]:
    """The pools `user` may make `event` feed, by key: "global" (None: the global pool, for
    the site's staff), or "organisation-ID" for each organisation of the event's lineage
    whose organiser the user is (its pool is created when first chosen)."""
    if event.mode == Event.Mode.ONLINE:
        return {GLOBAL: None} if user.is_staff else {}
    return {
        f"organisation-{organisation.pk}": organisation
        for organisation in Organisation.objects.filter(pk__in=lineage(event.organisation))
        if can(user, "organisation.manage", organisation)
    }


def choose_pool(user: AbstractBaseUser, event: Event, key: str) -> RatingPool | None:
    """An organiser sets the pool the event feeds ("" for none), among `pool_choices`.

    Changing or leaving a pool needs the right to choose that pool too.
    """
    require(user, "event.manage", event)
    choices = pool_choices(user, event)
    current = pool_of(event)
    if current is not None and pool_key(current) not in choices:
        raise PermissionDenied(
            _("Only the organisers of %(pool)s may change this.") % {"pool": current}
        )
    if key == "":
        feed(event, None)
        return None
    if key not in choices:
        raise PermissionDenied(_("You cannot choose this ranking for this event."))
    organisation = choices[key]
    pool = global_pool() if organisation is None else organisation_pool(organisation)
    feed(event, pool)
    return pool


def pool_key(pool: RatingPool | None) -> str:
    """The key of `pool` among `pool_choices` ("" for none)."""
    if pool is None:
        return ""
    return GLOBAL if pool.organisation_id is None else f"organisation-{pool.organisation_id}"


# Triggers ----------------------------------------------------------------------------


def _played_keys(matches: QuerySet[Match]) -> dict[int, datetime]:
    """`played_at` (see the module's docstring) of those of `matches` with a counted result."""
    counted = Result.objects.filter(match=OuterRef("pk"), status=Result.Status.CONFIRMED)
    rows = (
        matches.filter(Exists(counted))
        .annotate(first_entered=Min("results__entered"))
        .values_list("pk", "scheduled", "round__date", "first_entered")
    )
    zone = timezone.get_default_timezone()
    return {
        pk: scheduled or (datetime.combine(day, time.min, tzinfo=zone) if day else entered)
        for pk, scheduled, day, entered in rows
    }


def _earliest(found: dict[int, datetime], pool_id: int, at: datetime) -> None:
    found[pool_id] = min(found.get(pool_id, at), at)


def _place(pool: RatingPool | None, matches: QuerySet[Match]) -> dict[int, datetime]:
    """Put those of `matches` that have a counted result in `pool` (None: in no pool).

    Returns, for each pool changed, the earliest `played_at` from which it must be replayed.
    """
    keys = _played_keys(matches) if pool is not None else {}
    changed: dict[int, datetime] = {}
    stale, placed = [], set()
    slots = RatedMatch.objects.filter(match__in=matches).values_list(
        "match_id", "pool_id", "played_at"
    )
    for match_id, pool_id, played_at in slots:
        new = keys.get(match_id)
        if new is None:
            stale.append(match_id)
        elif pool_id == pool.pk and new == played_at:
            placed.add(match_id)
            continue
        _earliest(changed, pool_id, played_at)
    for batch in range(0, len(stale), BATCH):
        RatedMatch.objects.filter(match_id__in=stale[batch : batch + BATCH]).delete()
    moved = {pk: at for pk, at in keys.items() if pk not in placed}
    if moved:
        RatedMatch.objects.bulk_create(
            [RatedMatch(match_id=pk, pool=pool, played_at=at) for pk, at in moved.items()],
            update_conflicts=True,
            unique_fields=["match"],
            update_fields=["pool", "played_at"],
            batch_size=BATCH,
        )
    if keys:
        _earliest(changed, pool.pk, min(keys.values()))
    if len(stale) + len(moved) >= ANALYZE_AFTER and connection.vendor == "postgresql":
        # The planner would go on counting the slots as they were until autovacuum comes
        # by, and the replay that follows joins them all to their matches and results.
        with connection.cursor() as cursor:
            cursor.execute(f"ANALYZE {RatedMatch._meta.db_table}")
    return changed


def pool_of(event: Event) -> RatingPool | None:
    link = EventPool.objects.filter(event=event).select_related("pool").first()
    return link.pool if link else None


def result_counted(match: Match) -> None:
    """A result of `match` was confirmed, corrected or ruled on: rate it, in its place."""
    with transaction.atomic():
        pool = pool_of(match.event)
        _request_all(_place(pool, Match.objects.filter(pk=match.pk)))


def table_counted(table_id: int, finished: datetime) -> None:
    """A ranked table finished at `finished`: rate it in the global pool, in its place.

    Called in the transaction that finishes the table, so that a finished ranked table is
    never left unrated; placing it twice changes nothing.
    """
    pool = global_pool()
    RatedMatch.objects.update_or_create(
        table_id=table_id, defaults={"pool": pool, "played_at": finished}
    )
    request_recalculation(pool.pk, finished)


def reindex(pool: RatingPool) -> None:
    """Rebuild the pool's list of matches from the events that feed it (and, for the global
    pool, from the finished ranked tables); replay it whole."""
    with transaction.atomic():
        feeding = Match.objects.filter(event__rating_pool_link__pool=pool)
        slots = RatedMatch.objects.filter(pool=pool)
        slots.filter(match__isnull=False).exclude(match__in=feeding).delete()
        changed = _place(pool, feeding)
        if pool.kind == RatingPool.Kind.GLOBAL and (tables := ranked_tables()):
            finished_tables = tables.finished()
            slots.filter(table__isnull=False).exclude(table__in=finished_tables).delete()
            RatedMatch.objects.bulk_create(
                [
                    RatedMatch(table_id=pk, pool=pool, played_at=finished)
                    for pk, finished in finished_tables.filter(
                        rating_slot__isnull=True
                    ).values_list("pk", "finished")
                ],
                batch_size=BATCH,
            )
        changed[pool.pk] = FROM_START
        _request_all(changed)


def mark_dirty(pool_id: int, start: datetime) -> None:
    """Ask for the pool to be replayed from `start` (merged with any earlier request)."""
    RatingPool.objects.filter(
        Q(dirty_from__isnull=True) | Q(dirty_from__gt=start), pk=pool_id
    ).update(dirty_from=start)


def request_recalculation(pool_id: int, start: datetime) -> None:
    """Mark the pool and queue the task once the current transaction commits."""
    mark_dirty(pool_id, start)
    queue_on_commit("ratings.recalculate_pool", pool_id)


def _request_all(changed: dict[int, datetime]) -> None:
    for pool_id, start in changed.items():
        request_recalculation(pool_id, start)


# Recalculation -----------------------------------------------------------------------


@contextmanager
def _exclusive(pool_id: int) -> Iterator[bool]:
    """Hold the pool's lock if nobody else does; yields whether it is held."""
    if connection.vendor != "postgresql":
        # SQLite runs one write transaction at a time (transaction_mode IMMEDIATE): two
        # replays of a pool follow each other, and a replay is idempotent.
        yield True
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [LOCK_NAMESPACE, pool_id])
        acquired = cursor.fetchone()[0]
    try:
        yield acquired
    finally:
        if acquired:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [LOCK_NAMESPACE, pool_id])


def pending(pool_id: int) -> bool:
    """Is a recalculation of the pool asked for, or under way?"""
    return RatingPool.objects.filter(
        Q(dirty_from__isnull=False) | Q(replaying_from__isnull=False), pk=pool_id
    ).exists()


def _take(pool_id: int) -> datetime | None:
    """Take the pool's marker: where the next replay starts (None: nothing to do)."""
    with transaction.atomic():
        pool = RatingPool.objects.select_for_update().filter(pk=pool_id).first()
        starts = [at for at in (pool.dirty_from, pool.replaying_from) if at] if pool else []
        if not starts:
            return None
        pool.replaying_from = min(starts)
        pool.dirty_from = None
        pool.save(update_fields=["replaying_from", "dirty_from"])
        return pool.replaying_from


def recalculate(pool_id: int) -> int:
    """Replay the pool wherever it is marked; the number of replays this call ran.

    0 when another call holds the pool: it takes this request up before it finishes.
    """
    replays = 0
    while pending(pool_id):
        with _exclusive(pool_id) as acquired:
            if not acquired:
                break
            while (start := _take(pool_id)) is not None:
                replay(pool_id, start)
                replays += 1
    return replays


def replay(pool_id: int, start: datetime) -> int:
    """Rate the pool's matches from `start` on, again; the number of matches rated.

    Callers hold the pool's lock (see `recalculate`).
    """
    postgres = connection.vendor == "postgresql"
    with transaction.atomic():
        if postgres:
            with connection.cursor() as cursor:  # the sorts and joins of 100,000s of rows
                cursor.execute("SET LOCAL work_mem = '64MB'")
        matches = _rated_matches(pool_id, start, postgres)
        before, undone_counts = (_undone_postgres if postgres else _undone)(pool_id, start)
        players: set[int] = set(before).union(*(row[5:] for row in matches)) - {None}
        current = {
            player: (mu, sigma, count)
            for player, mu, sigma, count in Rating.objects.filter(
                pool_id=pool_id, player_id__in=players
            ).values_list("player_id", "mu", "sigma", "matches")
        }
        skills: dict[int, Skill] = {}
        counts: dict[int, int] = {}
        for player in players:
            mu, sigma, count = current.get(player, (*initial(), 0))
            skills[player] = before.get(player, (mu, sigma))
            counts[player] = max(count - undone_counts.get(player, 0), 0)

        # The changes are written as the matches are rated: the database takes them in
        # while the next ones are computed.
        batches = _rate(matches, skills, counts)
        if postgres:
            rated = _copy_changes(pool_id, start, sum(undone_counts.values()), matches, batches)
        else:
            RatingChange.objects.filter(pool_id=pool_id, played_at__gte=start).delete()
            rated = _insert_changes(pool_id, batches)
        _save_ratings(pool_id, skills, counts, postgres)
        RatingPool.objects.filter(pk=pool_id).update(
            replaying_from=None, recalculated=timezone.now()
        )
    return rated


def _save_ratings(
    pool_id: int, skills: dict[int, Skill], counts: dict[int, int], postgres: bool
) -> None:
    """Each player's rating after the replay; a player left without a rated match has none."""
    playing = [player for player, count in counts.items() if count]
    if postgres:  # one statement, the values in arrays (Django's bulk_create takes longer)
        table = Rating._meta.db_table
        with connection.cursor() as cursor:
            cursor.execute(
                f"""INSERT INTO {table} (pool_id, player_id, mu, sigma, ordinal, matches)
                SELECT %s, * FROM unnest(%s::bigint[], %s::float8[], %s::float8[],
                    %s::float8[], %s::integer[])
                ON CONFLICT (pool_id, player_id) DO UPDATE SET mu = EXCLUDED.mu,
                    sigma = EXCLUDED.sigma, ordinal = EXCLUDED.ordinal,
                    matches = EXCLUDED.matches""",
                [
                    pool_id,
                    playing,
                    [skills[player][0] for player in playing],
                    [skills[player][1] for player in playing],
                    [ordinal(skills[player]) for player in playing],
                    [counts[player] for player in playing],
                ],
            )
    else:
        Rating.objects.bulk_create(
            [
                Rating(
                    pool_id=pool_id,
                    player_id=player,
                    mu=skills[player][0],
                    sigma=skills[player][1],
                    ordinal=ordinal(skills[player]),
                    matches=counts[player],
                )
                for player in playing
            ],
            update_conflicts=True,
            unique_fields=["pool", "player"],
            update_fields=["mu", "sigma", "ordinal", "matches"],
            batch_size=BATCH,
        )
    Rating.objects.filter(
        pool_id=pool_id, player_id__in=[p for p, count in counts.items() if not count]
    ).delete()


# A replay's row: (match id, table id, played_at, games of A, games of B, A's two players,
# B's two), one of the ids None; played_at in microseconds since 2000-01-01 UTC on
# PostgreSQL (what its COPY writes), else a datetime.
Row = tuple
# A rated match: (match id, table id, played_at, its four players, their skills before,
# their skills after).
Rated = tuple[int | None, int | None, Any, tuple[int, int, int, int], tuple, tuple]


def _rated_matches(pool_id: int, start: datetime, postgres: bool) -> list[Row]:
    """The pool's rows from `start` on, in the pool's order."""
    if postgres:
        matches = _matches_postgres(pool_id, start)
    else:
        matches = [
            (match_id, None, *row)
            for match_id, *row in Result.objects.filter(
                status=Result.Status.CONFIRMED,
                forfeit=False,
                match__rating_slot__pool_id=pool_id,
                match__rating_slot__played_at__gte=start,
            )
            .order_by("match__rating_slot__played_at", "match_id")
            .values_list(
                "match_id",
                "match__rating_slot__played_at",
                "games_a",
                "games_b",
                "match__entry_a__player_1_id",
                "match__entry_a__player_2_id",
                "match__entry_b__player_1_id",
                "match__entry_b__player_2_id",
            )
        ]
    tables = source.rows(pool_id, start) if (source := ranked_tables()) else []
    if tables:  # in their places: (played_at, the matches first, then each id)
        if postgres:
            tables = [(m, t, _micros(at), *rest) for m, t, at, *rest in tables]
        matches = sorted(matches + tables, key=lambda row: (row[2], row[0] is None, row[:2]))
    return matches


def _matches_postgres(pool_id: int, start: datetime) -> list[Row]:
    """`_rated_matches`' competition matches in one query. Read in binary, each played_at
    as the integer it is sent as, microseconds since 2000-01-01 UTC (a datetime each would
    cost more than the rest of the row)."""
    query = f"""
        SELECT r.match_id, NULL::bigint, s.played_at, r.games_a, r.games_b,
               a.player_1_id, a.player_2_id, b.player_1_id, b.player_2_id
        FROM {Result._meta.db_table} r
        JOIN {RatedMatch._meta.db_table} s ON s.match_id = r.match_id
        JOIN {Match._meta.db_table} m ON m.id = r.match_id
        JOIN {Entry._meta.db_table} a ON a.id = m.entry_a_id
        LEFT JOIN {Entry._meta.db_table} b ON b.id = m.entry_b_id
        WHERE s.pool_id = %s AND s.played_at >= %s AND r.status = %s AND NOT r.forfeit
        ORDER BY s.played_at, r.match_id
    """
    from psycopg import Cursor  # PostgreSQL only
    from psycopg.types.numeric import Int8BinaryLoader

    connection.ensure_connection()
    with Cursor(connection.connection) as cursor:  # (Django's cannot read binary)
        cursor.adapters.register_loader("timestamptz", Int8BinaryLoader)
        cursor.execute(query, [pool_id, start, str(Result.Status.CONFIRMED)], binary=True)
        return cursor.fetchall()


def _undone(pool_id: int, start: datetime) -> tuple[dict[int, Skill], dict[int, int]]:
    """Each player's rating before their first change from `start` on, and how many of their
    changes are from `start` on (the changes the replay undoes)."""
    before: dict[int, Skill] = {}
    undone_counts: dict[int, int] = {}
    by_player = [F("player_id")]
    for player, mu, sigma, count in (
        RatingChange.objects.filter(pool_id=pool_id, played_at__gte=start)
        .annotate(
            nth=Window(RowNumber(), partition_by=by_player, order_by=CHANGE_ORDER),
            count=Window(Count("pk"), partition_by=by_player),
        )
        .filter(nth=1)
        .values_list("player_id", "mu_before", "sigma_before", "count")
    ):
        before[player] = (mu, sigma)
        undone_counts[player] = count
    return before, undone_counts


def _undone_postgres(pool_id: int, start: datetime) -> tuple[dict[int, Skill], dict[int, int]]:
    """`_undone` counting each player's changes, then reading the first from the player's
    history index (a window over all the changes would sort them all)."""
    table = RatingChange._meta.db_table
    query = f"""
        SELECT c.player_id, f.mu_before, f.sigma_before, c.n
        FROM (
            SELECT player_id, count(*) AS n FROM {table}
            WHERE pool_id = %(pool)s AND played_at >= %(start)s GROUP BY player_id
        ) c
        CROSS JOIN LATERAL (
            SELECT mu_before, sigma_before FROM {table} f
            WHERE f.player_id = c.player_id AND f.pool_id = %(pool)s AND f.played_at >= %(start)s
            ORDER BY f.played_at, f.match_id NULLS LAST, f.table_id NULLS FIRST
            LIMIT 1
        ) f
    """
    with connection.cursor() as cursor:
        cursor.execute(query, {"pool": pool_id, "start": start})
        rows = cursor.fetchall()
    return (
        {player: (mu, sigma) for player, mu, sigma, _n in rows},
        {player: n for player, _mu, _sigma, n in rows},
    )


def _rate(
    matches: list[Row], skills: dict[int, Skill], counts: dict[int, int]
) -> Iterator[list[Rated]]:
    """Rate `matches` in order, moving `skills` and `counts`: the rated matches, in batches
    of `BATCH` as they are rated."""
    batch: list[Rated] = []
    for match_id, table_id, at, games_a, games_b, a1, a2, b1, b2 in matches:
        if not _rateable((a1, a2, b1, b2)):
            continue
        old = skills[a1], skills[a2], skills[b1], skills[b2]
        outcome = outcome_of(games_a, games_b)
        new = skills[a1], skills[a2], skills[b1], skills[b2] = rate_four(*old, outcome)
        counts[a1] += 1
        counts[a2] += 1
        counts[b1] += 1
        counts[b2] += 1
        batch.append((match_id, table_id, at, (a1, a2, b1, b2), old, new))
        if len(batch) == BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def _rateable(four: Sequence[int | None]) -> bool:
    """Four different players, two a side, or the match is not rated."""
    return None not in four and len(set(four)) == 4


# The order of a pool's rated matches (see the module's docstring), for its rating changes.
CHANGE_ORDER = (
    "played_at",
    F("match_id").asc(nulls_last=True),
    F("table_id").asc(nulls_first=True),
)
CHANGE_COLUMNS = (
    "pool_id",
    "match_id",
    "table_id",
    "played_at",
    "player_id",
    "mu_before",
    "sigma_before",
    "mu_after",
    "sigma_after",
)


def _insert_changes(pool_id: int, batches: Iterator[list[Rated]]) -> int:
    """Write the rated matches' changes with batched INSERTs (not PostgreSQL); how many
    matches."""
    rated = 0
    for batch in batches:
        RatingChange.objects.bulk_create(
            [
                RatingChange(
                    pool_id=pool_id,
                    match_id=match_id,
                    table_id=table_id,
                    played_at=at,
                    player_id=player,
                    mu_before=mu,
                    sigma_before=sigma,
                    mu_after=new_mu,
                    sigma_after=new_sigma,
                )
                for match_id, table_id, at, four, old, new in batch
                for player, (mu, sigma), (new_mu, new_sigma) in zip(four, old, new, strict=True)
            ]
        )
        rated += len(batch)
    return rated


def _copy_changes(
    pool_id: int,
    start: datetime,
    undone: int,
    matches: list[Row],
    batches: Iterator[list[Rated]],
) -> int:
    """Write the rated matches' changes in place of the `undone` ones from `start` on, on
    PostgreSQL; how many matches. With none undone, a binary COPY into the table, which
    the database takes in while the next batch is rated; else see `_overwrite_changes`."""
    if undone:
        return _overwrite_changes(pool_id, start, undone, matches, batches)
    rated = 0
    with (
        connection.cursor() as cursor,
        cursor.copy(f"COPY {_CHANGES} ({_COLUMNS}) FROM STDIN WITH (FORMAT BINARY)") as copy,
    ):
        copy.write(_COPY_HEADER)
        for batch in batches:
            copy.write(_copy_rows(pool_id, batch))
            rated += len(batch)
        copy.write(_COPY_TRAILER)
    return rated


_REPLAYED = "ratings_replayed"  # a temporary table: one batch of changes
_REPLAYED_KEYS = "ratings_replayed_keys"  # a temporary table: every change's match or table
_CHANGES = RatingChange._meta.db_table
_COLUMNS = ", ".join(CHANGE_COLUMNS)
_OVERWRITE = f"""
    UPDATE {_CHANGES} c SET played_at = n.played_at, mu_before = n.mu_before,
        sigma_before = n.sigma_before, mu_after = n.mu_after, sigma_after = n.sigma_after
    FROM {_REPLAYED} n
    WHERE c.pool_id = {{pool}} AND c.played_at >= {{start}} {{where}}
        AND c.{{key}} = n.{{key}} AND c.player_id = n.player_id;
"""
_NOT_UNDONE = f"""
    NOT EXISTS (SELECT FROM {_CHANGES} c WHERE c.{{key}} = n.{{key}}
        AND c.player_id = n.player_id AND c.pool_id = %(pool)s AND c.played_at >= %(start)s)
"""


def _overwrite_changes(
    pool_id: int,
    start: datetime,
    undone: int,
    matches: list[Row],
    batches: Iterator[list[Rated]],
) -> int:
    """Overwrite the undone changes with the new ones batch by batch, each change in its
    own row (same match or table, same player); insert the new ones; delete the undone ones
    that no longer are. How many matches.

    Overwriting a row leaves every index as it was (a HOT update: the table keeps room on
    its pages, migration 0007), where deleting and inserting it again would add an entry
    to each of its indexes, several times the work. Each batch is copied into a temporary
    table, and its UPDATE sent without waiting: the database runs it while the next batch
    is rated.
    """
    pgconn = connection.connection.pgconn  # libpq's connection, to send without waiting
    sent: tuple[int, tuple[str, ...]] | None = None  # the batch being overwritten
    rated = overwritten = 0
    params = {"pool": pool_id, "start": start}
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TEMPORARY TABLE {_REPLAYED} (pool_id bigint, match_id bigint, "
            "table_id bigint, played_at timestamptz, player_id bigint, "
            "mu_before double precision, sigma_before double precision, "
            "mu_after double precision, sigma_after double precision) ON COMMIT DROP"
        )
        try:
            for batch in batches:
                data = _copy_rows(pool_id, batch)
                if sent is not None:
                    overwritten += _finish_batch(cursor, pgconn, *sent, params)
                    sent = None
                cursor.execute(f"TRUNCATE {_REPLAYED}")
                with cursor.copy(
                    f"COPY {_REPLAYED} ({_COLUMNS}) FROM STDIN WITH (FORMAT BINARY)"
                ) as copy:
                    copy.write(_COPY_HEADER)
                    copy.write(data)
                    copy.write(_COPY_TRAILER)
                # The undone changes of the batch's matches, still at their times.
                keys = ("match_id", "table_id") if any(r[1] for r in batch) else ("match_id",)
                first, last = (_timestamp(_datetime(batch[i][2])) for i in (0, -1))
                where = f"AND c.played_at BETWEEN {first} AND {last}"
                pgconn.send_query(
                    "".join(
                        _OVERWRITE.format(
                            pool=int(pool_id), start=_timestamp(start), where=where, key=key
                        )
                        for key in keys
                    ).encode()
                )
                sent = (4 * len(batch), keys)
                rated += len(batch)
            if sent is not None:
                overwritten += _finish_batch(cursor, pgconn, *sent, params)
                sent = None
        finally:
            if sent is not None:  # something failed while the database was overwriting
                _results(pgconn, raise_error=False)
        if overwritten < undone:  # some of the undone changes no longer are
            _delete_left(cursor, pool_id, start, matches)
        cursor.execute(f"DROP TABLE {_REPLAYED}")
    return rated


def _timestamp(at: datetime) -> str:
    """`at` as an SQL literal."""
    return f"'{at.isoformat()}'::timestamptz"


def _results(pgconn, raise_error: bool = True) -> int:
    """The rows changed by the statements sent with `send_query`, once they are done."""
    from psycopg import errors, pq  # PostgreSQL only

    changed, error = 0, None
    while (result := pgconn.get_result()) is not None:
        if result.status == pq.ExecStatus.COMMAND_OK:
            changed += int(result.command_tuples or 0)
        elif error is None:
            error = errors.error_from_result(result)
    if error is not None and raise_error:
        raise error
    return changed


def _finish_batch(
    cursor, pgconn, rows: int, keys: tuple[str, ...], params: dict[str, object]
) -> int:
    """Wait for the batch's overwriting (`rows` changes); overwrite the changes of a match
    that moved in time, insert the new ones. How many undone changes it overwrote."""
    overwritten = _results(pgconn)
    if overwritten < rows:  # the ones of a match that moved in time
        for key in keys:
            statement = _OVERWRITE.format(
                pool="%(pool)s", start="%(start)s", where="AND c.played_at <> n.played_at", key=key
            )
            cursor.execute(statement, params)
            overwritten += cursor.rowcount
    if overwritten < rows:  # new ones; one that clashes with a change before `start` fails
        cursor.execute(
            f"INSERT INTO {_CHANGES} ({_COLUMNS}) SELECT {_COLUMNS} FROM {_REPLAYED} n WHERE "
            + " AND ".join(_NOT_UNDONE.format(key=key) for key in keys),
            params,
        )
    return overwritten


def _delete_left(cursor, pool_id: int, start: datetime, matches: list[Row]) -> None:
    """Delete the changes from `start` on that the replay of `matches` did not write."""
    cursor.execute(
        f"CREATE TEMPORARY TABLE {_REPLAYED_KEYS} (match_id bigint, table_id bigint, "
        "player_id bigint) ON COMMIT DROP"
    )
    with cursor.copy(f"COPY {_REPLAYED_KEYS} (match_id, table_id, player_id) FROM STDIN") as copy:
        for match_id, table_id, _at, _a, _b, *four in matches:
            if _rateable(four):
                for player in four:
                    copy.write_row((match_id, table_id, player))
    cursor.execute(
        f"DELETE FROM {_CHANGES} c WHERE c.pool_id = %(pool)s AND c.played_at >= %(start)s "
        + " ".join(
            f"AND NOT EXISTS (SELECT FROM {_REPLAYED_KEYS} k WHERE k.{key} = c.{key} "
            "AND k.player_id = c.player_id)"
            for key in ("match_id", "table_id")
        ),
        {"pool": pool_id, "start": start},
    )
    cursor.execute(f"DROP TABLE {_REPLAYED_KEYS}")


# COPY's binary format, written by hand (psycopg's write_row takes several times longer): a
# row is its number of fields, then each field's length in bytes (-1: NULL) and its value:
# bigint ids, a timestamptz as microseconds since 2000-01-01 UTC, double precision floats.
# A rated match's four rows share their first four fields (their head, 42 bytes).
_COPY_HEADER = b"PGCOPY\n\xff\r\n\x00" + struct.pack("!ii", 0, 0)
_COPY_TRAILER = struct.pack("!h", -1)
_COPY_MATCH_HEAD = struct.Struct("!hiqiqiiq").pack  # 9 fields: pool, match, no table, at
_COPY_TABLE_HEAD = struct.Struct("!hiqiiqiq").pack  # 9 fields: pool, no match, table, at
_COPY_ROW = struct.Struct("!42siqidididid").pack  # head, player, mu/sigma before/after
_POSTGRES_EPOCH = datetime(2000, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


def _micros(at: datetime) -> int:
    return (at - _POSTGRES_EPOCH) // _MICROSECOND


def _datetime(micros: int) -> datetime:
    return _POSTGRES_EPOCH + micros * _MICROSECOND


def _copy_rows(pool_id: int, batch: list[Rated]) -> bytes:
    """A batch of rated matches' changes in COPY's binary format, four rows each."""
    lines = []
    for match_id, table_id, at, four, old, new in batch:
        if table_id is None:
            head = _COPY_MATCH_HEAD(9, 8, pool_id, 8, match_id, -1, 8, at)
        else:
            head = _COPY_TABLE_HEAD(9, 8, pool_id, -1, 8, table_id, 8, at)
        for player, (mu, sigma), (new_mu, new_sigma) in zip(four, old, new, strict=True):
            lines.append(_COPY_ROW(head, 8, player, 8, mu, 8, sigma, 8, new_mu, 8, new_sigma))
    return b"".join(lines)


# Reading -----------------------------------------------------------------------------


def leaderboard(
    pool: RatingPool, *, club: Organisation | None = None, country: str = ""
) -> QuerySet[Rating]:
    """The pool's ratings, best first; optionally only a club's players, or a country's."""
    ratings = Rating.objects.filter(pool=pool).select_related("player__club")
    if club is not None:
        ratings = ratings.filter(player__club=club)
    if country:
        ratings = ratings.filter(player__country=country.upper())
    return ratings.order_by("-ordinal", "player__display_name", "player_id")


@dataclass
class PoolHistory:
    pool: RatingPool
    rating: Rating
    values: list[float]  # the displayed rating before the first match, then after each
    dates: list[datetime]  # when each value was reached (the first: the first match)


def history(player: Player) -> list[PoolHistory]:
    """The player's rating in each pool they play in, and its course match by match."""
    ratings = Rating.objects.filter(player=player).select_related("pool").order_by("pool__name")
    found = []
    for rating in ratings:
        rows = RatingChange.objects.filter(player=player, pool_id=rating.pool_id).order_by(
            *CHANGE_ORDER
        )
        values: list[float] = []
        dates: list[datetime] = []
        for change in rows.only(
            "played_at", "mu_before", "sigma_before", "mu_after", "sigma_after"
        ):
            if not values:
                values.append(ordinal((change.mu_before, change.sigma_before)))
                dates.append(change.played_at)
            values.append(ordinal((change.mu_after, change.sigma_after)))
            dates.append(change.played_at)
        found.append(PoolHistory(rating.pool, rating, values, dates))
    return found


@dataclass
class MatchChange:
    player: Player
    side: str  # "a" or "b"
    before: float
    after: float

    @property
    def delta(self) -> float:
        return self.after - self.before


def match_changes(match: Match) -> list[MatchChange]:
    """What the match did to each player's displayed rating (empty: not rated)."""
    side_a = {match.entry_a.player_1_id, match.entry_a.player_2_id}
    changes = RatingChange.objects.filter(match=match).select_related("player")
    found = [
        MatchChange(
            player=change.player,
            side="a" if change.player_id in side_a else "b",
            before=ordinal((change.mu_before, change.sigma_before)),
            after=ordinal((change.mu_after, change.sigma_after)),
        )
        for change in changes
    ]
    return sorted(found, key=lambda c: (c.side, c.player.display_name))


def active_filters(pool: RatingPool) -> tuple[QuerySet[Organisation], list[str]]:
    """The clubs and countries of the pool's rated players, to filter its leaderboard by."""
    players = Player.objects.filter(ratings__pool=pool)
    clubs = Organisation.objects.filter(players__in=players).distinct().order_by("name")
    countries = sorted(set(players.exclude(country="").values_list("country", flat=True)))
    return clubs, countries
