"""Updates, corrections and late results: the pool always equals a computation from scratch."""

import random
from datetime import timedelta

import pytest
from django.core.management import call_command

from league.models import Event, Match, Organisation, Result
from league.ratings import services
from league.ratings.models import RatedMatch, Rating, RatingChange, RatingPool
from league.services.errors import ServiceError

from .conftest import Pool, build_pool, by_openskill


def stored(pool: Pool) -> dict[int, tuple[float, float]]:
    return {r.player_id: (r.mu, r.sigma) for r in Rating.objects.filter(pool=pool.pool)}


def recalculate(pool: Pool) -> int:
    return services.recalculate(pool.pool.pk)


def play_random(pool: Pool, count: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    for _ in range(count):
        four = tuple(rng.sample(range(len(pool.players)), 4))
        games_a = rng.choice([0, 1, 2])
        pool.play(four, games_a, 2 - games_a if games_a != 1 else 1)


def test_hand_worked_matches_agree_with_openskill(pool):
    pool.play((0, 1, 2, 3), 2, 0)
    pool.play((0, 2, 1, 3), 0, 2)
    pool.play((1, 2, 0, 3), 1, 1)
    assert recalculate(pool) == 1
    assert stored(pool) == by_openskill(pool)
    first = Rating.objects.get(pool=pool.pool, player=pool.players[3])
    assert first.matches == 3
    assert first.ordinal == first.mu - 3 * first.sigma


def test_each_confirmation_rates_incrementally_like_a_replay(pool):
    for i in range(6):
        pool.play((i % 8, (i + 1) % 8, (i + 2) % 8, (i + 3) % 8), 2, 0)
        recalculate(pool)
        assert stored(pool) == by_openskill(pool)
    assert RatingChange.objects.filter(pool=pool.pool).count() == 6 * 4


def test_a_correction_recalculates_from_that_match_like_from_scratch(pool):
    play_random(pool, 30)
    recalculate(pool)
    before = stored(pool)
    match = pool.played[9][0]
    pool.correct(match, 0, 2 if pool.played[9][2] else 0)
    assert (
        RatingPool.objects.get(pk=pool.pool.pk).dirty_from
        == RatedMatch.objects.get(match=match).played_at
    )
    assert recalculate(pool) == 1
    after = stored(pool)
    assert after != before
    assert after == by_openskill(pool)
    # From scratch, by the operators' command, gives the very same numbers.
    call_command("recalculate_ratings", "--pool", str(pool.pool.pk), verbosity=0)
    assert stored(pool) == after
    assert RatingChange.objects.filter(pool=pool.pool).count() == 30 * 4


def test_a_late_result_on_an_earlier_day_is_rated_in_its_place(pool):
    for day in (1, 2, 3, 5):
        pool.play((0, 1, 2, 3), 2, 0, day=day)
    recalculate(pool)
    pool.play((2, 3, 0, 1), 2, 0, day=4)  # ruled on later, played before the last match
    assert recalculate(pool) == 1
    assert stored(pool) == by_openskill(pool)
    last = RatingChange.objects.filter(pool=pool.pool, player=pool.players[0]).latest("played_at")
    assert last.match_id == pool.played[3][0].pk


def test_replaying_twice_changes_nothing(pool):
    play_random(pool, 12)
    recalculate(pool)
    first = stored(pool)
    services.mark_dirty(pool.pool.pk, services.FROM_START)
    recalculate(pool)
    services.mark_dirty(pool.pool.pk, pool.played[5][0].scheduled)
    recalculate(pool)
    assert stored(pool) == first
    assert RatingChange.objects.filter(pool=pool.pool).count() == 12 * 4


def changes(pool: Pool) -> list[tuple]:
    return list(
        RatingChange.objects.filter(pool=pool.pool)
        .order_by("match_id", "player_id")
        .values_list(
            "match_id",
            "player_id",
            "played_at",
            "mu_before",
            "sigma_before",
            "mu_after",
            "sigma_after",
        )
    )


def test_moved_dropped_and_late_matches_replay_like_from_scratch(pool, monkeypatch):
    """A replay over several batches, where the undone changes are overwritten in place (on
    PostgreSQL): a match moved to a later day, one no longer rated, a late one."""
    monkeypatch.setattr(services, "BATCH", 3)
    play_random(pool, 12)
    recalculate(pool)
    moved, dropped = pool.played[2][0], pool.played[5][0]
    moved.scheduled += timedelta(days=7)
    moved.save(update_fields=["scheduled"])
    services.result_counted(moved)
    dropped.results.filter(status=Result.Status.CONFIRMED).update(forfeit=True)
    services.result_counted(dropped)
    pool.play((4, 5, 6, 7), 2, 0, day=3)
    assert recalculate(pool) == 1
    replayed, ratings = changes(pool), stored(pool)
    assert len(replayed) == 12 * 4
    assert not RatingChange.objects.filter(match=dropped).exists()
    # The same, from nothing: every change written anew.
    RatingChange.objects.filter(pool=pool.pool).delete()
    Rating.objects.filter(pool=pool.pool).delete()
    services.mark_dirty(pool.pool.pk, services.FROM_START)
    recalculate(pool)
    assert changes(pool) == replayed and stored(pool) == ratings
    pool.played = [
        (Match.objects.get(pk=m.pk), *rest) for m, *rest in pool.played if m.pk != dropped.pk
    ]
    assert ratings == by_openskill(pool)


def test_forfeits_and_incomplete_pairs_are_not_rated(pool):
    pool.play((0, 1, 2, 3), 2, 0)
    pool.play((4, 5, 6, 7), 0, 2, forfeit=True)
    recalculate(pool)
    assert set(stored(pool)) == {p.pk for p in pool.players[:4]}


def test_an_event_that_stops_feeding_takes_its_ratings_away(pool):
    pool.play((0, 1, 2, 3), 2, 0)
    recalculate(pool)
    services.feed(pool.event, None)
    recalculate(pool)
    assert not Rating.objects.filter(pool=pool.pool).exists()
    assert not RatingChange.objects.filter(pool=pool.pool).exists()
    services.feed(pool.event, pool.pool)
    recalculate(pool)
    assert stored(pool) == by_openskill(pool)


def test_an_event_moved_to_another_pool_is_replayed_in_both(db):
    first, second = build_pool(tag="1"), build_pool(tag="2")
    first.play((0, 1, 2, 3), 2, 0)
    recalculate(first)
    club = first.event.organisation
    club.parent = second.pool.organisation  # the first club is a member of the second
    club.save()
    services.feed(first.event, second.pool)
    recalculate(first)
    recalculate(second)
    assert not Rating.objects.filter(pool=first.pool).exists()
    assert Rating.objects.filter(pool=second.pool).count() == 4


def test_which_events_may_feed_which_pool(db):
    club = Organisation.objects.create(name="Club A", slug="club-a")
    other = Organisation.objects.create(name="Club B", slug="club-b")
    board = Event.objects.create(organisation=club, name="Liga", slug="liga-a")
    online = Event.objects.create(
        organisation=club, name="Online", slug="online-a", mode=Event.Mode.ONLINE
    )
    services.check_feed(board, services.organisation_pool(club))
    services.check_feed(online, services.global_pool())
    refused = [
        (board, services.organisation_pool(other)),
        (online, services.organisation_pool(club)),
        (board, services.global_pool()),
    ]
    for event, pool in refused:
        with pytest.raises(ServiceError) as error:
            services.feed(event, pool)
        assert error.value.code == "wrong_pool"
    assert services.global_pool() == services.global_pool()
    assert RatingPool.objects.filter(kind=RatingPool.Kind.GLOBAL).count() == 1
