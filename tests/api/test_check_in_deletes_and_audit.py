"""Through the API with an owner's key: a check-in undone, check-in closed and reopened, a
draft event and an entry deleted, and the organisation's audit log, paginated and filtered."""

import pytest

from league.models import AuditEntry, Entry, Event
from league.services import entries
from tests.league.conftest import build_league

from .conftest import key_for, with_key

pytestmark = pytest.mark.django_db


def test_check_in_is_undone_and_closed_and_reopened(db):
    league = build_league(size=4, generate=False)
    owner = with_key(key_for(league, "write"))
    entry, other = league.pairs[0], league.pairs[1]
    event_url = f"/api/v1/events/{league.event.slug}/check-in/"
    url = f"/api/v1/entries/{entry.pk}/"

    assert owner.post(url + "check-in/").json()["checked_in"] is not None
    undone = owner.post(url + "undo-check-in/")
    assert undone.status_code == 200 and undone.json()["checked_in"] is None
    assert owner.post(url + "undo-check-in/").json()["checked_in"] is None  # again: no change

    closed = owner.post(event_url, {"open": False}, format="json")
    assert closed.status_code == 200 and closed.json()["check_in_open"] is False
    refused = owner.post(f"/api/v1/entries/{other.pk}/check-in/")
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "check_in_closed"
    assert Entry.objects.get(pk=other.pk).checked_in is None
    assert owner.post(event_url, {}, format="json").status_code == 400
    reader = with_key(key_for(league, "read"))
    assert reader.post(event_url, {"open": True}, format="json").status_code == 403

    assert owner.post(event_url, {"open": True}, format="json").json()["check_in_open"] is True
    assert owner.post(f"/api/v1/entries/{other.pk}/check-in/").status_code == 200
    stranger = with_key(key_for(build_league(size=2, tag="s"), "write"))
    assert stranger.post(f"/api/v1/entries/{other.pk}/undo-check-in/").status_code == 404  # a draft
    log = owner.get(f"/api/v1/organisations/{league.club.slug}/audit/").json()["results"]
    actions = [row["action"] for row in log]
    for done in ("entry.undo_check_in", "event.check_in_close", "event.check_in_open"):
        assert done in actions


def test_a_draft_event_and_an_entry_are_deleted_until_the_draw(db):
    league = build_league(size=4, generate=False)
    owner = with_key(key_for(league, "write"))
    made = owner.post(
        "/api/v1/events/",
        {"organisation": league.club.slug, "name": "Borrador", "format": "swiss"},
        format="json",
    ).json()
    url = f"/api/v1/events/{made['slug']}/"
    assert owner.delete(url).status_code == 204
    assert not Event.objects.filter(slug=made["slug"]).exists()
    assert owner.get(url).status_code == 404

    # A published event is cancelled, not deleted.
    owner.post(
        f"/api/v1/events/{league.event.slug}/status/", {"status": "registration"}, format="json"
    )
    refused = owner.delete(f"/api/v1/events/{league.event.slug}/")
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "not_draft"

    gone = league.pairs[3]
    assert (
        with_key(key_for(league, "read")).delete(f"/api/v1/entries/{gone.pk}/").status_code == 403
    )
    assert owner.delete(f"/api/v1/entries/{gone.pk}/").status_code == 204
    assert not Entry.objects.filter(pk=gone.pk).exists()
    listed = owner.get("/api/v1/entries/", {"event": league.event.slug}).json()
    assert listed["count"] == 3
    owner.post(f"/api/v1/events/{league.event.slug}/fixtures/", {}, format="json")
    drawn = owner.delete(f"/api/v1/entries/{league.pairs[0].pk}/")
    assert drawn.status_code == 422 and drawn.json()["error"]["code"] == "entry_drawn"

    audit = f"/api/v1/organisations/{league.club.slug}/audit/"
    log = owner.get(audit, HTTP_ACCEPT_LANGUAGE="en").json()["results"]
    deleted = next(row for row in log if row["action"] == "event.delete")
    assert deleted["event"] is None and deleted["before"]["slug"] == made["slug"]
    assert deleted["description"] == "Draft deleted"
    assert any(row["action"] == "entry.delete" for row in log)


def test_the_audit_log_is_paginated_filtered_and_the_organisations_own(db):
    league = build_league(size=4)
    for pair in league.pairs:
        entries.check_in(league.organiser, pair)
    owner = with_key(key_for(league, "write"))
    url = f"/api/v1/organisations/{league.club.slug}/audit/"
    everything = owner.get(url).json()
    assert everything["count"] == AuditEntry.objects.filter(organisation=league.club).count()
    stamps = [row["at"] for row in everything["results"]]
    assert stamps == sorted(stamps, reverse=True)
    page = owner.get(url, {"page_size": 2}).json()
    assert len(page["results"]) == 2 and page["next"]
    checked = owner.get(url, {"action": "entry.check_in"}).json()
    assert checked["count"] == 4
    assert {row["actor"] for row in checked["results"]} == {"organiser"} or all(
        row["actor"] for row in checked["results"]
    )
    of_event = owner.get(url, {"event": league.event.slug}).json()
    assert of_event["count"] >= 4 and all(
        row["event"] == league.event.slug for row in of_event["results"]
    )
    newest = everything["results"][0]["at"]
    assert owner.get(url, {"since": newest}).json()["count"] >= 1
    assert owner.get(url, {"until": "2000-01-01T00:00:00Z"}).json()["count"] == 0
    assert owner.get(url, {"event": "nowhere"}).status_code == 400
    assert owner.get(url, {"since": "then"}).status_code == 400
    assert "email" not in str(everything["results"])

    other = build_league(size=2, tag="o")
    assert with_key(key_for(other, "read")).get(url).status_code == 403
    assert with_key(key_for(league, "read")).get(url).status_code == 200
    assert owner.get(f"/api/v1/organisations/{other.club.slug}/audit/").status_code == 403
