"""The site's own error pages, in Spanish, from a real server with no DEBUG in its
environment (#30), in this session's mode (the embedded one `make run` starts, when the
suite runs without services): a missing event, a page the user may not see, a
request the site cannot read, a form sent after its token expired, and a failure of the
site's own (its database unreachable). Django's debug pages only with DEBUG=1.

`SCREENSHOTS=<folder>` keeps a screenshot of each page at 390×844 and 1,366×768."""

import os
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from tests.conftest import in_thread
from tests.league.conftest import build_league, make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]
SHOTS = os.environ.get("SCREENSHOTS")
VIEWPORTS = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1366, "height": 768}}
# Whatever this session's environment says, the servers here are asked for nothing.
NO_DEBUG = {"DEBUG": ""}


def fetch(url: str, host: str = "", data: bytes | None = None) -> tuple[int, str, str]:
    """Status, content type and body of `url`, in Spanish."""
    headers = {"Accept-Language": "es"} | ({"Host": host} if host else {})
    request = urllib.request.Request(url, data=data, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers["Content-Type"], response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read().decode()


def _session(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def look(chromium, base: str, path: str, status: int, title: str, name: str, user=None) -> None:
    """The page at `path` in Chromium on a phone and a laptop: the status, the site's header
    and stylesheet, its heading, nothing wider than the screen."""
    for size, viewport in VIEWPORTS.items():
        context = chromium.new_context(locale="es-ES", viewport=viewport)
        if user is not None:
            cookie = {"name": settings.SESSION_COOKIE_NAME, "value": in_thread(_session, user)}
            context.add_cookies([{**cookie, "url": base}])
        page = context.new_page()
        response = page.goto(base + path)
        assert response.status == status
        assert page.locator("h1").inner_text() == title
        assert page.locator("header.topbar .brand").is_visible()
        # The stylesheet arrived: the error card is laid out by it, not by the browser.
        assert page.locator(".error-page").evaluate("e => getComputedStyle(e).maxWidth") != "none"
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        assert "Traceback" not in page.content()
        if SHOTS:
            page.screenshot(path=str(Path(SHOTS) / f"error-{name}-{size}.png"), full_page=True)
        context.close()


def test_every_error_is_the_sites_own_page_in_spanish(own_server, chromium, service_env):
    league = in_thread(build_league, 2, tag="err")
    stranger = in_thread(make_user, "stranger-err")
    base = own_server(**NO_DEBUG)

    # The stylesheet is served with DEBUG off, from where it is.
    status, kind, _ = fetch(base + "/static/css/capicua.css")
    assert (status, kind.split(";")[0]) == (200, "text/css")

    look(chromium, base, "/events/no-such-event/", 404, "No encontrado", "404")
    manage = f"/events/{league.event.slug}/manage/"
    look(chromium, base, manage, 403, "No disponible", "403", user=stranger)

    # A host the site does not serve: a request it will not answer, on its own page.
    status, kind, body = fetch(base + "/events/", host="intruder.example")
    assert status == 400 and kind.startswith("text/html")
    assert "<h1>Solicitud no válida</h1>" in body and 'lang="es"' in body
    assert "css/capicua." in body and "DisallowedHost" not in body

    # A form sent without its token (the page was open all night): said in the site's words.
    status, _, body = fetch(base + "/accounts/login/", data=b"username=a&password=b")
    assert status == 403
    assert "<h1>El formulario caducó</h1>" in body and "CSRF" not in body

    # The site's own failure: its database unreachable. The page says so, and nothing more.
    unreachable = (
        {"SQLITE_PATH": str(Path(service_env["SQLITE_PATH"]).parent / "no" / "such.sqlite3")}
        if "SQLITE_PATH" in service_env
        else {
            "DATABASE_URL": service_env["DATABASE_URL"].rsplit("/", 1)[0] + "/no_such_database",
            "DATABASE_POOL_MAX": "0",
        }
    )
    broken = own_server(healthy=False, **NO_DEBUG, **unreachable)
    look(chromium, broken, "/events/", 500, "Algo salió mal", "500")
    status, _, body = fetch(broken + "/events/")
    assert status == 500 and "no_such_database" not in body and "such.sqlite3" not in body


def test_the_debug_pages_only_when_asked_for(own_server):
    base = own_server(DEBUG="1")
    status, _, body = fetch(base + "/events/no-such-event/")
    assert status == 404
    assert "Using the URLconf defined in" in body  # Django's debug page, as asked
    status, kind, _ = fetch(base + "/static/css/capicua.css")
    assert (status, kind.split(";")[0]) == (200, "text/css")
