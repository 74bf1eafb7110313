"""Schemathesis against the live schema: no 500s, no answer that breaks the schema.

Every read operation and the adjudicator, each with a bounded number of generated requests,
against a database holding a league with played matches and hand records.
"""

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.test import override_settings
from hypothesis import HealthCheck, settings
from rest_framework.throttling import SimpleRateThrottle
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
)

from league.services import results
from tests.engine.records import EXAMPLE
from tests.league.conftest import play

CHECKS = [not_a_server_error, response_schema_conformance, content_type_conformance]
WRITES = ["POST", "PATCH", "PUT", "DELETE"]

with override_settings(ALLOWED_HOSTS=["*"]):
    schema = schemathesis.openapi.from_wsgi(
        "/api/v1/schema/",
        get_wsgi_application(),
        headers={"Accept": "application/vnd.oai.openapi+json"},
    ).exclude(method=WRITES, path_regex=r"^(?!.*adjudicate)")


@pytest.fixture
def played(league, settings, monkeypatch):
    """The league with a confirmed result and a proposed one with a hand record.

    Like Django's test client, requests keep the test's connection (and transaction) open.
    """
    settings.ALLOWED_HOSTS = ["*"]
    monkeypatch.setattr(
        SimpleRateThrottle,
        "THROTTLE_RATES",
        {"anon": None, "user": None, "key": None, "bad_key": None},
    )
    play(league, league.matches(1)[0], 150, 40)
    hands = [{"points_a": 150, "points_b": 0, "hands": [EXAMPLE]}]
    results.enter_result(league.organiser, league.matches(1)[1], hands)
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    yield league
    for signal in (request_started, request_finished):
        signal.connect(close_old_connections)


@pytest.mark.django_db
@schema.parametrize()
@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_api_keeps_its_schema(case, played):
    case.call_and_validate(checks=CHECKS)
