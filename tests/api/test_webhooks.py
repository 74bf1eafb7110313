"""Webhooks delivered by a real Celery worker to a real HTTP server on loopback."""

import hashlib
import hmac
import json
import socket
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from celery.exceptions import Retry
from django.conf import settings

from api import services
from api.models import Delivery, Webhook
from api.tasks import deliver
from api.webhooks import signature
from league.models import Event
from league.services import events
from league.services.errors import ServiceError
from tests.league.conftest import build_league, play


class Receiver:
    """Answers 500 to the first `failures` requests, then 200 (or redirects to `redirect`);
    keeps what it received."""

    def __init__(self, failures: int = 0, redirect: str = ""):
        self.failures = failures
        self.received: list[tuple[dict, bytes]] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                receiver.received.append((dict(self.headers), self.rfile.read(length)))
                failing = len(receiver.received) <= receiver.failures
                self.send_response(500 if failing else 302 if redirect else 200)
                if redirect:
                    self.send_header("Location", redirect)
                self.send_header("Content-Length", "27")
                self.end_headers()
                self.wfile.write(b"internal answer 10.0.0.7:22")

            do_GET = do_POST

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver(settings):
    """Receivers on loopback, which webhooks reach only with WEBHOOKS_ALLOW_PRIVATE on (the
    test worker has it on too)."""
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    made = []

    def make(failures: int = 0, redirect: str = "") -> Receiver:
        made.append(Receiver(failures, redirect))
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
def test_the_owner_sees_the_delivery_log(client, league):
    hook = Webhook.objects.create(
        organisation=league.club, url="https://club.example/h", topics=["event.finished"]
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
    Delivery.objects.create(
        webhook=hook,
        event_id="00000000-0000-0000-0000-000000000002",
        topic=Webhook.Topic.EVENT_FINISHED,
        body="{}",
        attempts=1,
        status="failed",
        error="private_url",
    )
    client.force_login(league.owner)
    client.cookies.load({"django_language": "en"})
    page = client.get(f"/clubs/{league.club.slug}/integrations/").content.decode()
    assert "https://club.example/h" in page and "503" in page
    assert "Refused: not a public address" in page
    client.force_login(league.organiser)
    assert client.get(f"/clubs/{league.club.slug}/integrations/").status_code == 403


# Internal addresses ---------------------------------------------------------------------

INTERNAL = [
    "http://127.0.0.1:8000/hook",
    "http://localhost/hook",  # a host name that resolves to 127.0.0.1
    "http://[::1]/hook",
    "http://[::ffff:127.0.0.1]/hook",
    "http://10.0.0.1/hook",
    "http://192.168.1.1/hook",
    "http://100.64.0.1/hook",
    "http://169.254.169.254/latest/meta-data/",
    "http://[fe80::1]/hook",
    "http://224.0.0.1/hook",
    "http://240.0.0.1/hook",
    "http://0.0.0.0/hook",
    "http://[::]/hook",
    "http://[64:ff9b::a00:1]/hook",
    "http://2130706433/hook",
]


@pytest.mark.django_db
@pytest.mark.parametrize("url", INTERNAL)
def test_internal_addresses_are_refused_when_a_webhook_is_added(client, league, url):
    client.force_login(league.owner)
    client.post(
        f"/clubs/{league.club.slug}/integrations/",
        {"hook-url": url, "hook-topics": ["event.finished"]},
    )
    assert not Webhook.objects.exists()
    with pytest.raises(ServiceError) as refused:
        services.create_webhook(league.owner, league.club, url, ["event.finished"])
    assert refused.value.code == "private_url"


@pytest.mark.django_db
def test_a_public_address_is_accepted(league, monkeypatch):
    public = [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.215.14", 443))]
    monkeypatch.setattr(socket, "getaddrinfo", lambda *args, **kwargs: public)
    hook = services.create_webhook(
        league.owner, league.club, "https://club.example/h", ["event.finished"]
    )
    assert hook.url == "https://club.example/h"


def queued(league, url: str) -> Delivery:
    """A delivery to `url`, as if the webhook had been added while the address was allowed."""
    hook = Webhook.objects.create(
        organisation=league.club, url=url, topics=["event.finished"], secret="s"
    )
    return Delivery.objects.create(
        webhook=hook, event_id=uuid.uuid4(), topic="event.finished", body='{"id": "x"}'
    )


@pytest.mark.django_db
def test_delivery_checks_the_address_again(league, receiver, settings):
    server = receiver()
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    for url in (server.url, server.url.replace("127.0.0.1", "localhost")):
        delivery = queued(league, url)
        assert deliver.apply(args=[str(delivery.pk)]).get() == "failed"
        delivery.refresh_from_db()
        assert (delivery.attempts, delivery.error) == (1, "private_url")
    assert server.received == []


@pytest.mark.django_db
def test_delivery_to_a_real_receiver_on_loopback_when_allowed(league, receiver):
    server = receiver()
    delivery = queued(league, server.url.replace("127.0.0.1", "localhost") + "?site=1")
    assert deliver.apply(args=[str(delivery.pk)]).get() == "delivered"
    ((headers, body),) = server.received
    assert body == b'{"id": "x"}' and verify("s", headers, body)
    assert headers["Host"] == f"localhost:{server.server.server_port}"


@pytest.mark.django_db
def test_the_delivery_goes_to_the_address_that_was_checked(league, receiver, monkeypatch):
    """A host name that resolves elsewhere the second time (DNS rebinding) is not looked
    up again: the connection goes to the address checked, with the name in Host."""
    server = receiver()
    lookups = []
    real = socket.getaddrinfo

    def rebinding(host, port, *args, **kwargs):
        if host != "club.example":
            return real(host, port, *args, **kwargs)
        lookups.append(host)
        address = "127.0.0.1" if len(lookups) == 1 else "192.0.2.1"  # then nowhere
        return real(address, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    port = server.server.server_port
    delivery = queued(league, f"http://club.example:{port}/hook")
    assert deliver.apply(args=[str(delivery.pk)]).get() == "delivered"
    assert lookups == ["club.example"]
    ((headers, body),) = server.received
    assert headers["Host"] == f"club.example:{port}" and body == b'{"id": "x"}'


@pytest.mark.django_db
def test_a_redirect_is_not_followed(league, receiver):
    inside = receiver()
    outside = receiver(redirect=inside.url)
    delivery = queued(league, outside.url)
    with pytest.raises(Retry):
        deliver.apply(args=[str(delivery.pk)], throw=True)
    delivery.refresh_from_db()
    assert (delivery.response_status, delivery.error, delivery.status) == (
        302,
        "redirect",
        "pending",
    )
    assert len(outside.received) == 1 and inside.received == []


@pytest.mark.django_db
def test_the_log_shows_no_internal_detail(league, receiver):
    receiver()
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    delivery = queued(league, f"http://127.0.0.1:{port}/hook")
    with pytest.raises(Retry):
        deliver.apply(args=[str(delivery.pk)], throw=True)
    delivery.refresh_from_db()
    assert (delivery.response_status, delivery.error) == (None, "no_connection")
    assert str(port) not in delivery.error_message
