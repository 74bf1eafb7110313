"""Players at live tables whose hands are written out in full (tests/stats/records.py)."""

import uuid
from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model

from games.engine import adjudicate
from games.models import Hand, Seat, Table
from league.models import Player


def make_player(name: str) -> Player:
    user = get_user_model().objects.create_user(f"{name.lower()}-{uuid.uuid4().hex[:6]}")
    return Player.objects.create(user=user, display_name=name)


def live_table(seated: list[Player | None], rules: dict | str, **fields) -> Table:
    """A table with these players at seats 0..3 (None: a bot)."""
    spec = {"preset": rules} if isinstance(rules, str) else rules
    table = Table.objects.create(rules=spec, status=Table.Status.BETWEEN, **fields)
    Seat.objects.bulk_create(
        Seat(
            table=table,
            number=n,
            user=None if p is None else p.user,
            name="Bot" if p is None else p.display_name,
            bot=p is None,
        )
        for n, p in enumerate(seated)
    )
    return table


def store_hand(table: Table, number: int, record: dict) -> Hand:
    """A finished hand as the live table stores it."""
    table.hand_number = number
    table.save(update_fields=["hand_number"])
    return Hand.objects.create(table=table, number=number, record=record, ruling=adjudicate(record))


@dataclass
class Four:
    pedro: Player
    quique: Player
    rosa: Player
    sara: Player


@pytest.fixture
def four(db) -> Four:
    return Four(*(make_player(n) for n in ("Pedro", "Quique", "Rosa", "Sara")))
