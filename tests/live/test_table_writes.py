"""An action's two writes, each one statement of its own SQL: the action's row
(`Action.objects.record`) and the table's changed fields (`Table.objects.store`)."""

import random

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from games.engine import legal_actions
from games.models import Action, Table
from games.services import tables
from games.services.messages import hand_state

from .conftest import full_table, make_players

pytestmark = pytest.mark.django_db(transaction=True)


def act_once(table: Table, users: list) -> tuple[str, int]:
    state = hand_state(table)
    action = random.Random(7).choice(legal_actions(state))
    tables.act(table.pk, users[state.turn], action=action, version=table.version, client_id="first")
    return action, state.turn


def test_an_action_row_holds_what_create_would_store():
    users = make_players()
    table = full_table(users)
    before = timezone.now()
    action, seat = act_once(table, users)
    row = Action.objects.get(table=table)
    assert (row.hand, row.number, row.seat, row.action) == (table.hand_number, 0, seat, action)
    assert (row.version, row.user, row.client_id, row.auto) == (
        table.version + 1,
        users[seat],
        "first",
        False,
    )
    assert before <= row.created <= timezone.now()


def test_a_client_id_used_twice_is_refused_by_the_database():
    users = make_players()
    table = full_table(users)
    act_once(table, users)
    first = Action.objects.get(table=table)
    with pytest.raises(IntegrityError), transaction.atomic():
        Action.objects.record(
            table=table, hand=1, number=5, seat=0, action="pass", version=99,
            user=first.user, client_id="first",
        )  # fmt: skip
    assert Action.objects.filter(table=table).count() == 1


def test_the_table_is_written_only_at_the_version_it_was_read():
    users = make_players()
    table = full_table(users)
    read, state = table.version, table.state
    table.version = read + 1
    table.ready = [0, 2]
    table.match = {"scores": [3, 4], "history": [{"hand": 1}]}
    table.deadline = timezone.now()
    assert not Table.objects.store(table, ["ready", "match", "deadline"], read - 1)
    assert Table.objects.get(pk=table.pk).version == read
    assert Table.objects.store(table, ["ready", "match", "deadline"], read)
    stored = Table.objects.get(pk=table.pk)
    assert (stored.version, stored.ready, stored.match, stored.deadline) == (
        read + 1,
        [0, 2],
        {"scores": [3, 4], "history": [{"hand": 1}]},
        table.deadline,
    )
    assert stored.state == state and stored.status == table.status  # not written


def test_an_action_updates_the_table_row_in_place(postgres):
    """No index covers a column an action changes, so PostgreSQL updates the row in place
    (heap-only) and writes no index entry; an index of the deadline stopped that."""
    users = make_players()
    table = full_table(users)
    with transaction.atomic(), connection.cursor() as cursor:
        act_once(table, users)
        cursor.execute(
            "SELECT pg_stat_get_xact_tuples_hot_updated(%s::regclass)", [Table._meta.db_table]
        )
        assert cursor.fetchone()[0] == 1  # the action's one update of the table


def test_a_connection_prepares_the_statements_of_every_action(postgres):
    """A pooled connection outlives requests: what every action runs (the table's lock, the
    action's row, the table's update) is parsed and planned once per connection, not on
    every action."""
    users = make_players()
    table = full_table(users)
    rng = random.Random(3)
    for number in range(6):  # no hand ends in six actions
        table = Table.objects.get(pk=table.pk)
        state = hand_state(table)
        action = rng.choice(legal_actions(state))
        tables.act(
            table.pk, users[state.turn], action=action, version=table.version, client_id=f"{number}"
        )
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any(s.startswith(f'INSERT INTO "{Action._meta.db_table}"') for s in prepared)
    assert any(s.startswith(f'UPDATE "{Table._meta.db_table}"') for s in prepared)
    assert any("FOR UPDATE" in s for s in prepared)


@pytest.mark.parametrize(("table", "percent"), [("games_table", 70), ("ratings_ratingchange", 50)])
def test_rows_updated_in_place_keep_room_on_their_pages(postgres, table, percent):
    with connection.cursor() as cursor:
        cursor.execute("SELECT reloptions FROM pg_class WHERE relname = %s", [table])
        assert cursor.fetchone()[0] == [f"fillfactor={percent}"]
