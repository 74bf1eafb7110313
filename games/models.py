"""Live tables: a table plays one match; seats bind users; every action and hand is stored."""

import secrets
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.conf import settings
from django.db import connections, models, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils.translation import gettext_lazy as _


def new_code() -> str:
    return secrets.token_urlsafe(9)


Converters = tuple[tuple[Any, list], ...]  # per column: (the column, its converters)


@dataclass(frozen=True)
class _Columns:
    """How to turn one model's columns of a row into an instance."""

    model: type[models.Model]
    attnames: tuple[str, ...]
    converters: Converters

    def load(self, alias: str, values: tuple, connection: BaseDatabaseWrapper) -> models.Model:
        values = list(values)
        for index, (column, functions) in enumerate(self.converters):
            for function in functions:
                values[index] = function(values[index], column, connection)
        return self.model.from_db(alias, self.attnames, values)


@dataclass(frozen=True)
class _SeatsQuery:
    """`with_seats`'s SQL for one database, and how to load its table and seat columns."""

    sql: str
    table: _Columns
    seat: _Columns


def _columns(model: type[models.Model], connection: BaseDatabaseWrapper) -> _Columns:
    fields = model._meta.concrete_fields
    columns = [field.get_col(model._meta.db_table) for field in fields]
    backend = connection.ops.get_db_converters
    converters = tuple((c, backend(c) + c.get_db_converters(connection)) for c in columns)
    return _Columns(model, tuple(f.attname for f in fields), converters)


@cache
def _seats_query(alias: str, lock: bool) -> _SeatsQuery:
    connection = connections[alias]
    quote = connection.ops.quote_name
    table, seat = quote(Table._meta.db_table), quote(Seat._meta.db_table)
    selected = [
        f"{quote(model._meta.db_table)}.{quote(field.column)}"
        for model in (Table, Seat)
        for field in model._meta.concrete_fields
    ]
    sql = (
        f"SELECT {', '.join(selected)} FROM {table} INNER JOIN {seat}"
        f" ON ({seat}.{quote('table_id')} = {table}.{quote('id')})"
        f" WHERE {seat}.{quote('table_id')} = %s ORDER BY {seat}.{quote('number')}"
    )
    if lock and connection.features.has_select_for_update:
        # The seat rows too, not only the table's: a transaction that waited for the lock
        # then reads the seats as the one before it left them. Under READ COMMITTED,
        # PostgreSQL re-reads only the locked rows of a row it had to wait for; seats read
        # with an unlocked join would be as they were when the statement began, and two
        # players sitting down at once would each miss the other. The table comes first in
        # the FROM clause, so its row is the first locked: the order every writer keeps.
        sql += " " + connection.ops.for_update_sql()
    return _SeatsQuery(sql, _columns(Table, connection), _columns(Seat, connection))


@cache
def _table_fields(names: tuple[str, ...]) -> list[models.Field]:
    """The table's version and these fields, as `TableManager.store` writes them."""
    by_name = {field.name: field for field in Table._meta.concrete_fields}
    return [by_name[name] for name in ("version", *names)]


@cache
def _store_sql(alias: str, names: tuple[str, ...]) -> str:
    quote = connections[alias].ops.quote_name
    columns = ", ".join(f"{quote(str(field.column))} = %s" for field in _table_fields(names))
    return (
        f"UPDATE {quote(Table._meta.db_table)} SET {columns}"
        f" WHERE {quote('id')} = %s AND {quote('version')} = %s"
    )


@cache
def _action_fields() -> list[models.Field]:
    """An action's fields but its id, as `ActionManager.record` writes them."""
    return [field for field in Action._meta.concrete_fields if not field.primary_key]


@cache
def _insert_sql(alias: str) -> str:
    quote = connections[alias].ops.quote_name
    columns = [quote(str(field.column)) for field in _action_fields()]
    return (
        f"INSERT INTO {quote(Action._meta.db_table)} ({', '.join(columns)})"
        f" VALUES ({', '.join(['%s'] * len(columns))})"
    )


class TableManager(models.Manager):
    def store(self, table: "Table", fields: list[str], old_version: int) -> bool:
        """Write `fields` and the table's version if its row is still at `old_version`; False
        when it is not. One statement built once per database and set of fields: the ORM's
        `update` compiled it anew for every action."""
        alias = router.db_for_write(Table)
        connection = connections[alias]
        names = tuple(fields)
        values = [
            field.get_db_prep_save(getattr(table, field.attname), connection)
            for field in _table_fields(names)
        ]
        with connection.cursor() as cursor:
            cursor.execute(_store_sql(alias, names), [*values, table.pk, old_version])
            return cursor.rowcount == 1

    def with_seats(self, table_id: int, *, lock: bool = False) -> "Table | None":
        """The table and its seats in one query; with `lock`, their rows are locked for the
        transaction. `table.seats.all()` then reads the seats loaded with it.

        Every action, page and reload starts here, so the SQL is built once per database
        rather than by the ORM each time: that compilation was a fifth of an action's time.
        """
        alias = router.db_for_write(Table) if lock else self.db
        query, connection = _seats_query(alias, lock), connections[alias]
        with connection.cursor() as cursor:
            cursor.execute(query.sql, [table_id])
            rows = cursor.fetchall()
        if not rows:
            return None
        width = len(query.table.attnames)
        table = query.table.load(alias, rows[0][:width], connection)
        seats = [query.seat.load(alias, row[width:], connection) for row in rows]
        for seat in seats:
            seat.table = table
        table._prefetched_objects_cache = {"seats": seats}
        return table


class Table(models.Model):
    """One match under one rule set. `state` is the live hand's `domino-hand/1` record."""

    class Kind(models.TextChoices):
        PRIVATE = "private", _("Private table")
        QUICK = "quick", _("Quick match")
        DUO = "duo", _("Duo match")
        RANKED = "ranked", _("Ranked match")
        FIXTURE = "fixture", _("Competition match")

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        BETWEEN = "between", _("Between hands")
        FINISHED = "finished", _("Finished")

    class Absence(models.TextChoices):
        BOT = "bot", _("A bot replaces the absent seat")
        FORFEIT = "forfeit", _("The absent seat forfeits")

    code = models.CharField(max_length=16, unique=True, default=new_code, editable=False)
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices, default=Kind.PRIVATE)
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.WAITING
    )
    rules = models.JSONField(_("rules"), default=dict)  # preset + overrides, as in records
    absence = models.CharField(
        _("absent seat"), max_length=8, choices=Absence.choices, default=Absence.BOT
    )
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="hosted_tables",
    )
    fixture = models.OneToOneField(
        "league.Match",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="live_table",
    )
    # An individual event's table: the round and the table of its seating (its four
    # players, partners opposite each other), whose result it plays for.
    seating = models.ForeignKey(
        "league.Round",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="live_tables",
    )
    seating_table = models.PositiveSmallIntegerField(null=True, blank=True)
    # An arena's match (league.ArenaGame): its two sides, whose result it plays for.
    arena_game = models.OneToOneField(
        "league.ArenaGame",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="live_table",
    )
    version = models.PositiveIntegerField(default=0)
    hand_number = models.PositiveIntegerField(default=0)
    state = models.JSONField(null=True, blank=True)  # the live hand (hidden: never sent)
    match = models.JSONField(default=dict)  # scores, normal, leader, over, winner, shutout
    ready = models.JSONField(default=list)  # seats that pressed "next" between hands
    # Seats whose player has no socket open at this table (`Presence`); kept by the services.
    offline = models.JSONField(default=list)
    deadline = models.DateTimeField(null=True, blank=True)
    forfeit_side = models.PositiveSmallIntegerField(null=True, blank=True)
    # Since when a casual table has nobody playing at it (every seat a bot's or its player
    # away): no clock runs and `deadline` is when it closes (games/services/tables.py).
    paused = models.DateTimeField(null=True, blank=True)
    # The match's time limit: past it, the match ends after the hand in play and the side
    # ahead wins (level: the next hand decides). Set by an online event's round deadline.
    ends = models.DateTimeField(null=True, blank=True)
    # How long the pause between hands waits for seats that did not press "next".
    next_hand_seconds = models.PositiveSmallIntegerField(default=30)
    created = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    objects = TableManager()

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        # The sweep's tables (games/services/timers.py). Not an index of `deadline`: every
        # action moves the deadline, and a row whose indexed column changes is written anew
        # with an entry in each of the table's indexes; otherwise PostgreSQL updates it in
        # place (a heap-only update), indexes untouched.
        indexes = [
            models.Index(
                fields=["id"],
                condition=models.Q(status__in=["playing", "between"]),
                name="games_table_live",
            )
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["seating", "seating_table"],
                condition=models.Q(seating__isnull=False),
                name="one_live_table_per_seating",
            )
        ]

    def __str__(self) -> str:
        return _("Table %(code)s") % {"code": self.code}

    @property
    def competes(self) -> bool:
        """Played for a competition's result: a fixture, an individual event's table, or an
        arena's match."""
        return (
            self.fixture_id is not None
            or self.seating_id is not None
            or self.arena_game_id is not None
        )

    @property
    def casual(self) -> bool:
        """Played for fun: neither a competition's fixture nor a ranked match."""
        return self.kind not in (self.Kind.FIXTURE, self.Kind.RANKED)


class BotLevel(models.TextChoices):
    """The engine's bot levels (games/engine/bots.py)."""

    EASY = "easy", _("Easy")
    MEDIUM = "medium", _("Medium")
    STRONG = "strong", _("Strong")


class Seat(models.Model):
    """A seat at a table, bound by the server to a user (or played by a bot)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seats",
    )
    name = models.CharField(max_length=80, blank=True)
    bot = models.BooleanField(default=False)
    bot_level = models.CharField(
        _("bot level"), max_length=8, choices=BotLevel.choices, default=BotLevel.MEDIUM
    )

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="unique_seat_number"),
            models.UniqueConstraint(
                fields=["table", "user"],
                condition=models.Q(user__isnull=False),
                name="one_seat_per_user",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} · {self.number}"

    @property
    def taken(self) -> bool:
        return self.bot or self.user_id is not None


class Hand(models.Model):
    """A finished hand: its `domino-hand/1` record and the engine's ruling."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    record = models.JSONField()
    ruling = models.JSONField()
    finished = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="unique_hand_number")
        ]

    def __str__(self) -> str:
        return f"{self.table} · {self.number}"


class ActionManager(models.Manager):
    def record(self, **values: Any) -> None:
        """Store a new action, its fields prepared as `create` prepares them (defaults and
        `created` included), in one INSERT built once per database: `create` compiled it
        anew for every action, and read back an id nobody uses."""
        action = Action(**values)
        alias = router.db_for_write(Action)
        connection = connections[alias]
        row = [
            field.get_db_prep_save(field.pre_save(action, True), connection)
            for field in _action_fields()
        ]
        with connection.cursor() as cursor:
            cursor.execute(_insert_sql(alias), row)


class Action(models.Model):
    """One action of a live hand (a play, pass, draw or five-doubles choice).

    A player's action keeps the client message id it came with, so that a resent message
    gets its first answer again (the ack names this action's version).
    """

    # No index of its own: the unique constraints below begin with the table.
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="actions", db_index=False
    )
    hand = models.PositiveIntegerField()
    number = models.PositiveIntegerField()  # index among the hand's actions and declarations
    seat = models.PositiveSmallIntegerField()
    action = models.CharField(max_length=24)
    auto = models.BooleanField(default=False)
    version = models.PositiveIntegerField()  # the table's version after this action
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    client_id = models.CharField(max_length=64, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    objects = ActionManager()

    class Meta:
        ordering = ["table", "version"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "hand", "number"], name="unique_action_number"
            ),
            models.UniqueConstraint(fields=["table", "version"], name="unique_action_version"),
            models.UniqueConstraint(
                fields=["table", "user", "client_id"],
                condition=~models.Q(client_id=""),
                name="unique_action_client_id",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} · {self.hand}.{self.number}"


class Presence(models.Model):
    """One open table socket of a signed-in user: a seated player is online while one of
    their sockets is open. Its web process refreshes `seen`; the sweep drops what a dead
    process left behind (games/services/presence.py)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    channel = models.CharField(max_length=200, unique=True)  # the socket's channel name
    process = models.CharField(max_length=32, db_index=True)  # the web process serving it
    # Not indexed: every heartbeat writes it in all of its process's rows, which PostgreSQL
    # then updates in place (8 times faster for 400 sockets); the sweep reads every row, one
    # per open socket.
    seen = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.table} · {self.user_id}"


class QueueEntry(models.Model):
    """A user (with a partner, for duo) waiting for a matchmade table."""

    class Kind(models.TextChoices):
        QUICK = "quick", _("Quick match")
        DUO = "duo", _("Duo match")
        RANKED = "ranked", _("Ranked match")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="queue_entry"
    )
    partner = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
    )
    kind = models.CharField(max_length=8, choices=Kind.choices)
    # The queue's rule set: a preset or a named variant (`matchmaking.QUEUES`).
    rules = models.CharField(max_length=32, default="dominican")
    rating = models.FloatField(default=0)
    created = models.DateTimeField(auto_now_add=True)
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.CASCADE)

    class Meta:
        ordering = ["created", "pk"]

    def __str__(self) -> str:
        return f"{self.user} · {self.kind}"


class HandReview(models.Model):
    """The analysis of a finished hand's record (games/engine/bots.py `review_hand`).

    Kept once per record, whichever page asked for it; a Celery task fills it in.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("Queued")
        RUNNING = "running", _("Analysing")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    digest = models.CharField(max_length=64, unique=True)
    record = models.JSONField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    result = models.JSONField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"review {self.digest[:12]} · {self.status}"
