"""Bulk entry import through the API: the same CSV and rules as the event's import page."""

import jsonschema
import pytest

from league.models import Entry, Player
from tests.league.conftest import build_league

from .conftest import key_for, with_key

pytestmark = pytest.mark.django_db

PAIRS = "player 1,player 2,club,seed\nAna Pérez,João Brandão,,1\nLuis Peña,Marta Núñez,,2\n"


@pytest.fixture
def league(db):
    return build_league(size=1, generate=False)


def test_a_key_previews_then_imports_every_row(league):
    client = with_key(key_for(league, "write"))
    url = f"/api/v1/events/{league.event.slug}/import-entries/"
    before = Entry.objects.count(), Player.objects.count()
    preview = client.post(url, {"csv": PAIRS, "dry_run": True}, format="json")
    assert preview.status_code == 200, preview.content
    body = preview.json()
    assert body["ok"] is True and body["problems"] == []
    assert [[p["name"] for p in row["players"]] for row in body["rows"]] == [
        ["Ana Pérez", "João Brandão"],
        ["Luis Peña", "Marta Núñez"],
    ]
    assert body["rows"][0]["players"][0]["id"] is None  # a new roster player
    assert (Entry.objects.count(), Player.objects.count()) == before
    made = client.post(url, {"csv": PAIRS}, format="json")
    assert made.status_code == 201, made.content
    assert [e["name"] for e in made.json()] == [
        "Ana Pérez / João Brandão",
        "Luis Peña / Marta Núñez",
    ]
    assert Entry.objects.filter(event=league.event).count() == 1 + 2


def test_a_bad_row_refuses_the_whole_file_with_its_line(league):
    client = with_key(key_for(league, "write"))
    url = f"/api/v1/events/{league.event.slug}/import-entries/"
    before = Entry.objects.count(), Player.objects.count()
    bad = PAIRS + "Solo Jugador,\n"
    response = client.post(url, {"csv": bad}, format="json")
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "bad_csv"
    assert {p["line"] for p in error["problems"]} == {4}
    assert (Entry.objects.count(), Player.objects.count()) == before
    # The schema's shared Error describes it, problems included.
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    jsonschema.validate(response.json(), schema["components"]["schemas"]["Error"])
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(
            {"error": {**error, "other": 1}}, schema["components"]["schemas"]["Error"]
        )


def test_only_the_events_organisers_import(api, league):
    url = f"/api/v1/events/{league.event.slug}/import-entries/"
    reader = with_key(key_for(league, "read"))
    assert reader.post(url, {"csv": PAIRS}, format="json").status_code == 403
    assert api.post(url, {"csv": PAIRS}, format="json").status_code in (401, 403, 404)
    api.force_login(league.referee)
    assert api.post(url, {"csv": PAIRS, "dry_run": True}, format="json").status_code in (403, 404)
    assert not Entry.objects.filter(player_1__display_name="Ana Pérez").exists()
