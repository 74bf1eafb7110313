"""A casual table nobody plays at pauses: a player alone with bots who leaves for a while
finds the table where it was; a seat left to a bot is taken back, alone or not; a table
nobody comes back to closes after a stated time, unrated."""

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games.engine import legal_actions
from games.models import Action, Seat, Table
from games.services import presence, tables, timers
from games.services.messages import finish_reason, hand_state
from league.ratings.models import RatedMatch
from tests.conftest import in_thread

from .conftest import make_players
from .test_table_board import open_table
from .test_timers import overdue, swept_just_now

pytestmark = pytest.mark.django_db(transaction=True)

RULES = {"preset": "dominican", "target": 500, "turn_seconds": 30}


def alone_with_bots(rules: dict = RULES) -> tuple:
    """A player at seat 0 of a private table, bots in the others, the page open."""
    user = make_players(1, prefix="solo")[0]
    table = tables.create_table(host=user, rules=rules)
    tables.sit(table.pk, user, 0)
    for seat in (1, 2, 3):
        tables.add_bot(table.pk, user, seat, "easy")
    presence.arrive(table.pk, user, "page-1")
    return user, Table.objects.get(pk=table.pk)


def play_own_turn(table: Table, user) -> Table:
    tables.act(
        table.pk,
        user,
        action=legal_actions(hand_state(table))[0],
        version=table.version,
        client_id=f"own-{table.version}",
    )
    return Table.objects.get(pk=table.pk)


def test_a_player_alone_with_bots_who_leaves_finds_the_table_where_it_was():
    user, table = alone_with_bots()
    table = play_own_turn(table, user)
    assert table.status == Table.Status.PLAYING and table.paused is None
    before = (table.version, table.state, table.match)

    presence.leave(table.pk, "page-1")  # a phone call: the page is closed
    table.refresh_from_db()
    assert table.offline == [0] and table.paused is not None
    closes = table.paused + tables.PAUSED_CLOSES_AFTER
    assert table.deadline == closes  # no turn clock: the time the table would close
    assert not timers.sweep()  # nothing is due: the bots do not play on alone
    assert not tables.time_out(table.pk, table.version)
    assert (table.version, table.state, table.match) == before
    assert not Action.objects.filter(table=table, auto=True).exists()

    presence.arrive(table.pk, user, "page-2")  # back, an hour later or a minute
    table.refresh_from_db()
    assert table.paused is None and table.offline == []
    assert (table.version, table.state, table.match) == before  # where it was
    left = (table.deadline - timezone.now()).total_seconds()
    assert RULES["turn_seconds"] - 3 < left <= RULES["turn_seconds"]  # the turn afresh
    assert hand_state(table).turn == 0
    table = play_own_turn(table, user)
    assert table.version > before[0]


def test_a_paused_table_nobody_returns_to_closes_unrated():
    user, table = alone_with_bots()
    presence.leave(table.pk, "page-1")
    table = overdue(Table.objects.get(pk=table.pk))  # the stated time has passed
    swept_just_now()
    assert timers.sweep() == 1
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED and table.finished is not None
    assert finish_reason(table) == "closed" and table.forfeit_side is None
    assert table.deadline is None
    assert not RatedMatch.objects.filter(table=table).exists()
    assert not Seat.objects.get(table=table, number=0).bot


def test_a_seat_left_to_a_bot_alone_is_taken_back_and_the_match_goes_on():
    """Online but idle for a whole hand: a bot takes the seat, and with nobody else there the
    table waits between hands (it does not finish) until the player takes the seat back."""
    user, table = alone_with_bots({"preset": "dominican", "target": 500, "turn_seconds": 5})
    while table.status == Table.Status.PLAYING:  # every turn of the player's runs out
        tables.time_out(overdue(table).pk, table.version)
        table.refresh_from_db()
    assert table.status == Table.Status.BETWEEN
    assert Seat.objects.get(table=table, number=0).bot
    assert table.paused is not None and table.ready == [0, 1, 2, 3]
    scores = table.match["scores"]
    tables.press_next(table.pk, user)  # the bot holds the seat: nothing starts
    assert Table.objects.get(pk=table.pk).version == table.version

    tables.take_back(table.pk, user)
    table.refresh_from_db()
    assert table.paused is None and table.status == Table.Status.BETWEEN
    assert table.ready == [1, 2, 3] and table.deadline is None  # the player is there
    tables.press_next(table.pk, user)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and table.hand_number == 2
    assert table.match["scores"] == scores  # the match goes on from its score
    assert not Seat.objects.get(table=table, number=0).bot


def test_bots_never_fill_a_table_without_a_person():
    user = make_players(1, prefix="host")[0]
    table = tables.create_table(host=user, rules="dominican")
    for seat in (0, 1, 2):
        tables.add_bot(table.pk, user, seat)
    with pytest.raises(tables.TableError) as refused:
        tables.add_bot(table.pk, user, 3)
    assert refused.value.code == "no_player"
    table.refresh_from_db()
    assert table.status == Table.Status.WAITING
    assert not Seat.objects.get(table=table, number=3).taken
    tables.sit(table.pk, user, 3)
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING


def test_a_table_with_two_people_pauses_only_when_both_are_away():
    host, guest = make_players(2, prefix="duo")
    table = tables.create_table(host=host, rules=RULES)
    tables.sit(table.pk, host, 0)
    tables.sit(table.pk, guest, 2)
    tables.add_bot(table.pk, host, 1)
    tables.add_bot(table.pk, host, 3)
    presence.arrive(table.pk, host, "host-page")
    presence.arrive(table.pk, guest, "guest-page")
    presence.leave(table.pk, "host-page")
    table.refresh_from_db()
    assert table.paused is None and table.offline == [0]
    presence.leave(table.pk, "guest-page")
    table.refresh_from_db()
    assert table.paused is not None and table.offline == [0, 2]
    presence.arrive(table.pk, host, "host-page-2")
    table.refresh_from_db()
    assert table.paused is None
    assert table.deadline < timezone.now() + timedelta(seconds=RULES["turn_seconds"] + 1)


def test_in_the_browser_a_phone_call_pauses_the_table_and_it_resumes(chromium, asgi_server):
    """The page closed for a while: the table waits (the bots do not play on alone); the
    page opened again shows the same hand, the player's turn and their clock running."""
    user, table = in_thread(alone_with_bots)
    in_thread(presence.leave, table.pk, "page-1")  # only the browser's page counts
    page = open_table(chromium, asgi_server, table, user, "phone")
    page.wait_for_selector("#my-hand .tile.playable, #controls button[data-action]")
    tiles = page.eval_on_selector_all("#my-hand .domino", "nodes => nodes.map(n => n.dataset.tile)")
    version = page.get_attribute("#table-app", "data-version")
    page.context.close()  # the phone rings

    def paused() -> Table:
        for _ in range(100):
            found = Table.objects.get(pk=table.pk)
            if found.paused is not None:
                return found
            time.sleep(0.1)
        raise AssertionError("the table did not pause")

    waiting = in_thread(paused)
    assert str(waiting.version) == version and waiting.status == Table.Status.PLAYING
    page = open_table(chromium, asgi_server, table, user, "phone")  # back after the call
    page.wait_for_selector("#my-hand .tile.playable, #controls button[data-action]")
    again = page.eval_on_selector_all("#my-hand .domino", "nodes => nodes.map(n => n.dataset.tile)")
    assert again == tiles and page.get_attribute("#table-app", "data-version") == version
    assert page.inner_text("#status") == "Te toca"
    resumed = in_thread(Table.objects.get, pk=table.pk)
    assert resumed.paused is None and resumed.deadline > timezone.now()
    page.context.close()
