"""The owner's page for API keys and webhooks, and the embeddable standings, fixtures and
bracket."""

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from league.models import Event, Match, Organisation, Result
from league.services import standings
from league.services.errors import ServiceError
from league.tournaments.models import Bracket
from league.tournaments.services.common import TOURNAMENT_FORMATS
from league.tournaments.services.standings import group_tables, pairs_standings
from league.tournaments.views import bracket_columns

from . import services
from .forms import ApiKeyForm, WebhookForm
from .models import ApiKey, Delivery, Webhook

LOG_LENGTH = 50
WIDGET_LANGUAGES = {"es": "es", "pt-br": "pt-br", "pt": "pt-br", "en": "en"}


def _owned(request: HttpRequest, slug: str) -> Organisation:
    organisation = get_object_or_404(Organisation, slug=slug)
    if not services.may_administer(request.user, organisation):
        raise PermissionDenied(_("Only the organisation's owners manage API keys and webhooks."))
    return organisation


@login_required
@require_http_methods(["GET", "POST"])
def integrations(request: HttpRequest, slug: str) -> HttpResponse:
    """Keys, webhooks and the delivery log. A new key's token (or a new webhook's secret) is
    in this one answer only."""
    organisation = _owned(request, slug)
    key_form, hook_form = ApiKeyForm(prefix="key"), WebhookForm(prefix="hook")
    shown: dict[str, str] = {}
    if request.method == "POST":
        try:
            if "key-name" in request.POST:
                key_form = ApiKeyForm(request.POST, prefix="key")
                if key_form.is_valid():
                    key, shown["token"] = services.create_key(
                        request.user, organisation, **key_form.cleaned_data
                    )
                    key_form = ApiKeyForm(prefix="key")
            else:
                hook_form = WebhookForm(request.POST, prefix="hook")
                if hook_form.is_valid():
                    hook = services.create_webhook(
                        request.user, organisation, **hook_form.cleaned_data
                    )
                    shown["secret"] = hook.secret
                    hook_form = WebhookForm(prefix="hook")
        except ServiceError as error:
            messages.error(request, error.message)
    deliveries = Delivery.objects.filter(webhook__organisation=organisation).select_related(
        "webhook"
    )[:LOG_LENGTH]
    response = render(
        request,
        "league_api/integrations.html",
        {
            "organisation": organisation,
            "keys": organisation.api_keys.select_related("created_by"),
            "webhooks": organisation.webhooks.all(),
            "deliveries": deliveries,
            "key_form": key_form,
            "hook_form": hook_form,
            "shown": shown,
        },
    )
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def key_revoke(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    organisation = _owned(request, slug)
    key = get_object_or_404(ApiKey, organisation=organisation, pk=pk)
    services.revoke_key(request.user, key)
    messages.success(request, _("The key %(key)s is revoked.") % {"key": key})
    return redirect("integrations", slug=slug)


@login_required
@require_POST
def webhook_delete(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    organisation = _owned(request, slug)
    webhook = get_object_or_404(Webhook, organisation=organisation, pk=pk)
    services.delete_webhook(request.user, webhook)
    messages.success(request, _("The webhook is deleted."))
    return redirect("integrations", slug=slug)


def _public_event(slug: str) -> Event:
    event = get_object_or_404(Event.objects.select_related("organisation"), slug=slug)
    if event.status == Event.Status.DRAFT:
        raise Http404
    return event


def _widget(request: HttpRequest, template: str, context: Callable[[], dict]) -> HttpResponse:
    """The widget in the language asked for: its context is computed in it too (placements,
    round names)."""
    language = WIDGET_LANGUAGES.get(request.GET.get("lang", "").lower())
    with translation.override(language or translation.get_language()):
        response = render(request, template, context())
    response["Cache-Control"] = "public, max-age=30"
    return response


@xframe_options_exempt
@require_GET
def widget_standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The event's live standings, to frame on a club's site (`?lang=es|pt-br|en`)."""
    event = _public_event(slug)
    return _widget(
        request,
        "league_api/widget_standings.html",
        lambda: {"event": event, "tables": _standings_tables(event)},
    )


def _standings_tables(event: Event) -> list[tuple[str, list]]:
    """[(heading, rows)]: the tables the event's standings page shows (a tournament's ranked
    as its format ranks, by placement in a bracket, group by group)."""
    if event.format == Event.Format.GROUPS_PLAYOFF:
        return [
            (_("Group %(name)s") % {"name": group.name}, rows)
            for group, rows in group_tables(event)
        ]
    if event.format in TOURNAMENT_FORMATS and event.format != Event.Format.INDIVIDUAL:
        return [("", pairs_standings(event))]
    divisions = list(event.divisions.all()) or [None]
    return [(d.name if d else "", standings.table(event, d).standings) for d in divisions]


@xframe_options_exempt
@require_GET
def widget_bracket(request: HttpRequest, slug: str) -> HttpResponse:
    """The event's elimination bracket (or its groups' playoff), to frame on a club's site."""
    event = _public_event(slug)
    bracket = Bracket.objects.filter(event=event).first()
    return _widget(
        request,
        "league_api/widget_bracket.html",
        lambda: {"event": event, "columns": bracket_columns(bracket)},
    )


@xframe_options_exempt
@require_GET
def widget_fixtures(request: HttpRequest, slug: str) -> HttpResponse:
    """One round's fixtures and results, to frame on a club's site: `?round=N`, by default
    the first round with matches still to play (else the last)."""
    event = _public_event(slug)
    rounds = event.rounds.order_by("number", "pk")
    wanted = request.GET.get("round", "")
    if wanted.isdigit():
        chosen = rounds.filter(number=int(wanted)).first()
    else:
        chosen = (
            rounds.filter(
                matches__status__in=[Match.Status.SCHEDULED, Match.Status.POSTPONED]
            ).first()
            or rounds.last()
        )
    matches = []
    if chosen is not None:
        confirmed = Prefetch(
            "results",
            queryset=Result.objects.filter(status=Result.Status.CONFIRMED).defer("games"),
            to_attr="confirmed_results",
        )
        matches = list(
            chosen.matches.filter(parent__isnull=True)
            .exclude(status=Match.Status.CANCELLED)
            .select_related("entry_a", "entry_b")
            .prefetch_related(confirmed)
            .order_by("table", "pk")
        )
    numbers = sorted(set(rounds.values_list("number", flat=True)))
    return _widget(
        request,
        "league_api/widget_fixtures.html",
        lambda: {"event": event, "round": chosen, "matches": matches, "numbers": numbers},
    )
