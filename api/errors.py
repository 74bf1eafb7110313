"""What every endpoint of /api/v1/ shares: one error shape for every error, and bounded bodies.

Every error under /api/ is `{"error": {"code", "message", "fields"?}}` with a JSON content
type: DRF's exceptions through `exception_handler`, and whatever Django answers outside DRF
(an unknown address, a body over the size limit, a server error) through `ApiErrorMiddleware`.
"""

from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from core.parsers import TOO_LARGE, NulByte
from league.services.errors import ServiceError

API_PATH = "/api/"

ERROR_CODES = {
    exceptions.ParseError: "malformed_request",
    exceptions.AuthenticationFailed: "not_authenticated",
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.PermissionDenied: "forbidden",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "rate_limited",
    exceptions.ValidationError: "invalid",
    Http404: "not_found",
    PermissionDenied: "forbidden",
}

# What Django answers outside DRF, by status: the code and message of the JSON error.
STATUS_ERRORS = {
    400: ("malformed_request", gettext_lazy("The request is not valid.")),
    403: ("forbidden", gettext_lazy("You may not do this.")),
    404: ("not_found", exceptions.NotFound.default_detail),
    405: ("method_not_allowed", gettext_lazy("This method is not allowed here.")),
    413: ("too_large", TOO_LARGE),
    500: ("server_error", gettext_lazy("Something went wrong on the server.")),
}


def exception_handler(exc, context) -> Response | None:
    """Every API error is `{"error": {"code", "message", "fields"?}}`, translated.

    A competition rule that refuses an action (ServiceError) is 422 with the rule's code.
    Anything not found has one message, so that a hidden object answers as a missing one.
    """
    if isinstance(exc, ServiceError):
        return error_response(exc.code, str(exc.message), status.HTTP_422_UNPROCESSABLE_ENTITY)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    code = getattr(exc, "api_code", None) or next(
        (name for kind, name in ERROR_CODES.items() if isinstance(exc, kind)), "error"
    )
    error: dict = {"code": code}
    if isinstance(exc, exceptions.ValidationError):
        error["message"] = _("Some fields are not valid.")
        error["fields"] = (
            response.data
            if isinstance(response.data, dict)
            else {"non_field_errors": response.data}
        )
    elif code == "not_found":
        error["message"] = str(STATUS_ERRORS[404][1])
    else:
        detail = response.data.get("detail") if isinstance(response.data, dict) else None
        error["message"] = str(detail or exc)
    response.data = {"error": error}
    return response


def error_response(code: str, message: str, http_status: int = status.HTTP_400_BAD_REQUEST):
    return Response({"error": {"code": code, "message": message}}, status=http_status)


def json_error(code: str, message: str, http_status: int) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message}}, status=http_status)


class ApiErrorMiddleware:
    """Under /api/: a body over the size limit is a 413 before anything reads it, a NUL in
    the query is a 400, and any error Django answers outside DRF (HTML by default) becomes
    the API's JSON error."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith(API_PATH):
            return self.get_response(request)
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if limit is not None and length > limit:
            return self.by_status(413)
        query = request.META.get("QUERY_STRING", "")
        if "\x00" in query or "%00" in query:
            return json_error(NulByte.api_code, str(NulByte.default_detail), 400)
        response = self.get_response(request)
        if response.status_code < 400 or response.get("Content-Type", "").startswith(
            "application/json"
        ):
            return response
        data = getattr(response, "data", None)
        if isinstance(response, Response) and isinstance(data, dict) and "error" in data:
            # DRF's error rendered by another renderer (an event stream's): JSON instead.
            converted = JsonResponse(data, status=response.status_code)
            for header in ("Allow", "Retry-After", "WWW-Authenticate"):
                if response.has_header(header):
                    converted[header] = response[header]
            return converted
        return self.by_status(response.status_code, response)

    @staticmethod
    def by_status(code: int, original: HttpResponse | None = None) -> JsonResponse:
        name, message = STATUS_ERRORS.get(code, ("error", STATUS_ERRORS[code // 100 * 100][1]))
        response = json_error(name, str(message), code)
        if original is not None and original.has_header("Allow"):
            response["Allow"] = original["Allow"]
        return response
