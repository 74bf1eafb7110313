"""Helpers shared by the tournament formats: options, locking, who plays, round history."""

from collections import defaultdict
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext_lazy as _

from ...models import Entry, Event, Match, Result, Round
from ...permissions import require
from ...services import events
from ...services.audit import audit
from ...services.errors import ServiceError
from ...services.events import DEFAULT_TIEBREAKS, FORMAT_TIEBREAKS
from ..models import Tournament

TOURNAMENT_FORMATS = (
    Event.Format.SWISS,
    Event.Format.SINGLE_ELIMINATION,
    Event.Format.DOUBLE_ELIMINATION,
    Event.Format.GROUPS_PLAYOFF,
    Event.Format.INDIVIDUAL,
)
ELIMINATION_FORMATS = (Event.Format.SINGLE_ELIMINATION, Event.Format.DOUBLE_ELIMINATION)
# The options each format has (the run page's form and the API offer these, set_options
# takes only these).
OPTION_FIELDS = {
    Event.Format.LEAGUE: [],
    Event.Format.SWISS: ["rounds", "avoid_same_club"],
    Event.Format.SINGLE_ELIMINATION: ["seeding", "third_place"],
    Event.Format.DOUBLE_ELIMINATION: ["seeding", "grand_final_reset"],
    Event.Format.GROUPS_PLAYOFF: [
        "seeding",
        "groups",
        "qualifiers_per_group",
        "playoff_double",
        "third_place",
        "grand_final_reset",
    ],
    Event.Format.INDIVIDUAL: ["rounds", "whist", "sit_out_score", "sit_out_points"],
}


def tournament_of(event: Event) -> Tournament:
    """The event's tournament options, created on first use; an event still on the league
    tiebreaks gets its format's (Swiss: Buchholz, Sonneborn-Berger; individual events:
    partner-aware)."""
    tournament, created = Tournament.objects.get_or_create(event=event)
    if (
        created
        and event.format in FORMAT_TIEBREAKS
        and event.tiebreaks == DEFAULT_TIEBREAKS
        and not event.rounds.exists()
    ):
        event.tiebreaks = FORMAT_TIEBREAKS[event.format]
        Event.objects.filter(pk=event.pk).update(tiebreaks=event.tiebreaks)
    return tournament


def lock_event(user, event: Event, *formats: str) -> Event:
    """Lock the event row (one change at a time), check the user runs it and its format."""
    event = Event.objects.select_for_update().select_related("organisation").get(pk=event.pk)
    require(user, "event.manage", event)
    if formats and event.format not in formats:
        raise ServiceError("wrong_format", _("This event is not played in that format."))
    if event.status in (Event.Status.FINISHED, Event.Status.CANCELLED):
        raise ServiceError("event_closed", _("This event is over."))
    return event


def start_play(user, event: Event) -> None:
    """The first round is out: registration is over, the event is in play."""
    if event.status in (Event.Status.DRAFT, Event.Status.REGISTRATION):
        before = event.status
        event.status = Event.Status.RUNNING
        event.save(update_fields=["status"])
        audit(
            user,
            "event.status",
            event,
            event=event,
            before={"status": before},
            after={"status": event.status},
        )


def playing_entries(event: Event) -> list[Entry]:
    """Accepted entries, in registration order; once anyone has checked in, only those who
    did (the others are absent)."""
    entries = list(
        event.entries.filter(status=Entry.Status.ACCEPTED, team__isnull=True)
        .select_related("player_1", "player_2", "club")
        .order_by("registered", "pk")
    )
    if any(e.checked_in for e in entries):
        entries = [e for e in entries if e.checked_in]
    return entries


def next_round_number(event: Event) -> int:
    return (event.rounds.aggregate(last=Max("number"))["last"] or 0) + 1


def latest_round(event: Event) -> Round | None:
    return event.rounds.order_by("-number").first()


def unfinished_matches(event: Event):
    """Matches still to be played (not byes, not cancelled, no confirmed result)."""
    return (
        Match.objects.filter(event=event, entry_b__isnull=False, parent__isnull=True)
        .exclude(status__in=[Match.Status.BYE, Match.Status.CANCELLED])
        .exclude(results__status=Result.Status.CONFIRMED)
    )


def require_round_complete(event: Event) -> None:
    if unfinished_matches(event).exists():
        raise ServiceError(
            "round_unfinished", _("Every result of the current round must be confirmed first.")
        )


@dataclass
class History:
    """Who met whom (and who had a bye) in the published rounds."""

    opponents: dict[int, set[int]] = field(default_factory=lambda: defaultdict(set))
    byes: set[int] = field(default_factory=set)


def history(event: Event) -> History:
    past = History()
    for a, b in Match.objects.filter(event=event, parent__isnull=True).values_list(
        "entry_a_id", "entry_b_id"
    ):
        if b is None:
            past.byes.add(a)
        else:
            past.opponents[a].add(b)
            past.opponents[b].add(a)
    return past


def confirmed_winners(event: Event) -> dict[int, int]:
    """Match id -> winning entry id, for every match of the event with a confirmed winner."""
    winners = {}
    for match_id, a, b, games_a, games_b in Result.objects.filter(
        match__event=event, status=Result.Status.CONFIRMED
    ).values_list("match_id", "match__entry_a_id", "match__entry_b_id", "games_a", "games_b"):
        if games_a != games_b:
            winners[match_id] = a if games_a > games_b else b
    return winners


@transaction.atomic
def set_options(user, event: Event, **options) -> Tournament:
    """Change the event's tournament options (only those of its format, `OPTION_FIELDS`),
    each checked by the model's own rules; nothing changes when one is refused."""
    event = lock_event(user, event)
    foreign = [name for name in options if name not in OPTION_FIELDS[event.format]]
    if foreign:
        raise ServiceError(
            "bad_options",
            _("A %(format)s event has no option %(names)s.")
            % {"format": event.get_format_display(), "names": ", ".join(sorted(foreign))},
        )
    tournament = tournament_of(event)
    before = {name: getattr(tournament, name) for name in options}
    for name, value in options.items():
        setattr(tournament, name, value)
    try:
        tournament.full_clean()
    except ValidationError as error:
        problems = "; ".join(
            f"{Tournament._meta.get_field(name).verbose_name}: {' '.join(messages)}"
            for name, messages in error.message_dict.items()
        )
        raise ServiceError(
            "bad_options", _("Check the tournament options: %(problems)s") % {"problems": problems}
        ) from error
    tournament.save()
    audit(user, "tournament.options", tournament, event=event, before=before, after=options)
    return tournament


@transaction.atomic
def create_with_options(user, organisation, options: dict | None = None, **fields) -> Event:
    """A new event with its format's options (`set_options`): all of it, or nothing."""
    event = events.create_event(user, organisation, **fields)
    if options:
        set_options(user, event, **options)
    return event


@transaction.atomic
def update_with_options(user, event: Event, options: dict | None = None, **fields) -> Event:
    """Change an event's settings and its format's options together: all, or nothing."""
    event = events.update_event(user, event, **fields)
    if options:
        set_options(user, event, **options)
    return event
