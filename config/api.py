"""What every endpoint of /api/v1/ shares: the error shape and the routes to the app APIs."""

from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

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
}


def exception_handler(exc, context) -> Response | None:
    """Every API error is `{"error": {"code", "message", "fields"?}}`, translated."""
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    code = getattr(exc, "api_code", None) or next(
        (name for kind, name in ERROR_CODES.items() if isinstance(exc, kind)), "error"
    )
    error: dict = {"code": code}
    if isinstance(exc, exceptions.ValidationError):
        error["message"] = _("Some fields are not valid.")
        error["fields"] = response.data if isinstance(response.data, dict) else {
            "non_field_errors": response.data
        }
    else:
        detail = response.data.get("detail") if isinstance(response.data, dict) else None
        error["message"] = str(detail or exc)
    response.data = {"error": error}
    return response


def error_response(code: str, message: str, http_status: int = status.HTTP_400_BAD_REQUEST):
    return Response({"error": {"code": code, "message": message}}, status=http_status)
