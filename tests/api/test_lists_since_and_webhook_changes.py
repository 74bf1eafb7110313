"""`updated_since` on the lists that lacked it (rating pools, leaderboards, webhooks and
their deliveries), and a webhook's topics and active flag changed in place."""

import time
from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from api.models import Delivery, Webhook
from league.models import AuditEntry
from league.ratings import services as ratings
from tests.ratings.conftest import build_pool

from .conftest import key_for, with_key

pytestmark = pytest.mark.django_db

URL = "http://127.0.0.1:9/hook"
FUTURE = "2100-01-01T00:00:00Z"


def to_the_millisecond(moment: datetime) -> datetime:
    return moment.replace(microsecond=moment.microsecond // 1000 * 1000)


def between_milliseconds() -> datetime:
    """Now, with no change stamped in the same millisecond before or after it (the embedded
    database stamps to the millisecond, and `updated_since` is read to the millisecond)."""
    time.sleep(0.002)
    now = timezone.now()
    time.sleep(0.002)
    return now


@pytest.fixture(autouse=True)
def loopback_allowed(settings):
    settings.WEBHOOKS_ALLOW_PRIVATE = True


def test_a_leaderboard_lists_the_ratings_changed_since_with_their_places(api):
    pool = build_pool(players=8)
    for four, a, b in [((0, 1, 2, 3), 2, 0), ((4, 5, 6, 7), 1, 2)]:
        pool.play(four, a, b)
    ratings.recalculate(pool.pool.pk)
    since = timezone.now()
    pool.play((0, 1, 4, 5), 2, 1)
    ratings.recalculate(pool.pool.pk)
    url = f"/api/v1/ratings/{pool.pool.slug}/leaderboard/"
    whole = {r["player"]["id"]: r for r in api.get(url).json()["results"]}
    changed = api.get(url, {"updated_since": since.isoformat()}).json()
    played = {p.pk for p in (pool.players[0], pool.players[1], pool.players[4], pool.players[5])}
    assert changed["count"] >= 4
    assert played <= {r["player"]["id"] for r in changed["results"]}
    for row in changed["results"]:  # each with its place on the whole leaderboard
        assert row["position"] == whole[row["player"]["id"]]["position"]
        assert datetime.fromisoformat(row["updated"]) >= to_the_millisecond(since)
    assert api.get(url, {"updated_since": FUTURE}).json()["count"] == 0
    assert api.get(url, {"updated_since": "soon"}).status_code == 400

    pools = api.get("/api/v1/ratings/", {"updated_since": since.isoformat()}).json()
    assert [p["slug"] for p in pools["results"]] == [pool.pool.slug]  # recalculated since
    assert api.get("/api/v1/ratings/", {"updated_since": FUTURE}).json()["count"] == 0


def test_a_webhook_changes_its_topics_and_turns_off_with_the_same_secret(league):
    client = with_key(key_for(league, "write"))
    body = {"organisation": league.club.slug, "url": URL, "topics": ["entry.changed"]}
    hook = client.post("/api/v1/webhooks/", body, format="json").json()
    secret = Webhook.objects.get(pk=hook["id"]).secret
    url = f"/api/v1/webhooks/{hook['id']}/"
    since = timezone.now()
    assert client.get("/api/v1/webhooks/", {"updated_since": FUTURE}).json()["count"] == 0

    changed = client.patch(url, {"topics": ["round.published", "result.confirmed"]}, "json")
    assert changed.status_code == 200, changed.content
    assert changed.json()["topics"] == ["result.confirmed", "round.published"]
    assert changed.json()["secret"] is None and changed.json()["active"] is True
    off = client.patch(url, {"active": False}, format="json").json()
    assert off["active"] is False and off["topics"] == ["result.confirmed", "round.published"]
    listed = client.get("/api/v1/webhooks/", {"updated_since": since.isoformat()}).json()
    assert [h["id"] for h in listed["results"]] == [hook["id"]]
    assert Webhook.objects.get(pk=hook["id"]).secret == secret
    assert AuditEntry.objects.filter(action="webhook.change").count() == 2

    # Refused as a whole: nothing changes.
    for bad in ({"topics": []}, {"topics": ["nope"]}, {"active": "maybe"}):
        refused = client.patch(url, {"active": True, **bad}, format="json")
        assert refused.status_code == 400
    assert Webhook.objects.get(pk=hook["id"]).active is False
    reader = with_key(key_for(league, "read"))
    assert reader.patch(url, {"active": True}, format="json").status_code == 403
    assert client.put(url, body, format="json").status_code == 405


def test_deliveries_since(league):
    client = with_key(key_for(league, "write"))
    body = {"organisation": league.club.slug, "url": URL, "topics": ["entry.changed"]}
    hook = client.post("/api/v1/webhooks/", body, format="json").json()
    first = client.post(f"/api/v1/webhooks/{hook['id']}/ping/").json()
    second = client.post(f"/api/v1/webhooks/{hook['id']}/ping/").json()
    since = between_milliseconds()
    Delivery.objects.filter(pk=first["id"]).update(status=Delivery.Status.FAILED, attempts=3)
    url = f"/api/v1/webhooks/{hook['id']}/deliveries/"
    assert client.get(url).json()["count"] == 2
    changed = client.get(url, {"updated_since": since.isoformat()}).json()["results"]
    assert [d["id"] for d in changed] == [first["id"]] and second["id"] != first["id"]
    assert client.get(url, {"updated_since": "x"}).status_code == 400


def test_a_change_in_the_same_millisecond_as_updated_since_is_listed(league):
    client = with_key(key_for(league, "write"))
    body = {"organisation": league.club.slug, "url": URL, "topics": ["entry.changed"]}
    hook = client.post("/api/v1/webhooks/", body, format="json").json()
    ping = client.post(f"/api/v1/webhooks/{hook['id']}/ping/").json()
    Delivery.objects.filter(pk=ping["id"]).update(attempts=2)
    stamped = Delivery.objects.get(pk=ping["id"]).updated
    later_that_millisecond = to_the_millisecond(stamped).replace(
        microsecond=to_the_millisecond(stamped).microsecond + 999
    )
    url = f"/api/v1/webhooks/{hook['id']}/deliveries/"
    changed = client.get(url, {"updated_since": later_that_millisecond.isoformat()}).json()
    assert [d["id"] for d in changed["results"]] == [ping["id"]]
    next_millisecond = to_the_millisecond(stamped) + timedelta(milliseconds=1)
    assert client.get(url, {"updated_since": next_millisecond.isoformat()}).json()["count"] == 0
