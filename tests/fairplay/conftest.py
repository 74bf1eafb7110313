"""Live tables whose hands are played by simulated players and stored as a table stores
them: the hand's record and one Action row per action, a person's or a bot's."""

import random
from datetime import timedelta

from django.utils import timezone

from games.engine import PRESETS, adjudicate, apply, replay, to_record
from games.models import Action, Hand, Seat, Table

from .players import play_hand

# Small budgets, so that a test checks a hand in a fraction of a second.
FAST = {
    "HORIZON": 14,
    "SAMPLES": 6,
    "EXACT_DEALS": 30,
    "NODES": 8000,
    "MIN_HANDS": 8,
    "MIN_DECISIONS": 8,
}  # the threshold is the product's own (calibrated by benchmarks/fairplay.py)
# Hands a colluding pair of the suite plays: enough to pass the product's threshold.
FLAGGED_HANDS = 50
BUDGET = {"horizon": 14, "samples": 6, "exact_deals": 30, "nodes": 8000}


def make_table(users: list, kind: str = Table.Kind.RANKED, **fields) -> Table:
    """A table with these users at seats 0..3 (None: a bot)."""
    table = Table.objects.create(kind=kind, rules={"preset": "tournament"}, **fields)
    Seat.objects.bulk_create(
        Seat(table=table, number=n, user=u, name=u.username if u else "Bot", bot=u is None)
        for n, u in enumerate(users)
    )
    return table


def store_hand(
    table: Table, number: int, final, users: list, rng: random.Random, pace=None
) -> Hand:
    """The finished hand as the table stores it: a person's actions under their user, a
    bot's under none, each a few seconds after the one before (1 to 12, or the seat's own
    (least, most) in `pace`)."""
    record = to_record(final)
    hand = Hand.objects.create(table=table, number=number, record=record, ruling=adjudicate(record))
    state = replay({**record, "actions": []})
    at = timezone.now()
    for index, action in enumerate(final.actions):
        at += timedelta(seconds=rng.uniform(*(pace or {}).get(state.turn, (1, 12))))
        made = Action.objects.create(
            table=table,
            hand=number,
            number=index,
            seat=state.turn,
            action=action,
            auto=action.endswith("!auto"),
            version=number * 100 + index,
            user=users[state.turn],
        )
        Action.objects.filter(pk=made.pk).update(created=at)
        state = apply(state, action)[0]
    return hand


def play_and_store(
    table, users, hands: int, seed: int, colluders=(), share=1.0, programs=(), pace=None
) -> list[Hand]:
    """`hands` hands at the table: medium-level play, `colluders` seeing their partner's
    tiles on a `share` of their decisions, `programs` playing a program's moves; `pace`:
    store_hand's."""
    rng = random.Random(seed)
    stored = []
    for number in range(1, hands + 1):
        final = play_hand(
            PRESETS["tournament"], rng, ["medium"] * 4, colluders, share, BUDGET, programs
        )
        stored.append(store_hand(table, number, final, users, rng, pace))
    return stored
