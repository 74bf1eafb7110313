"""`/healthz` checks every part the site needs and names the one that fails."""

import json
import os
import subprocess
import sys
import urllib.request

import pytest
from celery import Celery
from django.conf import settings
from django.test import override_settings

from core import health as health_module
from core.health import health

PARTS = ("database", "cache", "channel_layer", "broker")
NOWHERE = "redis://127.0.0.1:1/0"  # nothing listens on port 1

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True, scope="module")
def warm(django_db_blocker):
    """The first check in a process loads the clients' modules, which takes seconds on a
    busy machine; a server has done that by the time it is polled."""
    with django_db_blocker.unblock():
        health()


def answer(client) -> tuple[int, dict]:
    response = client.get("/healthz")
    assert response["Content-Type"] == "application/json"
    return response.status_code, response.json()


def test_every_part_answers(client):
    assert answer(client) == (200, {"status": "ok", "checks": dict.fromkeys(PARTS, "ok")})


def test_a_cache_that_does_not_answer_is_named(client):
    broken = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": NOWHERE}
    with override_settings(CACHES={"default": broken}):
        status, body = answer(client)
    assert status == 503
    assert body == {
        "status": "failing",
        "checks": dict.fromkeys(PARTS, "ok") | {"cache": "failing"},
    }


def test_a_channel_layer_that_does_not_answer_is_named(client):
    broken = {
        "BACKEND": "core.layers.PipelinedPubSubChannelLayer",
        "CONFIG": {"hosts": [NOWHERE]},
    }
    with override_settings(CHANNEL_LAYERS={"default": broken}):
        status, body = answer(client)
    assert status == 503
    assert body["checks"] == dict.fromkeys(PARTS, "ok") | {"channel_layer": "failing"}


def test_a_broker_that_does_not_answer_is_named(client, monkeypatch):
    monkeypatch.setattr(
        health_module, "celery_app", Celery("broken", broker=NOWHERE, set_as_current=False)
    )
    status, body = answer(client)
    assert status == 503
    assert body["checks"] == dict.fromkeys(PARTS, "ok") | {"broker": "failing"}


@pytest.mark.skipif(
    not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"), reason="PostgreSQL"
)
def test_a_database_that_does_not_answer_is_named():
    """A process whose database is gone (a wrong port), with its pool: 503 within the
    checks' timeout, and the other parts still ok."""
    env = os.environ | {
        "DATABASE_URL": "postgres://postgres@127.0.0.1:1/capicua",
        "ALLOWED_HOSTS": "testserver",
        "SECURE_SSL": "0",
        "DEBUG": "0",
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    code = (
        "from core.health import health; health(); "  # warm, as in the test process
        "from django.test import Client; r = Client().get('/healthz'); "
        "print(r.status_code, r.content.decode())"
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "--no-imports", "-c", code],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    status, body = result.stdout.strip().splitlines()[-1].split(" ", 1)
    assert status == "503"
    checks = json.loads(body)["checks"]
    assert checks["database"] == "failing"
    if os.environ.get("REDIS_URL"):
        assert checks == dict.fromkeys(PARTS, "ok") | {"database": "failing"}


def test_the_live_server_answers_healthz(asgi_server):
    with urllib.request.urlopen(asgi_server + "/healthz", timeout=10) as response:
        assert response.status == 200
        assert json.loads(response.read()) == {
            "status": "ok",
            "checks": dict.fromkeys(PARTS, "ok"),
        }
