"""Thin views over the dispute services: the referee's review page and its JSON endpoints."""

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games.analysis import analysis_answer, analysis_strings
from games.models import Hand
from league.models import Event, Match
from league.permissions import can
from league.services.errors import ServiceError

from . import batches, services
from .forms import BatchForm, LiveDisputeForm, OpenDisputeForm, RefereeSettingsForm
from .models import Batch, Dispute, Ruling
from .review import catalogue, explain


def _dispute(request: HttpRequest, pk: int) -> Dispute:
    dispute = get_object_or_404(
        Dispute.objects.select_related("event__organisation", "match__entry_a", "match__entry_b"),
        pk=pk,
    )
    if not services.can_see(request.user, dispute):
        raise PermissionDenied
    return dispute


def _may_edit(user, dispute: Dispute) -> bool:
    """Referees while it is open; the chief referee while an appeal is pending."""
    if dispute.status == Dispute.Status.OPEN:
        return services.is_referee(user, dispute.event)
    return dispute.status == Dispute.Status.APPEALED and services.is_chief(user, dispute.event)


@login_required
def dispute_list(request: HttpRequest) -> HttpResponse:
    user = request.user
    mine = Q(opened_by=user) | Q(event__organisation__memberships__user=user)
    mine |= Q(event__organisation__parent__memberships__user=user)
    mine |= Q(event__referee_settings__chief_referee=user)
    for side in ("entry_a", "entry_b"):
        for who in ("player_1", "player_2", "captain"):
            mine |= Q(**{f"match__{side}__{who}__user": user})
    found = (
        Dispute.objects.filter(mine)
        .distinct()
        .select_related("event__organisation", "match__entry_a", "match__entry_b")[:200]
    )
    disputes = [d for d in found if services.can_see(user, d)]
    return render(request, "disputes/list.html", {"disputes": disputes})


@login_required
def dispute_detail(request: HttpRequest, pk: int) -> HttpResponse:
    dispute = _dispute(request, pk)
    user = request.user
    record, points = services.current(dispute)
    full = services.sees_full_record(user, dispute)
    rulings = list(dispute.rulings.select_related("by"))
    appeals = {a.ruling_id: a for a in services.Appeal.objects.filter(ruling__in=rulings)}
    context: dict[str, Any] = {
        "dispute": dispute,
        "full": full,
        "record": record if full else None,
        "review": explain(record) if full else None,
        "points": points,
        "editable": _may_edit(user, dispute),
        "appealing": dispute.status == Dispute.Status.APPEALED,
        "can_appeal": dispute.status == Dispute.Status.RULED
        and (user in services.parties(dispute.match) or user == dispute.opened_by),
        "rulings": [(r, appeals.get(r.pk)) for r in rulings],
        "kinds": Ruling.Kind.choices,
        "penalty": services.settings_for(dispute.event).penalty_points,
        "catalogue": catalogue(),
        "analysis_i18n": analysis_strings(),
    }
    return render(request, "disputes/review.html", context)


def _error(code: str, message: str, status: int = 400) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message}}, status=status)


@login_required
@require_POST
def dispute_adjudicate(request: HttpRequest, pk: int) -> JsonResponse:
    """The engine's ruling and replay of the record the referee is editing."""
    dispute = _dispute(request, pk)
    if not _may_edit(request.user, dispute):
        return _error("forbidden", _("Only the event's referees can edit the record."), 403)
    try:
        record = json.loads(request.body)
    except ValueError:
        return _error("not_json", _("The record is not valid JSON."))
    if not isinstance(record, dict):
        return _error("bad_record", _("The hand record must be a JSON object."))
    return JsonResponse(explain(record))


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except ValueError:
        return -1


@login_required
@require_POST
def dispute_rule(request: HttpRequest, pk: int) -> HttpResponse:
    dispute = _dispute(request, pk)
    data = request.POST
    kind = data.get("kind", "")
    how: dict[str, Any] = {"side": _int(data.get("side")), "points": _int(data.get("points"))}
    try:
        how["record"] = json.loads(data["record"]) if kind == Ruling.Kind.CORRECT else None
    except (KeyError, ValueError):
        how["record"] = None
    decide = services.decide_appeal if dispute.status == Dispute.Status.APPEALED else services.rule
    try:
        decide(request.user, dispute, kind, data.get("reason"), **how)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("The ruling is recorded and the parties are told."))
    return redirect("dispute", pk=dispute.pk)


@login_required
@require_POST
def dispute_appeal(request: HttpRequest, pk: int) -> HttpResponse:
    dispute = _dispute(request, pk)
    try:
        services.appeal(request.user, dispute, request.POST.get("reason"))
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("The appeal is with the chief referee."))
    return redirect("dispute", pk=dispute.pk)


def _open_page(request: HttpRequest, match: Match, form, open_with, **context: Any) -> HttpResponse:
    """The dispute form: on a valid POST, `open_with(cleaned_data)` refers the hand."""
    if request.method == "POST" and form.is_valid():
        try:
            dispute = open_with(form.cleaned_data)
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("The hand is with the referees."))
            return redirect("dispute", pk=dispute.pk)
    return render(request, "disputes/open.html", {"match": match, "form": form, **context})


@login_required
def dispute_open(request: HttpRequest, match_pk: int) -> HttpResponse:
    """Dispute a hand of a match's entered result."""
    match = get_object_or_404(Match.objects.select_related("event"), pk=match_pk)
    if not services.can_open(request.user, match):
        raise PermissionDenied
    return _open_page(
        request,
        match,
        OpenDisputeForm(request.POST or None),
        lambda data: services.open_result_dispute(request.user, match, **data),
    )


def _managed_event(request: HttpRequest, slug: str) -> Event:
    event = get_object_or_404(Event.objects.select_related("organisation"), slug=slug)
    if not can(request.user, "event.manage", event):
        raise PermissionDenied
    return event


@login_required
def referee_settings(request: HttpRequest, slug: str) -> HttpResponse:
    event = _managed_event(request, slug)
    form = RefereeSettingsForm(request.POST or None, instance=services.settings_for(event))
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Refereeing settings saved."))
        return redirect("referee_settings", slug=event.slug)
    return render(request, "disputes/settings.html", {"event": event, "form": form})


@login_required
def batch_new(request: HttpRequest, slug: str) -> HttpResponse:
    event = _managed_event(request, slug)
    form = BatchForm(event, request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            batch = batches.create_batch(
                request.user,
                event,
                form.cleaned_data["round"],
                upload.read(batches.MAX_BYTES + 1),
                upload.name,
            )
        except ServiceError as error:
            form.add_error("file", error.message)
        else:
            return redirect("batch", pk=batch.pk)
    recent = Batch.objects.filter(event=event)[:10]
    return render(
        request, "disputes/batch_new.html", {"event": event, "form": form, "recent": recent}
    )


def _batch(request: HttpRequest, pk: int) -> Batch:
    batch = get_object_or_404(Batch.objects.select_related("event__organisation"), pk=pk)
    if not can(request.user, "event.manage", batch.event):
        raise PermissionDenied
    return batch


def _progress(batch: Batch) -> dict[str, Any]:
    return {
        "status": batch.status,
        "done": batch.processed,
        "total": batch.total,
        "percent": batch.percent,
    }


@login_required
def batch_detail(request: HttpRequest, pk: int) -> HttpResponse:
    batch = _batch(request, pk)
    report = batch.report
    context = {
        "batch": batch,
        "faults": [e | {"message": batches.message(e)} for e in report if e["kind"] == "fault"],
        "errors": [e | {"message": batches.message(e)} for e in report if e["kind"] == "error"],
        "valid": sum(e["kind"] == "valid" for e in report),
        "progress_i18n": {
            "progress": _("Checked %(done)s of %(total)s lines…"),
            "retrying": _("Connection lost; retrying…"),
        },
    }
    return render(request, "disputes/batch.html", context)


@login_required
def batch_progress(request: HttpRequest, pk: int) -> JsonResponse:
    return JsonResponse(_progress(_batch(request, pk)))


@login_required
@require_POST
def batch_dispute(request: HttpRequest, pk: int, line: int) -> HttpResponse:
    batch = _batch(request, pk)
    try:
        dispute = batches.open_from_report(request.user, batch, line)
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect("batch", pk=batch.pk)
    messages.success(request, _("The hand is with the referees."))
    return redirect("dispute", pk=dispute.pk)


@login_required
@require_http_methods(["GET", "POST"])
def live_dispute_open(request: HttpRequest, hand_pk: int) -> HttpResponse:
    """Dispute a finished hand of a live competition table."""
    hand = get_object_or_404(Hand.objects.select_related("table__fixture__event"), pk=hand_pk)
    match = hand.table.fixture
    if match is None or not services.can_open(request.user, match):
        raise PermissionDenied
    return _open_page(
        request,
        match,
        LiveDisputeForm(request.POST or None),
        lambda data: services.open_live_dispute(request.user, hand, data["reason"]),
        hand=hand,
    )


@login_required
@require_http_methods(["GET", "POST"])
def dispute_analysis(request: HttpRequest, pk: int) -> JsonResponse:
    """The analysis of the hand as the latest ruling left it: POST starts it, GET follows it."""
    dispute = _dispute(request, pk)
    if not services.sees_full_record(request.user, dispute):
        raise PermissionDenied
    record, _points = services.current(dispute)
    return analysis_answer(request, record)
