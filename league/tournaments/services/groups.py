"""Group stage (a round robin in each group) followed by a playoff bracket.

Groups are drawn by snake seeding (`league.pairing.snake_groups`); every group plays its
round robin in the same core rounds (round 1 of every group is round 1 of the event). The
playoff takes the top of each group by the group tables (`league.pairing.playoff_seeds`
keeps entries of one group apart for as long as possible).
"""

from dataclasses import dataclass, field

from django.db import transaction
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from ...models import Entry, Event, Match, Round
from ...pairing import playoff_seeds, round_robin, snake_groups
from ...services.audit import audit
from ...services.errors import ServiceError
from ...services.events import bump_standings
from ..models import Bracket, Group, GroupMember
from .brackets import Draw, build, preview, seeds_for
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


@dataclass(frozen=True)
class GroupDraw:
    """The groups a draw makes: each group's name and entries (best seed first), the seeds
    they were drawn from (best first) and the rounds of their round robins."""

    groups: list[tuple[str, list[Entry]]]
    seeds: list[Entry]
    schedules: list[list] = field(repr=False)

    @property
    def rounds(self) -> int:
        return max(len(s) for s in self.schedules)


def _draw(event: Event, seeds: list[Entry] | None, keep_lots: bool) -> GroupDraw:
    if event.groups.exists():
        raise ServiceError("groups_exist", _("The groups have already been drawn."))
    tournament = tournament_of(event)
    entries = seeds_for(tournament, playing_entries(event), seeds, keep_lots)
    if tournament.groups < 1 or len(entries) < 2 * tournament.groups:
        raise ServiceError("too_few_entries", _("Every group needs at least two entries."))
    by_id = {e.pk: e for e in entries}
    members = snake_groups([e.pk for e in entries], tournament.groups)
    return GroupDraw(
        groups=[(chr(ord("A") + i), [by_id[pk] for pk in m]) for i, m in enumerate(members)],
        seeds=entries,
        schedules=[round_robin(m) for m in members],
    )


@transaction.atomic
def preview_groups(user, event: Event, seeds: list[Entry] | None = None) -> GroupDraw:
    """The groups `draw_groups` would draw, saving nothing. Seeded by lot, it is one draw
    of lots: give its seeds to `draw_groups` to draw exactly these groups."""
    event = lock_event(user, event, GROUPS)
    return _draw(event, seeds, keep_lots=False)


@transaction.atomic
def draw_groups(user, event: Event, seeds: list[Entry] | None = None) -> GroupDraw:
    """Draw the groups (`seeds` by hand, best first, or by the event's seeding) and make
    every round of their round robins."""
    event = lock_event(user, event, GROUPS)
    draw = _draw(event, seeds, keep_lots=True)
    groups = []
    for index, (name, members) in enumerate(draw.groups):
        group = Group.objects.create(event=event, name=name, order=index)
        GroupMember.objects.bulk_create(
            GroupMember(group=group, entry=entry, seed=seed)
            for seed, entry in enumerate(members, 1)
        )
        groups.append(group)
    for number in range(1, draw.rounds + 1):
        round_ = Round.objects.create(event=event, number=number)
        pairings = [p for s in draw.schedules if len(s) >= number for p in s[number - 1].pairings]
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
        after={name: [e.pk for e in members] for name, members in draw.groups},
    )
    return draw


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


def _playoff(event: Event) -> tuple:
    """The kind, seeds and first round of the playoff, once it may start."""
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
    return kind, seeds, next_round_number(event)


@transaction.atomic
def preview_playoff(user, event: Event) -> Draw:
    """The playoff `start_playoff` would draw, saving nothing."""
    event = lock_event(user, event, GROUPS)
    return preview(event, *_playoff(event))


@transaction.atomic
def start_playoff(user, event: Event) -> Bracket:
    event = lock_event(user, event, GROUPS)
    return build(user, event, *_playoff(event))
