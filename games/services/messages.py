"""What the live tables send: group messages with public facts, and each viewer's message.

A group message never carries a hand: only the version and public facts (the action just
played is public once played; a draw names no tile). Each consumer keeps the hand in
memory, applies the public action to it, and builds its own viewer's message with
`viewer_message`, the one function that turns a hand into what a seat or a spectator sees.
"""

import asyncio
import time
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any
from weakref import WeakValueDictionary

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.contrib.auth.models import AbstractBaseUser

from games.engine import (
    ENDED,
    HandState,
    rules_from_spec,
    rules_to_spec,
    state_from_dict,
    view,
)
from games.engine.state import BLOCK
from games.engine.tiles import pips_of
from games.models import Action, Seat, Table


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def hand_state(table: Table) -> HandState | None:
    """The live hand, replayed from its stored record."""
    return None if table.state is None else state_from_dict(table.state)


def table_facts(table: Table) -> dict:
    """The public facts of a table (no tiles)."""
    match = table.match or {}
    rules = rules_from_spec(table.rules)
    return {
        "id": table.pk,
        "code": table.code,
        "kind": table.kind,
        "status": table.status,
        "hand_number": table.hand_number,
        "deadline": None if table.deadline is None else table.deadline.timestamp(),
        # Nobody plays at this casual table: the clock stopped, `deadline` is when it closes.
        "paused": table.paused is not None,
        # the match's time limit (an online event's round deadline): docs/live-protocol.md
        "ends": None if table.ends is None else table.ends.timestamp(),
        "ready": list(table.ready),
        "offline": list(table.offline),
        "scores": match.get("scores", [0] * rules.sides),
        "pairs": rules.pairs,  # false: every seat is a side of its own (scores per seat)
        "draw_game": rules.boneyard,  # a stuck player draws; the hand says how many are left
        "target": rules.target,
        "direction": rules.direction,
        "turn_seconds": rules.turn_seconds,
        "over": match.get("over", False),
        "winner": match.get("winner"),
        "shutout": match.get("shutout", False),
        "shutout_multiplier": rules.shutout_multiplier,
        "history": match.get("history", []),
        "forfeit_side": table.forfeit_side,
        "finish": finish_reason(table),
        "host": table.host_id,
    }


def finish_reason(table: Table) -> str | None:
    """Why a finished table finished: the target reached, the time limit, a forfeit, closed
    after nobody came back to it (casual), or abandoned (every side absent for a whole
    hand)."""
    if table.status != Table.Status.FINISHED:
        return None
    if table.forfeit_side is not None:
        return "forfeit"
    match = table.match or {}
    if match.get("abandoned"):
        return "abandoned"
    if match.get("timed"):
        return "time"
    if match.get("over"):
        return "target"
    return "closed" if table.paused is not None else "abandoned"


def passed(state: HandState) -> list[int]:
    """The seats whose last action in this hand was a pass (a draw keeps the turn)."""
    n, seat, last = len(state.hands), state.setup.opener, {}
    for action in state.actions:
        last[seat] = action
        if not action.startswith("draw"):
            seat = (seat + 1) % n
    return sorted(s for s, action in last.items() if action.startswith("pass"))


def reckoning(state: HandState) -> dict | None:
    """How an ended hand was counted: each seat's and side's pips and the rules that used
    them. The points themselves are the engine's (the hand's `events` and `points`)."""
    if state.status not in ENDED:
        return None
    setup, rules = state.setup, state.setup.rules
    pips = [pips_of(hand) for hand in state.hands]
    sides = [0] * rules.sides
    for seat, count in enumerate(pips):
        sides[setup.side[seat]] += count
    blocker = state.result.blocker
    compared = None
    if state.status == BLOCK and rules.block_winner == "blocker_vs_next":
        compared = [blocker, (blocker + 1) % len(pips)]
    return {
        "pips": pips,
        "side_pips": sides,
        "compared": compared,
        "domino_points": rules.domino_points,
        "block_winner": rules.block_winner,
        "block_points": rules.block_points,
        "round_to": rules.round_to,
        "scoring": rules.scoring,
        "bonus_cap": rules.bonus_cap,
    }


def hand_message(state: HandState, seat: int | None) -> dict:
    """The hand as `seat` sees it (the engine's view), with the seats that passed and, once
    it has ended, its reckoning."""
    hand = view(state, seat)
    hand["passed"] = passed(state)
    if (counted := reckoning(state)) is not None:
        hand["reckoning"] = counted
    return hand


def seat_facts(seats: list[Seat]) -> list[dict]:
    """The public facts of a table's seats, in seat order."""
    return [
        {
            "number": s.number,
            "name": s.name,
            "bot": s.bot,
            "level": s.bot_level if s.bot else None,
            "taken": s.taken,
        }
        for s in seats
    ]


def group_message(table: Table, event: dict) -> dict:
    """The group message of one committed change: its version, its event, public facts."""
    return {
        "type": "table.changed",
        "version": table.version,
        "event": event,
        "facts": table_facts(table),
    }


# Set while a consumer runs a table service: committed changes wait there, to be sent from
# the consumer's event loop once the service returns, instead of the service's thread
# waiting on that loop for every message.
_outbox: ContextVar[list[tuple[str, dict]] | None] = ContextVar("table_outbox", default=None)


def ring(table_id: int, message: dict) -> None:
    """Send a committed change to the table's group (called on commit)."""
    outbox = _outbox.get()
    if outbox is not None:
        outbox.append((table_group(table_id), message))
        return
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(table_group(table_id), message)


def off_loop(function: Callable) -> Callable:
    """`function` made awaitable in any free thread (not channels' one thread-sensitive
    thread, where every table's sockets would queue behind each other)."""
    return database_sync_to_async(function, thread_sensitive=False)


# One lock per table in this process: a table's changes made by this process's sockets wait
# their turn here, on the event loop, rather than each holding a thread while it waits for
# the table's row lock (four "next" presses at once used to hold four of the threads).
_table_locks: WeakValueDictionary[int, asyncio.Lock] = WeakValueDictionary()


async def call_service(service: Callable, table_id: int, *args: Any, **kwargs: Any) -> Any:
    """Run a table service off the event loop, then send the changes it committed."""
    lock = _table_locks.get(table_id)
    if lock is None:
        lock = _table_locks[table_id] = asyncio.Lock()
    outbox: list[tuple[str, dict]] = []
    token = _outbox.set(outbox)
    try:
        async with lock:
            return await off_loop(service)(table_id, *args, **kwargs)
    finally:
        _outbox.reset(token)
        layer = get_channel_layer()
        for group, message in outbox:
            await layer.group_send(group, message)


@dataclass
class Snapshot:
    version: int
    facts: dict
    seats: list[dict]
    seat: int | None  # the viewer's seat, bound by the server
    state: HandState | None
    rules: str | dict


def snapshot(table_id: int, user: AbstractBaseUser | None) -> Snapshot | None:
    """The table as stored now, and the seat the user holds (None: a spectator)."""
    table = Table.objects.with_seats(table_id)
    if table is None:
        return None
    seats = list(table.seats.all())
    seat = next(
        (
            s.number
            for s in seats
            if user is not None and user.is_authenticated and s.user_id == user.pk
        ),
        None,
    )
    return Snapshot(
        table.version,
        table_facts(table),
        seat_facts(seats),
        seat,
        hand_state(table),
        rules_to_spec(rules_from_spec(table.rules)),
    )


def missed(table_id: int, since: int, until: int, hand_number: int) -> list[dict] | None:
    """The public actions after `since` up to `until`, or None when only a snapshot will do."""
    if since >= until:
        return []
    rows = list(
        Action.objects.filter(table_id=table_id, version__gt=since, version__lte=until)
        .order_by("version")
        .values("version", "hand", "seat", "action")
    )
    if len(rows) != until - since or any(r["hand"] != hand_number for r in rows):
        return None
    return [{"version": r["version"], "seat": r["seat"], "action": r["action"]} for r in rows]


def viewer_message(
    kind: str, snap: Snapshot, *, last: dict | None = None, events: list[dict] | None = None
) -> dict:
    """The one message a viewer gets: public facts and the hand as that seat may see it."""
    message = {
        "type": kind,
        "version": snap.version,
        "table": snap.facts | {"seats": snap.seats, "rules": snap.rules},
        "seat": snap.seat,
        "hand": None if snap.state is None else hand_message(snap.state, snap.seat),
        "now": time.time(),  # lets the client correct its clock for the turn timer
    }
    if last is not None:
        message["last"] = last
    if events is not None:
        message["missed"] = events
    return message
