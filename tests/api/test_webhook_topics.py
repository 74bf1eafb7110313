"""The webhook topics that come from the competition services' audit trail: each change is
queued once, with public facts only, for the webhooks that subscribed to it."""

import json

import pytest
from django.utils import timezone

from api import services
from api.models import Delivery, Webhook
from league.services import entries, events, fixtures, results
from tests.league.conftest import game

pytestmark = pytest.mark.django_db


@pytest.fixture
def hook(league, settings):
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    topics = list(Webhook.Topic.values)
    return services.create_webhook(league.owner, league.club, "http://127.0.0.1:9/hook", topics)


def sent(topic: str) -> list[dict]:
    return [json.loads(d.body)["data"] for d in Delivery.objects.filter(topic=topic)]


def test_each_change_is_queued_under_its_topic(league, hook):
    match = league.matches(1)[0]
    player_a, player_b = league.players(match.entry_a)[0], league.players(match.entry_b)[0]
    proposed = results.enter_result(player_a, match, game(150, 40))
    (data,) = sent("result.proposed")
    assert data["match"] == match.pk and data["result"]["status"] == "proposed"
    assert data["event"] == league.event.slug
    results.dispute_result(player_b, proposed, note="No")
    assert [d["result"]["id"] for d in sent("result.disputed")] == [proposed.pk]

    other = league.matches(1)[1]
    when = timezone.now() + timezone.timedelta(days=2)
    fixtures.reschedule(league.organiser, other, when, venue="Sede")
    (data,) = sent("match.scheduled")
    assert (data["match"], data["venue"], data["status"]) == (other.pk, "Sede", "scheduled")

    entries.check_in(league.organiser, league.pairs[0])
    (data,) = sent("entry.changed")
    assert data["entry"]["id"] == league.pairs[0].pk and data["entry"]["checked_in"]

    events.set_status(league.organiser, league.event, "finished")
    (data,) = sent("event.status_changed")
    assert (data["status"], data["previous"]) == ("finished", "running")
    assert len(sent("event.finished")) == 1


def test_a_webhook_gets_only_its_topics(league, hook):
    hook.topics = ["entry.changed"]
    hook.save()
    match = league.matches(1)[0]
    results.enter_result(league.players(match.entry_a)[0], match, game(150, 40))
    entries.check_in(league.organiser, league.pairs[1])
    assert list(Delivery.objects.values_list("topic", flat=True)) == ["entry.changed"]
