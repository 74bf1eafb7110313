"""A league with staff and pairs (the competition tests' own), API clients and keys."""

import os

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from api import services
from tests.league.conftest import League, build_league

__all__ = ["League", "build_league"]

# Webhook retries after 1 s, 2 s… in this suite (the worker process inherits it).
os.environ.setdefault("WEBHOOK_RETRY_BASE", "1")
os.environ.setdefault("WEBHOOK_MAX_ATTEMPTS", "3")


@pytest.fixture(autouse=True)
def fresh_cache():
    """Throttle counters and Last-Modified stamps live in the cache: start each test clean."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def api() -> APIClient:
    return APIClient()


@pytest.fixture
def league(db) -> League:
    return build_league(size=4)


def key_for(league: League, access: str) -> str:
    return services.create_key(league.owner, league.club, "Club site", access)[1]


def with_key(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def signed_in(user) -> APIClient:
    """A session client that, like a browser, must send the CSRF token."""
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)
    return client


def csrf_post(client: APIClient, url: str, data=None, method: str = "post"):
    client.get("/")  # a page of the site, which sets the CSRF cookie
    token = client.cookies.get("csrftoken")
    headers = {"HTTP_X_CSRFTOKEN": token.value} if token else {}
    return getattr(client, method)(url, data or {}, format="json", **headers)
