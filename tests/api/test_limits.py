"""The API's rate limits hold under parallel requests: 16 clients at once against a real
server pass exactly the limit, with Redis and with the embedded mode's file cache."""

import collections
import http.client
import threading
from urllib.parse import urlsplit

import pytest

from tests.conftest import in_thread
from tests.league.conftest import build_league

from .conftest import key_for

pytestmark = pytest.mark.django_db(transaction=True)

CLIENTS = 16


def fire(url: str, path: str, each: int, headers: dict[str, str]) -> collections.Counter:
    """CLIENTS connections at once, each asking `path` `each` times; the answers' statuses."""
    parts = urlsplit(url)
    statuses: collections.Counter = collections.Counter()
    lock, start = threading.Lock(), threading.Barrier(CLIENTS)

    def client() -> None:
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
        start.wait()
        for _ in range(each):
            connection.request("GET", path, headers=headers)
            response = connection.getresponse()
            response.read()
            with lock:
                statuses[response.status] += 1
        connection.close()

    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


@pytest.fixture(params=["redis", "embedded"])
def limited_server(request, own_server):
    if request.param == "redis":
        request.getfixturevalue("redis_layer")
    return own_server(
        embedded=request.param == "embedded",
        TRUSTED_PROXIES="1",  # each test counts from an address of its own
        API_RATE_ANON="40/hour",
        API_RATE_KEY="60/hour",
        API_RATE_BAD_KEY="20/hour",
    )


def test_sixteen_anonymous_clients_pass_exactly_the_limit(limited_server):
    statuses = fire(limited_server, "/api/v1/clubs/", 10, {"X-Forwarded-For": "198.51.100.1"})
    assert statuses == {200: 40, 429: 120}
    # Another address has its own count.
    other = fire(limited_server, "/api/v1/clubs/", 1, {"X-Forwarded-For": "198.51.100.2"})
    assert other == {200: 16}


def test_sixteen_clients_of_one_key_pass_exactly_the_keys_limit(limited_server):
    league = in_thread(build_league, size=4, tag="k")
    token = in_thread(key_for, league, "read")
    headers = {"Authorization": f"Bearer {token}", "X-Forwarded-For": "198.51.100.3"}
    assert fire(limited_server, "/api/v1/clubs/", 10, headers) == {200: 60, 429: 100}


def test_sixteen_clients_guessing_keys_meet_the_bad_key_limit(limited_server):
    headers = {"Authorization": "Bearer cap_00000000_guess", "X-Forwarded-For": "198.51.100.4"}
    assert fire(limited_server, "/api/v1/clubs/", 5, headers) == {401: 20, 429: 60}
