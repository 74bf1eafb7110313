"""The faults of issue #14, one test each (or more): every one failed on the main of then."""

import json
import re

import pytest
from django.test import Client
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from league.models import Event
from league.services import events

from .conftest import build_league, key_for, with_key

pytestmark = pytest.mark.django_db

RFC3339 = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$")


@pytest.fixture
def rates(monkeypatch):
    """Set some throttle rates for one test (the others unlimited)."""

    def set_rates(**wanted: str) -> None:
        limits = {"anon": None, "user": None, "key": None, "bad_key": None, **wanted}
        monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", limits)

    return set_rates


def error_of(response) -> dict:
    assert response["Content-Type"].startswith("application/json"), response.content[:200]
    body = response.json()
    assert set(body) == {"error"} and {"code", "message"} <= set(body["error"])
    return body["error"]


# 2. Proxy trust --------------------------------------------------------------------------


def test_a_forged_forwarded_for_does_not_reset_the_anonymous_limit(league, rates):
    rates(anon="3/min")
    client = APIClient(REMOTE_ADDR="203.0.113.9")
    codes = [
        client.get("/api/v1/clubs/", HTTP_X_FORWARDED_FOR=f"198.51.100.{n}").status_code
        for n in range(5)
    ]
    assert codes == [200, 200, 200, 429, 429]


def test_behind_a_trusted_proxy_each_client_is_counted_apart(league, rates, settings):
    rates(anon="2/min")
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]
    proxy = APIClient(REMOTE_ADDR="10.1.2.3")

    def ask(chain: str) -> int:
        return proxy.get("/api/v1/clubs/", HTTP_X_FORWARDED_FOR=chain).status_code

    # The client may forge the left of the chain, never what the proxy appended.
    assert [ask(f"1.1.1.{n}, 198.51.100.7") for n in range(3)] == [200, 200, 429]
    assert ask("198.51.100.8") == 200
    settings.TRUSTED_PROXIES = 1
    assert [ask(f"1.1.1.{n}, 198.51.100.9") for n in range(3)] == [200, 200, 429]


# 3. Deep JSON, 4. NUL bytes, 6. the error shape ------------------------------------------


def deep(levels: int) -> str:
    return "[" * levels + "]" * levels


@pytest.mark.parametrize("where", ["adjudicate", "result"])
def test_deeply_nested_json_is_a_400(league, where):
    client = APIClient()
    client.force_authenticate(league.organiser)
    url = (
        "/api/v1/adjudicate"
        if where == "adjudicate"
        else f"/api/v1/matches/{league.matches(1)[0].pk}/result/"
    )
    hands = f'[{{"deal": {deep(1000)}}}]'
    body = f'{{"games": [{{"points_a": 1, "points_b": 0, "hands": {hands}}}]}}'
    response = client.post(url, body, content_type="application/json")
    assert response.status_code == 400
    assert error_of(response)["code"] == "too_deep"


def test_a_nul_byte_in_a_string_is_a_400_and_changes_nothing(league):
    client = APIClient()
    client.force_authenticate(league.organiser)
    url = f"/api/v1/events/{league.event.slug}/"
    for body in ({"venue": "Club\x00"}, {"rule_overrides": {"target": "\x00"}}):
        response = client.patch(url, body, format="json")
        assert response.status_code == 400, body
        assert error_of(response)["code"] == "nul_byte"
    response = client.get("/api/v1/matches/", {"event": "x\x00"})
    assert response.status_code == 400 and error_of(response)["code"] == "nul_byte"
    league.event.refresh_from_db()
    assert "\x00" not in league.event.venue


def test_a_huge_body_is_a_json_413(league):
    response = APIClient().post(
        "/api/v1/adjudicate",
        b'{"x": "' + b"a" * 20_000_000 + b'"}',
        content_type="application/json",
    )
    assert response.status_code == 413
    assert error_of(response)["code"] == "too_large"


def test_errors_outside_drf_are_json_too(league, monkeypatch):
    response = Client().get("/api/v1/no-such-thing/")
    assert response.status_code == 404 and error_of(response)["code"] == "not_found"

    def broken(*args, **kwargs):
        raise RuntimeError("secret detail 10.0.0.7:5432")

    monkeypatch.setattr("api.views.standing_tables", broken)
    response = Client(raise_request_exception=False).get(
        f"/api/v1/events/{league.event.slug}/standings/"
    )
    assert response.status_code == 500
    assert error_of(response)["code"] == "server_error"
    assert b"10.0.0.7" not in response.content
    assert Client().get("/no-such-page/")["Content-Type"].startswith("text/html")


# 5. Dates -------------------------------------------------------------------------------


@pytest.mark.parametrize("when", ["1850-06-01T12:00:00Z", "2026-03-01T20:30:00-04:00"])
def test_dates_come_back_as_rfc_3339(league, when):
    client = APIClient()
    client.force_authenticate(league.organiser)
    match = league.matches(1)[0]
    response = client.post(f"/api/v1/matches/{match.pk}/schedule/", {"scheduled": when})
    assert response.status_code == 200, response.content
    assert RFC3339.match(response.json()["scheduled"]), response.json()["scheduled"]


@pytest.mark.parametrize("when", ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-12:00"])
def test_dates_out_of_range_are_refused(league, when):
    client = APIClient()
    client.force_authenticate(league.organiser)
    match = league.matches(1)[0]
    response = client.post(f"/api/v1/matches/{match.pk}/schedule/", {"scheduled": when})
    assert response.status_code == 400
    assert "scheduled" in error_of(response)["fields"]


# 7. Drafts ------------------------------------------------------------------------------


def test_a_draft_answers_exactly_like_a_missing_event(league):
    draft = events.create_event(league.organiser, league.club, name="Secreto", format="league")
    assert draft.status == Event.Status.DRAFT
    client = APIClient()
    client.force_authenticate(league.players(league.pairs[0])[0])

    def answer(method: str, url: str, body: dict | None, slug: str) -> tuple[int, str]:
        url = url.replace("{}", slug)
        body = json.loads(json.dumps(body).replace("{}", slug)) if body else None
        response = getattr(client, method)(url, body, format="json")
        return response.status_code, response.content.decode().replace(slug, "…")

    for method, url, body in [
        ("post", "/api/v1/entries/", {"event": "{}", "name": "X"}),
        ("get", "/api/v1/events/{}/", None),
        ("get", "/api/v1/events/{}/standings/", None),
        ("post", "/api/v1/events/{}/status/", {"status": "registration"}),
    ]:
        missing = answer(method, url, body, "no-such-event")
        assert missing[0] in (400, 404)
        assert answer(method, url, body, draft.slug) == missing, url


# 8. Bad keys ----------------------------------------------------------------------------


def test_failed_authentication_is_throttled(league, rates):
    rates(bad_key="3/min")
    client = APIClient(REMOTE_ADDR="203.0.113.5")
    codes = [
        client.get("/api/v1/clubs/", HTTP_AUTHORIZATION=f"Bearer cap_0000000{n}_guess").status_code
        for n in range(5)
    ]
    assert codes == [401, 401, 401, 429, 429]
    assert error_of(client.get("/api/v1/clubs/", HTTP_X_API_KEY="cap_x_y"))["code"] == (
        "rate_limited"
    )
    good = key_for(league, "read")
    assert with_key(good).get("/api/v1/clubs/").status_code == 200


# 9. The schema --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value"),
    [("page_size", v) for v in ("-342", "0", "501", "x", "")]
    + [("page", v) for v in ("0", "x", "")],
)
def test_pagination_is_validated(league, field, value):
    response = APIClient().get("/api/v1/matches/", {field: value})
    assert response.status_code == 400 and field in error_of(response)["fields"]


def test_an_unknown_order_is_refused(league):
    response = APIClient().get("/api/v1/matches/", {"ordering": "entry_a__player_1__user__email"})
    assert response.status_code == 400 and "ordering" in error_of(response)["fields"]


def test_list_filters_do_not_apply_to_making_fixtures(db):
    fresh = build_league(size=4, generate=False)
    client = APIClient()
    client.force_authenticate(fresh.organiser)
    url = f"/api/v1/events/{fresh.event.slug}/fixtures/?season=81789&format=x&page_size=-1"
    response = client.post(url, {})
    assert response.status_code == 201, response.content
    schema = APIClient().get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    operation = schema.json()["paths"]["/api/v1/events/{slug}/fixtures/"]["post"]
    assert [p["name"] for p in operation["parameters"]] == ["slug"]


def test_every_operation_documents_its_errors_with_the_shared_shape(db):
    schema = APIClient().get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    document = schema.json()
    shared = {
        f"#/components/responses/{name}"
        for name, response in document["components"]["responses"].items()
        if response["content"]["application/json"]["schema"]
        == {"$ref": "#/components/schemas/Error"}
    }
    for path, item in document["paths"].items():
        for method, operation in item.items():
            errors = {c: r for c, r in operation["responses"].items() if c >= "400"}
            assert {"400", "429"} <= set(errors), (method, path)
            assert all(r["$ref"] in shared for r in errors.values()), (method, path)
            for parameter in operation.get("parameters", []):
                if parameter["schema"].get("type") == "integer":
                    assert parameter["schema"]["minimum"] >= 1, (method, path, parameter)
