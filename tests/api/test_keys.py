"""API keys: made and revoked by owners on their page, shown once, stored hashed, rate-limited."""

import hashlib
import random
import re

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from api.models import ApiKey
from api.services import create_key
from games.engine import ENDED, PRESETS, apply, bot_action, new_hand, to_record
from games.models import Hand, HandReview
from games.services import tables

from .conftest import key_for, with_key

pytestmark = pytest.mark.django_db


def test_an_owner_creates_a_key_that_is_shown_once_and_stored_hashed(client, league):
    client.force_login(league.owner)
    url = f"/clubs/{league.club.slug}/integrations/"
    page = client.post(url, {"key-name": "Web del club", "key-access": "read"})
    token = re.search(r'<code id="new-token">([^<]+)</code>', page.content.decode()).group(1)
    key = ApiKey.objects.get()
    assert key.digest == hashlib.sha256(token.encode()).hexdigest()
    assert token not in str(ApiKey.objects.values().get())
    assert token.startswith(f"cap_{key.prefix}_")
    assert token not in client.get(url).content.decode()
    assert page["Cache-Control"] == "no-store"
    assert with_key(token).get("/api/v1/events/").status_code == 200


@pytest.mark.parametrize("who", ["organiser", "referee", "anonymous"])
def test_only_owners_reach_the_page(client, league, who):
    if who != "anonymous":
        client.force_login(getattr(league, who))
    response = client.get(f"/clubs/{league.club.slug}/integrations/")
    assert response.status_code == (302 if who == "anonymous" else 403)


def test_a_revoked_key_is_refused(client, league):
    token = key_for(league, "write")
    client.force_login(league.owner)
    key = ApiKey.objects.get()
    client.post(f"/clubs/{league.club.slug}/integrations/keys/{key.pk}/revoke/")
    response = with_key(token).get("/api/v1/events/")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"


@pytest.mark.parametrize("token", ["cap_nothing", "cap_00000000_guess", "Bearer", "x" * 500])
def test_a_wrong_key_is_refused_without_a_trace(league, token):
    key_for(league, "read")
    assert with_key(token).get("/api/v1/events/").status_code == 401


def test_the_key_header_also_works(league):
    client = APIClient()
    response = client.get("/api/v1/events/", HTTP_X_API_KEY=key_for(league, "read"))
    assert response.status_code == 200


def test_keys_act_only_while_their_creator_is_an_owner_here(league):
    """A key acts as the owner who made it: the services' checks apply to that person."""
    key, token = create_key(league.owner, league.club, "Site", "write")
    league.owner.memberships.all().delete()
    response = with_key(token).patch(
        f"/api/v1/events/{league.event.slug}/", {"venue": "X"}, format="json"
    )
    assert response.status_code == 403


def test_rate_limits_per_key_and_per_anonymous_address(league, settings):
    from rest_framework.throttling import SimpleRateThrottle

    rates = {"anon": "3/min", "user": "3/min", "key": "5/min"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    original = SimpleRateThrottle.THROTTLE_RATES
    SimpleRateThrottle.THROTTLE_RATES = rates
    try:
        anonymous = APIClient(REMOTE_ADDR="10.0.0.1")
        codes = [anonymous.get("/api/v1/clubs/").status_code for _ in range(4)]
        assert codes == [200, 200, 200, 429]
        refused = anonymous.get("/api/v1/clubs/")
        assert refused.json()["error"]["code"] == "rate_limited" and refused["Retry-After"]
        assert APIClient(REMOTE_ADDR="10.0.0.2").get("/api/v1/clubs/").status_code == 200
        keyed = with_key(key_for(league, "read"))
        codes = [keyed.get("/api/v1/clubs/").status_code for _ in range(6)]
        assert codes == [200] * 5 + [429]
        other = with_key(key_for(league, "read"))
        assert other.get("/api/v1/clubs/").status_code == 200
    finally:
        SimpleRateThrottle.THROTTLE_RATES = original


def test_starting_a_hands_analysis_needs_a_write_key_and_counts_against_the_key(league, settings):
    """Reading a hand's analysis is a read; starting one queues work, so a read-only key
    is refused, and every call counts against the key's own rate."""
    from rest_framework.throttling import SimpleRateThrottle

    match = league.matches(1)[0]
    table = tables.create_table(host=league.organiser, rules="dominican", fixture=match)
    rng = random.Random(3)
    state = new_hand(PRESETS["dominican"], rng=rng)
    while state.status not in ENDED:
        state = apply(state, bot_action(state, rng, "easy"))[0]
    hand = Hand.objects.create(table=table, number=1, record=to_record(state), ruling={})
    url = f"/api/v1/hands/{hand.pk}/analysis"
    reader, writer = with_key(key_for(league, "read")), with_key(key_for(league, "write"))
    assert reader.get(url).json() == {"status": "none"}
    refused = reader.post(url)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"
    assert not HandReview.objects.exists()
    assert writer.post(url).json()["status"] == "pending"
    assert HandReview.objects.count() == 1

    cache.clear()  # the counters so far
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "key": "2/min"}
    original = SimpleRateThrottle.THROTTLE_RATES
    SimpleRateThrottle.THROTTLE_RATES = rates
    try:
        codes = [writer.post(url).status_code for _ in range(3)]
    finally:
        SimpleRateThrottle.THROTTLE_RATES = original
    assert codes == [200, 200, 429]
    assert reader.get(url).status_code == 200  # another key, its own count
    assert HandReview.objects.count() == 1
