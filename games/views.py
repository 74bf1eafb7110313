"""Pages of the live tables: thin callers of the table and matchmaking services."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from .analysis import analysis_answer, analysis_strings
from .disputes.review import catalogue, explain
from .forms import PrivateTableForm
from .models import Hand, QueueEntry, Table
from .services import matchmaking, reviews, tables
from .services.errors import TableError


def table_strings() -> dict[str, str]:
    """The table page's JavaScript strings, translated (rendered as a JSON catalogue)."""
    return {
        "your_turn": _("Your turn"),
        "waiting_for": _("Waiting for %(name)s"),
        "seat": _("Seat %(n)s"),
        "empty": _("Empty seat"),
        "bot": _("Bot"),
        "sit": _("Sit here"),
        "add_bot": _("Add a bot"),
        "tiles": _("%(n)s tiles"),
        "pass": _("Pass"),
        "draw": _("Draw"),
        "passed": _("%(name)s passed"),
        "drew": _("%(name)s drew"),
        "played": _("%(name)s played %(tile)s"),
        "auto": _("(timer)"),
        "keep_points": _("Keep the points"),
        "redeal": _("Redeal"),
        "five_doubles": _("You hold five doubles: keep the points or ask for a redeal?"),
        "next": _("Next hand"),
        "ready": _("Ready"),
        "us": _("Us"),
        "them": _("Them"),
        "side": _("Pair %(n)s"),
        "hand_n": _("Hand %(n)s"),
        "boneyard": _("Boneyard: %(n)s"),
        "count": _("Count: %(n)s"),
        "ended_domino": _("%(name)s dominoed."),
        "ended_block": _("The game is blocked."),
        "ended_redeal": _("Redeal: nobody scores."),
        "tie": _("A tie: nobody scores."),
        "points_for": _("%(side)s scores %(points)s"),
        "match_won": _("%(side)s wins the match!"),
        "forfeit": _("%(side)s forfeits the match."),
        "spectating": _("You are watching."),
        "bot_for_you": _("A bot is playing your seat since you were away for a whole hand."),
        "take_back": _("Take my seat back"),
        "reconnecting": _("Reconnecting…"),
        "choose_place": _("Where?"),
        "left": _("Left"),
        "right": _("Right"),
        "up": _("Up"),
        "down": _("Down"),
        "kinds": {
            "hand": _("hand points"),
            "table": _("table points"),
            "pass": _("pass"),
            "galo": _("galo"),
            "paso_corrido": _("paso corrido"),
            "capicua": _("capicúa"),
            "opening_bonus": _("opening bonus"),
            "double_domino": _("double domino"),
            "no_double_penalty": _("no-double penalty"),
            "five_doubles": _("five doubles"),
        },
    }


def lobby_context(request: HttpRequest, form: PrivateTableForm | None = None) -> dict:
    """The lobby's context: the private-table form, the matchmaking kinds, the user's tables."""
    mine = []
    if request.user.is_authenticated:
        mine = Table.objects.filter(seats__user=request.user).exclude(status=Table.Status.FINISHED)
    form = form if form is not None else PrivateTableForm()
    return {"form": form, "tables": mine, "kinds": QueueEntry.Kind.choices}


def lobby(request: HttpRequest) -> HttpResponse:
    return render(request, "games/lobby.html", lobby_context(request))


@login_required
@require_POST
def new_table(request: HttpRequest) -> HttpResponse:
    form = PrivateTableForm(request.POST)
    if not form.is_valid():
        return render(request, "games/lobby.html", lobby_context(request, form))
    table = tables.create_table(host=request.user, rules=form.cleaned_data["spec"])
    return redirect("table", code=table.code)


def table(request: HttpRequest, code: str) -> HttpResponse:
    table = get_object_or_404(Table, code=code)
    config = {
        "id": table.pk,
        "socket": f"/ws/tables/{table.pk}/",
        "user": request.user.pk if request.user.is_authenticated else None,
        "invite": request.build_absolute_uri(reverse("table", args=[table.code])),
    }
    return render(
        request,
        "games/table.html",
        {"table": table, "config": config, "strings": table_strings()},
    )


@login_required
@require_POST
def join_queue(request: HttpRequest) -> HttpResponse:
    partner = None
    if name := request.POST.get("partner", "").strip():
        partner = get_user_model().objects.filter(username=name).first()
        if partner is None:
            messages.error(request, _("There is no player called %(name)s.") % {"name": name})
            return redirect("play")
    try:
        found = matchmaking.join_queue(request.user, request.POST.get("kind", ""), partner)
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
    return render(request, "games/queue.html")


@login_required
def queue_status(request: HttpRequest) -> JsonResponse:
    status = matchmaking.queue_status(request.user)
    if isinstance(status, Table):
        return JsonResponse({"table": reverse("table", args=[status.code])})
    return JsonResponse({"waiting": bool(status)})


@login_required
@require_POST
def leave_queue(request: HttpRequest) -> HttpResponse:
    matchmaking.leave_queue(request.user)
    return redirect("play")


def _hand(request: HttpRequest, pk: int) -> Hand:
    """A finished live hand the user may see; anyone else is told it does not exist."""
    hand = get_object_or_404(Hand.objects.select_related("table__fixture__event"), pk=pk)
    if not reviews.may_see_hand(request.user, hand):
        raise Http404
    return hand


@login_required
def hand(request: HttpRequest, pk: int) -> HttpResponse:
    """A finished hand: its replay, and the analysis of where it was lost."""
    hand = _hand(request, pk)
    context = {
        "hand": hand,
        "record": hand.record,
        "review": explain(hand.record),
        "catalogue": catalogue(),
        "analysis_url": reverse("hand_analysis", args=[hand.pk]),
        "analysis_i18n": analysis_strings(),
    }
    return render(request, "games/hand.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def hand_analysis(request: HttpRequest, pk: int) -> JsonResponse:
    return analysis_answer(request, _hand(request, pk).record)
