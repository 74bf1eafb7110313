"""Group stage (a round robin in each group) followed by a playoff bracket.

Groups are drawn by snake seeding (`league.pairing.snake_groups`); every group plays its
round robin in the same core rounds (round 1 of every group is round 1 of the event). The
playoff takes the top of each group by the group tables (`league.pairing.playoff_seeds`
keeps entries of one group apart for as long as possible).
"""

from django.db import transaction
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from ...models import Entry, Event, Match, Round
from ...pairing import playoff_seeds, round_robin, snake_groups
from ...services.audit import audit
from ...services.errors import ServiceError
from ...services.events import bump_standings
from ..models import Bracket, Group, GroupMember
from .brackets import build, seeded
from .common import (
    lock_event,
    next_round_number,
    playing_entries,
    start_play,
    tournament_of,
    unfinished_matches,
)
from .standings import group_tables

GROUPS = Event.Format.GROUPS_PLAYOFF


@transaction.atomic
def draw_groups(user, event: Event) -> list[Group]:
    event = lock_event(user, event, GROUPS)
    if event.groups.exists():
        raise ServiceError("groups_exist", _("The groups have already been drawn."))
    tournament = tournament_of(event)
    entries = seeded(tournament, playing_entries(event))
    if tournament.groups < 1 or len(entries) < 2 * tournament.groups:
        raise ServiceError("too_few_entries", _("Every group needs at least two entries."))
    by_id = {e.pk: e for e in entries}
    groups = []
    schedules = []
    for index, members in enumerate(snake_groups([e.pk for e in entries], tournament.groups)):
        group = Group.objects.create(event=event, name=chr(ord("A") + index), order=index)
        GroupMember.objects.bulk_create(
            GroupMember(group=group, entry=by_id[pk], seed=seed)
            for seed, pk in enumerate(members, 1)
        )
        groups.append(group)
        schedules.append(round_robin(members))
    for number in range(1, max(len(s) for s in schedules) + 1):
        round_ = Round.objects.create(event=event, number=number)
        pairings = [p for s in schedules if len(s) >= number for p in s[number - 1].pairings]
        Match.objects.bulk_create(
            Match(
                event=event,
                round=round_,
                entry_a_id=a,
                entry_b_id=b,
                table=table,
                venue=event.venue,
            )
            for table, (a, b) in enumerate(pairings, 1)
        )
    start_play(user, event)
    bump_standings(event)
    audit(
        user,
        "groups.draw",
        event,
        event=event,
        after={g.name: [m.entry_id for m in g.members.all()] for g in groups},
    )
    return groups


def playoff_waits(event: Event) -> str:
    """Why the playoff cannot start yet: how many group matches still lack a confirmed
    result ("" when none do)."""
    left = unfinished_matches(event).count()
    if not left:
        return ""
    return ngettext(
        "%(n)s group match still needs a confirmed result.",
        "%(n)s group matches still need a confirmed result.",
        left,
    ) % {"n": left}


def qualifiers(event: Event) -> list[Entry]:
    """The playoff seeds from the group tables (group winners first)."""
    tables = group_tables(event)
    standings = [[row.entry.pk for row in rows if row.active] for _group, rows in tables]
    per_group = tournament_of(event).qualifiers_per_group
    entries = {row.entry.pk: row.entry for _group, rows in tables for row in rows}
    return [entries[pk] for pk in playoff_seeds(standings, per_group)]


@transaction.atomic
def start_playoff(user, event: Event) -> Bracket:
    event = lock_event(user, event, GROUPS)
    if not event.groups.exists():
        raise ServiceError("no_groups", _("Draw the groups first."))
    if Bracket.objects.filter(event=event).exists():
        raise ServiceError("bracket_exists", _("The bracket has already been drawn."))
    if waits := playoff_waits(event):
        raise ServiceError("groups_unfinished", waits)
    kind = Bracket.Kind.DOUBLE if tournament_of(event).playoff_double else Bracket.Kind.SINGLE
    try:
        seeds = qualifiers(event)
    except ValueError as error:
        raise ServiceError("too_few_entries", _("A playoff needs at least two qualifiers.")) from (
            error
        )
    return build(user, event, kind, seeds, next_round_number(event))
