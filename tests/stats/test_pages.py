"""The statistics page of a profile and its API: what they show, in one query for every
figure whatever the number of hands, and the API's shape, errors and schema."""

from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.stats import services
from games.stats.models import HandStat, Tally

from .conftest import live_table, store_hand
from .records import BLOCK, CAPICUA, DOMINO
from .test_counting import play_the_three_tables


def page(client, player, query: str = "", language: str = "en"):
    url = f"/players/{player.pk}/statistics/{query}"
    return client.get(url, HTTP_ACCEPT_LANGUAGE=language)


def test_the_page_shows_the_figures_per_rule_set(client, four):
    play_the_three_tables(four)
    html = page(client, four.pedro).content.decode()
    assert "Statistics · Pedro" in html
    assert "won: 3 (75\u00a0%)" in html and "66.0" in html  # hands, points per hand won
    assert "How the hands ended" in html and "Openings (salidas)" in html
    assert "6-6" in html and "Quique" in html and "Rule sets" in html
    assert f'href="/players/{four.pedro.pk}/statistics/?rules=tournament"' in html
    tournament = page(client, four.pedro, "?rules=tournament").content.decode()
    assert "won: 1 (100\u00a0%)" in tournament and "82.0" in tournament
    assert page(client, four.pedro, "?rules=nope").status_code == 404
    spanish = page(client, four.pedro, language="es").content.decode()
    assert "Estadísticas · Pedro" in spanish and "Cómo terminaron las manos" in spanish
    assert "Mãos jogadas" in page(client, four.pedro, language="pt-br").content.decode()
    profile = client.get(f"/players/{four.pedro.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    assert f"/players/{four.pedro.pk}/statistics/" in profile.content.decode()


def test_a_player_without_hands(client, four):
    assert "No hands counted yet." in page(client, four.sara).content.decode()


def stats_queries(client, player) -> tuple[int, int]:
    """(queries of the page, of them those reading the statistics)."""
    with CaptureQueriesContext(connection) as queries:
        assert page(client, player).status_code == 200
    tables = (HandStat._meta.db_table, Tally._meta.db_table)
    read = [q for q in queries.captured_queries if any(t in q["sql"] for t in tables)]
    return len(queries), len(read)


def test_one_query_whatever_the_number_of_hands(client, four):
    play_the_three_tables(four)
    few = stats_queries(client, four.pedro)
    more = live_table([four.pedro, four.rosa, four.quique, four.sara], "dominican")
    for number in range(1, 31):
        record = (DOMINO, CAPICUA, BLOCK)[number % 3]
        services.count_live_hand(store_hand(more, number, record).pk)
    assert HandStat.objects.filter(player=four.pedro).count() == 34
    assert stats_queries(client, four.pedro) == few
    assert few[1] == 1


def test_the_api_gives_the_same_figures(four):
    play_the_three_tables(four)
    api = APIClient()
    answer = api.get(f"/api/v1/players/{four.pedro.pk}/statistics/")
    assert answer.status_code == 200
    data = answer.json()
    assert data["player"] == four.pedro.pk
    overall = data["overall"]
    assert overall["rule_set"] == ""
    figures = overall["figures"]
    assert (figures["hands"], figures["hands_won"], figures["points_won"]) == (4, 3, 198)
    assert (figures["passes_forced"], figures["passes_suffered"]) == (2, 3)
    assert figures["points_per_hand_won"] == 66.0 and figures["hand_win_rate"] == 0.75
    assert overall["openings"] == [{"tile": "6-6", "figures": overall["openings"][0]["figures"]}]
    assert [p["name"] for p in overall["partners"]] == ["Quique"]
    assert overall["partners"][0]["player"] == four.quique.pk
    assert [r["rule_set"] for r in data["rule_sets"]] == ["dominican", "tournament"]
    assert set(figures) >= {"dominoes_won", "capicuas_lost", "tranques_won", "matches_won"}
    # public facts only: no hand, deal or tile anyone held
    assert "deal" not in answer.content.decode() and 'hands":[' not in answer.content.decode()


def test_the_api_errors_and_schema(four):
    api = APIClient()
    missing = api.get("/api/v1/players/999999999/statistics/")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    api.credentials(HTTP_AUTHORIZATION="Bearer cap_00000000_wrong")
    refused = api.get(f"/api/v1/players/{four.pedro.pk}/statistics/")
    assert refused.status_code == 401 and set(refused.json()["error"]) >= {"code", "message"}
    schema = (
        APIClient().get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    )
    operation = schema["paths"]["/api/v1/players/{id}/statistics/"]["get"]
    ok = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert ok == {"$ref": "#/components/schemas/PlayerStatistics"}
    # the errors: the shared responses, each the one Error schema
    assert operation["responses"]["404"] == {"$ref": "#/components/responses/NotFound"}
    assert operation["responses"]["401"] == {"$ref": "#/components/responses/Unauthenticated"}
    shape = schema["components"]["responses"]["NotFound"]["content"]["application/json"]
    assert shape["schema"] == {"$ref": "#/components/schemas/Error"}
