"""A round's turnover is quick (#34): the events' steps have a queue and a worker of their
own (`live`), never behind each hand's statistics and fair-play checks; the end of a pause
asks for the next round itself, with no beat; a round's tables open in a fixed number of
queries however many there are, and their players are told in one insert, each in their
own language."""

import random
import socket
from datetime import timedelta

import pytest
import redis
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.engine import bot_action
from games.models import Seat, Table
from games.services import autopilot as live_autopilot
from games.services import tables
from games.services.messages import hand_state
from league.models import AuditEntry, Event, Notification, Player
from league.notifications import notify_each
from tests.conftest import run_async, start_server, stop
from tests.live.conftest import make_players

from .test_faults import (
    event_for_faults,
    play_round_at,
    quiet_redis,
    start_worker,
    wait_until,
)

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_live_steps_are_routed_to_their_own_queue():
    from config.celery import app

    router = app.amqp.router
    for name in ("run_autopilots", "autopilot_tick", "time_out_table", "sweep_tables"):
        assert router.route({}, f"games.tasks.{name}")["queue"].name == settings.LIVE_QUEUE
    for name in ("fairplay.check_hand", "stats.count_live_hand", "league.tasks.send_email"):
        assert router.route({}, name)["queue"].name == settings.CELERY_TASK_DEFAULT_QUEUE


def test_rounds_turn_over_on_the_live_worker_alone_while_the_slow_queue_waits(
    postgres, redis_layer, service_env, log_dir, tmp_path
):
    """A web server and a worker reading only the live queue, on a Redis that no other
    worker and no beat reads: the players' last results ask for the round's end, the pause's
    end asks for the next round (no beat), and every hand's statistics and fair-play checks
    wait, unread, in the default queue meanwhile."""
    env = service_env | {"WEB_SWEEPER": "0", "REDIS_URL": quiet_redis(service_env["REDIS_URL"])}
    broker = redis.Redis.from_url(env["REDIS_URL"])
    broker.flushdb()
    data, pilot = event_for_faults("queue", size=4, rounds=2, starts_in=60)
    pilot.pause_seconds = 2
    pilot.save(update_fields=["pause_seconds"])
    assert live_autopilot.tick(data.event.pk, pilot.starts + timedelta(seconds=1))[-1] == (
        "round 1 started"
    )
    name = f"live-{data.event.pk}@{socket.gethostname()}"
    worker = start_worker(env, tmp_path / "live.log", name, settings.LIVE_QUEUE)
    server, url = start_server(env, log_dir / "turnover-web.log")
    rng = random.Random(34)

    try:
        run_async(play_round_at(url, data.event, 1, rng))
        wait_until(
            lambda: Table.objects.filter(fixture__event=data.event).count() == 4,
            60,
            "round 2's tables, by the live worker alone",
        )
    finally:
        stop(server)
        stop(worker)
    log = AuditEntry.objects.filter(event=data.event)
    ended = log.get(action="autopilot.round_end", after__round=1).at
    started = log.filter(action="autopilot.round_start").order_by("at").last().at
    assert started - ended >= timedelta(seconds=2)  # after the pause, asked by its end
    prefix = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("global_keyprefix", "")
    slow = [task for task in broker.lrange(f"{prefix}celery", 0, -1)]
    assert any(b"fairplay.check_hand" in task for task in slow)  # never read meanwhile


def test_a_round_of_many_tables_opens_in_as_many_queries_as_a_round_of_two():
    def opened(count: int) -> tuple[int, list[Table], list]:
        users = make_players(4 * count, f"o{count}-")
        new = [
            tables.NewTable([(u, u.username) for u in users[4 * i : 4 * i + 4]])
            for i in range(count)
        ]
        with CaptureQueriesContext(connection) as queries:
            made = tables.open_tables({"preset": "tournament", "target": 1}, new)
        return len(queries), made, users

    few, _made, _users = opened(2)
    many, made, users = opened(12)
    assert many == few
    assert len({table.code for table in made}) == 12
    table = Table.objects.get(pk=made[5].pk)
    seats = list(Seat.objects.filter(table=table).order_by("number"))
    assert [seat.user_id for seat in seats] == [u.pk for u in users[20:24]]
    assert table.status == Table.Status.PLAYING and table.version == 1
    assert table.kind == Table.Kind.FIXTURE and table.absence == Table.Absence.FORFEIT
    assert table.offline == [0, 1, 2, 3] and table.deadline is not None
    state = hand_state(table)  # dealt: the seat to play plays
    mover = seats[state.turn].user
    action = bot_action(state, random.Random(1), "easy")
    tables.act(table.pk, mover, action=action, version=1, client_id="first")
    assert Table.objects.get(pk=table.pk).version == 2


def test_the_seated_are_told_in_one_insert_each_in_their_language():
    from django.utils.translation import gettext_lazy as _

    users = make_players(3, "lang")
    for user, language in zip(users, ("pt-br", "en", ""), strict=True):
        Player.objects.filter(user=user).update(language=language)
    event = Event(name="Copa")
    links = [(user.pk, f"/tables/{n}/") for n, user in enumerate(users)]
    with CaptureQueriesContext(connection) as queries:
        notify_each(links, _("%(event)s: go to your table."), event=event)
    read = [q["sql"].split()[0] for q in queries.captured_queries]
    assert [q for q in read if q not in ("BEGIN", "COMMIT")] == ["SELECT", "INSERT"]
    texts = {n.user_id: (n.message, n.url) for n in Notification.objects.filter(user__in=users)}
    assert texts == {
        users[0].pk: ("Copa: vá para a sua mesa.", "/tables/0/"),
        users[1].pk: ("Copa: go to your table.", "/tables/1/"),
        users[2].pk: ("Copa: ve a tu mesa.", "/tables/2/"),  # the site's language
    }
