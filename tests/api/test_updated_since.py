"""`updated_since` on every list: what changed since a time, however it was written."""

from datetime import datetime

import pytest
from django.utils import timezone

from league.models import Match
from league.services import entries, fixtures
from tests.league.conftest import play

pytestmark = pytest.mark.django_db

LISTS = ["organisations", "clubs", "players", "events", "rounds", "entries", "matches", "results"]


@pytest.mark.parametrize("path", LISTS)
def test_every_list_takes_updated_since(api, league, path):
    play(league, league.matches(1)[0], 150, 40)
    url = f"/api/v1/{path}/"
    everything = api.get(url, {"updated_since": "2000-01-01T00:00:00Z"}).json()
    assert everything["count"] == api.get(url).json()["count"] > 0
    assert all("updated" in row for row in everything["results"])
    assert api.get(url, {"updated_since": "2100-01-01T00:00:00+02:00"}).json()["count"] == 0
    refused = api.get(url, {"updated_since": "yesterday"})
    assert refused.status_code == 400
    assert refused.json()["error"]["fields"]["updated_since"]


def test_only_what_changed_is_listed_whatever_wrote_it(api, league):
    since = timezone.now()
    moved, other = league.matches(1)
    fixtures.reschedule(league.organiser, moved, timezone.now() + timezone.timedelta(days=3))
    Match.objects.filter(pk=other.pk).update(venue="Club house")  # a queryset update
    entry = entries.check_in(league.organiser, league.pairs[2])
    query = {"updated_since": since.isoformat(), "event": league.event.slug}
    listed = api.get("/api/v1/matches/", query).json()["results"]
    assert {m["id"] for m in listed} == {moved.pk, other.pk}
    assert all(datetime.fromisoformat(m["updated"]) >= since for m in listed)
    listed = api.get("/api/v1/entries/", query).json()["results"]
    assert [e["id"] for e in listed] == [entry.pk]
