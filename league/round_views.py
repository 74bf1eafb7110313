"""Running a round: the round sheet (every table's score in one submit), the round's date and
time, and the projector view. Thin: forms shape the input, services decide and write."""

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import F, Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from .event_forms import RoundTimeForm, SheetRowForm
from .event_views import _event, refused
from .models import Match, Result, Round
from .permissions import can, require
from .services import fixtures, results
from .tournaments.models import Bracket
from .tournaments.services.standings import summary_table


@dataclass
class SheetLine:
    """A table of the round sheet: its match, current result, form (None when the result
    cannot be changed from the sheet) and the message of a refused row."""

    match: Match
    result: Result | None
    form: SheetRowForm | None
    error: str = ""


def _round(pk: int) -> Round:
    return get_object_or_404(Round.objects.select_related("event__organisation", "division"), pk=pk)


def _matches(round_: Round) -> list[Match]:
    current = Prefetch(
        "results",
        queryset=Result.objects.filter(status__in=Result.CURRENT),
        to_attr="current",
    )
    return list(
        round_.matches.filter(parent__isnull=True, entry_b__isnull=False)
        .select_related("entry_a", "entry_b")
        .prefetch_related(current)
        .order_by("table", "pk")
    )


def _line(match: Match, games: int, data=None) -> SheetLine:
    result = next(iter(match.current), None)
    editable = result is None or result.status == Result.Status.PROPOSED
    form = None
    if editable and match.status != Match.Status.CANCELLED:
        form = SheetRowForm(data, games=games, result=result, prefix=f"m{match.pk}")
        form.describe(match.table or "–", match.entry_a, match.entry_b)
    return SheetLine(match, result, form)


def _ask_time(round_: Round) -> bool:
    """The round sheet opens its date box by itself only until the event has a dated round
    or a result: once a date is set, or a round was saved without one (skipped), it stays
    closed, as every later round's would (it filled a phone's first screen each time)."""
    event = round_.event
    return not (
        round_.date
        or event.rounds.filter(date__isnull=False).exists()
        or Result.objects.filter(match__event=event).exists()
    )


@login_required
def round_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """Every table of a round on one page; the scores typed are saved in one submit.

    A refused row keeps what was typed and shows its message; the other rows are saved.
    """
    round_ = _round(pk)
    event = round_.event
    require(request.user, "event.referee", event)
    games = event.games_per_match
    lines = [_line(m, games, request.POST or None) for m in _matches(round_)]
    status = 200
    if request.method == "POST":
        refused_rows = {
            line.match.pk: line for line in lines if line.form and not line.form.is_valid()
        }
        typed = [
            results.SheetRow(line.match.pk, line.form.games(), line.form.lisa())
            for line in lines
            if line.form and line.match.pk not in refused_rows and line.form.typed()
        ]
        saved, errors = results.enter_round(request.user, round_, typed)
        if not refused_rows and not errors:
            if saved:
                messages.success(
                    request,
                    ngettext("%(n)s result saved.", "%(n)s results saved.", len(saved))
                    % {"n": len(saved)},
                )
            else:
                messages.info(request, _("No scores were typed: nothing changed."))
            return redirect("round_sheet", pk=round_.pk)
        lines = _after_refusal(round_, games, lines, refused_rows, errors)
        messages.error(
            request,
            ngettext(
                "%(saved)s saved; %(n)s row needs fixing: it was not saved.",
                "%(saved)s saved; %(n)s rows need fixing: they were not saved.",
                len(refused_rows) + len(errors),
            )
            % {"saved": len(saved), "n": len(refused_rows) + len(errors)},
        )
        status = 400
    return render(
        request,
        "league/round_sheet.html",
        {
            "event": event,
            "round": round_,
            "lines": lines,
            "open_lines": any(line.form for line in lines),
            "games": range(1, games + 1),
            "manager": can(request.user, "event.manage", event),
            "time_form": RoundTimeForm(initial={"date": round_.date, "time": round_.time}),
            "ask_time": _ask_time(round_),
            "byes": round_.matches.filter(parent__isnull=True, entry_b__isnull=True).select_related(
                "entry_a"
            ),
        },
        status=status,
    )


def _after_refusal(
    round_: Round, games: int, lines: list[SheetLine], refused_rows: dict, errors: dict
) -> list[SheetLine]:
    """The sheet after a submit with refused rows: those keep what was typed and their
    message; every other row shows what is now saved."""
    typed = {line.match.pk: line for line in lines}
    fresh = []
    for match in _matches(round_):
        if match.pk in refused_rows or match.pk in errors:
            line = typed[match.pk]
            if match.pk in errors:
                line.error = str(errors[match.pk].message)
            else:
                line.error = " ".join(str(e) for es in line.form.errors.values() for e in es)
            fresh.append(line)
        else:
            fresh.append(_line(match, games))
    return fresh


@login_required
@require_POST
@refused
def round_time(request: HttpRequest, pk: int) -> HttpResponse:
    round_ = _round(pk)
    form = RoundTimeForm(request.POST)
    if form.is_valid():
        fixtures.set_round_time(
            request.user, round_, form.cleaned_data["date"], form.cleaned_data["time"]
        )
        messages.success(request, _("The round's date and time are saved."))
    else:
        messages.error(request, _("Check the date and the time."))
    return redirect("round_sheet", pk=round_.pk)


def projector(request: HttpRequest, slug: str) -> HttpResponse:
    """Full screen, large type, refreshing by itself: the latest published round's tables,
    then the standings."""
    event = _event(request, slug)
    published = Round.objects.filter(event=event, matches__isnull=False).distinct()
    in_play = published.filter(matches__status=Match.Status.SCHEDULED).order_by("number", "pk")
    round_ = in_play.first() or published.order_by("-number", "-pk").first()
    rounds = [round_] if round_ is not None else []
    bracket = Bracket.objects.filter(event=event).first()
    if bracket is not None and round_ is not None and round_.number >= bracket.first_round:
        # A bracket plays several of its rounds at once (a final and the third-place match,
        # the winners' and the losers' rounds).
        rounds = list(in_play.filter(number__gte=bracket.first_round)) or rounds
    matches = []
    if rounds:
        matches = list(
            Match.objects.filter(round__in=rounds, parent__isnull=True)
            .select_related("entry_a", "entry_b", "round")
            .prefetch_related(
                Prefetch(
                    "results",
                    queryset=Result.objects.filter(status=Result.Status.CONFIRMED),
                    to_attr="confirmed",
                )
            )
            .order_by("round__number", F("table").asc(nulls_last=True), "pk")
        )
    table = summary_table(event)
    return render(
        request,
        "league/projector.html",
        {
            "event": event,
            "round": round_,
            "rounds": rounds,
            "matches": matches,
            "standings": table,
            "played": any(row["played"] for row in table),
            # a podium once every place is known (an elimination still in play has none)
            "podium": not any(row.get("in_play") for row in table),
            "drawn": any(row["drawn"] for row in table),
            "seconds": _seconds(request),
        },
    )


def _seconds(request: HttpRequest) -> int:
    """How long the projector shows each screen: `?seconds=` from 5 to 120, else 20."""
    asked = request.GET.get("seconds", "")
    return min(max(int(asked), 5), 120) if asked.isdigit() else 20
