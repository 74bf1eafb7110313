"""Managing webhooks through the API: an owner's key, its organisation only; a ping to try
the receiver; a failed delivery sent again."""

import pytest

from api.models import Delivery, Webhook
from tests.league.conftest import build_league

from .conftest import key_for, with_key

pytestmark = pytest.mark.django_db

URL = "http://127.0.0.1:9/hook"


@pytest.fixture(autouse=True)
def loopback_allowed(settings):
    settings.WEBHOOKS_ALLOW_PRIVATE = True


def test_an_owner_key_manages_its_organisations_webhooks(league):
    client = with_key(key_for(league, "write"))
    body = {"organisation": league.club.slug, "url": URL, "topics": ["entry.changed"]}
    made = client.post("/api/v1/webhooks/", body, format="json")
    assert made.status_code == 201, made.content
    hook = made.json()
    assert len(hook["secret"]) == 64 and hook["topics"] == ["entry.changed"]
    listed = client.get("/api/v1/webhooks/").json()["results"]
    assert [h["id"] for h in listed] == [hook["id"]] and listed[0]["secret"] is None
    # Another organisation's key sees nothing of it and cannot touch it.
    other = build_league(size=2, tag="o")
    stranger = with_key(key_for(other, "write"))
    assert stranger.get("/api/v1/webhooks/").json()["count"] == 0
    assert stranger.delete(f"/api/v1/webhooks/{hook['id']}/").status_code == 404
    body["organisation"] = league.club.slug
    assert stranger.post("/api/v1/webhooks/", body, format="json").status_code == 403
    reader = with_key(key_for(league, "read"))
    assert reader.post(f"/api/v1/webhooks/{hook['id']}/ping/").status_code == 403

    ping = client.post(f"/api/v1/webhooks/{hook['id']}/ping/")
    assert ping.status_code == 201 and ping.json()["topic"] == "ping"
    deliveries = client.get(f"/api/v1/webhooks/{hook['id']}/deliveries/").json()["results"]
    assert [d["id"] for d in deliveries] == [ping.json()["id"]]

    # Only a failed delivery is sent again, with its own event id.
    url = f"/api/v1/webhooks/{hook['id']}/redeliver/"
    refused = client.post(url, {"delivery": ping.json()["id"]}, format="json")
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "not_failed"
    Delivery.objects.filter(pk=ping.json()["id"]).update(
        status=Delivery.Status.FAILED, attempts=3, error="timeout"
    )
    again = client.post(url, {"delivery": ping.json()["id"]}, format="json").json()
    assert (again["status"], again["attempts"], again["error"]) == ("pending", 0, "")
    assert again["event_id"] == ping.json()["event_id"]

    assert client.delete(f"/api/v1/webhooks/{hook['id']}/").status_code == 204
    assert not Webhook.objects.exists()


def test_bad_webhooks_are_refused(league, settings):
    client = with_key(key_for(league, "write"))
    body = {"organisation": league.club.slug, "url": URL, "topics": ["nope"]}
    assert client.post("/api/v1/webhooks/", body, format="json").status_code == 400
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    body["topics"] = ["ping"]
    refused = client.post("/api/v1/webhooks/", body, format="json")
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "private_url"
