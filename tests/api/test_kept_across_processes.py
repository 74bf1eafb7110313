"""Kept standings in a real server process follow a change made in another process: its
mirror of the events' generations (core.cache.TrackedKeys) hears of it from Redis."""

import time
import urllib.request

import pytest

from league.services import results
from tests.conftest import in_thread
from tests.league.conftest import build_league, game

pytestmark = pytest.mark.django_db(transaction=True)


def fetch(url: str) -> tuple[str, bytes]:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.headers["ETag"], response.read()


def test_a_change_elsewhere_reaches_a_servers_kept_standings(asgi_server, redis_layer):
    league = in_thread(build_league, size=4, tag="x")
    url = f"{asgi_server}/api/v1/events/{league.event.slug}/standings/"
    first = fetch(url)
    for _ in range(20):  # kept by the first, mirrored by the process that serves the next
        assert fetch(url) == first
    match = league.matches(1)[0]

    def play() -> None:
        proposed = results.enter_result(league.players(match.entry_a)[0], match, game(150, 40))
        results.confirm_result(league.players(match.entry_b)[0], proposed)

    in_thread(play)
    deadline = time.monotonic() + 2
    while (answer := fetch(url)) == first:
        assert time.monotonic() < deadline, "the server still serves the old standings"
        time.sleep(0.02)
    assert b'"points_for":150' in answer[1]
