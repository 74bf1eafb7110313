"""Webhooks delivered by a real Celery worker to a real HTTP server on loopback."""

import hashlib
import hmac
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.conf import settings

from league.api import services
from league.api.models import Delivery, Webhook
from league.api.tasks import deliver
from league.api.webhooks import signature
from league.models import Event
from league.services import events
from tests.league.conftest import build_league, play


class Receiver:
    """Answers 500 to the first `failures` requests, then 200; keeps what it received."""

    def __init__(self, failures: int = 0):
        self.failures = failures
        self.received: list[tuple[dict, bytes]] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.received.append((dict(self.headers), body))
                failing = len(receiver.received) <= receiver.failures
                self.send_response(500 if failing else 200)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    made = []

    def make(failures: int = 0) -> Receiver:
        made.append(Receiver(failures))
        return made[-1]

    yield make
    for r in made:
        r.close()


def wait_until(predicate, timeout: float = 30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError("timed out")


def verify(secret: str, headers: dict, body: bytes) -> bool:
    parts = dict(item.split("=", 1) for item in headers["X-Capicua-Signature"].split(","))
    expected = hmac.new(secret.encode(), f"{parts['t']}.".encode() + body, hashlib.sha256)
    return hmac.compare_digest(expected.hexdigest(), parts["v1"])


def test_the_signature_is_hmac_sha256_over_time_and_body():
    header = signature("s3cret", b'{"a":1}', 1700000000)
    digest = hmac.new(b"s3cret", b'1700000000.{"a":1}', hashlib.sha256).hexdigest()
    assert header == f"t=1700000000,v1={digest}"


@pytest.mark.django_db(transaction=True)
def test_a_confirmed_result_is_delivered_signed_and_retried(celery_worker_process, receiver):
    server = receiver(failures=1)
    league = build_league(size=4)
    hook = services.create_webhook(
        league.owner, league.club, server.url, ["result.confirmed", "standings.changed"]
    )
    play(league, league.matches(1)[0], 150, 40)
    wait_until(lambda: Delivery.objects.filter(status="delivered").count() == 2)
    topics = set()
    for headers, body in server.received:
        assert verify(hook.secret, headers, body)
        payload = json.loads(body)
        assert payload["id"] == headers["X-Capicua-Event-Id"]
        assert payload["data"]["event"] == league.event.slug
        topics.add(payload["type"])
        if payload["type"] == "standings.changed":
            assert payload["data"]["standings"] == (
                f"{settings.SITE_URL}/api/v1/events/{league.event.slug}/standings/"
            )
    assert topics == {"result.confirmed", "standings.changed"}
    assert len(server.received) == 3  # one of the two was refused once, then delivered
    retried = Delivery.objects.get(attempts=2)
    assert retried.response_status == 200
    first, second = [b for h, b in server.received if h["X-Capicua-Delivery"] == str(retried.pk)]
    assert first == second


@pytest.mark.django_db(transaction=True)
def test_a_delivery_that_keeps_failing_is_logged_as_failed(celery_worker_process, receiver):
    server = receiver(failures=100)
    league = build_league(size=4, generate=False)
    services.create_webhook(league.owner, league.club, server.url, ["event.finished"])
    events.set_status(league.organiser, league.event, Event.Status.REGISTRATION)
    events.set_status(league.organiser, league.event, Event.Status.RUNNING)
    events.set_status(league.organiser, league.event, Event.Status.FINISHED)
    wait_until(lambda: Delivery.objects.filter(status="failed").exists())
    failed = Delivery.objects.get()
    assert (failed.topic, failed.attempts, failed.response_status) == ("event.finished", 3, 500)
    assert len(server.received) == 3


@pytest.mark.django_db(transaction=True)
def test_published_rounds_are_announced_and_a_delivery_is_sent_once(
    celery_worker_process, receiver
):
    server = receiver()
    league = build_league(size=4, generate=False)
    services.create_webhook(league.owner, league.club, server.url, ["round.published"])
    from league.services import fixtures

    fixtures.generate_fixtures(league.organiser, league.event)
    wait_until(lambda: Delivery.objects.filter(status="delivered").count() == 3)
    rounds = sorted(json.loads(body)["data"]["round"] for _, body in server.received)
    assert rounds == [1, 2, 3]
    delivered = Delivery.objects.first()
    assert deliver.apply(args=[str(delivered.pk)]).get() == "skipped"
    assert len(server.received) == 3


@pytest.mark.django_db
def test_the_owner_sees_the_delivery_log(client, league, receiver):
    hook = services.create_webhook(
        league.owner, league.club, "https://club.example/h", ["event.finished"]
    )
    Delivery.objects.create(
        webhook=hook,
        event_id="00000000-0000-0000-0000-000000000001",
        topic=Webhook.Topic.EVENT_FINISHED,
        body="{}",
        attempts=2,
        status="failed",
        response_status=503,
    )
    client.force_login(league.owner)
    page = client.get(f"/clubs/{league.club.slug}/integrations/").content.decode()
    assert "https://club.example/h" in page and "503" in page
    client.force_login(league.organiser)
    assert client.get(f"/clubs/{league.club.slug}/integrations/").status_code == 403
