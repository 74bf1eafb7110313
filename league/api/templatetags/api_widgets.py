"""`{% widget_snippet event %}`: the copy-paste embed code, for the event's organisers."""

from django import template
from django.template.loader import render_to_string

from league.models import Event
from league.permissions import can

register = template.Library()


@register.simple_tag(takes_context=True)
def widget_snippet(context, event: Event) -> str:
    request = context["request"]
    if event.status == Event.Status.DRAFT or not can(request.user, "event.manage", event):
        return ""
    return render_to_string(
        "league_api/widget_snippet.html",
        {"event": event, "base": f"{request.scheme}://{request.get_host()}"},
        request=request,
    )
