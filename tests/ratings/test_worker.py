"""Through the league's real services and signal, to a real Celery worker process."""

import time

import pytest
from openskill.models import PlackettLuce

from league.models import Result
from league.ratings import services
from league.ratings.models import Rating, RatingPool
from league.services import results
from tests.conftest import in_thread
from tests.league.conftest import build_league, game, play


def wait_until_recalculated(pool: RatingPool, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while services.pending(pool.pk):
        assert time.monotonic() < deadline, "the worker did not recalculate the pool"
        time.sleep(0.2)


def from_scratch(event) -> dict[int, tuple[float, float]]:
    """openskill over the event's counted results, in the pool's order."""
    model = PlackettLuce()
    ratings = {}
    counted = Result.objects.filter(match__event=event, status="confirmed").select_related(
        "match__entry_a", "match__entry_b", "match__rating_slot"
    )
    for result in sorted(counted, key=lambda r: (r.match.rating_slot.played_at, r.match_id)):
        a, b = result.match.entry_a, result.match.entry_b
        four = [a.player_1_id, a.player_2_id, b.player_1_id, b.player_2_id]
        teams = [
            [ratings.get(p) or model.rating() for p in four[:2]],
            [ratings.get(p) or model.rating() for p in four[2:]],
        ]
        new = model.rate(teams, ranks=[0, 1] if result.winner == "a" else [1, 0])
        ratings.update(zip(four, new[0] + new[1], strict=True))
    return {p: (r.mu, r.sigma) for p, r in ratings.items()}


@pytest.mark.django_db(transaction=True)
def test_confirmed_and_corrected_results_are_rated_by_the_worker(celery_worker_process):
    league = build_league(4)
    pool = services.organisation_pool(league.club)
    services.feed(league.event, pool)
    first, second = league.matches(1)
    in_thread(play, league, first, 100, 40)
    in_thread(play, league, second, 30, 100)
    wait_until_recalculated(pool)
    stored = {r.player_id: (r.mu, r.sigma) for r in Rating.objects.filter(pool=pool)}
    assert len(stored) == 8 and stored == from_scratch(league.event)

    in_thread(results.correct_result, league.organiser, first, game(20, 100), note="Wrong side")
    wait_until_recalculated(pool)
    corrected = {r.player_id: (r.mu, r.sigma) for r in Rating.objects.filter(pool=pool)}
    assert corrected != stored and corrected == from_scratch(league.event)
    assert celery_worker_process.poll() is None
