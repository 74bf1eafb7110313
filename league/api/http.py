"""HTTP for club sites: conditional GET (ETag, Last-Modified → 304), CORS for reads, and the
cached standings answered before the API's machinery."""

import hashlib
import math
import re
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.common import CommonMiddleware
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import http_date
from django.utils.translation import get_language
from rest_framework import exceptions
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.settings import api_settings

from .auth import KEY_HEADER, AnonymousCallerThrottle

CORS_PATHS = ("/api/", "/widget/")
CORS_METHODS = "GET, HEAD, OPTIONS"
CORS_HEADERS = "Accept, Accept-Language, Authorization, If-Modified-Since, If-None-Match, X-Api-Key"
CORS_EXPOSED = "ETag, Last-Modified, Retry-After"
SEEN_FOR = 60 * 60 * 24 * 7


def last_modified(identity: str, etag: str) -> int:
    """When this representation (`etag`) of the resource `identity` was first served.

    An honest Last-Modified for any read, without a timestamp in every table: it moves
    (always forward, by at least a second) exactly when the content changes.
    """
    key = "api:seen:" + hashlib.sha256(identity.encode()).hexdigest()
    seen = cache.get(key)
    if seen is not None and seen[0] == etag:
        return seen[1]
    stamp = math.ceil(time.time())
    if seen is not None:
        stamp = max(stamp, seen[1] + 1)
    cache.set(key, (etag, stamp), SEEN_FOR)
    return stamp


@dataclass(frozen=True, slots=True)
class Rendered:
    """A rendered 200 answer with its validators, as kept in the cache."""

    body: bytes
    content_type: str
    etag: str
    stamp: int


VARY = ["Accept", "Accept-Language", "Authorization", "X-Api-Key"]


def freeze(request: HttpRequest, body: bytes, content_type: str) -> Rendered:
    """The answer's bytes, its ETag (a hash of the body) and its Last-Modified."""
    etag = f'"{hashlib.sha256(body).hexdigest()[:32]}"'
    identity = "|".join([request.get_full_path(), content_type, get_language() or ""])
    return Rendered(body, content_type, etag, last_modified(identity, etag))


def conditional(
    request: HttpRequest, rendered: Rendered, response: HttpResponseBase | None = None
) -> HttpResponseBase:
    """The answer with its validators, or 304 Not Modified when the client's copy is
    current (`response` is built from `rendered` when not given)."""
    if response is None:
        response = HttpResponse(rendered.body, content_type=rendered.content_type)
    response["ETag"] = rendered.etag
    response["Last-Modified"] = http_date(rendered.stamp)
    patch_vary_headers(response, VARY)
    return get_conditional_response(
        request, etag=rendered.etag, last_modified=rendered.stamp, response=response
    )


class ConditionalGetMixin:
    """For a DRF view: a 200 answer to GET or HEAD gets an ETag (a hash of the body) and a
    Last-Modified, and becomes 304 Not Modified when the client's copy is current. An answer
    that already has its validators (served from the cache) is left as it is."""

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        if (
            request.method not in ("GET", "HEAD")
            or response.status_code != 200
            or response.has_header("ETag")
            or response.streaming
        ):
            return response
        response.render()
        rendered = freeze(request, response.content, response.get("Content-Type", ""))
        return conditional(request, rendered, response)


class ReadCorsMiddleware:
    """Any origin may read the API and the widgets (GET, HEAD; preflight OPTIONS), without
    cookies. Other methods get no CORS headers, so browsers keep them same-origin."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith(CORS_PATHS):
            return self.get_response(request)
        if request.method == "OPTIONS" and "HTTP_ACCESS_CONTROL_REQUEST_METHOD" in request.META:
            response = HttpResponse(status=204)
            if request.META["HTTP_ACCESS_CONTROL_REQUEST_METHOD"] in ("GET", "HEAD"):
                response["Access-Control-Allow-Origin"] = "*"
                response["Access-Control-Allow-Methods"] = CORS_METHODS
                response["Access-Control-Allow-Headers"] = CORS_HEADERS
                response["Access-Control-Max-Age"] = "86400"
            return response
        response = self.get_response(request)
        if request.method in ("GET", "HEAD"):
            response["Access-Control-Allow-Origin"] = "*"
            response["Access-Control-Expose-Headers"] = CORS_EXPOSED
        return response


# The standings: `api/v1/events/<slug>/standings/`, optionally `?division=<id>`.
STANDINGS_PATH = re.compile(r"/api/v1/events/(?P<slug>[-a-zA-Z0-9_]{1,80})/standings/")
DIVISION_QUERY = re.compile(r"division=(?P<division>[1-9][0-9]{0,17})")
# What the standings' view answers with (tests/api/test_speed.py compares both paths).
STANDINGS_ALLOW = "GET, HEAD, OPTIONS"
STANDINGS_KEPT = 60 * 60 * 24
JSON = JSONRenderer.media_type


@dataclass(frozen=True, slots=True)
class Kept:
    """What the cache's index says of one table's kept answer (its body is kept apart)."""

    etag: str
    stamp: int
    version: int  # the event's results_version it was computed from


def standings_cache_key(slug: str) -> str:
    """The index of the event's kept standings: {division or None: Kept}."""
    return f"api:standings-kept:{slug}"


def _body_key(slug: str, division: int | None) -> str:
    return f"api:standings-body:{slug}:{division or ''}"


def keep_standings(slug: str, division: int | None, rendered: Rendered, version: int) -> None:
    """Keep a table's answer (plain JSON): its body first, then its entry in the index, so
    that whoever finds it in the index finds its body (or a newer one, which is refused).
    Entries computed from another version are dropped."""
    cache.set(_body_key(slug, division), rendered, STANDINGS_KEPT)
    index = cache.get(standings_cache_key(slug)) or {}
    index = {d: k for d, k in index.items() if k.version == version}
    index[division] = Kept(rendered.etag, rendered.stamp, version)
    cache.set(standings_cache_key(slug), index, STANDINGS_KEPT)


def forget_kept_standings(slug: str) -> None:
    cache.delete(standings_cache_key(slug))


class _Bodies:
    """Recently served bodies by ETag (a hash of the body, so an entry is never stale), up
    to `limit` bytes in this process: a kept answer costs reading its small index entry."""

    def __init__(self, limit: int):
        self.limit, self.size = limit, 0
        self.bodies: OrderedDict[str, bytes] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, etag: str) -> bytes | None:
        with self.lock:
            body = self.bodies.get(etag)
            if body is not None:
                self.bodies.move_to_end(etag)
            return body

    def put(self, etag: str, body: bytes) -> None:
        with self.lock:
            if etag in self.bodies or len(body) > self.limit:
                return
            self.bodies[etag] = body
            self.size += len(body)
            while self.size > self.limit:
                self.size -= len(self.bodies.popitem(last=False)[1])


BODIES = _Bodies(32 * 1024 * 1024)


def kept_standings(request: HttpRequest, slug: str, division: int | None):
    """The kept answer to this request for a table, or None when it is not kept: a 304 when
    the client's copy is current (without reading the body), else the 200 with its body."""
    kept = (cache.get(standings_cache_key(slug)) or {}).get(division)
    if kept is None:
        return None
    response = conditional(request, Rendered(b"", JSON, kept.etag, kept.stamp))
    if response.status_code != 200:
        return response
    body = BODIES.get(kept.etag)
    if body is None:
        rendered = cache.get(_body_key(slug, division))
        if rendered is None or rendered.etag != kept.etag:
            return None
        body = rendered.body
        BODIES.put(kept.etag, body)
    response.content = body
    return response


class CachedStandingsMiddleware:
    """An anonymous GET or HEAD of standings that are in the cache is answered here, before
    authentication, DRF and the view: the same bytes, validators and headers (a 304 when the
    client's copy is current), without a database query.

    Anonymous means no key and no session cookie; the `anon` rate limit counts it as the
    view would (over the limit, the request goes on to the view, which answers the 429).
    Anything else (a key, a signed-in user, another query or media type, standings not in
    the cache) goes on to the view, which fills the cache.
    """

    def __init__(self, get_response):
        self.get_response = get_response
        self.renderers = [renderer() for renderer in api_settings.DEFAULT_RENDERER_CLASSES]
        self.negotiation = api_settings.DEFAULT_CONTENT_NEGOTIATION_CLASS()
        # What the middleware after this one add to such an answer.
        self.after = [CommonMiddleware(get_response), XFrameOptionsMiddleware(get_response)]

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.cached(request)
        return self.get_response(request) if response is None else response

    def cached(self, request: HttpRequest) -> HttpResponseBase | None:
        if request.method not in ("GET", "HEAD"):
            return None
        found = STANDINGS_PATH.fullmatch(request.path_info)
        if found is None or not self.anonymous(request) or not self.plain_json(request):
            return None
        query = request.META.get("QUERY_STRING", "")
        division = DIVISION_QUERY.fullmatch(query) if query else None
        if query and division is None:
            return None
        wanted = int(division["division"]) if division else None
        response = kept_standings(request, found["slug"], wanted)
        if response is None or not AnonymousCallerThrottle().allow_request(request, None):
            return None
        response["Allow"] = STANDINGS_ALLOW
        # The view looks the caller's session up, so the session adds Cookie to Vary.
        patch_vary_headers(response, ["Cookie"])
        for middleware in self.after:
            response = middleware.process_response(request, response)
        return response

    @staticmethod
    def anonymous(request: HttpRequest) -> bool:
        return not (
            request.META.get(KEY_HEADER)
            or request.META.get("HTTP_AUTHORIZATION")
            or settings.SESSION_COOKIE_NAME in request.COOKIES
        )

    def plain_json(self, request: HttpRequest) -> bool:
        """The view would answer JSON, as the cache holds it (not indented, no parameters)."""
        try:
            renderer, media_type = self.negotiation.select_renderer(
                Request(request), self.renderers
            )
        except exceptions.NotAcceptable:
            return False
        return isinstance(renderer, JSONRenderer) and media_type == renderer.media_type
