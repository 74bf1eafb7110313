"""The global pool's matches that the competition does not hold: live play's ranked tables.

league/ never imports games/ (README, Architecture), so live play tells the ratings how to
read its tables when it starts (`games.apps`); without live play the global pool rates the
competitions' matches alone.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from django.db.models import QuerySet


@dataclass(frozen=True)
class RankedTables:
    """`finished()`: every finished ranked table, a queryset of the tables (its `pk` and
    `finished` are read). `rows(pool_id, start)`: the pool's tables from `start` on as the
    replay's rows, `(None, table id, played_at, games of side 0, games of side 1, side 0's
    two players, side 1's two)`, a player None where a seat has none (not rated)."""

    finished: Callable[[], QuerySet]
    rows: Callable[[int, datetime], list[tuple]]


_source: list[RankedTables] = []


def register_ranked_tables(source: RankedTables) -> None:
    _source[:] = [source]


def ranked_tables() -> RankedTables | None:
    return _source[0] if _source else None
