"""HTTP for club sites: conditional GET (ETag, Last-Modified → 304) and CORS for reads."""

import hashlib
import math
import time
from dataclasses import dataclass

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import http_date
from django.utils.translation import get_language

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
