"""The referees' fair-play queue: thin views over the services. Anyone else is told the
pages do not exist (404), the case's own players included."""

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from league.services.audit import described
from league.services.errors import ServiceError

from . import services
from .models import Case


def _name(user) -> str:
    player = getattr(user, "player", None)
    return player.display_name if player is not None else user.get_username()


@login_required
def queue(request: HttpRequest) -> HttpResponse:
    if not services.is_reviewer(request.user):
        raise Http404
    rows = [
        {"case": case, "names": [_name(u) for u in (case.player, case.partner) if u is not None]}
        for case in services.cases_for(request.user)
    ]
    return render(request, "fairplay/queue.html", {"rows": rows})


def _case(request: HttpRequest, pk: int) -> Case:
    case = get_object_or_404(Case.objects.select_related("player", "partner"), pk=pk)
    if not services.may_review(request.user, case):
        raise Http404
    return case


def _evidence(case: Case) -> list[dict[str, Any]]:
    rows = []
    for decision in services.evidence(case):
        facts = decision.evidence
        own, shared = facts["own_values"], facts["partner_values"]
        hand = decision.hand
        rows.append(
            {
                "url": reverse("hand", args=[hand.table.code, hand.number]),
                "table": hand.table.code,
                "hand": hand.number,
                "move": decision.index + 1,
                "player": _name(decision.player),
                "played": facts["action"].removesuffix("!auto"),
                "own_best": facts["own_best"],
                "partner_best": facts["partner_best"],
                "partner_tiles": " ".join(facts["partner_tiles"]),
                "own_value": own[facts["action"]],
                "own_best_value": own[facts["own_best"]],
                "partner_value": shared[facts["action"]],
                "partner_best_value": shared[facts["partner_best"]],
                "picked": decision.get_picked_display(),
                "partner_pick": decision.picked == "partner",
                "exact": facts["exact"],
                "think": decision.think,
            }
        )
    return rows


@login_required
def case_detail(request: HttpRequest, pk: int) -> HttpResponse:
    case = _case(request, pk)
    people = [u for u in (case.player, case.partner) if u is not None]
    players = [(_name(u), services.player_statistic(u.pk)) for u in people]
    partnership = (
        services.partnership_statistic(case.player_id, case.partner_id)
        if case.partner_id is not None
        else None
    )
    context = {
        "case": case,
        "names": [_name(u) for u in people],
        "partnership": partnership,
        "players": players,
        "evidence": _evidence(case),
        "history": described(services.history(case)),
        "threshold": services.option("THRESHOLD"),
        "min_hands": services.option("MIN_HANDS"),
        "horizon": services.option("HORIZON"),
    }
    return render(request, "fairplay/case.html", context)


@login_required
@require_POST
def decide(request: HttpRequest, pk: int) -> HttpResponse:
    case = _case(request, pk)
    try:
        services.decide(request.user, case, request.POST.get("outcome"), request.POST.get("note"))
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("The decision is recorded in the audit log."))
    return redirect("fairplay_case", pk=case.pk)
