"""The arena's panel on the event page: its clock, its rule, the join and leave buttons,
the user's table and the standings with each streak (league/services/arena.py)."""

from django import template
from django.utils import timezone

from league.models import ArenaGame, ArenaSpot, Autopilot, Event
from league.permissions import can
from league.services import arena

register = template.Library()


@register.inclusion_tag("league/includes/arena.html", takes_context=True)
def arena_panel(context, event: Event) -> dict:
    user = context["request"].user
    pilot = Autopilot.objects.filter(event=event).first()
    entry = arena.entry_of(user, event)
    spot = ArenaSpot.objects.filter(entry=entry).first() if entry else None
    now = timezone.now()
    over = pilot is None or pilot.finished is not None or now >= arena.ends(pilot)
    game = ArenaGame.objects.filter(pk=spot.game_id).first() if spot and spot.game_id else None
    table = getattr(game, "live_table", None)  # the live table games opened for it
    left = max(int((arena.ends(pilot) - now).total_seconds()), 0) if pilot else 0
    return {
        "request": context["request"],
        "csrf_token": context.get("csrf_token"),
        "event": event,
        "pilot": pilot,
        "ends": arena.ends(pilot) if pilot else None,
        "minutes_left": -(-left // 60),
        "started": pilot is not None and pilot.started is not None,
        "over": over,
        "signed_in": user.is_authenticated,
        "spot": spot,
        "table": table,
        "rows": arena.table(event),
        "factor": arena.clock_factor(),
        "organiser": pilot is not None and not over and can(user, "event.manage", event),
    }
