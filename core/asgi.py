"""Django's ASGI handler, with request bodies bounded by what is read.

Django's handler reads a whole body to a temporary file before anything looks at it, and
its size checks (and DRF's parsing) go by the Content-Length header alone. A chunked body
has none: it was read to the end however large, then seen as empty (a chunked PATCH
answered 200 and changed nothing; a 50 MB chunked body passed the API's 413). Here the body
is counted as it arrives and refused with a 413 the moment it passes the limit (under
/api/, DATA_UPLOAD_MAX_MEMORY_SIZE with the API's JSON error; elsewhere
REQUEST_BODY_MAX_SIZE), and a chunked body that fits is given the Content-Length of what
was read, so that everything after sees it as any other body.
"""

import io

import django
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler, ASGIRequest
from django.http import HttpResponse, JsonResponse
from django.utils import translation
from django.utils.translation import gettext_lazy

API_PATH = "/api/"
TOO_LARGE = gettext_lazy("The request body is too large.")


class BodyTooLarge(Exception):
    pass


def body_limit(path: str) -> int | None:
    if path.startswith(API_PATH) and settings.DATA_UPLOAD_MAX_MEMORY_SIZE is not None:
        return min(settings.DATA_UPLOAD_MAX_MEMORY_SIZE, settings.REQUEST_BODY_MAX_SIZE)
    return settings.REQUEST_BODY_MAX_SIZE


def declared_length(scope: dict) -> int | None:
    for name, value in scope.get("headers", []):
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


class BoundedASGIHandler(ASGIHandler):
    async def handle(self, scope, receive, send) -> None:
        limit = body_limit(scope["path"])
        if limit is not None and (declared_length(scope) or 0) > limit:
            await self.send_response(self.too_large(scope), send)
            return
        read = 0

        async def counted() -> dict:
            nonlocal read
            message = await receive()
            read += len(message.get("body", b""))
            if limit is not None and read > limit:
                raise BodyTooLarge
            return message

        try:
            await super().handle(scope, counted, send)
        except BodyTooLarge:
            await self.send_response(self.too_large(scope), send)

    def create_request(self, scope, body_file):
        if declared_length(scope) is None:
            size = body_file.seek(0, 2)
            body_file.seek(0)
            if size:
                length = (b"content-length", str(size).encode())
                scope = {**scope, "headers": [*scope.get("headers", []), length]}
        return super().create_request(scope, body_file)

    def too_large(self, scope: dict) -> HttpResponse:
        request = ASGIRequest(scope, io.BytesIO())
        with translation.override(translation.get_language_from_request(request)):
            if scope["path"].startswith(API_PATH):
                error = {"code": "too_large", "message": str(TOO_LARGE)}
                return JsonResponse({"error": error}, status=413)
            return HttpResponse(str(TOO_LARGE), status=413, content_type="text/plain")


def get_asgi_application() -> BoundedASGIHandler:
    """As django.core.asgi.get_asgi_application, with the bounded handler."""
    django.setup(set_prefix=False)
    return BoundedASGIHandler()
