"""Round-robin fixtures for leagues, and rescheduling or postponing them."""

import secrets
from datetime import date, datetime, time, timedelta

from django.db import transaction
from django.db.models import Max, Q
from django.utils.translation import gettext_lazy as _

from ..models import Division, Entry, Event, Match, Round
from ..notifications import notify
from ..pairing import round_robin
from ..permissions import require
from .audit import audit, snapshot
from .errors import ServiceError
from .events import bump_standings

ROUND_INTERVAL = timedelta(days=7)
SCHEDULE_FIELDS = ["scheduled", "venue", "table", "status"]


def active_entries(event: Event, division: Division | None = None) -> list[Entry]:
    """The event's accepted entries (teams or pairs, not a team's own pairs), in order."""
    entries = event.entries.filter(status=Entry.Status.ACCEPTED, team__isnull=True)
    if division is not None:
        entries = entries.filter(division=division)
    return list(entries.order_by("registered", "pk"))


def _draw_lots(entries: list[Entry]) -> None:
    lots = list(range(1, len(entries) + 1))
    secrets.SystemRandom().shuffle(lots)
    for entry, lot in zip(entries, lots, strict=True):
        entry.lot = lot
    Entry.objects.bulk_update(entries, ["lot"])


def _team_pairs(event: Event, teams: list[Entry]) -> dict[int, list[Entry]]:
    pairs: dict[int, list[Entry]] = {team.pk: [] for team in teams}
    for pair in Entry.objects.filter(team__in=teams, status=Entry.Status.ACCEPTED).order_by(
        "registered", "pk"
    ):
        pairs[pair.team_id].append(pair)
    short = [team for team in teams if len(pairs[team.pk]) < event.boards]
    if short:
        raise ServiceError(
            "team_too_small",
            _("Every team needs %(n)s pairs; %(teams)s has fewer.")
            % {"n": event.boards, "teams": ", ".join(t.name for t in short)},
        )
    return pairs


def _create_matches(
    event: Event,
    rnd: Round,
    pairings: list[tuple[Entry, Entry | None]],
    pairs: dict[int, list[Entry]],
    first_table: int = 1,
) -> None:
    """One round's matches; a team fixture also gets its boards (pair k meets pair k)."""
    table = first_table
    for a, b in pairings:
        if b is None:
            Match.objects.create(
                event=event, round=rnd, entry_a=a, venue=event.venue, status=Match.Status.BYE
            )
            continue
        fixture = Match.objects.create(
            event=event, round=rnd, entry_a=a, entry_b=b, venue=event.venue, table=table
        )
        if event.entry_kind == Event.EntryKind.TEAM:
            Match.objects.bulk_create(
                Match(
                    event=event,
                    round=rnd,
                    parent=fixture,
                    board=k + 1,
                    entry_a=pa,
                    entry_b=pb,
                    venue=event.venue,
                    table=table + k,
                )
                for k, (pa, pb) in enumerate(
                    zip(pairs[a.pk][: event.boards], pairs[b.pk][: event.boards], strict=True)
                )
            )
        table += event.boards


@transaction.atomic
def generate_fixtures(
    user, event: Event, first_date: date | None = None, interval: timedelta = ROUND_INTERVAL
) -> list[Round]:
    """Draw lots and create every round of the league (single or double round robin)."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    require(user, "event.manage", event)
    if event.format != Event.Format.LEAGUE:
        raise ServiceError("unsupported_format", _("Only leagues get round-robin fixtures."))
    if event.rounds.exists():
        raise ServiceError("fixtures_exist", _("The fixtures have already been made."))
    divisions = list(event.divisions.all()) or [None]
    created = []
    for division in divisions:
        entries = active_entries(event, division)
        if len(entries) < 2:
            raise ServiceError("too_few_entries", _("A league needs at least two entries."))
        pairs = _team_pairs(event, entries) if event.entry_kind == Event.EntryKind.TEAM else {}
        _draw_lots(entries)
        by_id = {entry.pk: entry for entry in entries}
        for planned in round_robin([e.pk for e in entries], double=event.legs == 2):
            rnd = Round.objects.create(
                event=event,
                division=division,
                number=planned.number,
                date=first_date + interval * (planned.number - 1) if first_date else None,
            )
            pairings = [(by_id[a], by_id[b]) for a, b in planned.pairings]
            if planned.bye is not None:
                pairings.append((by_id[planned.bye], None))
            _create_matches(event, rnd, pairings, pairs)
            created.append(rnd)
    if event.status in (Event.Status.DRAFT, Event.Status.REGISTRATION):
        event.status = Event.Status.RUNNING
        event.save(update_fields=["status"])
    bump_standings(event)
    audit(user, "fixtures.generate", event, event=event, after={"rounds": len(created)})
    return created


def add_catch_up_fixtures(event: Event, entry: Entry) -> list[Round]:
    """A late entry meets every other entry of its division once, in rounds added at the end.

    Called inside the caller's transaction with the event locked.
    """
    others = [e for e in active_entries(event, entry.division) if e.pk != entry.pk]
    pairs = _team_pairs(event, [entry, *others]) if event.entry_kind == Event.EntryKind.TEAM else {}
    last = event.rounds.filter(division=entry.division).aggregate(n=Max("number"))["n"] or 0
    rounds = []
    for offset, other in enumerate(others, start=1):
        rnd = Round.objects.create(event=event, division=entry.division, number=last + offset)
        _create_matches(event, rnd, [(entry, other)], pairs)
        rounds.append(rnd)
    return rounds


def _notify_captains(match: Match, message) -> None:
    """Tell the players of both sides; `message` is lazy, with the match as %(m)s."""
    for entry in (match.entry_a, match.entry_b):
        for player in entry.players if entry else []:
            if player.user_id:
                notify(player.user, message, match.get_absolute_url(), m=match)


def _editable(user, match: Match) -> Match:
    match = Match.objects.select_for_update(of=("self",)).select_related("event").get(pk=match.pk)
    require(user, "event.manage", match.event)
    if match.status not in (Match.Status.SCHEDULED, Match.Status.POSTPONED):
        raise ServiceError("not_schedulable", _("Only matches still to be played can be moved."))
    return match


@transaction.atomic
def reschedule(
    user,
    match: Match,
    scheduled: datetime | None,
    venue: str | None = None,
    table: int | None = None,
) -> Match:
    """Set a match's date, venue and table (a postponed match is scheduled again)."""
    match = _editable(user, match)
    before = snapshot(match, SCHEDULE_FIELDS)
    match.scheduled = scheduled
    if venue is not None:
        match.venue = venue
    if table is not None and table != match.table:
        taken = Match.objects.filter(round_id=match.round_id, parent__isnull=True, table=table)
        if taken.exclude(pk=match.pk).exists():
            raise ServiceError(
                "table_taken",
                _("Table %(n)s already has a match in this round.") % {"n": table},
            )
        match.table = table
    match.status = Match.Status.SCHEDULED
    match.save()
    match.boards.update(scheduled=match.scheduled, venue=match.venue, status=match.status)
    audit(
        user,
        "match.reschedule",
        match,
        event=match.event,
        before=before,
        after=snapshot(match, SCHEDULE_FIELDS),
    )
    _notify_captains(match, _("Match rescheduled: %(m)s"))
    return match


@transaction.atomic
def postpone(user, match: Match) -> Match:
    match = _editable(user, match)
    before = snapshot(match, SCHEDULE_FIELDS)
    match.status = Match.Status.POSTPONED
    match.save(update_fields=["status"])
    match.boards.update(status=match.status)
    audit(
        user,
        "match.postpone",
        match,
        event=match.event,
        before=before,
        after=snapshot(match, SCHEDULE_FIELDS),
    )
    _notify_captains(match, _("Match postponed: %(m)s"))
    return match


def remaining_matches(entry: Entry):
    """The entry's matches not yet played (for a team, its fixtures' boards too)."""
    return Match.objects.filter(
        Q(entry_a=entry) | Q(entry_b=entry) | Q(parent__entry_a=entry) | Q(parent__entry_b=entry),
        status__in=[Match.Status.SCHEDULED, Match.Status.POSTPONED],
    )


@transaction.atomic
def set_round_time(user, round_: Round, day: date | None, at: time | None) -> Round:
    """When a round is played: its date and time (shown on the fixtures, sheets and
    projector)."""
    round_ = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
    require(user, "event.manage", round_.event)
    if at is not None and day is None:
        raise ServiceError("time_without_date", _("Give the round's date with its time."))
    before = snapshot(round_, ["date", "time"])
    round_.date, round_.time = day, at
    round_.save(update_fields=["date", "time"])
    audit(
        user,
        "round.time",
        round_,
        event=round_.event,
        before=before,
        after=snapshot(round_, ["date", "time"]),
    )
    return round_
