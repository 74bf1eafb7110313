"""Two confirmations racing on PostgreSQL: exactly one wins."""

import threading

import pytest
from django.db import IntegrityError, connection, transaction

from league.models import Result
from league.services import results
from league.services.errors import ServiceError
from tests.conftest import in_thread

from .conftest import build_league, game


@pytest.mark.django_db(transaction=True)
def test_two_confirmations_racing_cannot_both_win(postgres):
    league = in_thread(build_league, 4)
    match = league.matches(1)[0]
    proposed = in_thread(
        results.enter_result, league.players(match.entry_a)[0], match, game(100, 40)
    )
    confirmers = [league.organiser, league.players(match.entry_b)[0]]
    barrier = threading.Barrier(2)
    outcomes = []

    def confirm(user):
        try:
            barrier.wait()
            results.confirm_result(user, proposed)
            outcomes.append("ok")
        except ServiceError as error:
            outcomes.append(error.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=confirm, args=(user,)) for user in confirmers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["not_awaiting", "ok"]
    assert Result.objects.filter(match=match, status="confirmed").count() == 1


@pytest.mark.django_db
def test_the_database_refuses_a_second_confirmed_result(league):
    match = league.matches(1)[0]
    fields = dict(match=match, games_a=1, games_b=0, points_a=100, points_b=0)
    Result.objects.create(status="confirmed", **fields)
    with pytest.raises(IntegrityError), transaction.atomic():
        Result.objects.create(status="confirmed", **fields)
    Result.objects.create(status="proposed", **fields)
    with pytest.raises(IntegrityError), transaction.atomic():
        Result.objects.create(status="disputed", **fields)
