"""`Table.objects.with_seats`: its own SQL loads exactly what the ORM loads."""

import threading

import pytest
from django.db import connection, transaction
from django.utils import timezone

from games.models import Seat, Table

from .conftest import full_table, make_players

# The live tests run in threads of their own (see conftest), so each commits its data.
pytestmark = pytest.mark.django_db(transaction=True)


def fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


@pytest.mark.parametrize("lock", [False, True])
def test_a_table_and_its_seats_load_as_the_orm_loads_them(lock):
    users = make_players()
    table = full_table(users)
    Seat.objects.filter(table=table, number=2).update(bot=True)
    Table.objects.filter(pk=table.pk).update(finished=timezone.now(), forfeit_side=1)
    with transaction.atomic():
        loaded = Table.objects.with_seats(table.pk, lock=lock)
    expected = Table.objects.get(pk=table.pk)
    assert fields(loaded) == fields(expected)
    assert isinstance(loaded.state, dict) and loaded.deadline.tzinfo is not None
    seats = list(loaded.seats.all())
    assert [fields(s) for s in seats] == [fields(s) for s in expected.seats.order_by("number")]
    assert [s.bot for s in seats] == [False, False, True, False]
    assert all(s.table is loaded for s in seats)


def test_a_missing_table_is_none():
    assert Table.objects.with_seats(10**9) is None
    assert Table.objects.with_seats(10**9, lock=True) is None


def test_the_lock_holds_other_writers_until_commit(postgres):
    table = full_table(make_players())
    locked, waited = threading.Event(), []

    def press_while_locked() -> None:
        locked.wait()
        with transaction.atomic():
            Table.objects.with_seats(table.pk, lock=True)
            waited.append(Table.objects.get(pk=table.pk).hand_number)
        connection.close()

    other = threading.Thread(target=press_while_locked)
    other.start()
    with transaction.atomic():
        Table.objects.with_seats(table.pk, lock=True)
        locked.set()
        other.join(timeout=0.5)
        assert other.is_alive()  # it waits on the row
        Table.objects.filter(pk=table.pk).update(hand_number=7)
    other.join(timeout=10)
    assert waited == [7]  # and reads what the first transaction committed
