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
and the (match, player, pool) unique constraint refuses any double update.
"""

import struct
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.db import connection, transaction
from django.db.models import Count, Exists, F, Min, OuterRef, Q, QuerySet, Window
from django.db.models.functions import RowNumber
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from core.tasks import queue_on_commit
from league.models import Event, Match, Organisation, Player, Result
from league.permissions import can, lineage, require
from league.services.errors import ServiceError

from .models import EventPool, RatedMatch, Rating, RatingChange, RatingPool
from .skill import Skill, initial, ordinal, outcome_of, rate_match
from .sources import ranked_tables

# The `dirty_from` that replays a pool from its first match.
FROM_START = datetime(1900, 1, 1, tzinfo=UTC)
# pg_try_advisory_lock(namespace, pool id): the namespace keeps these locks apart from others.
LOCK_NAMESPACE = 0x52617465  # "Rate"
BATCH = 5000


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
    with transaction.atomic():
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
            matches = sorted(matches + tables, key=lambda row: (row[2], row[0] is None, row[:2]))
        undone = RatingChange.objects.filter(pool_id=pool_id, played_at__gte=start)
        # each player's rating before the first change undone, and how many are undone
        before: dict[int, Skill] = {}
        undone_counts: dict[int, int] = {}
        by_player = [F("player_id")]
        for player, mu, sigma, count in (
            undone.annotate(
                nth=Window(RowNumber(), partition_by=by_player, order_by=CHANGE_ORDER),
                count=Window(Count("pk"), partition_by=by_player),
            )
            .filter(nth=1)
            .values_list("player_id", "mu_before", "sigma_before", "count")
        ):
            before[player] = (mu, sigma)
            undone_counts[player] = count
        players = set(before)
        for row in matches:
            players.update(p for p in row[5:] if p is not None)
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

        changes = []
        rated = 0
        for match_id, table_id, played_at, games_a, games_b, *four in matches:
            if None in four or len(set(four)) != 4:
                continue  # four different players, two a side, or the match is not rated
            a1, a2, b1, b2 = four
            new_a, new_b = rate_match(
                (skills[a1], skills[a2]), (skills[b1], skills[b2]), outcome_of(games_a, games_b)
            )
            for player, new in zip(four, (*new_a, *new_b), strict=True):
                changes.append((match_id, table_id, played_at, player, *skills[player], *new))
                skills[player] = new
                counts[player] += 1
            rated += 1

        undone.delete()
        _insert_changes(pool_id, changes)
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
                for player in players
                if counts[player]
            ],
            update_conflicts=True,
            unique_fields=["pool", "player"],
            update_fields=["mu", "sigma", "ordinal", "matches"],
            batch_size=BATCH,
        )
        Rating.objects.filter(
            pool_id=pool_id, player_id__in=[p for p in players if not counts[p]]
        ).delete()
        RatingPool.objects.filter(pk=pool_id).update(
            replaying_from=None, recalculated=timezone.now()
        )
    return rated


# The order of a pool's rated matches (see the module's docstring), for its rating changes.
CHANGE_ORDER = (
    "played_at",
    F("match_id").asc(nulls_last=True),
    F("table_id").asc(nulls_first=True),
)
CHANGE_COLUMNS = (
    "match_id",
    "table_id",
    "played_at",
    "player_id",
    "mu_before",
    "sigma_before",
    "mu_after",
    "sigma_after",
)


def _insert_changes(pool_id: int, rows: list[tuple]) -> None:
    """Write rating changes, `CHANGE_COLUMNS` each: PostgreSQL's binary COPY, else batched
    INSERTs."""
    if connection.vendor != "postgresql":
        RatingChange.objects.bulk_create(
            (
                RatingChange(pool_id=pool_id, **dict(zip(CHANGE_COLUMNS, row, strict=True)))
                for row in rows
            ),
            batch_size=BATCH // 10,
        )
        return
    table = connection.ops.quote_name(RatingChange._meta.db_table)
    columns = ", ".join(("pool_id", *CHANGE_COLUMNS))
    with (
        connection.cursor() as cursor,
        cursor.copy(f"COPY {table} ({columns}) FROM STDIN WITH (FORMAT BINARY)") as copy,
    ):
        copy.write(_COPY_HEADER)
        last, head = None, b""
        for batch in range(0, len(rows), BATCH):
            lines = []
            for match, table_id, at, player, mu, sigma, new_mu, new_sigma in rows[
                batch : batch + BATCH
            ]:
                if (match, table_id) != last:  # the match's four rows share their first fields
                    head = _copy_head(pool_id, match, table_id, at)
                    last = (match, table_id)
                lines.append(head + _COPY_TAIL(8, player, 8, mu, 8, sigma, 8, new_mu, 8, new_sigma))
            copy.write(b"".join(lines))
        copy.write(_COPY_TRAILER)


# COPY's binary format, written by hand (psycopg's write_row takes several times longer): a
# row is its number of fields, then each field's length in bytes (-1: NULL) and its value:
# bigint ids, a timestamptz as microseconds since 2000-01-01 UTC, double precision floats.
_COPY_HEADER = b"PGCOPY\n\xff\r\n\x00" + struct.pack("!ii", 0, 0)
_COPY_TRAILER = struct.pack("!h", -1)
_COPY_TAIL = struct.Struct("!iqidididid").pack  # player_id, mu/sigma before, mu/sigma after
_POSTGRES_EPOCH = datetime(2000, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


def _copy_head(pool_id: int, match: int | None, table_id: int | None, at: datetime) -> bytes:
    """A change's first fields (9 in all): pool_id, match_id, table_id, played_at."""
    micros = (at - _POSTGRES_EPOCH) // _MICROSECOND
    if table_id is None:
        return struct.pack("!hiqiqiiq", 9, 8, pool_id, 8, match, -1, 8, micros)
    return struct.pack("!hiqiiqiq", 9, 8, pool_id, -1, 8, table_id, 8, micros)


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
