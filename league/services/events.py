"""Creating and running events: rule sets, match formats, tiebreaks, status."""

from typing import Any

from django.db import models, transaction
from django.db.models import F
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from games.engine import Rules, RulesError, rules_from_spec

from ..models import Division, Event, Match, Organisation, Result, Season
from ..permissions import require
from ..signals import standings_changed
from .audit import audit, snapshot
from .errors import ServiceError

DEFAULT_TIEBREAKS = [
    Event.Tiebreak.MATCH_WINS,
    Event.Tiebreak.GAMES_WON,
    Event.Tiebreak.POINT_DIFFERENCE,
    Event.Tiebreak.POINTS_FOR,
    Event.Tiebreak.HEAD_TO_HEAD,
    Event.Tiebreak.LOTS,
]
# The tiebreaks each format starts with (the organiser may reorder them before play).
FORMAT_TIEBREAKS = {
    Event.Format.SWISS: [
        "match_wins",
        "buchholz",
        "sonneborn_berger",
        "point_difference",
        "points_for",
        "lots",
    ],
    Event.Format.INDIVIDUAL: [
        "match_wins",
        "partner_aware",
        "point_difference",
        "points_for",
        "lots",
    ],
}
EDITABLE = (
    "name",
    "description",
    "season",
    "format",
    "mode",
    "entry_kind",
    "boards",
    "legs",
    "rule_preset",
    "rule_overrides",
    "match_format",
    "best_of",
    "time_limit",
    "tiebreaks",
    "venue",
    "registration_opens",
    "registration_closes",
    "capacity",
    "absence",
    "forfeit_games",
    "forfeit_points",
    "players_enter_results",
)
# Settings that decide how results count: fixed once play has started.
LOCKED_IN_PLAY = (
    "format",
    "entry_kind",
    "boards",
    "legs",
    "rule_preset",
    "rule_overrides",
    "match_format",
    "best_of",
    "time_limit",
    "tiebreaks",
)


def event_rules(preset: str, overrides: Any) -> Rules:
    """The engine's rules for a preset plus overrides; ServiceError if it rejects them."""
    if not isinstance(overrides, dict):
        raise ServiceError("bad_rules", _("Rule overrides must be an object of option values."))
    try:
        return rules_from_spec({"preset": preset, **overrides})
    except RulesError as error:
        raise ServiceError(
            "bad_rules", _("The rule set is not valid: %(error)s") % {"error": error.message}
        ) from error


def format_tiebreaks(event_format: str) -> list[str]:
    """The tiebreaks an event of this format starts with."""
    return FORMAT_TIEBREAKS.get(event_format, DEFAULT_TIEBREAKS)


def rules_of(event: Event) -> Rules:
    return event_rules(event.rule_preset, event.rule_overrides)


def check_settings(event: Event) -> None:
    """Raise ServiceError unless the event's rule set, match format and tiebreaks are valid."""
    event_rules(event.rule_preset, event.rule_overrides)
    if event.match_format == Event.MatchFormat.BEST_OF and (
        not event.best_of or event.best_of % 2 == 0
    ):
        raise ServiceError("bad_format", _("Best of N needs an odd number of games."))
    if event.match_format == Event.MatchFormat.TIME_LIMIT and not event.time_limit:
        raise ServiceError("bad_format", _("A time-limited match needs its limit in minutes."))
    choices = set(Event.Tiebreak.values)
    tiebreaks = event.tiebreaks
    if (
        not isinstance(tiebreaks, list)
        or not tiebreaks
        or any(t not in choices for t in tiebreaks)
        or len(set(tiebreaks)) != len(tiebreaks)
    ):
        raise ServiceError("bad_tiebreaks", _("Choose each tiebreak at most once, in order."))
    if event.entry_kind == Event.EntryKind.PAIR and event.boards != 1:
        raise ServiceError("bad_format", _("Only team events have several boards per fixture."))
    if (
        event.registration_opens
        and event.registration_closes
        and event.registration_closes <= event.registration_opens
    ):
        raise ServiceError("bad_dates", _("Registration must close after it opens."))


def play_started(event: Event) -> bool:
    return Result.objects.filter(match__event=event).exists()


def unique_slug(name: str, model: type[models.Model] = Event, fallback: str = "event") -> str:
    """A slug made from the name that no row of `model` has yet."""
    base = slugify(name)[:70] or fallback
    slug, n = base, 1
    while model.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


@transaction.atomic
def create_event(user, organisation: Organisation, **fields: Any) -> Event:
    require(user, "organisation.manage", organisation)
    unknown = set(fields) - set(EDITABLE)
    if unknown:
        raise ValueError(f"not event settings: {sorted(unknown)}")
    fields.setdefault(
        "tiebreaks", list(format_tiebreaks(fields.get("format", Event.Format.LEAGUE)))
    )
    season = fields.get("season")
    if season is not None and season.organisation_id != organisation.pk:
        raise ServiceError("bad_season", _("The season belongs to another organisation."))
    event = Event(organisation=organisation, created_by=user, **fields)
    check_settings(event)
    event.slug = unique_slug(event.name)
    event.save()
    audit(user, "event.create", event, event=event, after=snapshot(event))
    return event


@transaction.atomic
def update_event(user, event: Event, **fields: Any) -> Event:
    event = Event.objects.select_for_update().get(pk=event.pk)
    require(user, "event.manage", event)
    unknown = set(fields) - set(EDITABLE)
    if unknown:
        raise ValueError(f"not event settings: {sorted(unknown)}")
    before = snapshot(event)
    changed = [name for name, value in fields.items() if getattr(event, name) != value]
    if play_started(event) and set(changed) & set(LOCKED_IN_PLAY):
        raise ServiceError(
            "locked_in_play",
            _("The rule set, match format and tiebreaks are fixed once play has started."),
        )
    for name, value in fields.items():
        setattr(event, name, value)
    check_settings(event)
    event.save()
    bump_standings(event)
    audit(user, "event.update", event, event=event, before=before, after=snapshot(event))
    return event


TRANSITIONS = {
    Event.Status.DRAFT: (Event.Status.REGISTRATION, Event.Status.CANCELLED),
    Event.Status.REGISTRATION: (Event.Status.DRAFT, Event.Status.RUNNING, Event.Status.CANCELLED),
    Event.Status.RUNNING: (Event.Status.FINISHED, Event.Status.CANCELLED),
    Event.Status.FINISHED: (Event.Status.RUNNING,),
}


def transitions(event: Event) -> tuple[str, ...]:
    """The statuses `event` may move to: a cancelled event only back to where it was."""
    if event.status == Event.Status.CANCELLED:
        return (event.cancelled_from or Event.Status.DRAFT,)
    return TRANSITIONS[event.status]


@transaction.atomic
def set_status(user, event: Event, status: str) -> Event:
    """Move the event to `status`; cancelling remembers where it was, and reopening a
    cancelled event takes it back there (each audited as such)."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    require(user, "event.manage", event)
    if status not in transitions(event):
        raise ServiceError(
            "bad_transition",
            _("A %(from)s event cannot become %(to)s.")
            % {"from": event.get_status_display(), "to": Event.Status(status).label}
            if status in Event.Status.values
            else _("Unknown status."),
        )
    before = snapshot(event, ["status"])
    action = "event.status"
    if status == Event.Status.CANCELLED:
        event.cancelled_from, action = event.status, "event.cancel"
    elif event.status == Event.Status.CANCELLED:
        event.cancelled_from, action = "", "event.reopen"
    event.status = status
    event.save(update_fields=["status", "cancelled_from"])
    audit(user, action, event, event=event, before=before, after={"status": status})
    return event


@transaction.atomic
def delete_event(user, event: Event) -> None:
    """Delete a draft made by mistake, with its entries (organisers). An event that was
    published, or whose rounds were made, is cancelled instead; the deletion stays in the
    organisation's audit log."""
    event = Event.objects.select_for_update().select_related("organisation").get(pk=event.pk)
    require(user, "event.manage", event)
    if event.status != Event.Status.DRAFT:
        raise ServiceError("not_draft", _("Only a draft is deleted: cancel the event instead."))
    if event.rounds.exists():
        raise ServiceError(
            "has_rounds", _("This draft's rounds are made: cancel the event instead.")
        )
    audit(
        user,
        "event.delete",
        event,
        before=snapshot(event, ["name", "slug", "format"]),
        organisation=event.organisation,
    )
    event.delete()


def cancelling(event: Event) -> dict[str, int]:
    """What cancelling `event` leaves: its matches still to play and the results kept."""
    matches = event.matches.filter(parent__isnull=True, entry_b__isnull=False)
    return {
        "unplayed": matches.filter(
            status__in=(Match.Status.SCHEDULED, Match.Status.POSTPONED)
        ).count(),
        "results": matches.filter(results__status=Result.Status.CONFIRMED).distinct().count(),
    }


@transaction.atomic
def create_season(user, organisation: Organisation, **fields: Any) -> Season:
    require(user, "organisation.manage", organisation)
    if Season.objects.filter(organisation=organisation, name=fields.get("name")).exists():
        raise ServiceError("duplicate", _("This organisation already has a season of that name."))
    season = Season.objects.create(organisation=organisation, **fields)
    audit(user, "season.create", season, after=snapshot(season))
    return season


def bump_standings(event: Event) -> None:
    """Something that standings depend on changed: cached standings are now stale."""
    Event.objects.filter(pk=event.pk).update(results_version=F("results_version") + 1)
    standings_changed.send(sender=Event, event=event)
    transaction.on_commit(lambda: standings_changed.send(sender=Event, event=event))


@transaction.atomic
def add_division(user, event: Event, name: str) -> Division:
    event = Event.objects.select_for_update().get(pk=event.pk)
    require(user, "event.manage", event)
    if event.rounds.exists():
        raise ServiceError("fixtures_exist", _("Divisions are fixed once the fixtures are made."))
    name = name.strip()
    if not name or event.divisions.filter(name=name).exists():
        raise ServiceError("duplicate", _("Give the division a new name."))
    division = Division.objects.create(event=event, name=name, order=event.divisions.count())
    audit(user, "division.create", division, event=event, after={"name": name})
    return division
