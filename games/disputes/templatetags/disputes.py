"""Links into refereeing from the competition's pages, shown only to who may follow them."""

from django import template

from league.models import Event, Match
from league.permissions import can

from .. import services

register = template.Library()


@register.inclusion_tag("disputes/includes/match_links.html", takes_context=True)
def dispute_links(context, match: Match, has_hands: bool) -> dict:
    user = context["request"].user
    allowed = user.is_authenticated and services.can_open(user, match)
    table = getattr(match, "live_table", None)
    return {
        "match": match,
        "can_open": allowed and has_hands,
        "live_hands": table.hands.order_by("number") if allowed and table is not None else [],
    }


@register.inclusion_tag("disputes/includes/event_links.html", takes_context=True)
def referee_links(context, event: Event) -> dict:
    user = context["request"].user
    return {
        "event": event,
        "manager": can(user, "event.manage", event),
        "referee": services.is_referee(user, event) or services.is_chief(user, event),
    }
