"""Pages of the live tables: thin callers of the table and matchmaking services."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from league.models import Event
from league.permissions import can, require_published

from .analysis import analysis_answer, analysis_strings
from .disputes.review import catalogue, explain
from .engine import rules_from_spec
from .forms import NAME_LABELS, NAMES, PrivateTableForm, name_choices
from .models import BotLevel, Hand, QueueEntry, Seat, Table
from .services import matchmaking, ratings, rematch, reviews, tables
from .services.errors import TableError
from .services.event_live import live_page
from .services.messages import hand_state


def lobby_context(request: HttpRequest, form: PrivateTableForm | None = None) -> dict:
    """The lobby's context: playing against bots, the private-table form, the matchmaking
    kinds, and the user's tables, each told apart (`lobby_line`)."""
    mine = []
    if request.user.is_authenticated:
        unfinished = (
            Table.objects.filter(seats__user=request.user)
            .exclude(status=Table.Status.FINISHED)
            .order_by("-created")
        )
        mine = [lobby_line(table, request.user) for table in unfinished.prefetch_related("seats")]
    form = form if form is not None else PrivateTableForm()
    return {
        "form": form,
        "tables": mine,
        "bot_rules": name_choices(),
        "bot_levels": BotLevel.choices,
        **queues_context(),
    }


def lobby_line(table: Table, user) -> dict:
    """One of the user's tables in the lobby: its rule set, the other players, the score and
    whose turn it is, in words."""
    seats = list(table.seats.all())
    mine = next(s for s in seats if s.user_id == user.pk)
    state = hand_state(table) if table.status == Table.Status.PLAYING else None
    preset = table.rules.get("preset", "")
    name = next((n for n in NAMES if matchmaking.rules_spec(n) == table.rules), preset)
    if table.paused is not None:
        turn = _("Paused until a player comes back")
    elif mine.bot:
        turn = _("A bot is playing your seat")
    elif state is None:
        turn = str(table.get_status_display())
    elif state.turn == mine.number:
        turn = _("Your turn")
    else:
        turn = _("%(name)s to play") % {"name": seat_label(seats[state.turn])}
    return {
        "table": table,
        "rules": NAME_LABELS.get(name, name),
        "others": [seat_label(s) for s in seats if s.number != mine.number],
        "scores": (table.match or {}).get("scores") or [0] * rules_from_spec(table.rules).sides,
        "turn": turn,
        "my_turn": state is not None and state.turn == mine.number and not mine.bot,
    }


def seat_label(seat: Seat) -> str:
    """A seat as the lobby names it: its player, or the bot that plays it."""
    if seat.bot and not seat.name:
        return _("Bot (%(level)s)") % {"level": seat.get_bot_level_display()}
    return seat.name or _("Empty seat")


def queues_context() -> dict:
    """The matchmaking queues of each rule set, with how many people wait in each."""
    counts = matchmaking.waiting_counts()
    kinds = {
        QueueEntry.Kind.QUICK: _("Quick"),
        QueueEntry.Kind.DUO: _("Duo"),
        QueueEntry.Kind.RANKED: _("Ranked"),
    }
    rows = [
        {
            "rules": rules,
            "label": NAME_LABELS.get(rules, rules),
            "cells": [(kind, counts[rules].get(kind)) for kind in kinds],
        }
        for rules in matchmaking.QUEUES
    ]
    return {
        "queues": rows,
        "queue_kinds": list(kinds.items()),
        "queue_counts": counts,
        "waiting_strings": {
            "waiting": _("%(n)s waiting"),
            "none": _("nobody waiting"),
        },
        "ranking_url": ratings.ranking_url(),
    }


def lobby(request: HttpRequest) -> HttpResponse:
    return render(request, "games/lobby.html", lobby_context(request))


@login_required
@require_POST
def new_table(request: HttpRequest) -> HttpResponse:
    form = PrivateTableForm(request.POST)
    if not form.is_valid():
        return render(request, "games/lobby.html", lobby_context(request, form))
    table = tables.create_table(
        host=request.user,
        rules=form.cleaned_data["spec"],
        next_hand_seconds=form.cleaned_data["next_hand_seconds"],
    )
    return redirect("table", code=table.code)


@login_required
@require_POST
def play_bots(request: HttpRequest) -> HttpResponse:
    """Play against bots in one tap: a table of the chosen rule set, the player seated with
    bots of the chosen level, the first hand dealt."""
    rules = request.POST.get("rules", matchmaking.DEFAULT_RULES)
    if rules not in NAMES:
        messages.error(request, TableError("bad_rules").message)
        return redirect("play")
    try:
        found = tables.against_bots(
            request.user, matchmaking.rules_spec(rules), request.POST.get("level", "")
        )
    except TableError as error:
        messages.error(request, error.message)
        return redirect("play")
    return redirect("table", code=found.code)


def table(request: HttpRequest, code: str) -> HttpResponse:
    table = get_object_or_404(Table, code=code)
    config = {
        "id": table.pk,
        "socket": f"/ws/tables/{table.pk}/",
        "user": request.user.pk if request.user.is_authenticated else None,
        "invite": request.build_absolute_uri(reverse("table", args=[table.code])),
        "lobby": reverse("play"),
        "hands": reverse("table", args=[table.code]) + "hands/",
        "again": None if table.competes else reverse("play_again", args=[table.code]),
        "ranking": ratings.ranking_url() if table.kind == Table.Kind.RANKED else None,
        "levels": {level: str(label) for level, label in BotLevel.choices},
    }
    return render(request, "games/table.html", {"table": table, "config": config})


@login_required
@require_POST
def play_again(request: HttpRequest, code: str) -> HttpResponse:
    """A finished table's player plays again: a new private table under the same rules, or
    the same matchmaking queue."""
    table = get_object_or_404(Table, code=code)
    try:
        found = rematch.play_again(table, request.user)
    except TableError as error:
        messages.error(request, error.message)
        return redirect("table", code=table.code)
    if found is not None:
        return redirect("table", code=found.code)
    return redirect("queue")


@login_required
@require_POST
def join_queue(request: HttpRequest) -> HttpResponse:
    partner = None
    if name := request.POST.get("partner", "").strip():
        partner = get_user_model().objects.filter(username=name).first()
        if partner is None:
            messages.error(request, _("There is no player called %(name)s.") % {"name": name})
            return redirect("play")
    kind = request.POST.get("kind", "")
    if kind == QueueEntry.Kind.DUO and partner is None:
        messages.error(request, _("Name your partner to play as a pair."))
        return redirect("play")
    rules = request.POST.get("rules", matchmaking.DEFAULT_RULES)
    try:
        found = matchmaking.join_queue(request.user, kind, partner, rules)
    except TableError as error:
        messages.error(request, error.message)
        return redirect("play")
    if found is not None:
        return redirect("table", code=found.code)
    return redirect("queue")


@login_required
def queue(request: HttpRequest) -> HttpResponse:
    """The page of a user waiting for a matchmade table (it polls `queue_status`)."""
    status = matchmaking.queue_status(request.user)
    if isinstance(status, Table):
        return redirect("table", code=status.code)
    if status is None:
        return redirect("play")
    rules, kind = matchmaking.waiting_in(request.user) or (matchmaking.DEFAULT_RULES, "")
    context = {
        "rules": rules,
        "rules_label": NAME_LABELS.get(rules, rules),
        "kind": kind,
        "kind_label": dict(QueueEntry.Kind.choices).get(kind, ""),
        "waiting": matchmaking.waiting_counts().get(rules, {}).get(kind, 0),
    }
    return render(request, "games/queue.html", context)


@login_required
def queue_status(request: HttpRequest) -> JsonResponse:
    status = matchmaking.queue_status(request.user)
    if isinstance(status, Table):
        return JsonResponse({"table": reverse("table", args=[status.code])})
    return JsonResponse({"waiting": bool(status), "counts": matchmaking.waiting_counts()})


def queue_counts(request: HttpRequest) -> JsonResponse:
    """How many people wait in each queue, for the lobby's live counts."""
    return JsonResponse({"counts": matchmaking.waiting_counts()})


@login_required
@require_POST
def leave_queue(request: HttpRequest) -> HttpResponse:
    matchmaking.leave_queue(request.user)
    return redirect("play")


def _hand(request: HttpRequest, code: str, number: int) -> Hand:
    """A finished live hand the user may see; anyone else is told it does not exist."""
    hand = get_object_or_404(
        Hand.objects.select_related("table__fixture__event"), table__code=code, number=number
    )
    if not reviews.may_see_hand(request.user, hand):
        raise Http404
    return hand


@login_required
def hand(request: HttpRequest, code: str, number: int) -> HttpResponse:
    """A finished hand: its replay, and the analysis of where it was lost."""
    hand = _hand(request, code, number)
    context = {
        "hand": hand,
        "record": reviews.shown_record(hand.record),
        "review": reviews.shown_review(explain(hand.record)),
        "catalogue": catalogue(),
        "analysis_url": reverse("hand_analysis", args=[code, number]),
        "analysis_i18n": analysis_strings(),
    }
    return render(request, "games/hand.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def hand_analysis(request: HttpRequest, code: str, number: int) -> JsonResponse:
    return analysis_answer(request, _hand(request, code, number).record)


def event_live(request: HttpRequest, slug: str) -> HttpResponse:
    """An online event as it runs, for its players and spectators: the round clock, the
    reader's table, every table with its score, the standings and the podium. With
    `?part=body` only the part that changes, which static/js/event_live.js fetches every
    few seconds (the projector's way: the page reads again, nothing is pushed)."""
    event = get_object_or_404(Event.objects.select_related("organisation", "season"), slug=slug)
    require_published(request.user, event)
    context = {
        "event": event,
        "live": live_page(event, request.user),
        "tab": "live",
        "manager": can(request.user, "event.manage", event),
    }
    if request.GET.get("part") == "body":
        return render(request, "games/includes/event_live_body.html", context)
    return render(request, "games/event_live.html", context)
