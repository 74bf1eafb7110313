"""Counting finished hands into players' statistics (one `HandStat` row per player and hand).

A live table's hand is counted by a Celery task queued when the hand is stored, and again
when a referee rules on it; a league match's recorded hands are counted when its result is
confirmed (a ruling, a correction). Counting is idempotent: a hand's rows are deleted and
written again from the hand record as the latest ruling left it (games/engine/facts.py).
"""

from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any, NamedTuple

from django.contrib.auth import get_user_model
from django.db import connection, transaction

from core.tasks import queue_on_commit
from games.disputes.models import Dispute, Ruling
from games.engine import HandFacts, seats_facts
from games.engine.facts import LOST, NEITHER, WON
from games.models import Action, Hand, Seat, Table
from league.accounts import player_for
from league.models import Match, Player, Result

from .models import TALLIED, HandStat, Tally, contribution, tally_key

HAND_TASK = "stats.count_live_hand"
MATCH_TASK = "stats.count_league_match"
AWARD = "award"


def queue_live_hand(hand_id: int) -> None:
    """Count a live hand once the current transaction commits."""
    queue_on_commit(HAND_TASK, hand_id)


def queue_league_match(match_id: int) -> None:
    """Count a league match's recorded hands once the current transaction commits."""
    queue_on_commit(MATCH_TASK, match_id)


class Ruled(NamedTuple):
    """A hand as the latest referee's ruling left it."""

    record: dict
    points: list[int] | None  # the hand's points per side, when a ruling set them
    awarded: int | None  # the side the hand was awarded to


def _latest_rulings(**dispute: Any) -> dict[tuple[int, int], Ruled]:
    """The latest ruling on each disputed hand, by (game, hand) of its dispute."""
    rulings = Ruling.objects.filter(**{f"dispute__{k}": v for k, v in dispute.items()})
    found: dict[tuple[int, int], Ruled] = {}
    for game, hand, kind, record, points, side in rulings.order_by("at", "pk").values_list(
        "dispute__game", "dispute__hand", "kind", "record_after", "points_after", "side"
    ):
        found[game, hand] = Ruled(record, points, side if kind == Ruling.Kind.AWARD else None)
    return found


def _ruled_facts(facts: HandFacts, ruled: Ruled | None) -> dict[str, Any]:
    """The row's fields from a seat's facts, with what a ruling decided over them."""
    row = {
        "seat": facts.seat,
        "pairs": facts.partner is not None,
        "ended": facts.ended,
        "result": facts.result,
        "capicua": facts.capicua,
        "points": facts.points,
        "passes_forced": facts.passes_forced,
        "passes_suffered": facts.passes_suffered,
        "opening": facts.opening,
        "rule_set": facts.rule_set,
        "match_result": facts.match_result,
    }
    if ruled is None:
        return row
    if ruled.points is not None and len(ruled.points) > facts.side:
        row["points"] = ruled.points[facts.side]
    if ruled.awarded is not None:
        won = ruled.awarded == facts.side
        row.update(ended=AWARD, capicua=False, result=WON if won else LOST)
    return row


def _rows(
    record: dict,
    ruled: Ruled | None,
    players: dict[int, int],
    **common: Any,
) -> list[HandStat]:
    """The rows of a hand for its players (`players`: seat -> player id)."""
    facts = seats_facts(ruled.record if ruled else record)
    rows = []
    for seat_facts in facts:
        player = players.get(seat_facts.seat)
        if player is None:
            continue
        partner = None if seat_facts.partner is None else players.get(seat_facts.partner)
        fields = _ruled_facts(seat_facts, ruled)
        rows.append(HandStat(player_id=player, partner_id=partner, **fields, **common))
    return rows


# ---------------------------------------------------------------- writing


@cache
def _delete_sql(column: str) -> str:
    table = connection.ops.quote_name(HandStat._meta.db_table)
    returned = ", ".join(f.column for f in _RETURNED)
    return f"DELETE FROM {table} WHERE {column} = %s RETURNING {returned}"


_RETURNED = [
    HandStat._meta.get_field(name)
    for name in (
        "player",
        "rule_set",
        "pairs",
        "partner",
        "opening",
        "ended",
        "result",
        "capicua",
        "points",
        "passes_forced",
        "passes_suffered",
        "match_result",
    )
]


@cache
def _upsert_sql(groups: int) -> str:
    table = connection.ops.quote_name(Tally._meta.db_table)
    keys = ["player_id", "rule_set", "pairs", "partner_key", "opening"]
    values = ", ".join(["(" + ", ".join(["%s"] * (len(keys) + len(TALLIED))) + ")"] * groups)
    added = ", ".join(f"{c} = {table}.{c} + EXCLUDED.{c}" for c in TALLIED)
    return (
        f"INSERT INTO {table} ({', '.join(keys + list(TALLIED))}) VALUES {values}"
        f" ON CONFLICT ({', '.join(keys)}) DO UPDATE SET {added}"
    )


_INSERTED = [f for f in HandStat._meta.concrete_fields if not f.primary_key]


@cache
def _insert_sql(count: int) -> str:
    """The INSERT of `count` rows, built once (bulk_create's compilation is most of its
    time here)."""
    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f in _INSERTED)
    row = "(" + ", ".join(["%s"] * len(_INSERTED)) + ")"
    table = quote(HandStat._meta.db_table)
    return f"INSERT INTO {table} ({columns}) VALUES {', '.join([row] * count)}"


def _insert_params(rows: list[HandStat]) -> list[Any]:
    return [
        field.get_db_prep_save(getattr(row, field.attname), connection)
        for row in rows
        for field in _INSERTED
    ]


def _add(deltas: dict[tuple, dict[str, int]], rows: list[HandStat], sign: int) -> None:
    for row in rows:
        delta = deltas.setdefault(tally_key(row), dict.fromkeys(TALLIED, 0))
        for column, value in contribution(row).items():
            delta[column] += sign * value


def _replace(column: str, value: int, rows: list[HandStat], counted: bool = True) -> None:
    """Replace the rows of one hand or league match (`column` = `value`) with `rows`, and
    move the players' tallies by the difference, in one transaction: a recount that finds
    what was there changes no tally. `counted=False`: the caller saw no rows to replace (a
    count that raced another finds them and fails on the unique constraints, and runs
    again)."""
    deltas: dict[tuple, dict[str, int]] = {}
    old: list[HandStat] = []
    names = [f.attname for f in _RETURNED]
    with transaction.atomic(), connection.cursor() as cursor:
        if counted:
            cursor.execute(_delete_sql(column), [value])
            old = [HandStat(**dict(zip(names, r, strict=True))) for r in cursor.fetchall()]
        if rows:
            cursor.execute(_insert_sql(len(rows)), _insert_params(rows))
        _add(deltas, old, -1)
        _add(deltas, rows, +1)
        changed = sorted((k, d) for k, d in deltas.items() if any(d.values()))
        if changed:
            params = [x for key, delta in changed for x in (*key, *(delta[c] for c in TALLIED))]
            cursor.execute(_upsert_sql(len(changed)), params)


# ---------------------------------------------------------------- live tables


@dataclass(frozen=True)
class _LiveHand:
    """What counting a live hand reads, in one statement (`_read_live`)."""

    number: int
    record: dict
    finished: datetime
    table_id: int
    table_over: bool  # the table is finished and this was its last hand
    forfeit_side: int | None
    ruled: bool  # a referee ruled on it
    counted: bool  # it has rows already
    players: dict[int, int]  # seat -> player id, for the seats a person played


@cache
def _read_live_sql() -> str:
    """The hand, its table, whether it was ruled on or counted, and one row per seat bound to
    a user: its player and whether anyone but a bot acted for it in the hand. The SQL is
    built once: the ORM's compilation of these subqueries cost more than running them."""
    q = connection.ops.quote_name
    hand, table, seat, action = (q(m._meta.db_table) for m in (Hand, Table, Seat, Action))
    player = q(Player._meta.db_table)
    ruling, dispute = q(Ruling._meta.db_table), q(Dispute._meta.db_table)
    stat = q(HandStat._meta.db_table)
    acted = (
        f"SELECT 1 FROM {action} a"
        " WHERE a.table_id = t.id AND a.hand = h.number AND a.seat = s.number"
    )
    return (
        "SELECT h.number, h.record, h.finished, t.id, t.status, t.hand_number, t.forfeit_side,"
        f" EXISTS (SELECT 1 FROM {ruling} r INNER JOIN {dispute} d ON d.id = r.dispute_id"
        " WHERE d.live_hand_id = h.id),"
        f" EXISTS (SELECT 1 FROM {stat} c WHERE c.hand_id = h.id),"
        f" s.number, s.user_id, p.id, EXISTS ({acted}),"
        f" EXISTS ({acted} AND (a.user_id IS NOT NULL OR a.auto))"
        f" FROM {hand} h INNER JOIN {table} t ON t.id = h.table_id"
        f" LEFT JOIN {seat} s ON s.table_id = t.id AND s.user_id IS NOT NULL"
        f" LEFT JOIN {player} p ON p.user_id = s.user_id WHERE h.id = %s"
    )


def _converted(model: type, name: str, value: Any) -> Any:
    field = model._meta.get_field(name)
    column = field.get_col(model._meta.db_table)
    for convert in connection.ops.get_db_converters(column) + column.get_db_converters(connection):
        value = convert(value, column, connection)
    return value


def _read_live(hand_id: int) -> _LiveHand | None:
    with connection.cursor() as cursor:
        cursor.execute(_read_live_sql(), [hand_id])
        rows = cursor.fetchall()
    if not rows:
        return None
    number, record, finished, table_id, status, last, forfeit, ruled, counted = rows[0][:9]
    players = {}
    for *_, seat, user_id, player_id, acted, by_player in rows:
        if seat is None or (acted and not by_player):
            continue  # no seat bound to a user, or a bot played the seat all hand
        if player_id is None:  # an account without a profile (made by createsuperuser)
            player_id = player_for(get_user_model().objects.get(pk=user_id)).pk
        players[seat] = player_id
    return _LiveHand(
        number=number,
        record=_converted(Hand, "record", record),
        finished=_converted(Hand, "finished", finished),
        table_id=table_id,
        table_over=status == Table.Status.FINISHED and number == last,
        forfeit_side=forfeit,
        ruled=bool(ruled),
        counted=bool(counted),
        players=players,
    )


def count_live_hand(hand_id: int) -> int:
    """Count one live hand for its players, replacing what was counted before; the number of
    rows written (0 for a hand that is gone, redealt, or played by bots only)."""
    hand = _read_live(hand_id)
    if hand is None:
        return 0
    rulings = _latest_rulings(live_hand_id=hand_id) if hand.ruled else {}
    rows = _rows(
        hand.record,
        next(iter(rulings.values()), None),
        hand.players,
        hand_id=hand_id,
        match_key=f"t{hand.table_id}",
        played=hand.finished,
        number=hand.number,
    )
    if hand.table_over and hand.forfeit_side is not None:
        for row in rows:  # the table ended on a forfeit after this hand: who stayed won
            side = row.seat % 2 if row.pairs else row.seat
            row.match_result = LOST if side == hand.forfeit_side else WON
    _replace("hand_id", hand_id, rows, counted=hand.counted)
    return len(rows)


# ---------------------------------------------------------------- league matches


def _league_players(match: Match, record: dict) -> dict[int, int]:
    """The seats of a recorded hand: side 0 (seats 0 and 2) is entry A. A record naming its
    players is read by those names; otherwise the order of online fixtures: A's first
    player, B's first, A's second, B's second."""
    entries = (match.entry_a, match.entry_b)
    default = {
        seat: player
        for seat, player in enumerate(
            [match.entry_a.player_1, match.entry_b.player_1]
            + [match.entry_a.player_2, match.entry_b.player_2]
        )
        if player is not None
    }
    names = record.get("players") if isinstance(record, dict) else None
    if not isinstance(names, list) or len(names) != 4:
        return default
    found = {}
    for seat, name in enumerate(names):
        for player in entries[seat % 2].players:
            if isinstance(name, str) and name.strip().casefold() == player.display_name.casefold():
                found[seat] = player
    chosen = found if len(found) == len(default) else default
    return {seat: player.pk for seat, player in chosen.items()}


def count_league_match(match_id: int) -> int:
    """Count the hand records of a league match's confirmed result, replacing what was
    counted before; the number of rows written. A match played at a live table is counted
    from the table's hands instead (its result carries the same records)."""
    match = (
        Match.objects.select_related(
            "entry_a__player_1", "entry_a__player_2", "entry_b__player_1", "entry_b__player_2"
        )
        .filter(pk=match_id)
        .first()
    )
    if match is None:
        return 0
    result = match.results.filter(status=Result.Status.CONFIRMED).first()
    rows: list[HandStat] = []
    online = Table.objects.filter(fixture_id=match.pk).exists()
    if result is not None and match.entry_b_id is not None and not online:
        rows = _league_rows(match, result)
    _replace("league_match_id", match.pk, rows)
    return len(rows)


def _league_rows(match: Match, result: Result) -> list[HandStat]:
    ruled = _latest_rulings(match_id=match.pk)
    played: datetime = result.entered
    rows: list[HandStat] = []
    for game, entry in enumerate(result.games or [], start=1):
        hands = entry.get("hands") if isinstance(entry, dict) else None
        for number, record in enumerate(hands if isinstance(hands, list) else [], start=1):
            if not isinstance(record, dict):
                continue
            counted = _rows(
                record,
                ruled.get((game, number)),
                _league_players(match, record),
                league_match=match,
                game=game,
                number=number,
                match_key=f"m{match.pk}",
                played=played,
            )
            for row in counted:
                row.match_result = NEITHER  # a league match ends with its result, below
            rows += counted
    if rows and result.winner is not None:
        last = max((r.game, r.number) for r in rows)
        for row in rows:
            if (row.game, row.number) == last:
                side = row.seat % 2
                row.match_result = WON if "ab"[side] == result.winner else LOST
    return rows


# ---------------------------------------------------------------- everything again


def backfill(batch: int = 500) -> tuple[int, int]:
    """Count every stored live hand and every league match with a result, then add the
    tallies up again: (hands, matches). Idempotent; what it writes is what the tasks would
    have written."""
    hands = matches = 0
    ids = Hand.objects.order_by("pk").values_list("pk", flat=True)
    for hand_id in ids.iterator(chunk_size=batch):
        count_live_hand(hand_id)
        hands += 1
    with_results = (
        Result.objects.filter(status=Result.Status.CONFIRMED)
        .order_by("match_id")
        .values_list("match_id", flat=True)
    )
    for match_id in with_results.iterator(chunk_size=batch):
        count_league_match(match_id)
        matches += 1
    rebuild_tallies()
    return hands, matches


def rebuild_tallies() -> int:
    """Add every player's tallies up again from their hands' rows (a repair: the tasks keep
    them in step); the number of tallies. Counting waits meanwhile."""
    quote = connection.ops.quote_name
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":  # SQLite has one writer at a time anyway
            for model in (HandStat, Tally):
                cursor.execute(f"LOCK TABLE {quote(model._meta.db_table)} IN EXCLUSIVE MODE")
        Tally.objects.all().delete()
        deltas: dict[tuple, dict[str, int]] = {}
        for start in range(0, HandStat.objects.count(), 5000):
            _add(deltas, list(HandStat.objects.order_by("pk")[start : start + 5000]), +1)
        keys = ("player_id", "rule_set", "pairs", "partner_key", "opening")
        Tally.objects.bulk_create(
            (
                Tally(**dict(zip(keys, key, strict=True)), **counts)
                for key, counts in deltas.items()
            ),
            batch_size=2000,
        )
    return len(deltas)
