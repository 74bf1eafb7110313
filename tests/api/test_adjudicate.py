import pytest
from rest_framework.test import APIClient

from games.engine import adjudicate
from tests.engine.records import EXAMPLE, EXAMPLE_RULING, example

URL = "/api/v1/adjudicate"


@pytest.fixture
def api():
    return APIClient()


def test_the_spec_example_gets_its_ruling(api):
    response = api.post(URL, EXAMPLE, format="json")
    assert response.status_code == 200
    assert response.json() == EXAMPLE_RULING


def test_a_faulty_record_is_a_ruling_not_an_error(api):
    faulty = example(actions=["5-5", "pass", "3-5@right", "pass"])
    response = api.post(URL, faulty, format="json")
    assert response.status_code == 200
    ruling = response.json()
    assert ruling["valid"] is False
    assert (ruling["error"]["code"], ruling["error"]["action"]) == ("illegal_pass", 3)


def test_a_record_missing_its_deal_is_bad_record(api):
    response = api.post(URL, {"format": "domino-hand/1", "rules": "dominican"}, format="json")
    assert response.status_code == 200
    assert response.json()["error"]["code"] == "bad_record"


@pytest.mark.parametrize(
    ("body", "content_type", "code"),
    [
        ("{not json", "application/json", "malformed_request"),
        ("[1, 2]", "application/json", "not_a_record"),
        ("deal=1", "application/x-www-form-urlencoded", "unsupported_media_type"),
    ],
)
def test_what_is_not_a_record_is_refused_with_a_code(api, body, content_type, code):
    response = api.generic("POST", URL, body, content_type=content_type)
    assert response.status_code in (400, 415)
    error = response.json()["error"]
    assert error["code"] == code
    assert error["message"]


def test_errors_speak_the_users_language(api):
    response = api.generic(
        "POST", URL, "[1]", content_type="application/json", HTTP_ACCEPT_LANGUAGE="es"
    )
    assert response.json()["error"]["message"] == "El cuerpo debe ser un objeto JSON."


@pytest.mark.django_db
def test_schema_and_docs_are_served(client):
    schema = client.get("/api/v1/schema/", headers={"accept": "application/vnd.oai.openapi+json"})
    assert schema.status_code == 200
    assert "/api/v1/adjudicate" in schema.json()["paths"]
    for page in ("/api/v1/docs/", "/api/v1/redoc/"):
        assert client.get(page).status_code == 200


def test_a_fault_is_explained_in_the_users_language(api):
    faulty = example(actions=["5-5", "pass", "3-5@right", "pass"])
    spanish = api.post(URL, faulty, format="json", HTTP_ACCEPT_LANGUAGE="es").json()
    english = api.post(URL, faulty, format="json", HTTP_ACCEPT_LANGUAGE="en").json()
    assert spanish["error"]["code"] == english["error"]["code"] == "illegal_pass"
    assert spanish["error"]["message"] == "Pase ilegal: el jugador tenía una ficha que servía."
    assert english["error"]["message"] == adjudicate(faulty)["error"]["message"]
