"""Pages of clubs and events. Thin: forms shape the input, services decide and write."""

from collections.abc import Callable
from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.db import transaction
from django.db.models import Prefetch, Q
from django.forms.utils import ErrorDict
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.engine import PRESETS

from . import charts
from .event_forms import (
    FORMAT_HELP,
    RULE_FIELDS,
    DivisionForm,
    EntryForm,
    EventForm,
    InviteForm,
    NoteForm,
    ResultForm,
    RosterPlayerForm,
    ScheduleForm,
    SeasonForm,
    move_tiebreak,
)
from .models import AuditEntry, Entry, Event, Invitation, Match, Organisation, Result
from .notifications import absolute
from .permissions import can, require, require_published, sides_of
from .services import (
    arena,
    audit,
    autopilot,
    clubs,
    entries,
    events,
    fixtures,
    invitations,
    results,
    standings,
)
from .services.dashboard import waits_to_finish
from .services.errors import ServiceError
from .tournaments.services.common import TOURNAMENT_FORMATS
from .tournaments.services.standings import standings_of

SHEET_HAND_ROWS = 18  # hand rows on a printed scoresheet, shared by its games


def back(request: HttpRequest, fallback: str) -> HttpResponse:
    """Redirect to the page the form was sent from, when it is on this site."""
    referer = request.META.get("HTTP_REFERER", "")
    safe = url_has_allowed_host_and_scheme(
        referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return redirect(referer if safe else fallback)


def refused(view: Callable) -> Callable:
    """A ServiceError becomes a message on the page the user came from."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except ServiceError as error:
            messages.error(request, error.message)
            return back(request, reverse("events"))

    return wrapper


def event_list(request: HttpRequest) -> HttpResponse:
    listed = Event.objects.exclude(status=Event.Status.DRAFT).select_related("organisation")
    mine = Event.objects.none()
    if request.user.is_authenticated:
        mine = Event.objects.filter(
            status=Event.Status.DRAFT, organisation__memberships__user=request.user
        ).distinct()
    clubs = Organisation.objects.filter(kind=Organisation.Kind.CLUB)
    return render(
        request,
        "league/event_list.html",
        {
            "events": listed,
            "drafts": mine,
            "clubs": clubs,
            "organisations": Organisation.objects.exclude(kind=Organisation.Kind.CLUB),
        },
    )


def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Organisation, slug=slug)
    manager = can(request.user, "organisation.manage", club)
    shown = club.events.all() if manager else club.events.exclude(status=Event.Status.DRAFT)
    return render(
        request,
        "league/club.html",
        {
            "club": club,
            "manager": manager,
            "events": shown.select_related("season"),
            "members": club.memberships.select_related("user__player") if manager else [],
            "players": clubs.roster(club) if manager else club.players.all(),
            "invitations": club.invitations.filter(accepted=None, revoked=False) if manager else [],
            "invite_form": InviteForm(),
            "player_form": RosterPlayerForm(),
            "season_form": SeasonForm(),
        },
    )


@login_required
@require_POST
@refused
def club_invite(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Organisation, slug=slug)
    form = InviteForm(request.POST)
    if form.is_valid():
        invitation = invitations.invite(
            request.user,
            club,
            form.cleaned_data["role"],
            form.cleaned_data["email"],
        )
        link = absolute(invitation.get_absolute_url())
        messages.success(
            request, _("Invitation created. Share this link: %(link)s") % {"link": link}
        )
    else:
        messages.error(request, _("Check the role and the email address."))
    return redirect("club", slug=slug)


@login_required
@require_POST
@refused
def club_season(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Organisation, slug=slug)
    form = SeasonForm(request.POST)
    if form.is_valid():
        events.create_season(request.user, club, **form.cleaned_data)
        messages.success(request, _("Season created."))
    else:
        messages.error(request, _("Check the season's name and dates."))
    return redirect("club", slug=slug)


@refused
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    invite = get_object_or_404(
        Invitation.objects.select_related("organisation", "player"), token=token
    )
    request.session["invitation"] = token  # kept through signing up
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        invitations.accept(request.user, token)
        request.session.pop("invitation", None)
        messages.success(request, _("Welcome to %(org)s.") % {"org": invite.organisation})
        return redirect("club", slug=invite.organisation.slug)
    return render(request, "league/invitation.html", {"invitation": invite})


def _event_form_page(request: HttpRequest, club: Organisation, event: Event | None = None):
    """Creating or editing an event: the format first, then a form with only the fields that
    format uses. A tiebreak button sent without JavaScript shows the form again, reordered."""
    chosen = request.POST.get("format") or request.GET.get("format", "")
    if not chosen and event is not None and "choose" not in request.GET:
        chosen = event.format
    locked = event is not None and events.play_started(event)
    context = {"club": club, "event": event, "formats": _formats(chosen), "locked": locked}
    if chosen not in Event.Format.values:
        return render(request, "league/event_form.html", context)
    data = request.POST if request.method == "POST" else None
    moved = data is not None and "tiebreak_move" in data
    if moved:
        data = data.copy()
        order = move_tiebreak(
            data.getlist("tiebreaks"), data["tiebreak_move"], data.get("tiebreak_add", "")
        )
        data.setlist("tiebreaks", order)
    form = EventForm(data, instance=event, organisation=club, event_format=chosen)
    if moved:
        form._errors = ErrorDict()  # shown again to go on editing, not judged yet
    elif data is not None and form.is_valid():
        try:
            with transaction.atomic():
                if event is None:
                    event = events.create_event(request.user, club, **form.settings())
                else:
                    event = events.update_event(request.user, event, **form.settings())
                if chosen == Event.Format.ARENA and not arena.started(event):
                    autopilot.configure(request.user, event, **form.arena_settings())
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            created = context["event"] is None
            messages.success(
                request, _("Event created. Now add the entries.") if created else _("Event saved.")
            )
            return redirect("event_manage", slug=event.slug)
    presets = {
        name: {option: getattr(rules, option) for option in RULE_FIELDS}
        for name, rules in PRESETS.items()
    }
    context.update(form=form, chosen=Event.Format(chosen), presets=presets)
    return render(request, "league/event_form.html", context)


def _formats(chosen: str) -> list[tuple[str, str, str, bool]]:
    return [
        (value, label, FORMAT_HELP[value], value == chosen) for value, label in Event.Format.choices
    ]


@login_required
def event_create(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Organisation, slug=slug)
    require(request.user, "organisation.manage", club)
    return _event_form_page(request, club)


@login_required
def event_edit(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    require(request.user, "event.manage", event)
    return _event_form_page(request, event.organisation, event)


def _event(request: HttpRequest, slug: str) -> Event:
    event = get_object_or_404(Event.objects.select_related("organisation", "season"), slug=slug)
    require_published(request.user, event)
    return event


def _rounds(event: Event, extra: Q | None = None) -> list:
    confirmed = Prefetch(
        "results",
        queryset=Result.objects.filter(status__in=Result.CURRENT),
        to_attr="current_results",
    )
    matches = (
        Match.objects.filter(event=event, parent__isnull=True)
        .filter(extra or Q())
        .select_related("round__division", "entry_a", "entry_b")
        .prefetch_related(confirmed, "boards__entry_a", "boards__entry_b")
        .order_by("round__division__order", "round__number", "table", "pk")
    )
    grouped: dict = {}
    for match in matches:
        match.result = next(iter(match.current_results), None)
        grouped.setdefault(match.round, []).append(match)
    return list(grouped.items())


def event_detail(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(request, slug)
    return render(
        request,
        "league/event.html",
        {
            "event": event,
            "rounds": _rounds(event),
            "tab": "fixtures",
            "manager": can(request.user, "event.manage", event),
        },
    )


def event_standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings as the event's format ranks them: a tournament's (placements in a
    bracket, Buchholz and the like), or a league's table with a column for each of its
    tiebreaks and the positions over the rounds."""
    event = _event(request, slug)
    context = {
        "event": event,
        "tab": "standings",
        "manager": can(request.user, "event.manage", event),
    }
    if event.format in TOURNAMENT_FORMATS:
        context |= {"tournament": True, **standings_of(event)}
    else:
        tables = []
        for division in list(event.divisions.all()) or [None]:
            table = standings.table(event, division)
            columns = standings.tiebreak_columns(event, table.standings)
            drawn = any(row.drawn for row in table.standings)
            tables.append((division, table, columns, drawn, charts.positions(table)))
        context |= {"tables": tables, "tiebreaks": standings.tiebreak_names(event)}
    return render(request, "league/standings.html", context)


def scoresheets(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(request, slug)
    number = request.GET.get("round", "")
    extra = Q(round__number=int(number)) if number.isdigit() else Q(status=Match.Status.SCHEDULED)
    rounds = _rounds(event, extra & ~Q(status=Match.Status.BYE))
    games = event.games_per_match
    return render(
        request,
        "league/scoresheets.html",
        {
            "event": event,
            "rounds": rounds,
            "games": range(1, games + 1),
            "hands": range(1, max(4, SHEET_HAND_ROWS // games) + 1),
        },
    )


@login_required
def event_manage(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(request, slug)
    require(request.user, "event.manage", event)
    entry_list = event.entries.select_related("player_1", "player_2", "division", "team", "club")
    open_results = Result.objects.filter(match__event=event, status__in=Result.OPEN).select_related(
        "match__entry_a", "match__entry_b", "match__round"
    )
    return render(
        request,
        "league/manage.html",
        {
            "event": event,
            "tab": "manage",
            "manager": True,
            "entries": entry_list,
            "entry_form": EntryForm(event=event),
            "division_form": DivisionForm(),
            "open_results": open_results,
            "has_fixtures": event.rounds.exists(),
            "drawn": entries.drawn(event),
            "play_started": events.play_started(event),
            "transitions": [Event.Status(s) for s in events.transitions(event)],
            "finishable": waits_to_finish(event),
            "audit": audit.described(
                list(AuditEntry.objects.filter(event=event).select_related("actor__player")[:30])
            ),
        },
    )


@login_required
@require_POST
@refused
def event_status(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    status = request.POST.get("status", "")
    if status == Event.Status.CANCELLED and not request.POST.get("confirmed"):
        return redirect("event_cancel", slug=slug)  # only from the page that says what it does
    reopened = event.status == Event.Status.CANCELLED
    event = events.set_status(request.user, event, status)
    if status == Event.Status.CANCELLED:
        messages.success(request, _("Event cancelled. You can reopen it from this page."))
    elif reopened:
        messages.success(
            request, _("Event reopened: %(status)s again.") % {"status": event.get_status_display()}
        )
    elif status == Event.Status.FINISHED:
        messages.success(request, _("The event is finished: its standings are final."))
    else:
        messages.success(request, _("Status changed."))
    back = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        return redirect(back)  # where the button was (the run page's "Finish the event")
    return redirect("event_manage", slug=slug)


@login_required
@refused
def event_delete(request: HttpRequest, slug: str) -> HttpResponse:
    """Deleting a draft: what it deletes, and the button that does it (sent from here
    only)."""
    event = _event(request, slug)
    require(request.user, "event.manage", event)
    if request.method == "POST" and request.POST.get("confirmed"):
        events.delete_event(request.user, event)
        messages.success(request, _("The draft %(name)s is deleted.") % {"name": event.name})
        return redirect("club", slug=event.organisation.slug)
    if event.status != Event.Status.DRAFT or event.rounds.exists():
        return redirect("event_manage", slug=slug)
    return render(
        request,
        "league/delete.html",
        {"event": event, "tab": "manage", "manager": True, "entries": event.entries.count()},
    )


@login_required
@require_POST
@refused
def event_check_in(request: HttpRequest, slug: str) -> HttpResponse:
    """Close check-in, or reopen it."""
    event = get_object_or_404(Event, slug=slug)
    is_open = request.POST.get("open") == "1"
    entries.open_check_in(request.user, event, is_open)
    messages.success(request, _("Check-in reopened.") if is_open else _("Check-in closed."))
    return redirect("event_manage", slug=slug)


@login_required
def event_cancel(request: HttpRequest, slug: str) -> HttpResponse:
    """Before an event is cancelled: what cancelling does, and the button that does it."""
    event = _event(request, slug)
    require(request.user, "event.manage", event)
    if Event.Status.CANCELLED not in events.transitions(event):
        return redirect("event_manage", slug=slug)
    return render(
        request,
        "league/cancel.html",
        {"event": event, "tab": "manage", "manager": True, **events.cancelling(event)},
    )


@login_required
@require_POST
@refused
def event_division(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    form = DivisionForm(request.POST)
    if form.is_valid():
        events.add_division(request.user, event, form.cleaned_data["name"])
    return redirect("event_manage", slug=slug)


@login_required
@require_POST
@refused
def generate(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    made = fixtures.generate_fixtures(request.user, event)
    messages.success(request, _("%(n)s rounds created.") % {"n": len(made)})
    return redirect("event", slug=slug)


@login_required
@require_POST
@refused
def entry_register(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    form = EntryForm(request.POST, event=event)
    if not form.is_valid():
        messages.error(request, _("Check the entry's players."))
        return back(request, event.get_absolute_url())
    data = {k: v for k, v in form.cleaned_data.items() if v not in (None, "")}
    own = getattr(request.user, "player", None)
    if not can(request.user, "event.manage", event) and "player_1" not in data and own:
        data["player_1"] = entries.Pick(pk=own.pk)
    entry = entries.enter_picked(request.user, event, **data)
    if entry.status == Entry.Status.WAITLISTED:
        messages.warning(
            request, _("The event is full: %(e)s is on the waiting list.") % {"e": entry}
        )
    else:
        messages.success(request, _("%(e)s is entered.") % {"e": entry})
    return back(request, event.get_absolute_url())


@login_required
@require_POST
@refused
def entry_action(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    entry = get_object_or_404(Entry.objects.select_related("event"), pk=pk)
    reason = request.POST.get("reason", "")
    if action == "delete":
        entries.delete_entry(request.user, entry)
        messages.success(request, _("%(e)s deleted.") % {"e": entry})
        return redirect("event_manage", slug=entry.event.slug)
    if action == "check-in":
        entries.check_in(request.user, entry)
    elif action == "undo-check-in":
        entries.undo_check_in(request.user, entry)
    elif action == "withdraw":
        entries.withdraw(request.user, entry, reason=reason)
    elif action == "disqualify":
        entries.withdraw(request.user, entry, disqualify=True, reason=reason)
    messages.success(request, _("%(e)s updated.") % {"e": entry})
    return back(request, entry.event.get_absolute_url())


def _match_page(
    request: HttpRequest, match: Match, form: ResultForm | None = None, status: int = 200
) -> HttpResponse:
    """The match page; `form`: a refused result form, shown again with what was typed."""
    event = match.event
    require_published(request.user, event)
    history = list(match.results.select_related("entered_by__player", "confirmed_by__player"))
    current = next((r for r in history if r.status in (*Result.OPEN, "confirmed")), None)
    manager = can(request.user, "event.manage", event)
    can_enter = (
        current is None
        and can(request.user, "result.enter", match)
        and match.status in (Match.Status.SCHEDULED, Match.Status.POSTPONED)
        and not match.boards.exists()
    )
    correcting = current is not None and current.status == Result.Status.CONFIRMED and manager
    if form is None:
        start = current if correcting or (current is not None and manager) else None
        form = ResultForm(games=event.games_per_match, result=start)
    return render(
        request,
        "league/match.html",
        {
            "match": match,
            "event": event,
            "history": history,
            "current": current,
            "faults": results.faults(current) if current else [],
            "has_hands": current is not None and any(g.get("hands") for g in current.games),
            "boards": match.boards.select_related("entry_a", "entry_b"),
            "can_enter": can_enter,
            "official": can(request.user, "event.referee", event),
            "can_confirm": current is not None
            and current.status == Result.Status.PROPOSED
            and can(request.user, "result.confirm", current),
            "can_resolve": current is not None
            and current.status == Result.Status.DISPUTED
            and manager,
            "can_correct": correcting,
            "can_schedule": manager
            and match.status in (Match.Status.SCHEDULED, Match.Status.POSTPONED),
            "my_sides": sides_of(request.user, match),
            "result_form": form,
            "schedule_form": ScheduleForm(
                initial={"scheduled": match.scheduled, "venue": match.venue, "table": match.table}
            ),
            "note_form": NoteForm(),
        },
        status=status,
    )


def _match(pk: int) -> Match:
    return get_object_or_404(
        Match.objects.select_related("event__organisation", "round", "entry_a", "entry_b"), pk=pk
    )


def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return _match_page(request, _match(pk))


def _submit_result(request: HttpRequest, match: Match, save: Callable, done: str) -> HttpResponse:
    """Send a result form to `save(form)`; a refused score is shown again as it was typed,
    with its message, and nothing is saved."""
    form = ResultForm(request.POST, games=match.event.games_per_match)
    if form.is_valid():
        try:
            message = save(form) or done
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, message)
            return redirect("match", pk=match.pk)
    else:
        messages.error(request, _("Enter whole numbers of points for each game played."))
    return _match_page(request, match, form, status=400)


@login_required
@require_POST
def result_enter(request: HttpRequest, pk: int) -> HttpResponse:
    match = _match(pk)

    def save(form: ResultForm) -> str:
        note = form.cleaned_data["note"]
        result = results.enter_result(request.user, match, form.games(), note, form.lisa())
        if result.status == Result.Status.CONFIRMED:
            return _("Result saved: it counts now.")
        return _("Result entered. It counts once the other side confirms it.")

    return _submit_result(request, match, save, "")


@login_required
@require_POST
def result_correct(request: HttpRequest, pk: int) -> HttpResponse:
    match = _match(pk)

    def save(form: ResultForm) -> None:
        note = form.cleaned_data["note"]
        results.correct_result(request.user, match, form.games(), note, form.lisa())

    return _submit_result(
        request, match, save, _("Result corrected; the standings are recomputed.")
    )


@login_required
@require_POST
@refused
def result_decide(request: HttpRequest, pk: int, decision: str) -> HttpResponse:
    result = get_object_or_404(Result.objects.select_related("match__event"), pk=pk)
    note = request.POST.get("note", "")
    if decision == "resolve":

        def save(form: ResultForm) -> None:
            games, lisa = form.games(), form.lisa()
            results.resolve_dispute(request.user, result, games, note, lisa)

        done = _("Dispute settled with the corrected result.")
        return _submit_result(request, _match(result.match_id), save, done)
    if decision == "confirm":
        results.confirm_result(request.user, result)
        messages.success(request, _("Result confirmed."))
    elif decision == "dispute":
        results.dispute_result(request.user, result, note)
        messages.warning(request, _("Result disputed: an organiser will settle it."))
    elif decision == "uphold":
        results.resolve_dispute(request.user, result, note=note)
        messages.success(request, _("Dispute settled: the result stands."))
    return redirect("match", pk=result.match_id)


@login_required
@require_POST
@refused
def match_schedule(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=pk)
    if request.POST.get("postpone"):
        fixtures.postpone(request.user, match)
        messages.success(request, _("Match postponed."))
        return redirect("match", pk=pk)
    form = ScheduleForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        fixtures.reschedule(request.user, match, data["scheduled"], data["venue"], data["table"])
        messages.success(request, _("Match rescheduled."))
    else:
        messages.error(request, _("Check the date, venue and table."))
    return redirect("match", pk=pk)
