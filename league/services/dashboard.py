"""The organiser's dashboard: each event they run, and what it needs now (results missing or
waiting, disputes, a round to pair or publish, check-in), each with the page that does it."""

from dataclasses import dataclass, field
from datetime import date

from django.db.models import Count, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from ..models import Entry, Event, Match, Membership, Organisation, Result
from ..permissions import MANAGERS, REFEREES
from ..tournaments.models import Bracket, DraftPairing, Tournament
from ..tournaments.services import groups
from ..tournaments.services.common import TOURNAMENT_FORMATS, unfinished_matches
from ..tournaments.services.individual import unfinished_tables
from .clubs import family

LIVE = (Event.Status.DRAFT, Event.Status.REGISTRATION, Event.Status.RUNNING)


@dataclass
class Todo:
    text: str | Promise
    url: str
    urgent: bool = False


@dataclass
class EventTodos:
    event: Event
    manager: bool
    todos: list[Todo] = field(default_factory=list)
    run_url: str = ""


def clubs_of(user) -> list[Organisation]:
    """The organisations the user runs (as an owner or organiser)."""
    ids = Membership.objects.filter(user=user, role__in=MANAGERS).values("organisation")
    return list(Organisation.objects.filter(pk__in=ids).order_by("name"))


def _organisations(user, roles) -> set[int]:
    ids: set[int] = set()
    for membership in Membership.objects.filter(user=user, role__in=roles).select_related(
        "organisation"
    ):
        ids.update(family(membership.organisation))
    return ids


def _missing(event: Event, today: date) -> list[Match]:
    """Matches due and without any result: in the earliest round still being played, or in
    a round whose day has passed."""
    due = (
        Match.objects.filter(event=event, parent__isnull=True, entry_b__isnull=False)
        .filter(status__in=[Match.Status.SCHEDULED, Match.Status.POSTPONED])
        .exclude(results__status__in=[*Result.OPEN, Result.Status.CONFIRMED])
        .select_related("round")
        .order_by("round__number")
    )
    found = list(due)
    if not found:
        return []
    first = found[0].round.number
    return [m for m in found if m.round.number == first or (m.round.date and m.round.date < today)]


def _todos(event: Event, manager: bool, today: date) -> EventTodos:
    tournament = event.format in TOURNAMENT_FORMATS
    run = reverse("tournament_run" if tournament else "event_manage", args=[event.slug])
    item = EventTodos(event, manager, run_url=run if manager else event.get_absolute_url())
    todos = item.todos
    manage = reverse("event_manage", args=[event.slug])
    if event.status == Event.Status.DRAFT and manager:
        todos.append(Todo(_("Draft: open registration when it is ready"), manage))
    counts = event.entries.filter(team__isnull=True).aggregate(
        accepted=Count("pk", filter=Q(status=Entry.Status.ACCEPTED)),
        checked=Count("pk", filter=Q(status=Entry.Status.ACCEPTED, checked_in__isnull=False)),
    )
    rounds = event.rounds.exists()
    if manager and not rounds and event.status != Event.Status.DRAFT:
        if counts["checked"]:
            text = _("Check-in open: %(checked)s of %(accepted)s entries checked in") % counts
        else:
            text = (
                ngettext(
                    "Registration: %(accepted)s entry",
                    "Registration: %(accepted)s entries",
                    counts["accepted"],
                )
                % counts
            )
        todos.append(Todo(text, run + "#entries" if tournament else manage))
    results = Result.objects.filter(match__event=event)
    waiting = results.filter(status=Result.Status.PROPOSED).count()
    disputed = results.filter(status=Result.Status.DISPUTED).count()
    missing = _missing(event, today)
    if missing:
        round_ = missing[0].round
        if round_.name:  # a bracket's round: "Losers' round 2", not the 5th round it is
            text = ngettext(
                "%(round)s — %(n)s result missing",
                "%(round)s — %(n)s results missing",
                len(missing),
            ) % {"round": round_, "n": len(missing)}
        else:
            text = ngettext(
                "Round %(round)s: %(n)s result missing",
                "Round %(round)s: %(n)s results missing",
                len(missing),
            ) % {"round": round_.number, "n": len(missing)}
        todos.append(Todo(text, _results_url(event, missing[0]), urgent=True))
    if waiting:
        text = ngettext(
            "%(n)s result waits for confirmation", "%(n)s results wait for confirmation", waiting
        ) % {"n": waiting}
        todos.append(Todo(text, run + ("#confirm-results" if tournament else ""), urgent=True))
    if disputed:
        text = ngettext("%(n)s dispute open", "%(n)s disputes open", disputed) % {"n": disputed}
        todos.append(Todo(text, manage, urgent=True))
    if manager and tournament:
        todos.extend(_round_todos(event, run, missing or waiting or disputed, counts["accepted"]))
    if manager and waits_to_finish(event):
        text = _("Everything is played: finish the event")
        todos.append(Todo(text, (run if tournament else manage) + "#finish", urgent=True))
    return item


def waits_to_finish(event: Event) -> bool:
    """Is finishing all that is left of a running event? Every match (an individual event's
    every table) has its confirmed result, none waits or is disputed, no draft round, and
    nothing is left to draw: a Swiss or individual event has played its planned rounds,
    a groups event its playoff (a bracket's next matches are made as results come in). An
    arena is never waiting: it ends with its time window."""
    if event.status != Event.Status.RUNNING or not event.rounds.exists():
        return False
    if event.format == Event.Format.ARENA:  # it ends with its time window, by itself
        return False
    if unfinished_matches(event).exists() or DraftPairing.objects.filter(event=event).exists():
        return False
    if Result.objects.filter(match__event=event, status__in=Result.OPEN).exists():
        return False
    if event.format in (Event.Format.SWISS, Event.Format.INDIVIDUAL):
        planned = (Tournament.objects.filter(event=event).first() or Tournament()).rounds
        latest = event.rounds.order_by("-number").values_list("number", flat=True).first()
        if latest < planned:
            return False
        if event.format == Event.Format.INDIVIDUAL and unfinished_tables(event):
            return False
    if event.format == Event.Format.GROUPS_PLAYOFF:
        return Bracket.objects.filter(event=event).exists()
    return True


def _results_url(event: Event, match: Match) -> str:
    """The page where the organiser enters the round's results: its round sheet (a team
    fixture's boards are entered on the fixture's page)."""
    if event.entry_kind == Event.EntryKind.TEAM:
        return match.get_absolute_url()
    return reverse("round_sheet", args=[match.round_id])


def _round_todos(event: Event, run: str, busy: int, entrants: int) -> list[Todo]:
    draft = DraftPairing.objects.filter(event=event).order_by("number").first()
    if draft is not None:
        text = _("Round %(n)s is paired: check it and publish it") % {"n": draft.number}
        return [Todo(text, run + "#draft", urgent=True)]
    if busy or event.status not in (Event.Status.REGISTRATION, Event.Status.RUNNING):
        return []
    latest = event.rounds.order_by("-number").values_list("number", flat=True).first() or 0
    options = Tournament.objects.filter(event=event).first() or Tournament()
    if event.format == Event.Format.SWISS:
        if latest < options.rounds and entrants >= 2:
            return [Todo(_("Pair round %(n)s") % {"n": latest + 1}, run, urgent=True)]
    elif event.format == Event.Format.INDIVIDUAL:
        if latest < options.rounds and entrants >= 4:
            return [Todo(_("Seat round %(n)s") % {"n": latest + 1}, run, urgent=True)]
    elif event.format == Event.Format.GROUPS_PLAYOFF and latest:
        if not Bracket.objects.filter(event=event).exists():
            return [Todo(groups.playoff_waits(event) or _("Start the playoff"), run, urgent=True)]
    elif not latest and entrants >= 2:
        groups_first = event.format == Event.Format.GROUPS_PLAYOFF
        text = _("Draw the groups") if groups_first else _("Draw the first round")
        return [Todo(text, run, urgent=True)]
    return []


def events_of(user) -> list[EventTodos]:
    """The events the user runs or referees that are not over, soonest work first."""
    managed = _organisations(user, MANAGERS)
    refereed = _organisations(user, REFEREES)
    events = (
        Event.objects.filter(organisation_id__in=refereed, status__in=LIVE)
        .select_related("organisation")
        .order_by("-created")
    )
    today = timezone.localdate()
    items = [_todos(event, event.organisation_id in managed, today) for event in events]
    return sorted(items, key=lambda i: not any(t.urgent for t in i.todos))
