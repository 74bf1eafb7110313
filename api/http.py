"""HTTP for club sites: conditional GET (ETag, Last-Modified → 304), CORS for reads, and the
kept standings and fixtures answered before the API's machinery."""

import functools
import hashlib
import logging
import math
import re
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseNotModified
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.common import CommonMiddleware
from django.middleware.locale import LocaleMiddleware
from django.middleware.security import SecurityMiddleware
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import http_date
from django.utils.translation import get_language
from rest_framework import exceptions
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.settings import api_settings

from core.cache import TrackedKeys

from .auth import KEY_HEADER, AnonymousCallerThrottle

logger = logging.getLogger(__name__)
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
NOT_MODIFIED_VARY = ", ".join(VARY)


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


def revalidated(request: HttpRequest, etag: str) -> bool:
    """The common revalidation, `If-None-Match` with exactly the current ETag and no other
    precondition, which `conditional` answers with a 304."""
    meta = request.META
    return (
        meta.get("HTTP_IF_NONE_MATCH") == etag
        and request.method in ("GET", "HEAD")
        and "HTTP_IF_MATCH" not in meta
        and "HTTP_IF_UNMODIFIED_SINCE" not in meta
    )


def not_modified(etag: str, stamp: int) -> HttpResponseNotModified:
    """The 304 that `conditional` makes of a kept answer, made directly."""
    response = HttpResponseNotModified()
    response["ETag"] = etag
    response["Last-Modified"] = http_date(stamp)
    response["Vary"] = NOT_MODIFIED_VARY
    return response


class ConditionalGetMixin:
    """For a DRF view: a 200 answer to GET or HEAD gets an ETag (a hash of the body) and a
    Last-Modified, and becomes 304 Not Modified when the client's copy is current. An answer
    that already has its validators (served from the cache) is left as it is; one that the
    view marked with `keep_as` (where, and under which generation) is kept."""

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
        keep_as = getattr(response, "keep_as", None)
        if keep_as is not None:
            keep(*keep_as, rendered)
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
        return self.readable(request, self.get_response(request))

    @staticmethod
    def readable(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if request.method in ("GET", "HEAD"):
            response["Access-Control-Allow-Origin"] = "*"
            response["Access-Control-Expose-Headers"] = CORS_EXPOSED
        return response


# Kept answers: a few lists and tables that club sites read often (the standings, an event's
# fixtures) are kept in the cache as their rendered bytes and validators, under the event's
# generation, and an anonymous read of one is answered by CachedAnswersMiddleware.
#
# Every change to what they show (a match, round, entry, division, result or the event
# itself: api.receivers) gives the event a new generation, at once and again after
# the change commits. An answer is kept with the generation read *before* reading what it
# shows, and is served only while that generation is the event's current one: an answer
# computed while a change landed is never served, however the two interleave. Each answer
# has keys of its own, so keeping one never rewrites another.
KEPT_FOR = 60 * 60 * 24
JSON = JSONRenderer.media_type
STANDINGS_PATH = re.compile(r"/api/v1/events/(?P<slug>[-a-zA-Z0-9_]{1,80})/standings/")
DIVISION_QUERY = re.compile(r"division=(?P<division>[1-9][0-9]{0,17})")
MATCHES_PATH = "/api/v1/matches/"
SLUG = re.compile(r"[-a-zA-Z0-9_]{1,80}")
# What the views answer with (tests/api/test_speed.py compares both paths).
ALLOW = "GET, HEAD, OPTIONS"


@dataclass(frozen=True, slots=True)
class Kept:
    """A kept answer's validators (its body is kept apart)."""

    etag: str
    stamp: int
    generation: str  # the event's generation it was computed under


@dataclass(frozen=True, slots=True)
class KeptAs:
    """Where an answer is kept: its event's slug and its name among the event's answers."""

    slug: str
    name: str


def standings_kept_as(request: HttpRequest) -> KeptAs | None:
    """The standings, or one division's (`?division=<id>`); other queries are not kept."""
    found = STANDINGS_PATH.fullmatch(request.path_info)
    query = request.META.get("QUERY_STRING", "")
    division = DIVISION_QUERY.fullmatch(query) if query else None
    if found is None or (query and division is None):
        return None
    return KeptAs(found["slug"], f"standings:{division['division'] if division else ''}")


def fixtures_kept_as(request: HttpRequest) -> KeptAs | None:
    """A page of one event's fixtures (`?event=<slug>`, with any other filters, order and
    page, except `updated_since`, which a poller changes every time)."""
    if request.path_info != MATCHES_PATH:
        return None
    event = request.GET.getlist("event")
    if len(event) != 1 or not SLUG.fullmatch(event[0]) or "updated_since" in request.GET:
        return None
    # The page's links to the next and previous pages hold the scheme and the host (checked
    # against ALLOWED_HOSTS before: by CachedAnswersMiddleware.wanted, or by the site).
    address = request.build_absolute_uri()
    return KeptAs(event[0], "matches:" + hashlib.sha256(address.encode()).hexdigest()[:32])


# The events' generations and their answers' validators, read without a round trip.
KEPT_INDEX = TrackedKeys("api:kept")


def _generation_key(slug: str) -> str:
    return f"api:kept-generation:{slug}"


def _kept_key(kept_as: KeptAs) -> str:
    return f"api:kept:{kept_as.slug}:{kept_as.name}"


def _body_key(kept_as: KeptAs) -> str:
    return f"api:kept-body:{kept_as.slug}:{kept_as.name}"


def generation(slug: str) -> str:
    """The event's current generation (read it before reading what an answer shows)."""
    key = _generation_key(slug)
    current = cache.get(key)
    if current is None:
        KEPT_INDEX.add(key, secrets.token_hex(8), KEPT_FOR)
        current = cache.get(key)
    return current


def forget_kept(slug: str) -> None:
    """What is kept for the event is stale: it gets a new generation, never an old one."""
    KEPT_INDEX.set(_generation_key(slug), secrets.token_hex(8), KEPT_FOR)


def keep(kept_as: KeptAs, generation: str, rendered: Rendered) -> None:
    """Keep an answer (plain JSON) computed under `generation`: its body first, then its
    validators, so that whoever finds these finds their body (or a newer one, refused)."""
    cache.set(_body_key(kept_as), rendered, KEPT_FOR)
    KEPT_INDEX.set(_kept_key(kept_as), Kept(rendered.etag, rendered.stamp, generation), KEPT_FOR)


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


def kept(request: HttpRequest, kept_as: KeptAs) -> HttpResponseBase | None:
    """The kept answer to this request, or None when none is kept under the event's current
    generation: a 304 when the client's copy is current (without reading the body), else
    the 200 with its body. The generation and validators come from this process's mirror
    of them (KEPT_INDEX) once read, and the body from its memory once it has served it:
    no round trip to the cache."""
    generation_key, kept_key = _generation_key(kept_as.slug), _kept_key(kept_as)
    found = KEPT_INDEX.get_many([generation_key, kept_key])
    validators = found.get(kept_key)
    if validators is None or validators.generation != found.get(generation_key):
        return None
    if revalidated(request, validators.etag):
        return not_modified(validators.etag, validators.stamp)
    response = conditional(request, Rendered(b"", JSON, validators.etag, validators.stamp))
    if response.status_code != 200:
        return response
    body = BODIES.get(validators.etag)
    if body is None:
        rendered = cache.get(_body_key(kept_as))
        if rendered is None or rendered.etag != validators.etag:
            return None
        body = rendered.body
        BODIES.put(validators.etag, body)
    response.content = body
    return response


def plain_json(request: Request) -> bool:
    """A DRF request answered as kept answers are: JSON, not indented, no parameters."""
    renderer = request.accepted_renderer
    return renderer.format == "json" and request.accepted_media_type == renderer.media_type


class CachedAnswersMiddleware:
    """An anonymous GET or HEAD of kept standings or fixtures is answered here, first of all
    the middleware, before authentication, DRF and the view: the same bytes, validators and
    headers (a 304 when the client's copy is current), without a database query.

    Anonymous means no key and no session cookie; the `anon` rate limit counts it as the
    view would (over the limit, the request goes on to the view, which answers the 429).
    Anything else (a key, a signed-in user, another query or media type, an answer not
    kept) goes on to the view, which keeps it.
    """

    ROUTES = (standings_kept_as, fixtures_kept_as)

    def __init__(self, get_response):
        self.get_response = get_response
        self.renderers = [renderer() for renderer in api_settings.DEFAULT_RENDERER_CLASSES]
        self.negotiation = api_settings.DEFAULT_CONTENT_NEGOTIATION_CLASS()
        # What the other middleware do with such a request and its answer (settings.py).
        self.security = SecurityMiddleware(get_response)
        self.locale = LocaleMiddleware(get_response)
        self.inner = [CommonMiddleware(get_response), XFrameOptionsMiddleware(get_response)]

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        kept_as = self.wanted(request)
        try:
            response = None if kept_as is None else kept(request, kept_as)
            if response is not None and not AnonymousCallerThrottle().allow_request(request, None):
                response = None  # the view answers the 429
        except Exception:
            # Outside ApiErrorMiddleware: the cache failing is the view's to answer, with
            # the API's error.
            logger.exception("Kept answers unavailable")
            response = None
        return self.get_response(request) if response is None else self.finish(request, response)

    def wanted(self, request: HttpRequest) -> KeptAs | None:
        """The kept answer this request asks for, when this middleware may give it."""
        if (
            request.method not in ("GET", "HEAD")
            or not request.path_info.startswith("/api/")
            or request.META.get("CONTENT_LENGTH") not in (None, "", "0")  # the API's 413
            or self.security.process_request(request) is not None  # the HTTPS redirect
        ):
            return None
        try:
            request.get_host()  # a host not in ALLOWED_HOSTS gets the site's 400
        except DisallowedHost:
            return None
        kept_as = next((k for route in self.ROUTES if (k := route(request))), None)
        if kept_as is None or not self.anonymous(request) or not self.plain_json(request):
            return None
        self.locale.process_request(request)
        return kept_as

    def finish(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        """The answer as the view's reaches the client, every middleware's headers added."""
        response["Allow"] = ALLOW
        # The view looks the caller's session up, so the session adds Cookie to Vary.
        patch_vary_headers(response, ["Cookie"])
        for middleware in self.inner:
            response = middleware.process_response(request, response)
        response = ReadCorsMiddleware.readable(request, response)
        response = self.locale.process_response(request, response)
        return self.security.process_response(request, response)

    @staticmethod
    def anonymous(request: HttpRequest) -> bool:
        return not (
            request.META.get(KEY_HEADER)
            or request.META.get("HTTP_AUTHORIZATION")
            or settings.SESSION_COOKIE_NAME in request.COOKIES
        )

    def plain_json(self, request: HttpRequest) -> bool:
        """The view would answer JSON, as the cache holds it (not indented, no parameters)."""
        if api_settings.URL_FORMAT_OVERRIDE:
            return self.negotiated(request)
        # Then the answer depends on the Accept header alone, and few are ever sent.
        return self.accepted(request.META.get("HTTP_ACCEPT"))

    @functools.lru_cache(maxsize=256)  # noqa: B019 (one middleware per process)
    def accepted(self, accept: str | None) -> bool:
        request = HttpRequest()
        if accept is not None:
            request.META["HTTP_ACCEPT"] = accept
        return self.negotiated(request)

    def negotiated(self, request: HttpRequest) -> bool:
        try:
            renderer, media_type = self.negotiation.select_renderer(
                Request(request), self.renderers
            )
        except exceptions.NotAcceptable:
            return False
        return isinstance(renderer, JSONRenderer) and media_type == renderer.media_type
