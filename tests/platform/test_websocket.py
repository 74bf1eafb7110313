"""The notifications socket, against a running ASGI server, with a real WebSocket client."""

import asyncio
import json
import urllib.request

import pytest
import websockets
from django.conf import settings
from django.test import Client

from league.notifications import notify
from tests.conftest import run_async

pytestmark = pytest.mark.django_db(transaction=True)


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


def ws_url(base: str) -> str:
    return base.replace("http://", "ws://") + "/ws/notifications/"


async def closed_code(socket) -> int:
    with pytest.raises(websockets.ConnectionClosed):
        await asyncio.wait_for(socket.recv(), timeout=10)
    return socket.close_code


def test_anonymous_socket_is_refused(asgi_server):
    async def scenario():
        with pytest.raises(websockets.InvalidStatus) as refused:
            await websockets.connect(ws_url(asgi_server), origin=asgi_server)
        return refused.value.response.status_code

    assert run_async(scenario()) == 403


def test_foreign_origin_is_refused(asgi_server, django_user_model):
    user = django_user_model.objects.create_user("ana", password="pw")

    async def scenario():
        with pytest.raises(websockets.InvalidStatus) as refused:
            await websockets.connect(
                ws_url(asgi_server),
                origin="http://evil.example",
                additional_headers={"Cookie": session_cookie(user)},
            )
        return refused.value.response.status_code

    assert run_async(scenario()) == 403


def test_logging_out_closes_the_users_sockets(asgi_server, django_user_model):
    user = django_user_model.objects.create_user("ana", password="pw")
    cookie = session_cookie(user)

    async def scenario():
        headers = {"Cookie": cookie}
        async with websockets.connect(
            ws_url(asgi_server), origin=asgi_server, additional_headers=headers
        ) as socket:
            await socket.send(json.dumps({"type": "hello"}))
            assert json.loads(await socket.recv())["code"] == "read_only"
            await asyncio.to_thread(log_out, asgi_server, cookie)
            return await closed_code(socket)

    assert run_async(scenario()) == 4401


def log_out(base: str, cookie: str) -> None:
    page = urllib.request.Request(base + "/", headers={"Cookie": cookie})
    with urllib.request.urlopen(page) as response:
        csrf = response.headers.get_all("Set-Cookie")
    token = next(c.split(";")[0].split("=", 1)[1] for c in csrf if c.startswith("csrftoken="))
    request = urllib.request.Request(
        base + "/accounts/logout/",
        method="POST",
        data=f"csrfmiddlewaretoken={token}".encode(),
        headers={
            "Cookie": f"{cookie}; csrftoken={token}",
            "Referer": base + "/",
            "Content-Type": "application/x-www-form-urlencoded",
        },
    )
    opener = urllib.request.build_opener(NoRedirect)
    with pytest.raises(urllib.error.HTTPError) as redirect:
        opener.open(request)
    assert redirect.value.code == 302


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def test_notification_from_another_process_reaches_the_socket(
    redis_layer, asgi_server, django_user_model
):
    """With the Redis layer, a notification made anywhere (here: this process) is pushed."""
    user = django_user_model.objects.create_user("luis", password="pw")

    async def scenario():
        async with websockets.connect(
            ws_url(asgi_server),
            origin=asgi_server,
            additional_headers={"Cookie": session_cookie(user)},
        ) as socket:
            await asyncio.sleep(0.3)
            await asyncio.to_thread(notify, user, "Tu partido empieza a las 8", "/")
            return json.loads(await asyncio.wait_for(socket.recv(), timeout=10))

    message = run_async(scenario())
    assert message["type"] == "notification"
    assert message["message"] == "Tu partido empieza a las 8"
