"""Chunked request bodies (no Content-Length, as Node's fetch with a stream or requests with
a generator send them) against a real server: read like any other body, and refused with a
413 as soon as what was read passes the limit, not after reading it all."""

import http.client
import json
import re
import select
import socket
from urllib.parse import urlsplit

import pytest

from league.models import Event
from tests.conftest import in_thread
from tests.league.conftest import build_league

from .conftest import key_for

pytestmark = pytest.mark.django_db(transaction=True)

CHUNK = 64 * 1024


def test_a_chunked_patch_changes_what_it_says(asgi_server):
    league = in_thread(build_league, size=4, tag="c")
    token = in_thread(key_for, league, "write")
    parts = urlsplit(asgi_server)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    body = json.dumps({"venue": "Sede del club, salón 2"}).encode()
    connection.request(
        "PATCH",
        f"/api/v1/events/{league.event.slug}/",
        body=iter([body[:10], body[10:]]),  # an iterable: sent chunked, no Content-Length
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    response = connection.getresponse()
    answer = json.loads(response.read())
    assert response.status == 200, answer
    assert answer["venue"] == "Sede del club, salón 2"
    assert in_thread(lambda: Event.objects.get(pk=league.event.pk).venue) == answer["venue"]


def send_chunked(url: str, path: str, total: int) -> tuple[bytes, int]:
    """POST `total` bytes chunked, stopping as soon as an answer comes; the answer's head
    and body as far as read, and how many bytes of the body were sent before it."""
    parts = urlsplit(url)
    with socket.create_connection((parts.hostname, parts.port), timeout=30) as sock:
        sock.sendall(
            f"POST {path} HTTP/1.1\r\nHost: {parts.hostname}\r\n"
            "Transfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n".encode()
        )
        sent, chunk = 0, b"[" + b" " * (CHUNK - 1)
        while sent < total:
            if select.select([sock], [], [], 0)[0]:
                break  # the server answered already
            try:
                sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            except (BrokenPipeError, ConnectionResetError):
                break
            sent += len(chunk)
        answer = b""
        while not complete(answer):
            data = sock.recv(65536)
            if not data:
                break
            answer += data
        return answer, sent


def complete(answer: bytes) -> bool:
    head, found, body = answer.partition(b"\r\n\r\n")
    length = re.search(rb"(?i)content-length: *(\d+)", head)
    return bool(found and length and len(body) >= int(length[1]))


def test_a_large_chunked_body_is_refused_once_past_the_limit(asgi_server):
    answer, sent = send_chunked(asgi_server, "/api/v1/adjudicate", 50 * 1024 * 1024)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413"), answer[:300]
    assert json.loads(body)["error"]["code"] == "too_large"
    # Refused on what was read: the server answered long before the 50 MB were sent.
    assert sent < 10 * 1024 * 1024


def test_a_large_chunked_form_is_refused_too(asgi_server):
    answer, sent = send_chunked(asgi_server, "/accounts/login/", 50 * 1024 * 1024)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:300]
    assert sent < 20 * 1024 * 1024
