"""Live tables: seats, actions, hands and timeouts.

Every change happens in one transaction that locks the table's row and its seats' rows,
checks the seat, the turn and the version, applies the engine, stores the action and the
new state, and bumps the version with a conditional update. Only after the commit is the
table's group rung, with public facts only (see `messages.py`).
"""

import random
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.dispatch import Signal
from django.utils import timezone

from games.engine import (
    DECLARE,
    ENDED,
    EngineError,
    HandState,
    Match,
    RulesError,
    adjudicate,
    apply,
    auto_action,
    bot_action,
    declare,
    finish_hand,
    new_match,
    rules_from_spec,
    start_hand,
    time_up,
    to_record,
)
from games.engine.state import REDEAL
from games.fairplay.services import queue_hand as queue_fair_play
from games.models import Action, BotLevel, Hand, Presence, Seat, Table
from games.stats.services import queue_live_hand
from league.accounts import player_for

from . import messages, ratings
from .errors import TableError
from .messages import hand_state

NEXT_HAND_SECONDS = 30
# A casual table nobody plays at waits this long for somebody to come back, then closes.
PAUSED_CLOSES_AFTER = timedelta(hours=24)
CLIENT_ID_MAX = 64
_BOT_RNG = random.SystemRandom()
# A strong bot's search, per move: it holds the table's lock meanwhile (medium takes ~1 ms).
BOT_BUDGET = {"playouts": 400, "seconds": 0.5}
# Sent on commit for every new deadline (table_id, version, deadline): the turn timers arm
# their countdown (`timers.schedule`). A finished fixture's table: its result goes in.
deadline_set = Signal()
fixture_finished = Signal()
# The statistics' task that counts a stored hand (games/stats/tasks.py).


# ---------------------------------------------------------------- reading a table


def match_of(table: Table) -> Match:
    rules = rules_from_spec(table.rules)
    if not table.match:
        return new_match(rules)
    m = table.match
    return Match(
        rules,
        tuple(m["scores"]),
        tuple(m["normal"]),
        m["hand_number"],
        m["leader"],
        m["over"],
        m["winner"],
        m["shutout"],
    )


def _match_dict(match: Match) -> dict:
    data = asdict(match)
    data.pop("rules")
    data.pop("players")
    return data


def engine_step(state: HandState, seat: int, action: str) -> HandState:
    """One action through the engine: a five-doubles choice or a play, pass or draw."""
    if state.status == DECLARE:
        return declare(state, seat, action)[0]
    return apply(state, action)[0]


def _locked(table_id: int) -> Table:
    """The table and its seats, their rows locked for this transaction, in one query."""
    table = Table.objects.with_seats(table_id, lock=True)
    if table is None:
        raise TableError("no_table")
    return table


def _seats(table: Table) -> list[Seat]:
    """The seats loaded with the locked table (`table.seats.all()` reads the same list)."""
    return list(table.seats.all())


def _seat_of(table: Table, user: AbstractBaseUser) -> Seat:
    seat = next((s for s in _seats(table) if user.is_authenticated and s.user_id == user.pk), None)
    if seat is None:
        raise TableError("not_seated")
    return seat


def _bot_seats(table: Table) -> list[int]:
    return [seat.number for seat in _seats(table) if seat.bot]


def _offline(table: Table) -> list[int]:
    """The seats whose player has no socket open at the table (`Presence`) now."""
    here = set(Presence.objects.filter(table=table).values_list("user_id", flat=True))
    return [s.number for s in _seats(table) if s.user_id is not None and s.user_id not in here]


def _anybody_playing(table: Table) -> bool:
    """A person plays at the table: a seat of theirs that no bot holds, and they are here."""
    return any(
        s.user_id is not None and not s.bot and s.number not in table.offline for s in _seats(table)
    )


# ---------------------------------------------------------------- pausing a casual table


def _pause(table: Table) -> None:
    """Nobody plays at this casual table any more: the bots wait, no clock runs, and the
    deadline is when the table closes if nobody comes back (`time_out` closes it)."""
    if not table.casual or table.paused is not None or table.status not in _LIVE:
        return
    table.paused = timezone.now()
    table.deadline = table.paused + PAUSED_CLOSES_AFTER


def _resume(table: Table) -> None:
    """Somebody plays again: the table goes on where it was, the turn's clock afresh."""
    if table.paused is None:
        return
    table.paused = None
    table.deadline = None
    if table.status == Table.Status.PLAYING:
        table.deadline = _deadline(hand_state(table))
    else:
        _pause_deadline(table)


# ---------------------------------------------------------------- committing a change


def _commit(table: Table, fields: list[str], event: dict, *, new_version: bool = True) -> None:
    """Store the changed fields, if nobody changed the table meanwhile, and ring them.

    Every change is a new version, except one that only moves the deadline: an action a
    player made against the version is still valid after it.
    """
    old = table.version
    table.version = old + new_version
    if not Table.objects.store(table, fields, old):
        raise TableError("stale")
    message = messages.group_message(table, event)
    deadline, version, pk = table.deadline, table.version, table.pk
    transaction.on_commit(lambda: messages.ring(pk, message))
    if deadline is not None:
        transaction.on_commit(
            lambda: deadline_set.send(Table, table_id=pk, version=version, deadline=deadline)
        )


_HAND_FIELDS = [
    "state",
    "status",
    "deadline",
    "match",
    "ready",
    "forfeit_side",
    "finished",
    "paused",
]
_LIVE = (Table.Status.PLAYING, Table.Status.BETWEEN)


def _deadline(state: HandState) -> datetime:
    rules = state.setup.rules
    seconds = rules.five_doubles_seconds if state.status == DECLARE else rules.turn_seconds
    return timezone.now() + timedelta(seconds=seconds)


def _dealt(table: Table, state: HandState) -> None:
    """The table with `state`, a hand just dealt, in play."""
    table.state = to_record(state)
    table.hand_number = state.setup.hand_number
    table.status = Table.Status.PLAYING
    table.ready = []
    table.deadline = _deadline(state)


def _start_hand(table: Table) -> HandState:
    state = start_hand(match_of(table))
    _dealt(table, state)
    _commit(table, _HAND_FIELDS + ["hand_number", "offline"], {"kind": "deal"})
    return _run_bots(table, state)


def _play(
    table: Table,
    state: HandState,
    seat: int,
    action: str,
    *,
    auto: bool = False,
    user: AbstractBaseUser | None = None,
    client_id: str = "",
) -> HandState:
    """Apply one action for `seat`, store it, and end the hand if it ended."""
    try:
        new = engine_step(state, seat, action)
    except EngineError as error:
        raise TableError("illegal") from error
    Action.objects.record(
        table=table,
        hand=table.hand_number,
        number=len(state.actions) + len(state.declarations),
        seat=seat,
        action=action,
        auto=auto,
        version=table.version + 1,
        user=user,
        client_id=client_id,
    )
    table.state = to_record(new)
    if new.status in ENDED:
        _end_hand(table, new)
    else:
        table.deadline = _deadline(new)
    _commit(table, _HAND_FIELDS, {"kind": "action", "seat": seat, "action": action})
    if new.status == REDEAL and table.status == Table.Status.BETWEEN:
        return _start_hand(table)  # a five-doubles redeal reshuffles at once
    return new


def _run_bots(table: Table, state: HandState) -> HandState:
    """Bot seats play at once, each action a version of its own."""
    levels = {seat.number: seat.bot_level for seat in _seats(table) if seat.bot}
    while state.status not in ENDED and state.turn in levels:
        rng = random.Random(_BOT_RNG.getrandbits(64))  # fast draws, unpredictable seed
        action = bot_action(state, rng, levels[state.turn], **BOT_BUDGET)
        state = _play(table, state, state.turn, action)
    return state


def _end_hand(table: Table, state: HandState) -> None:
    """Store the finished hand, score it, and replace or forfeit seats absent all hand."""
    record = to_record(state)
    hand = Hand.objects.create(
        table=table, number=table.hand_number, record=record, ruling=adjudicate(record)
    )
    queue_live_hand(hand.pk)  # the players' statistics
    queue_fair_play(hand.pk, kind=table.kind)
    match = finish_hand(match_of(table), state)
    history = (table.match or {}).get("history", [])
    entry = {"hand": table.hand_number, "ended": state.status, "points": list(state.points)}
    table.match = _match_dict(match) | {"history": [*history, entry]}
    table.deadline = None
    if _time_up(table, match):
        return
    absent = _absent_seats(table, state)
    abandoned = False
    if absent and table.absence == Table.Absence.FORFEIT:
        sides = sorted({state.setup.side[seat] for seat in absent})
        abandoned = len(sides) == state.setup.rules.sides  # nobody was there to win it
        table.forfeit_side = None if abandoned else sides[0]
    elif absent:
        _make_bots(table, absent)
    if abandoned:
        table.match["abandoned"] = True
    if match.over or table.forfeit_side is not None or abandoned:
        _finish(table, rated=not abandoned)
        return
    table.status = Table.Status.BETWEEN
    table.ready = _bot_seats(table)
    _pause_deadline(table)
    if not _anybody_playing(table):
        _pause(table)


def _finish(table: Table, *, rated: bool) -> None:
    """The match is over; a fixture's result goes in (games/services/fixtures.py: a match
    every side left is not played, each side's forfeit) and a ranked match is rated, unless
    nobody played it (`rated` false: every side absent for a whole hand)."""
    table.status = Table.Status.FINISHED
    table.finished = timezone.now()
    table.deadline = None
    if table.competes:  # a match nobody played too: each side forfeited it
        transaction.on_commit(lambda pk=table.pk: fixture_finished.send(Table, table_id=pk))
    if rated and table.kind == Table.Kind.RANKED:
        ratings.ranked_finished(table)


def _time_up(table: Table, match: Match) -> bool:
    """Past the match's time limit (`Table.ends`), between hands: the side ahead wins and
    the table finishes (level: the next hand decides). docs/online-events.md"""
    if match.over or table.ends is None or timezone.now() < table.ends:
        return False
    ended = time_up(match)
    if not ended.over:
        return False
    table.match = table.match | _match_dict(ended) | {"timed": True}
    _finish(table, rated=True)
    return True


def _pause_deadline(table: Table) -> None:
    """Between hands the next hand waits for every seat to press "next" (seed 004). A
    deadline runs only while a seat that has not pressed is offline: it starts when the
    first such seat is, lasts the table's `next_hand_seconds`, and goes once none is."""
    away = [number for number in table.offline if number not in table.ready]
    if not away:
        table.deadline = None
    elif table.deadline is None:
        table.deadline = timezone.now() + timedelta(seconds=table.next_hand_seconds)


def _absent_seats(table: Table, state: HandState) -> list[int]:
    """Human seats that acted in this hand only through their turn timer."""
    acted: dict[int, bool] = {}
    for seat, auto in Action.objects.filter(table=table, hand=table.hand_number).values_list(
        "seat", "auto"
    ):
        acted[seat] = acted.get(seat, True) and auto
    return sorted(s.number for s in _seats(table) if not s.bot and acted.get(s.number, False))


def _make_bots(table: Table, numbers: list[int]) -> None:
    """Bots take these seats; their users stay bound, so that they can take them back."""
    Seat.objects.filter(table=table, number__in=numbers).update(bot=True)
    for seat in _seats(table):
        seat.bot = seat.bot or seat.number in numbers


# ---------------------------------------------------------------- creating and seating


def create_table(
    *,
    host: AbstractBaseUser | None,
    rules: dict | str,
    kind: str = Table.Kind.PRIVATE,
    absence: str = Table.Absence.BOT,
    fixture=None,
    next_hand_seconds: int = NEXT_HAND_SECONDS,
    ends: datetime | None = None,
    seating: tuple | None = None,
    arena_game=None,
) -> Table:
    """A new table with one empty seat per player of the rules (two, three or four, in two
    pairs or each on its own); `rules` is a preset name or preset + overrides; `ends` the
    match's time limit, if it has one; `seating`: an individual event's (round, table);
    `arena_game`: an arena's match."""
    spec, parsed = _rules(rules)
    with transaction.atomic():
        table = _new_table(
            spec,
            host=host,
            kind=kind,
            absence=absence,
            fixture=fixture,
            next_hand_seconds=next_hand_seconds,
            ends=ends,
            seating=seating,
            arena_game=arena_game,
        )
        table.save(force_insert=True)
        Seat.objects.bulk_create(Seat(table=table, number=n) for n in range(parsed.players))
    return table


def _rules(rules: dict | str):
    """A table's rules as stored (preset + overrides) and as the engine reads them."""
    spec = {"preset": rules} if isinstance(rules, str) else dict(rules)
    try:
        return spec, rules_from_spec(spec)
    except (RulesError, TypeError) as error:
        raise TableError("bad_rules") from error


def _new_table(spec: dict, *, seating: tuple | None = None, **fields) -> Table:
    """A table not stored yet: `seating` an individual event's (round, table)."""
    return Table(
        rules=spec,
        seating=seating[0] if seating else None,
        seating_table=seating[1] if seating else None,
        **fields,
    )


@dataclass
class NewTable:
    """One of the competition tables `open_tables` opens: its players in seat order (a None
    user leaves the seat empty), the match's time limit, and what it is the table of
    (`fixture`, `seating` or `arena_game`)."""

    players: list[tuple[AbstractBaseUser | None, str]]
    ends: datetime | None = None
    link: dict = field(default_factory=dict)


def open_tables(rules: dict | str, new: list[NewTable]) -> list[Table]:
    """Competition tables, many at once: each with its players seated and its first hand
    dealt, as `create_table` and `seat_players` leave one, in two inserts (a round of 128
    tables opened one by one took seconds). A forfeit table (`Table.Absence.FORFEIT`), no
    bot seated; nobody is at a new table yet, so every seated player is offline and nobody
    is rung; each turn's timer is armed as for any deal."""
    spec, parsed = _rules(rules)
    tables = []
    for item in new:
        if len(item.players) != parsed.players:
            raise TableError("bad_seat")
        table = _new_table(
            spec,
            host=None,
            kind=Table.Kind.FIXTURE,
            absence=Table.Absence.FORFEIT,
            ends=item.ends,
            **item.link,
        )
        _dealt(table, start_hand(new_match(parsed)))  # a new table: no match yet
        table.offline = [n for n, (user, _name) in enumerate(item.players) if user is not None]
        table.version = 1  # the deal
        tables.append(table)
    with transaction.atomic():
        Table.objects.bulk_create(tables)
        Seat.objects.bulk_create(
            Seat(table=table, number=n, user_id=None if user is None else user.pk, name=name)
            for table, item in zip(tables, new, strict=True)
            for n, (user, name) in enumerate(item.players)
        )
    dealt = [(table.pk, table.version, table.deadline) for table in tables]

    def arm() -> None:
        for pk, version, deadline in dealt:
            deadline_set.send(Table, table_id=pk, version=version, deadline=deadline)

    transaction.on_commit(arm)
    return tables


def seat_players(table: Table, players: list[tuple[AbstractBaseUser | None, str]]) -> None:
    """Bind (user, name) to every seat in order (matchmaking, fixtures); start the match."""
    with transaction.atomic():
        table = _locked(table.pk)
        for seat, (user, name) in zip(_seats(table), players, strict=True):
            seat.user, seat.name = user, name
            seat.save(update_fields=["user", "name"])
        table.offline = _offline(table)
        _start_hand(table)


def against_bots(host: AbstractBaseUser, rules: dict | str, level: str) -> Table:
    """A casual table of `host` alone with bots of `level`: seated in seat 0, a bot in every
    other seat, the first hand dealt, in one transaction."""
    if level not in BotLevel.values:
        raise TableError("bad_level")
    with transaction.atomic():
        table = create_table(host=host, rules=rules)
        sit(table.pk, host, 0)
        for number in range(1, rules_from_spec(table.rules).players):
            add_bot(table.pk, host, number, level)
    return table


def _free_seat(table: Table, number: int) -> Seat:
    """Seat `number` of a waiting table, if nobody holds it."""
    seats = _seats(table)
    if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number < len(seats):
        raise TableError("bad_seat")
    if table.status != Table.Status.WAITING:
        raise TableError("not_waiting")
    seat = seats[number]
    if seat.taken:
        raise TableError("seat_taken")
    return seat


def sit(table_id: int, user: AbstractBaseUser, number: int) -> None:
    """Take (or move to) a free seat of a waiting table; the match starts when all are taken.

    The seats are read under the table's lock; the database refuses a seat taken from
    another occupant all the same (migration 0003), which is `seat_taken` here too.
    """
    try:
        with transaction.atomic():
            table = _locked(table_id)
            seat = _free_seat(table, number)
            for held in _seats(table):
                if held.user_id == user.pk:
                    held.user, held.name = None, ""
                    held.save(update_fields=["user", "name"])
            seat.user, seat.name = user, player_for(user).display_name
            seat.save(update_fields=["user", "name"])
            _seated(table)
    except IntegrityError:
        raise TableError("seat_taken") from None


def add_bot(
    table_id: int, user: AbstractBaseUser, number: int, level: str = BotLevel.MEDIUM
) -> None:
    """The host fills an empty seat of a casual table with a bot of `level`; the last one
    only once a person sits at the table (bots never play on alone)."""
    if level not in BotLevel.values:
        raise TableError("bad_level")
    with transaction.atomic():
        table = _locked(table_id)
        if table.host_id != user.pk:
            raise TableError("not_host")
        if not table.casual:
            raise TableError("not_casual")
        seat = _free_seat(table, number)
        others = [s for s in _seats(table) if s.number != number]
        if all(s.taken for s in others) and not any(s.user_id for s in others):
            raise TableError("no_player")
        seat.bot, seat.bot_level, seat.name = True, level, ""
        seat.save(update_fields=["bot", "bot_level", "name"])
        _seated(table)


def _seated(table: Table) -> None:
    table.offline = _offline(table)
    if all(seat.taken for seat in _seats(table)):
        _start_hand(table)
    else:
        _commit(table, ["offline"], {"kind": "seats"})


def take_back(table_id: int, user: AbstractBaseUser) -> None:
    """A player whose seat a bot took over (absent for a whole hand) plays it again; a
    table paused for want of players goes on."""
    with transaction.atomic():
        table = _locked(table_id)
        seat = _seat_of(table, user)
        if not seat.bot:
            raise TableError("not_replaced")
        if table.status == Table.Status.FINISHED:
            raise TableError("not_playing")
        seat.bot = False
        seat.save(update_fields=["bot"])
        if table.status == Table.Status.BETWEEN:
            table.ready = [n for n in table.ready if n != seat.number]
            _pause_deadline(table)
        _resume(table)
        _commit(table, ["ready", "deadline", "paused"], {"kind": "seats"})


# ---------------------------------------------------------------- playing


def act(
    table_id: int, user: AbstractBaseUser, *, action: str, version: int, client_id: str
) -> dict:
    """A seated user's action made against `version`, answered with an ack.

    The action is stored with its client id: a resent message finds it and gets the same
    ack again, whether it comes back refused (the table moved on) or, for a client that
    reused an id, hits the unique constraint.
    """
    if (
        not isinstance(action, str)
        or "!" in action
        or len(action) > 24
        or not isinstance(version, int)
        or isinstance(version, bool)
        or not isinstance(client_id, str)
        or not 0 < len(client_id) <= CLIENT_ID_MAX
    ):
        raise TableError("bad_message")
    try:
        with transaction.atomic():
            table = _locked(table_id)
            seat = _seat_of(table, user)
            try:
                state = _playable(table, seat, version)
            except TableError:
                if (answer := _first_answer(table_id, user, client_id)) is not None:
                    return answer
                raise
            _resume(table)  # whoever acts is there
            state = _play(table, state, seat.number, action, user=user, client_id=client_id)
            answer = _ack(client_id, table.version)
            _run_bots(table, state)
    except IntegrityError:
        if (answer := _first_answer(table_id, user, client_id)) is not None:
            return answer
        raise TableError("stale") from None
    return answer


def _playable(table: Table, seat: Seat, version: int) -> HandState:
    """The live hand, if `seat` may act on it at `version`."""
    if table.status != Table.Status.PLAYING:
        raise TableError("not_playing")
    if version != table.version:
        raise TableError("stale")
    state = hand_state(table)
    if state.turn != seat.number:
        raise TableError("not_your_turn")
    return state


def _ack(client_id: str, version: int) -> dict:
    return {"type": "ack", "id": client_id, "version": version}


def _first_answer(table_id: int, user: AbstractBaseUser, client_id: str) -> dict | None:
    """The ack of the action this user already sent with this client id, if any."""
    version = (
        Action.objects.filter(table_id=table_id, user=user, client_id=client_id)
        .values_list("version", flat=True)
        .first()
    )
    return None if version is None else _ack(client_id, version)


def press_next(table_id: int, user: AbstractBaseUser) -> None:
    """A player is ready for the next hand; it starts when every seat is (`_ready`)."""
    with transaction.atomic():
        table = _locked(table_id)
        seat = _seat_of(table, user)
        if table.status != Table.Status.BETWEEN:
            raise TableError("not_between")
        if seat.number in table.ready:
            return
        _resume(table)
        _ready(table, [seat.number])


def _ready(table: Table, numbers: list[int]) -> None:
    """These seats are ready for the next hand: it starts if every seat is now."""
    table.ready = sorted({*table.ready, *numbers})
    if len(table.ready) == len(_seats(table)):
        _start_hand(table)
    else:
        _pause_deadline(table)
        _commit(table, ["ready", "deadline", "paused"], {"kind": "ready"})


def presence_changed(table_id: int) -> bool:
    """Store which seats are offline now, if that changed, and ring it to the table.

    Called after a socket of a seated player opened or closed (games/services/presence.py),
    under the table's lock, so that the last of several changes at once stores the truth.
    Not a new version: an action made against the version is still valid after it.
    """
    with transaction.atomic():
        table = Table.objects.with_seats(table_id, lock=True)
        if table is None:
            return False
        offline = _offline(table)
        if offline == table.offline:
            return False
        table.offline = offline
        if table.status == Table.Status.BETWEEN and table.paused is None:
            _pause_deadline(table)
        if _anybody_playing(table):
            _resume(table)
        else:
            _pause(table)
        fields = ["offline", "deadline", "paused"]
        _commit(table, fields, {"kind": "presence"}, new_version=False)
    return True


def extend_deadline(table_id: int, deadline: datetime) -> bool:
    """Push a live table's deadline back to `deadline` (after a restart), and say so."""
    with transaction.atomic():
        table = Table.objects.with_seats(table_id, lock=True)
        if table is None:
            return False
        if table.status not in (Table.Status.PLAYING, Table.Status.BETWEEN) or (
            table.deadline is not None and table.deadline >= deadline
        ):
            return False
        table.deadline = deadline
        _commit(table, ["deadline"], {"kind": "deadline"}, new_version=False)
    return True


def call_time(table_id: int) -> bool:
    """A table waiting between hands when its match's time limit passed: the side ahead
    wins now (the hand in play had ended). Idempotent; False when nothing changed."""
    with transaction.atomic():
        table = Table.objects.with_seats(table_id, lock=True)
        if table is None:
            return False
        if table.status != Table.Status.BETWEEN or not _time_up(table, match_of(table)):
            return False
        _commit(table, _HAND_FIELDS, {"kind": "time"})
    return True


def extend_match(table_id: int, ends: datetime) -> bool:
    """Move a live table's match time limit to `ends` (an organiser extended the round)."""
    with transaction.atomic():
        table = Table.objects.with_seats(table_id, lock=True)
        if table is None:
            return False
        if table.status == Table.Status.FINISHED:
            return False
        table.ends = ends
        _commit(table, ["ends"], {"kind": "deadline"}, new_version=False)
    return True


def forfeit(table_id: int, side: int) -> bool:
    """The match is over for a side that left the competition (withdrawn): the table
    closes, that side forfeiting. False when it had finished already."""
    with transaction.atomic():
        table = Table.objects.with_seats(table_id, lock=True)
        if table is None:
            return False
        if table.status == Table.Status.FINISHED:
            return False
        table.forfeit_side = side
        _finish(table, rated=True)
        _commit(table, _HAND_FIELDS, {"kind": "closed"})
    return True


def time_out(table_id: int, version: int) -> bool:
    """The one timeout handler (countdown task and sweeper alike); idempotent.

    Acts only if the table is still at `version` and its deadline has passed: the seat to
    act gets the automatic action of docs/rules.md decision 18 (marked `!auto`); between hands
    the seats still offline count as ready, and the next hand starts if the others pressed
    "next" (a seat that is there must press it: no deadline runs for it). A paused table
    nobody came back to closes.
    """
    with transaction.atomic():
        table = Table.objects.with_seats(table_id, lock=True)
        if table is None:
            return False
        if table.version != version or table.deadline is None or table.deadline > timezone.now():
            return False
        if table.paused is not None:
            _finish(table, rated=False)
            _commit(table, ["status", "finished", "deadline"], {"kind": "closed"})
            return True
        if table.status == Table.Status.BETWEEN:  # the seats still away count as ready
            table.deadline = None
            _ready(table, [n for n in table.offline if n not in table.ready])
            return True
        if table.status != Table.Status.PLAYING:
            return False
        state = hand_state(table)
        seat = state.turn
        action = auto_action(state)
        state = _play(table, state, seat, action, auto=True)
        # A draw keeps the turn, and the expired turn goes on: the seat draws until a tile
        # fits and plays it (or passes once the boneyard is empty), so that a player who is
        # away does not hold the table for a full turn per tile drawn.
        while action.startswith("draw") and state.status not in ENDED and state.turn == seat:
            action = auto_action(state)
            state = _play(table, state, seat, action, auto=True)
        _run_bots(table, state)
    return True
