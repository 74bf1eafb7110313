"""The arena's buttons on the event page: join it, leave it (league/services/arena.py)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .event_views import back, refused
from .models import Event
from .services import arena


@login_required
@require_POST
@refused
def arena_join(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    arena.join(request.user, event)
    messages.success(request, _("You are in the arena: your table opens as soon as it can."))
    return back(request, event.get_absolute_url() + "#arena")


@login_required
@require_POST
@refused
def arena_leave(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    arena.leave(request.user, event)
    messages.success(request, _("You left the arena: no new table opens for you."))
    return back(request, event.get_absolute_url() + "#arena")
