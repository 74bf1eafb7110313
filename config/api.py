"""What every endpoint of /api/v1/ shares: the error shape and the routes to the app APIs."""

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from league.services.errors import ServiceError

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


def exception_handler(exc, context) -> Response | None:
    """Every API error is `{"error": {"code", "message", "fields"?}}`, translated.

    A competition rule that refuses an action (ServiceError) is 422 with the rule's code.
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
    else:
        detail = response.data.get("detail") if isinstance(response.data, dict) else None
        error["message"] = str(detail or exc)
    response.data = {"error": error}
    return response


def error_response(code: str, message: str, http_status: int = status.HTTP_400_BAD_REQUEST):
    return Response({"error": {"code": code, "message": message}}, status=http_status)
