"""The arena (#34): pairs and single players join and leave at any time, free pairs are
seated at live tables against the nearest score and never the same opponents twice in a
row, a win scores 2 and double after two wins in a row, at the end no table opens and the
matches in play finish and count, and the event finishes once with its podium. On the
real services (the table services, the autopilot's tick), embedded or on PostgreSQL."""

import random
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone, translation

from games.models import Table
from games.services import autopilot as live_autopilot
from league.models import ArenaGame, ArenaSpot, AuditEntry, Autopilot, Event
from league.services import arena, autopilot
from league.services.errors import ServiceError
from tests.tournaments.conftest import build, make_user

from .conftest import RULES, bot_step

pytestmark = pytest.mark.django_db(transaction=True)

# A table socket of an earlier test in this process leaves its server's sweeper running, and
# the sweeper ticks every due online event too: a step the test expects may have been taken
# by it already. So the tests read what was done (tables, scores, the audit log) and accept a
# tick that finds its step taken; exactly once is the audit log's count.
FIRST_TICKS = (["started", "2 seated"], ["2 seated"], [])


def arena_event(tag: str, pairs: int = 0, singles: int = 0, minutes: int = 10):
    """An online arena with `pairs` registered pairs and `singles` single players (their
    users in `data.singles`), its start a moment ago, nobody in it yet."""
    data = build(Event.Format.ARENA, pairs, tag=tag)
    Event.objects.filter(pk=data.event.pk).update(
        mode=Event.Mode.ONLINE, status=Event.Status.REGISTRATION, rule_overrides=RULES
    )
    data.event.refresh_from_db()
    starts = timezone.now() + timedelta(minutes=5)
    pilot = autopilot.configure(data.organiser, data.event, starts=starts, arena_minutes=minutes)
    Autopilot.objects.filter(pk=pilot.pk).update(starts=timezone.now() - timedelta(seconds=1))
    data.singles = [make_user(f"s{i}{tag}", data.club) for i in range(singles)]
    return data


@transaction.atomic
def join_all(data) -> None:
    for entry in data.entries:
        arena.join(entry.player_1.user, data.event)
    for user in data.singles:
        arena.join(user, data.event)


def live(event: Event):
    return Table.objects.filter(arena_game__event=event).exclude(status=Table.Status.FINISHED)


def play_all(event: Event, rng: random.Random) -> int:
    """Bots play every arena table in play to its end; how many."""
    finished = 0
    for table in live(event).order_by("pk"):
        while table.status in (Table.Status.PLAYING, Table.Status.BETWEEN):
            bot_step(table, rng)
            table.refresh_from_db()
        finished += 1
    return finished


def end_now(event: Event) -> None:
    """The arena's clock has run out."""
    Autopilot.objects.filter(event=event).update(
        round_deadline=timezone.now() - timedelta(seconds=1)
    )


def expected_score(entry_id: int, games: list[ArenaGame]) -> int:
    """The streak rule replayed over an entry's games: 2 a win, 4 after two wins in a row."""
    score = streak = 0
    for game in games:
        if entry_id not in game.entries or game.winner is None:
            continue
        if game.winner == (0 if entry_id in game.side_a else 1):
            score += 4 if streak >= 2 else 2
            streak += 1
        else:
            streak = 0
    return score


def assert_never_same_opponents_twice(games: list[ArenaGame]) -> None:
    last: dict[int, list[int]] = {}
    for game in games:
        for side, other in ((game.side_a, game.side_b), (game.side_b, game.side_a)):
            for entry_id in side:
                assert last.get(entry_id) != sorted(other), (entry_id, other)
                last[entry_id] = sorted(other)


def run_arena(data, rng: random.Random, turns: int = 6) -> list[list[str]]:
    steps = [live_autopilot.tick(data.event.pk)]
    for _ in range(turns):
        play_all(data.event, rng)
        steps.append(live_autopilot.tick(data.event.pk))
    return steps


def test_an_individual_arena_seats_free_players_scores_streaks_and_finishes_once():
    rng = random.Random(34)
    data = arena_event("ai", singles=9)
    join_all(data)
    assert live_autopilot.tick(data.event.pk) in FIRST_TICKS
    assert live(data.event).count() == 2  # nine players: two tables, one waits
    run_arena(data, rng, turns=6)
    event = data.event
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    games = list(ArenaGame.objects.filter(event=event).order_by("started", "pk"))
    assert len(games) >= 10
    assert all(len(game.side_a) == len(game.side_b) == 2 for game in games)
    assert_never_same_opponents_twice(games)
    for spot in ArenaSpot.objects.filter(event=event):
        assert spot.score == expected_score(spot.pk, games)  # per player
        assert spot.score == sum(game.awarded.get(str(spot.pk), 0) for game in games)

    # the end: the tables in play finish and count, none opens
    playing = live(event).count()
    assert playing == 2
    end_now(event)
    assert live_autopilot.tick(event.pk) in (["deadline"], [])
    assert live(event).count() == playing
    assert play_all(event, rng) == playing
    assert live_autopilot.tick(event.pk) in (["finished"], [])
    assert live_autopilot.tick(event.pk) == []
    assert ArenaGame.objects.filter(event=event).count() == len(games)
    assert not ArenaGame.objects.filter(event=event, ended__isnull=True).exists()
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    log = AuditEntry.objects.filter(event=event)
    assert log.filter(action="autopilot.finish").count() == 1
    podium = log.get(action="autopilot.finish").after["podium"]
    best = max(ArenaSpot.objects.filter(event=event), key=lambda spot: spot.score)
    assert podium[0][0] == 1 and podium[0][1] in {
        spot.pk for spot in ArenaSpot.objects.filter(event=event, score=best.score)
    }
    with pytest.raises(ServiceError) as refused:
        arena.join(data.singles[0], event)
    assert refused.value.code == "arena_over"


def test_pairs_and_single_players_share_an_arena_the_server_partners_the_singles():
    rng = random.Random(7)
    data = arena_event("ap", pairs=3, singles=2)
    join_all(data)
    assert live_autopilot.tick(data.event.pk) in FIRST_TICKS
    assert live(data.event).count() == 2
    games = list(ArenaGame.objects.filter(event=data.event))
    singles = {spot.pk for spot in ArenaSpot.objects.filter(entry__player_2__isnull=True)}
    assert sum(1 for game in games for side in (game.side_a, game.side_b) if len(side) == 2) == 1
    assert singles <= {entry for game in games for entry in game.entries}
    assert not ArenaSpot.objects.filter(event=data.event, waiting__isnull=False).exists()
    for table in live(data.event):
        users = [seat.user_id for seat in table.seats.order_by("number")]
        game = table.arena_game
        first_side = [u for entry_id in game.side_a for u in _users(entry_id)]
        assert {users[0], users[2]} == set(first_side)  # partners face each other
    run_arena(data, rng, turns=4)
    games = list(ArenaGame.objects.filter(event=data.event).order_by("started", "pk"))
    assert_never_same_opponents_twice(games)
    for spot in ArenaSpot.objects.filter(event=data.event):
        assert spot.score == expected_score(spot.pk, games)


def _users(entry_id: int) -> list[int]:
    entry = ArenaSpot.objects.get(pk=entry_id).entry
    return [p.user_id for p in entry.players]


def test_the_streak_rule_double_after_two_wins_until_a_loss():
    data = arena_event("st", pairs=2)
    join_all(data)
    a, b = data.entries
    live_autopilot.tick(data.event.pk)
    earned = []
    for winner_is_a in (True, True, True, True, False, True):
        game = ArenaGame.objects.get(event=data.event, ended__isnull=True)
        side_of_a = 0 if a.pk in game.side_a else 1
        assert arena.game_result(game.pk, side_of_a if winner_is_a else 1 - side_of_a)
        assert not arena.game_result(game.pk, side_of_a)  # counted once
        earned.append(ArenaGame.objects.get(pk=game.pk).awarded[str(a.pk)])
        Table.objects.filter(arena_game=game).update(status=Table.Status.FINISHED)
        # the same two pairs again at once would be the same opponents twice in a row
        assert live_autopilot.tick(data.event.pk) == []
        ArenaSpot.objects.filter(event=data.event).update(last_opponents=[])
        assert live_autopilot.tick(data.event.pk) in (["1 seated"], [])
        assert ArenaGame.objects.filter(event=data.event, ended__isnull=True).count() == 1
    assert earned == [2, 2, 4, 4, 0, 2]
    spot = ArenaSpot.objects.get(pk=a.pk)
    assert (spot.score, spot.streak, spot.played, spot.won) == (14, 1, 6, 5)
    rows = arena.table(data.event)
    assert [row.entry.pk for row in rows] == [a.pk, b.pk] and rows[0].position == 1


def test_leaving_stops_seating_and_a_match_in_play_still_counts():
    rng = random.Random(3)
    data = arena_event("lv", pairs=2)
    join_all(data)
    live_autopilot.tick(data.event.pk)
    leaver = data.entries[0].player_1.user
    arena.leave(leaver, data.event)
    play_all(data.event, rng)
    live_autopilot.tick(data.event.pk)
    spot = ArenaSpot.objects.get(pk=data.entries[0].pk)
    assert (spot.present, spot.played, spot.waiting) == (False, 1, None)
    assert not live(data.event).exists()  # one pair alone waits
    arena.join(data.entries[0].player_2.user, data.event)  # either player of the pair
    ArenaSpot.objects.filter(event=data.event).update(last_opponents=[])
    assert live_autopilot.tick(data.event.pk) in (["1 seated"], [])
    assert live(data.event).count() == 1


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "You are in the arena already."),
        ("es", "Ya estás en la arena."),
        ("pt-br", "Você já está na arena."),
    ],
)
def test_bad_input_is_refused_with_its_code_and_nothing_changes(language, message):
    data = arena_event(f"bi{language[:2]}", pairs=1, singles=1)
    user = data.singles[0]
    with pytest.raises(ServiceError) as refused:
        arena.leave(user, data.event)
    assert refused.value.code == "not_in"
    arena.join(user, data.event)
    before = list(ArenaSpot.objects.values_list("pk", "present", "waiting"))
    entries = data.event.entries.count()
    with translation.override(language), pytest.raises(ServiceError) as refused:
        arena.join(user, data.event)
    assert refused.value.code == "already_in"
    with translation.override(language):
        assert str(refused.value.message) == message
    end_now(data.event)
    with pytest.raises(ServiceError) as refused:
        arena.join(data.entries[0].player_1.user, data.event)
    assert refused.value.code == "arena_over"
    assert list(ArenaSpot.objects.values_list("pk", "present", "waiting")) == before
    assert data.event.entries.count() == entries
    pilot = Autopilot.objects.get(event=data.event)
    Autopilot.objects.filter(pk=pilot.pk).update(started=None, round_deadline=None)
    Event.objects.filter(pk=data.event.pk).update(status=Event.Status.REGISTRATION)
    with pytest.raises(ServiceError) as refused:
        autopilot.configure(
            data.organiser,
            data.event,
            starts=timezone.now() + timedelta(minutes=5),
            arena_minutes=2,
        )
    assert refused.value.code == "bad_arena_minutes"
    assert Autopilot.objects.get(event=data.event).arena_minutes == 10


def test_racing_ticks_seat_each_free_pair_once(postgres):
    from .test_faults import race

    data = arena_event("rc", singles=16)
    join_all(data)
    outcomes = race(4, live_autopilot.tick, data.event.pk)
    assert sorted(map(tuple, outcomes)) == [(), (), (), ("started", "4 seated")]
    assert ArenaGame.objects.filter(event=data.event).count() == 4
    games = ArenaGame.objects.filter(event=data.event)
    seated = [entry for game in games for entry in game.entries]
    assert len(seated) == len(set(seated)) == 16
    assert live(data.event).count() == 4
    table = live(data.event).first()
    outcomes = race(3, arena.game_result, table.arena_game_id, 0)
    assert sorted(outcomes) == [False, False, True]


def test_the_organiser_pauses_resumes_and_extends_an_arena_from_its_page(client, settings):
    """The arena's own page carries the organiser's controls (no one else sees them): a
    pause stops seating, and the window is extended at the arena's clock speed, only while
    the arena runs; each refusal names its reason and changes nothing."""
    settings.ARENA_CLOCK_FACTOR = 2
    data = arena_event("oc", pairs=2)
    page = f"/events/{data.event.slug}/"
    control = f"/events/{data.event.slug}/autopilot/"
    with pytest.raises(ServiceError) as refused:
        live_autopilot.extend_round(data.organiser, data.event, 5)
    assert refused.value.code == "not_in_play"  # not started yet

    client.force_login(data.entries[0].player_1.user)
    assert 'id="arena-controls"' not in client.get(page).content.decode()
    assert client.post(control + "pause/").status_code == 403
    client.force_login(data.organiser)
    assert 'id="arena-controls"' in client.get(page).content.decode()
    answer = client.post(control + "pause/", HTTP_REFERER=f"http://testserver{page}")
    assert answer.status_code == 302 and answer["Location"].endswith(page)
    join_all(data)
    assert live_autopilot.tick(data.event.pk) == []  # paused: nobody is seated
    assert not live(data.event).exists()
    client.post(control + "resume/")
    live_autopilot.tick(data.event.pk)
    assert live(data.event).count() == 1

    deadline = Autopilot.objects.get(event=data.event).round_deadline
    client.post(control + "extend/", {"minutes": "10"})
    assert Autopilot.objects.get(event=data.event).round_deadline == deadline + timedelta(minutes=5)
    assert AuditEntry.objects.filter(event=data.event, action="autopilot.extend_arena").count() == 1
    assert 'id="autopilot-extend"' in client.get(page).content.decode()
    end_now(data.event)
    with translation.override("es"), pytest.raises(ServiceError) as refused:
        live_autopilot.extend_round(data.organiser, data.event, 5)
    assert refused.value.code == "not_in_play"
    with translation.override("es"):
        assert "solo se puede alargar una arena en curso" in str(refused.value.message)
    assert Autopilot.objects.get(event=data.event).round_deadline < timezone.now()
