"""Entries: registration with a cap and a waiting list, check-in, late entries, withdrawals."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ..models import Division, Entry, Event, Organisation, Player, Result
from ..permissions import can, require, speaks_for
from .audit import audit, snapshot
from .errors import ServiceError
from .events import bump_standings
from .fixtures import add_catch_up_fixtures, remaining_matches
from .results import award_forfeit

ENTRY_FIELDS = [
    "name",
    "status",
    "division",
    "team",
    "player_1",
    "player_2",
    "captain",
    "club",
    "late",
    "checked_in",
    "left",
]
ACTIVE = (Entry.Status.ACCEPTED, Entry.Status.WAITLISTED)


def _registration_open(event: Event) -> bool:
    now = timezone.now()
    return (
        event.status == Event.Status.REGISTRATION
        and (event.registration_opens is None or event.registration_opens <= now)
        and (event.registration_closes is None or now < event.registration_closes)
    )


def _check_players(event: Event, players: list[Player]) -> None:
    if len(set(players)) != len(players):
        raise ServiceError("same_player", _("A pair needs two different players."))
    taken = Entry.objects.filter(event=event, status__in=ACTIVE).filter(
        player_1__in=players
    ) | Entry.objects.filter(event=event, status__in=ACTIVE, player_2__in=players)
    if taken.exists():
        raise ServiceError("already_entered", _("A player of this pair is already entered."))


@transaction.atomic
def register(
    user,
    event: Event,
    *,
    name: str = "",
    player_1: Player | None = None,
    player_2: Player | None = None,
    captain: Player | None = None,
    club: Organisation | None = None,
    team: Entry | None = None,
    division: Division | None = None,
) -> Entry:
    """Enter a pair (or a club team, or a pair of a team) in an event.

    Organisers may enter at any time (after the fixtures are made, a late entry gets catch-up
    fixtures); others while registration is open, and only an entry they play in or captain.
    Over the cap, the entry goes on the waiting list.
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    require(user, "event.enter", event)
    organiser = can(user, "event.manage", event)
    if event.status in (Event.Status.FINISHED, Event.Status.CANCELLED):
        raise ServiceError("event_closed", _("This event is over."))
    if not organiser and not _registration_open(event):
        raise ServiceError("registration_closed", _("Registration is closed."))
    if division is not None and division.event_id != event.pk:
        raise ServiceError("bad_division", _("That division is not part of this event."))
    if division is None and event.divisions.exists() and team is None:
        raise ServiceError("division_required", _("Choose a division."))
    is_team = event.entry_kind == Event.EntryKind.TEAM and team is None
    if team is not None and (team.event_id != event.pk or team.team_id is not None):
        raise ServiceError("bad_team", _("That team is not part of this event."))
    players = [] if is_team else [p for p in (player_1, player_2) if p is not None]
    if not is_team:
        if len(players) != 2:
            raise ServiceError("pair_incomplete", _("A pair needs two players."))
        _check_players(event, players)
    if is_team and captain is None:
        raise ServiceError("captain_required", _("A team needs a captain."))
    own = getattr(user, "player", None)
    mine = (own is not None and own in [*players, captain]) or (
        team is not None and speaks_for(user, team)
    )
    if not organiser and not mine:
        raise ServiceError("not_yours", _("You can only enter a pair you play in."))
    name = name.strip() or " / ".join(p.display_name for p in players)
    if not name:
        raise ServiceError("name_required", _("Give the team a name."))
    entry = Entry(
        event=event,
        division=team.division if team else division,
        team=team,
        name=name[:120],
        club=club,
        captain=captain,
        player_1=player_1,
        player_2=player_2,
    )
    accepted = event.entries.filter(status=Entry.Status.ACCEPTED, team__isnull=True).count()
    if team is None and event.capacity is not None and accepted >= event.capacity:
        entry.status = Entry.Status.WAITLISTED
    fixtures_made = event.rounds.exists()
    closes = event.registration_closes
    entry.late = fixtures_made or (closes is not None and timezone.now() >= closes)
    entry.save()
    league = event.format == Event.Format.LEAGUE  # tournaments pair late entries next round
    if league and fixtures_made and team is None and entry.status == Entry.Status.ACCEPTED:
        add_catch_up_fixtures(event, entry)
    bump_standings(event)
    audit(user, "entry.register", entry, event=event, after=snapshot(entry, ENTRY_FIELDS))
    return entry


def _lock(entry: Entry) -> tuple[Event, Entry]:
    event = Event.objects.select_for_update().get(pk=entry.event_id)
    return event, Entry.objects.select_for_update().get(pk=entry.pk)


@transaction.atomic
def check_in(user, entry: Entry) -> Entry:
    event, entry = _lock(entry)
    require(user, "entry.act", entry)
    if entry.status != Entry.Status.ACCEPTED:
        raise ServiceError("not_accepted", _("Only accepted entries check in."))
    if entry.checked_in is None:
        entry.checked_in = timezone.now()
        entry.save(update_fields=["checked_in"])
        audit(user, "entry.check_in", entry, event=event, after={"checked_in": True})
    return entry


def _promote(event: Event, actor) -> Entry | None:
    """The first entry on the waiting list takes the freed place (before the fixtures)."""
    if event.rounds.exists():
        return None
    waiting = (
        event.entries.select_for_update()
        .filter(status=Entry.Status.WAITLISTED, team__isnull=True)
        .order_by("registered", "pk")
        .first()
    )
    if waiting is not None:
        waiting.status = Entry.Status.ACCEPTED
        waiting.save(update_fields=["status"])
        audit(
            actor,
            "entry.promote",
            waiting,
            event=event,
            before={"status": Entry.Status.WAITLISTED},
            after={"status": Entry.Status.ACCEPTED},
        )
    return waiting


def _apply_absence(event: Event, entry: Entry, actor) -> None:
    """The entry's remaining matches become forfeits or byes, as the event says."""
    matches = (
        remaining_matches(entry)
        .exclude(results__status__in=Result.OPEN)
        .select_for_update(of=("self",))
        .select_related("event", "parent")
    )
    for match in matches:
        if event.absence == Event.Absence.BYE:
            match.status = match.Status.BYE
            match.save(update_fields=["status"])
        elif not match.boards.exists() and match.entry_b_id is not None:
            sides_a = {match.entry_a_id, match.parent.entry_a_id if match.parent else None}
            award_forfeit(match, "a" if entry.pk in sides_a else "b", actor)


@transaction.atomic
def withdraw(user, entry: Entry, *, disqualify: bool = False, reason: str = "") -> Entry:
    """Withdraw (the entry's captain or an organiser) or disqualify (organisers) an entry."""
    event, entry = _lock(entry)
    organiser = can(user, "event.manage", event)
    require(user, "event.manage" if disqualify else "entry.act", event if disqualify else entry)
    if entry.status not in ACTIVE:
        raise ServiceError("not_active", _("This entry has already left the event."))
    before = snapshot(entry, ENTRY_FIELDS)
    was_accepted = entry.status == Entry.Status.ACCEPTED
    entry.status = Entry.Status.DISQUALIFIED if disqualify else Entry.Status.WITHDRAWN
    entry.left = timezone.now()
    entry.save(update_fields=["status", "left"])
    if was_accepted:
        _apply_absence(event, entry, user if organiser else None)
        if entry.team_id is None:
            _promote(event, user)
    bump_standings(event)
    after = {**snapshot(entry, ENTRY_FIELDS), "reason": reason[:300]}
    audit(
        user,
        "entry.disqualify" if disqualify else "entry.withdraw",
        entry,
        event=event,
        before=before,
        after=after,
    )
    return entry
