"""Tournament pages: the public draw, results, standings and brackets, the organiser's
dashboard that runs the event, and printable table cards. Thin: forms shape the input,
services decide and write."""

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from ..event_forms import AutopilotForm, ResultForm
from ..event_views import _rounds as rounds_with_results
from ..event_views import refused
from ..models import Autopilot, Entry, Event, Match, Result, Round
from ..models.events import round_label
from ..permissions import can, require, require_published
from ..services import autopilot, results
from ..services import entries as core_entries
from ..services.dashboard import waits_to_finish
from ..services.errors import ServiceError
from .forms import (
    OptionsForm,
    PairEntryForm,
    PairingForm,
    PlayerForm,
    SeedsForm,
    TableResultForm,
)
from .models import Bracket, DraftPairing, ForbiddenPairing, PairingJob, TableResult
from .services import brackets, groups, individual, jobs, swiss
from .services.common import (
    ELIMINATION_FORMATS,
    OPTION_FIELDS,
    TOURNAMENT_FORMATS,
    latest_round,
    playing_entries,
    set_options,
    tournament_of,
    unfinished_matches,
)
from .services.standings import standings_of

STAGES = (
    ("winners", gettext_lazy("Winners' bracket")),
    ("losers", gettext_lazy("Losers' bracket")),
    ("finals", gettext_lazy("Finals")),
)


def _event(request: HttpRequest, slug: str) -> Event:
    event = get_object_or_404(Event.objects.select_related("organisation"), slug=slug)
    if event.format not in TOURNAMENT_FORMATS:
        raise Http404
    require_published(request.user, event)
    return event


def bracket_columns(bracket: Bracket | None) -> list:
    """[(stage label, [(round name, [slot, ...]), ...]), ...] for drawing the bracket."""
    if bracket is None:
        return []
    by_stage: dict[str, dict[str, list]] = {}
    for view in brackets.bracket_view(bracket):
        stage = view.stage if view.stage in ("winners", "losers") else "finals"
        if view.stage == "grand_final_reset" and not view.needed and view.match is None:
            continue
        name = view.name
        if view.stage == "losers":  # under the losers' bracket heading, "Round 2" says it
            name = round_label(brackets.STAGE_NAMES["winners"].format(n=view.round))
        by_stage.setdefault(stage, {}).setdefault(name, []).append(view)
    return [(label, list(by_stage[stage].items())) for stage, label in STAGES if stage in by_stage]


def _seatings(event: Event) -> list:
    """Individual events: [(round, [(table, side a, side b, result), ...], sitting out)]."""
    played = []
    rounds = event.rounds.prefetch_related("seats__player", "sit_outs__player", "table_results")
    for round_ in rounds.order_by("-number"):
        tables: dict[int, dict[int, object]] = {}
        for seat in round_.seats.all():
            tables.setdefault(seat.table, {})[seat.seat] = seat.player
        outcome = {r.table: r for r in round_.table_results.all()}
        rows = [
            (table, (s[1], s[3]), (s[2], s[4]), outcome.get(table))
            for table, s in sorted(tables.items())
        ]
        played.append((round_, rows, [s.player for s in round_.sit_outs.all()]))
    return played


def _page(request: HttpRequest, event: Event) -> dict:
    bracket = Bracket.objects.filter(event=event).first()
    context = {
        "event": event,
        "tournament": tournament_of(event),
        "manager": can(request.user, "event.manage", event),
        "bracket": bracket,
        "columns": bracket_columns(bracket),
        **standings_of(event),
    }
    if event.format == Event.Format.INDIVIDUAL:
        context["seatings"] = _seatings(event)
    else:
        context["rounds"] = list(reversed(rounds_with_results(event)))
    return context


def tournament(request: HttpRequest, slug: str) -> HttpResponse:
    """The public page: draw, results, standings, brackets."""
    event = _event(request, slug)
    return render(request, "tournaments/tournament.html", _page(request, event))


@login_required
def run(request: HttpRequest, slug: str) -> HttpResponse:
    """The organiser's dashboard: everything needed to run the event, in order."""
    event = _event(request, slug)
    require(request.user, "event.manage", event)
    return run_page(request, event)


def run_page(request: HttpRequest, event: Event, autopilot_form=None) -> HttpResponse:
    """The run page of an event its organiser may manage; `autopilot_form`: the autopilot's
    settings as sent, shown again with what was refused."""
    context = _page(request, event)
    tournament_ = context["tournament"]
    pairings = swiss.draft(event) if event.format == Event.Format.SWISS else []
    games = event.games_per_match
    open_results = Result.objects.filter(
        match__event=event, status=Result.Status.PROPOSED
    ).select_related("match__entry_a", "match__entry_b", "match__round")
    to_play = list(
        unfinished_matches(event)
        .exclude(results__status__in=Result.OPEN)
        .select_related("entry_a", "entry_b", "round")
        .order_by("round__number", "table")
    )
    latest = latest_round(event)
    job = jobs.active_job(event)
    pilot = Autopilot.objects.filter(event=event).first()
    playoff_waits = ""
    if event.format == Event.Format.GROUPS_PLAYOFF and context["groups"] and not context["bracket"]:
        playoff_waits = groups.playoff_waits(event)
    context.update(
        playoff_waits=playoff_waits,
        entries=event.entries.filter(team__isnull=True).select_related("player_1", "player_2"),
        playing=len(playing_entries(event)),
        options_form=OptionsForm(instance=tournament_, event=event),
        has_options=bool(OPTION_FIELDS[event.format]),
        pair_form=PairEntryForm(event=event),
        player_form=PlayerForm(event=event),
        pairing_form=PairingForm(event=event),
        forbidden=ForbiddenPairing.objects.filter(event=event).select_related("entry_a", "entry_b"),
        draft=pairings,
        rematches=swiss.rematches(event, pairings) if pairings else set(),
        latest=latest,
        to_play=to_play,
        sheet_round=to_play[0].round if to_play else latest,
        open_results=open_results,
        result_form=ResultForm(games=games),
        table_form=TableResultForm(),
        open_tables=TableResult.objects.filter(
            round__event=event, status=TableResult.Status.PROPOSED
        ).select_related("round"),
        seeds_form=SeedsForm(entries=playing_entries(event))
        if event.format in ELIMINATION_FORMATS and context["bracket"] is None
        else None,
        elimination=event.format in ELIMINATION_FORMATS,
        finishable=waits_to_finish(event) and pilot is None,
        **_autopilot(event, pilot, autopilot_form),
        job=job,
        job_strings={
            "progress": _("Searching for the best round: %(percent)s%% done…"),
            "waiting": _("In the queue…"),
            "retrying": _("Connection lost; retrying…"),
        },
    )
    return render(request, "tournaments/run.html", context)


def _autopilot(event: Event, pilot: Autopilot | None, form=None) -> dict:
    """The run page's autopilot: where it is and its controls once the event runs itself,
    and its settings while they may change (an online event of a format that can run
    itself, before its start). The arena sets its own on the event's form."""
    runnable = (
        event.mode == Event.Mode.ONLINE
        and event.format in autopilot.ONLINE_FORMATS
        and event.format != Event.Format.ARENA
        and not event.over
    )
    open_settings = runnable and (pilot is None or pilot.started is None)
    return {
        "pilot": pilot,
        "pilot_clock": autopilot.clock(event, pilot) if pilot else None,
        "autopilot_form": (form or AutopilotForm(event=event, pilot=pilot))
        if open_settings
        else None,
        "repairable": event.format in autopilot.REPAIRABLE,
        "withdrawable": event.entries.filter(status=Entry.Status.ACCEPTED).select_related(
            "player_1", "player_2"
        )
        if pilot
        else [],
    }


@login_required
def job_progress(request: HttpRequest, slug: str) -> JsonResponse:
    """The latest pairing job of the event, as the run page polls it."""
    event = _event(request, slug)
    require(request.user, "event.manage", event)
    job = jobs.active_job(event) or event.pairing_jobs.first()
    if job is None:
        raise Http404
    return JsonResponse(jobs.progress_of(job))


def _swap(request: HttpRequest, event: Event) -> str:
    form = PairingForm(request.POST, event=event)
    if not form.is_valid():
        raise ServiceError("bad_swap", _("Choose two different entries of the draft round."))
    swiss.swap(request.user, event, form.cleaned_data["first"], form.cleaned_data["second"])
    return _("Swapped; both tables are pinned.")


def _forbid(request: HttpRequest, event: Event) -> str:
    form = PairingForm(request.POST, event=event)
    if not form.is_valid():
        raise ServiceError("bad_pairing", _("Choose two different entries of this event."))
    data = form.cleaned_data
    swiss.forbid_pairing(request.user, event, data["first"], data["second"], data["reason"])
    return _("These two entries will not be paired.")


def _allow(request: HttpRequest, event: Event) -> str:
    forbidden = ForbiddenPairing.objects.filter(event=event, pk=request.POST.get("pk")).first()
    if forbidden is None:
        raise ServiceError("stale", _("That pairing is no longer forbidden; reload the page."))
    swiss.allow_pairing(request.user, forbidden)
    return _("The pairing is allowed again.")


def _pin(request: HttpRequest, event: Event) -> str:
    pairing = DraftPairing.objects.filter(event=event, pk=request.POST.get("pk")).first()
    if pairing is None:
        raise ServiceError("stale_draft", _("That draft table no longer exists; reload the page."))
    swiss.pin(request.user, pairing, request.POST.get("pinned") == "1")
    return _("Pin changed.")


def _options(request: HttpRequest, event: Event) -> str:
    form = OptionsForm(request.POST, instance=tournament_of(event), event=event)
    if not form.is_valid():
        raise ServiceError("bad_options", _("Check the tournament options."))
    set_options(request.user, event, **{name: form.cleaned_data[name] for name in form.fields})
    return _("Options saved.")


def _add_pair(request: HttpRequest, event: Event) -> str:
    form = PairEntryForm(request.POST, event=event)
    if not form.is_valid():
        raise ServiceError("pair_incomplete", _("A pair needs two players."))
    entry = core_entries.enter_picked(request.user, event, **form.cleaned_data)
    return _("%(e)s is entered.") % {"e": entry}


def _add_player(request: HttpRequest, event: Event) -> str:
    form = PlayerForm(request.POST, event=event)
    if not form.is_valid():
        raise ServiceError("bad_player", _("Choose a player who is not entered yet."))
    entry = core_entries.enter_picked(request.user, event, player_1=form.cleaned_data["player"])
    return _("%(e)s is entered.") % {"e": entry}


def _draw_bracket(request: HttpRequest, event: Event) -> str:
    seeds = None
    if request.POST.get("by_hand"):
        form = SeedsForm(request.POST, entries=playing_entries(event))
        if not form.is_valid():
            raise ServiceError("bad_seeds", _("Give every entry a different seed."))
        seeds = form.seeds()
    brackets.create_bracket(request.user, event, seeds)
    return _("The bracket is drawn.")


def _simple(action: Callable, message: str) -> Callable[[HttpRequest, Event], str]:
    def run_action(request: HttpRequest, event: Event) -> str:
        action(request.user, event)
        return message

    return run_action


def _paired_now_or_later(kind: str, message: str) -> Callable[[HttpRequest, Event], str]:
    def run_action(request: HttpRequest, event: Event) -> str:
        if jobs.start(request.user, event, kind) is None:
            return message
        return _("This round needs a longer search: it is being paired in the background.")

    return run_action


ACTIONS: dict[str, Callable[[HttpRequest, Event], str]] = {
    "options": _options,
    "add-pair": _add_pair,
    "add-player": _add_player,
    "forbid": _forbid,
    "allow": _allow,
    "pair": _paired_now_or_later(
        PairingJob.Kind.PAIR, gettext_lazy("Draft round paired. Check it, then publish it.")
    ),
    "swap": _swap,
    "pin": _pin,
    "publish": _simple(swiss.publish, gettext_lazy("Round published.")),
    "discard": _simple(swiss.discard_draft, gettext_lazy("Draft discarded.")),
    "unpair": _simple(swiss.unpair, gettext_lazy("The latest round was unpaired.")),
    "draw-bracket": _draw_bracket,
    "draw-groups": _simple(groups.draw_groups, gettext_lazy("Groups drawn; their rounds are out.")),
    "playoff": _simple(groups.start_playoff, gettext_lazy("The playoff bracket is drawn.")),
    "seat": _paired_now_or_later(PairingJob.Kind.SEAT, gettext_lazy("Round seated.")),
    "unseat": _simple(individual.unseat_round, gettext_lazy("The latest round was unseated.")),
}


@login_required
@require_POST
@refused
def act(request: HttpRequest, slug: str, action: str) -> HttpResponse:
    event = _event(request, slug)
    require(request.user, "event.manage", event)
    if action not in ACTIONS:
        raise Http404
    autopilot.require_manual(event, action)
    messages.success(request, ACTIONS[action](request, event))
    return redirect("tournament_run", slug=slug)


def _back(request: HttpRequest, event: Event) -> HttpResponse:
    if can(request.user, "event.manage", event):
        return redirect("tournament_run", slug=event.slug)
    return redirect("tournament", slug=event.slug)


@login_required
@require_POST
@refused
def match_result(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(Match.objects.select_related("event"), pk=pk)
    event = match.event
    form = ResultForm(request.POST, games=event.games_per_match)
    if not form.is_valid():
        raise ServiceError("bad_score", _("Enter whole numbers of points for each game played."))
    note = form.cleaned_data["note"]
    result = results.enter_result(request.user, match, form.games(), note, form.lisa())
    if result.status == Result.Status.CONFIRMED:
        messages.success(request, _("Result saved: it counts now."))
    else:
        messages.success(request, _("Result entered. It counts once it is confirmed."))
    return _back(request, event)


@login_required
@require_POST
@refused
def result_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    result = get_object_or_404(Result.objects.select_related("match__event"), pk=pk)
    results.confirm_result(request.user, result)
    messages.success(request, _("Result confirmed."))
    return _back(request, result.match.event)


def _correct_bracket(request: HttpRequest, match: Match, form: ResultForm, context: dict) -> bool:
    """Save the correction, or first show the later matches it would reset (False)."""
    reset = brackets.reset_preview(match, form.games())
    confirmed = [int(pk) for pk in request.POST.getlist("reset") if pk.isdigit()]
    if reset and not request.POST.get("confirm"):
        context["reset"] = reset
        return False
    note = form.cleaned_data["note"]
    brackets.correct_result(request.user, match, form.games(), note, confirmed, form.lisa())
    return True


@login_required
@require_http_methods(["GET", "POST"])
def correct(request: HttpRequest, pk: int) -> HttpResponse:
    """Correct a bracket result: the matches it would reset are shown, and reset only when
    the organiser confirms them."""
    match = get_object_or_404(Match.objects.select_related("event", "round"), pk=pk)
    event = match.event
    require(request.user, "event.manage", event)
    current = match.results.filter(status=Result.Status.CONFIRMED).first()
    form = ResultForm(request.POST or None, games=event.games_per_match, result=current)
    context = {"event": event, "match": match, "form": form, "reset": None}
    if request.method == "POST" and form.is_valid():
        try:
            if _correct_bracket(request, match, form, context):
                messages.success(request, _("Result corrected."))
                return redirect("tournament_run", slug=event.slug)
        except ServiceError as error:  # shown with what was typed, nothing saved
            form.add_error(None, error.message)
    elif request.method == "POST":
        form.add_error(None, _("Enter whole numbers of points for each game played."))
    return render(request, "tournaments/correct.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
@refused
def table_result(request: HttpRequest, pk: int, table: int) -> HttpResponse:
    round_ = get_object_or_404(Round.objects.select_related("event"), pk=pk)
    form = TableResultForm(request.POST)
    if not form.is_valid():
        raise ServiceError("bad_score", _("Enter whole numbers of points for both sides."))
    data = form.cleaned_data
    result = individual.enter_table_result(
        request.user, round_, table, data["points_a"], data["points_b"]
    )
    if result.status == TableResult.Status.CONFIRMED:
        messages.success(request, _("Result saved: it counts now."))
    else:
        messages.success(request, _("Result entered. It counts once it is confirmed."))
    return _back(request, round_.event)


@login_required
@require_POST
@refused
def table_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    result = get_object_or_404(TableResult.objects.select_related("round__event"), pk=pk)
    individual.confirm_table_result(request.user, result)
    messages.success(request, _("Result confirmed."))
    return _back(request, result.round.event)


def print_round(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Table cards of a published round, one table per printed page, a row per game the
    match format can need."""
    event = _event(request, slug)
    round_ = get_object_or_404(Round, event=event, number=number)
    if event.format == Event.Format.INDIVIDUAL:
        tables = next(rows for r, rows, _out in _seatings(event) if r.pk == round_.pk)
        cards = [(t, [*a, *b]) for t, a, b, _result in tables]
    else:
        matches = round_.matches.filter(entry_b__isnull=False).select_related(
            "entry_a__player_1", "entry_a__player_2", "entry_b__player_1", "entry_b__player_2"
        )
        cards = [(m.table, [m.entry_a, m.entry_b]) for m in matches.order_by("table")]
    return render(
        request,
        "tournaments/print.html",
        {
            "event": event,
            "round": round_,
            "cards": cards,
            "games": range(1, event.games_per_match + 1),
        },
    )
