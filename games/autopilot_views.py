"""The organiser's autopilot on an online event's run page: its settings and its controls
(pause, resume, extend the round, pair it again, withdraw an entry), by the services the
API uses (league/services/autopilot.py, games/services/autopilot.py). Thin: a refusal is
the service's message, in the reader's language, on the page the organiser came from."""

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from league.event_forms import AutopilotForm
from league.event_views import back, refused
from league.models import Autopilot, Entry, Event
from league.permissions import require
from league.services import autopilot
from league.services.errors import ServiceError
from league.tournaments.services.common import TOURNAMENT_FORMATS
from league.tournaments.views import run_page

from .services import autopilot as live_autopilot


def _organised(request: HttpRequest, slug: str) -> Event:
    """The event, for one of its organisers (403 for anyone else, before what was sent)."""
    event = get_object_or_404(Event.objects.select_related("organisation"), slug=slug)
    require(request.user, "event.manage", event)
    return event


def _run_page(event: Event) -> str:
    if event.format == Event.Format.ARENA:  # an arena's controls are on its own page
        return reverse("event", args=[event.slug]) + "#arena"
    return reverse("tournament_run", args=[event.slug]) + "#autopilot"


@login_required
@require_POST
def autopilot_settings(request: HttpRequest, slug: str) -> HttpResponse:
    """Set (or change, before the start) how the event runs itself; what was refused is
    shown again on the run page, with the service's reason, nothing changed."""
    event = _organised(request, slug)
    if event.format not in TOURNAMENT_FORMATS:
        raise Http404  # an arena sets its own on the event's form
    pilot = Autopilot.objects.filter(event=event).first()
    form = AutopilotForm(request.POST, event=event, pilot=pilot)
    if form.is_valid():
        try:
            autopilot.configure(request.user, event, **form.settings())
        except ServiceError as error:
            form.add_error(form.REFUSED_FIELDS.get(error.code), error.message)
        else:
            messages.success(request, _("Saved: the event runs itself from its start."))
            return redirect(_run_page(event))
    return run_page(request, event, autopilot_form=form)


def _whole(value: str | None) -> int | str | None:
    """A whole number sent by a form, else what was sent (for the service to refuse)."""
    return int(value) if value and value.strip().lstrip("-").isdigit() else value


def _extend(request: HttpRequest, event: Event) -> str:
    minutes = _whole(request.POST.get("minutes"))
    live_autopilot.extend_round(request.user, event, minutes)  # type: ignore[arg-type]
    if event.format == Event.Format.ARENA:
        return _("The arena is extended: free pairs go on being seated until its new end.")
    return _("The round is extended: its tables' time limit too.")


def _withdraw(request: HttpRequest, event: Event) -> str:
    pk = _whole(request.POST.get("entry"))
    entry = Entry.objects.filter(event=event, pk=pk).first() if isinstance(pk, int) else None
    if entry is None:
        raise ServiceError("no_entry", _("Choose an entry of this event."))
    live_autopilot.withdraw_entry(request.user, entry)
    return _("%(entry)s is withdrawn.") % {"entry": entry}


def _control(service: Callable, message: Any) -> Callable[[HttpRequest, Event], str]:
    def run(request: HttpRequest, event: Event) -> str:
        service(request.user, event)
        return str(message)

    return run


CONTROLS: dict[str, Callable[[HttpRequest, Event], str]] = {
    "pause": _control(
        autopilot.pause,
        gettext_lazy("The autopilot is paused: matches in play go on, nothing new starts."),
    ),
    "resume": _control(
        autopilot.resume, gettext_lazy("The autopilot goes on from where the event is.")
    ),
    "extend": _extend,
    "repair": _control(live_autopilot.repair_round, gettext_lazy("The round is paired again.")),
    "withdraw": _withdraw,
}


@login_required
@require_POST
@refused
def autopilot_control(request: HttpRequest, slug: str, control: str) -> HttpResponse:
    """One of the organiser's controls, refused (and nothing changed) at the wrong moment."""
    event = _organised(request, slug)
    if control not in CONTROLS:
        raise Http404
    messages.success(request, CONTROLS[control](request, event))
    return back(request, _run_page(event))
