"""The site's own 400 and 500 pages, rendered with the request like the 403 and 404 ones
(the header knows who is signed in, the language switch works); a 500 that cannot reach
the database for that falls back to the page without the request, then to plain text."""

import logging

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseServerError
from django.template import loader
from django.utils.translation import gettext as _

logger = logging.getLogger(__name__)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    return HttpResponseBadRequest(_render("400.html", request))


def server_error(request: HttpRequest) -> HttpResponse:
    return HttpResponseServerError(_render("500.html", request))


def _render(template_name: str, request: HttpRequest) -> str:
    template = loader.get_template(template_name)
    try:
        return template.render({}, request)
    except Exception:  # the failure may be the database the header reads the user from
        logger.exception("The %s page could not be rendered with its request", template_name)
    try:
        return template.render({})
    except Exception:
        logger.exception("The %s page could not be rendered", template_name)
        return _("Something went wrong on our side.")
