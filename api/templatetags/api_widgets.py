"""Hooks for the competition's pages: `{% widget_snippet event %}`, the copy-paste embed
code for the event's organisers, and `{% integrations_link organisation %}` for its owners."""

from django import template
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _

from league.models import Event, Organisation
from league.permissions import can
from league.tournaments.services.common import ELIMINATION_FORMATS

from ..services import may_administer

BRACKET_FORMATS = (*ELIMINATION_FORMATS, Event.Format.GROUPS_PLAYOFF)

register = template.Library()


@register.simple_tag(takes_context=True)
def widget_snippet(context, event: Event) -> str:
    request = context["request"]
    if event.status == Event.Status.DRAFT or not can(request.user, "event.manage", event):
        return ""
    return render_to_string(
        "league_api/widget_snippet.html",
        {
            "event": event,
            "base": f"{request.scheme}://{request.get_host()}",
            "bracket": event.format in BRACKET_FORMATS,
        },
        request=request,
    )


@register.simple_tag(takes_context=True)
def integrations_link(context, organisation: Organisation) -> str:
    if not may_administer(context["request"].user, organisation):
        return ""
    url = reverse("integrations", args=[organisation.slug])
    return format_html('<a class="button ghost" href="{}">{}</a>', url, _("API and webhooks"))
