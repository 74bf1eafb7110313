"""Every permission of the competition core, decided in one place: `can(user, action, obj)`.

Organisation roles apply to the organisation and to every organisation below it (a
federation's organisers run its clubs' events). Actions and the object they are asked about:

- "organisation.manage" (Organisation): edit it, invite members, create seasons and events.
- "event.manage" (Event): settings, entries, fixtures, schedule, withdrawals, corrections.
- "event.referee" (Event): enter and confirm any result, resolve nothing.
- "event.enter" (Event): register an entry (any signed-in user while registration is open, and
  while an arena is in play).
- "entry.act" (Entry): check in or withdraw it (its captain, or an organiser).
- "result.enter" (Match): enter a result (a player: only if the event lets players do so).
- "result.confirm" (Result): confirm or dispute a proposed result.
- "result.resolve" (Result): settle a disputed result.

`None` for the user is the server acting on its own: an online event's autopilot pairs,
withdraws and finishes as its organisers would (league/services/autopilot.py), and the
audit log names nobody. Pages and the API always pass the request's user.
"""

from collections.abc import Iterable

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext_lazy as _

from .models import Entry, Event, Match, Membership, Organisation, Result

Role = Membership.Role
MANAGERS = (Role.OWNER, Role.ORGANISER)
REFEREES = (Role.OWNER, Role.ORGANISER, Role.REFEREE)


def lineage(organisation: Organisation) -> list[int]:
    ids, seen, node = [], set(), organisation
    while node is not None and node.pk not in seen:
        seen.add(node.pk)
        ids.append(node.pk)
        node = node.parent
    return ids


def has_role(user, organisation: Organisation, roles: Iterable[str]) -> bool:
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return Membership.objects.filter(
        user=user, organisation_id__in=lineage(organisation), role__in=list(roles)
    ).exists()


def below(organisations: Iterable[int]) -> set[int]:
    """These organisations and every organisation under them (roles reach down the tree)."""
    found, frontier = set(), set(organisations)
    while frontier:
        found |= frontier
        frontier = (
            set(Organisation.objects.filter(parent__in=frontier).values_list("pk", flat=True))
            - found
        )
    return found


def managed(user) -> set[int] | None:
    """The organisations whose events the user manages (None: every one, a superuser)."""
    if not user.is_authenticated:
        return set()
    if user.is_superuser:
        return None
    roles = Membership.objects.filter(user=user, role__in=MANAGERS)
    return below(roles.values_list("organisation_id", flat=True))


def speaks_for(user, entry: Entry | None) -> bool:
    """The user captains the entry: its named captain, else either player of a pair.

    A pair inside a club team is also spoken for by the team's captain.
    """
    if entry is None or not user.is_authenticated:
        return False
    player = getattr(user, "player", None)
    if player is None:
        return False
    if entry.captain_id is not None:
        if entry.captain_id == player.pk:
            return True
    elif player.pk in (entry.player_1_id, entry.player_2_id):
        return True
    return entry.team is not None and speaks_for(user, entry.team)


def sides_of(user, match: Match) -> set[str]:
    """The sides ("a", "b") of the match the user captains."""
    return {
        side
        for side, entry in (("a", match.entry_a), ("b", match.entry_b))
        if speaks_for(user, entry)
    }


def can(user, action: str, obj) -> bool:
    if user is None:
        return True  # the server itself (see above)
    if not user.is_authenticated:
        return False
    if action == "organisation.manage":
        return has_role(user, obj, MANAGERS)
    if action == "event.manage":
        return has_role(user, obj.organisation, MANAGERS)
    if action == "event.referee":
        return has_role(user, obj.organisation, REFEREES)
    if action == "event.enter":
        arena_on = obj.format == Event.Format.ARENA and obj.status == Event.Status.RUNNING
        return obj.status == Event.Status.REGISTRATION or arena_on or can(user, "event.manage", obj)
    if action == "entry.act":
        return can(user, "event.manage", obj.event) or speaks_for(user, obj)
    if action == "result.enter":
        return can(user, "event.referee", obj.event) or (
            obj.event.players_enter_results and bool(sides_of(user, obj))
        )
    if action == "result.confirm":
        return _may_confirm(user, obj)
    if action == "result.resolve":
        return can(user, "event.manage", obj.match.event)
    raise ValueError(f"unknown action {action!r}")


def _may_confirm(user, result: Result) -> bool:
    """A second person: the other side's captain, or a referee who did not enter it."""
    if user.pk == result.entered_by_id:
        return False
    if can(user, "event.referee", result.match.event):
        return True
    entered_for = sides_of(result.entered_by, result.match) if result.entered_by else set()
    return bool(sides_of(user, result.match) - entered_for)


def require(user, action: str, obj) -> None:
    if not can(user, action, obj):
        raise PermissionDenied(_("You are not allowed to do this."))


def require_published(user, event: Event) -> None:
    """A draft event is seen by its organisers only; others are told it is not published."""
    if event.status == Event.Status.DRAFT and not can(user, "event.manage", event):
        raise PermissionDenied(_("This event is not published yet."))
