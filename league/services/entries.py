"""Entries: registration with a cap and a waiting list, check-in, late entries, withdrawals,
and entrants imported from a CSV file (previewed row by row, saved all at once or not at all).

Every way in (the entry form, the CSV import, the API) goes through `register`, so the rules
on duplicates are the same everywhere.
"""

import csv
import io
import unicodedata
from dataclasses import dataclass, field
from datetime import timedelta

from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _

from ..models import Autopilot, Division, Entry, Event, Organisation, Player, Result
from ..permissions import can, require, speaks_for
from ..signals import entry_left
from .audit import audit, snapshot
from .clubs import add_player, normalised, roster
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
    "seed",
    "rating",
]
ACTIVE = (Entry.Status.ACCEPTED, Entry.Status.WAITLISTED)


def _registration_open(event: Event) -> bool:
    now = timezone.now()
    arena_on = event.format == Event.Format.ARENA and event.status == Event.Status.RUNNING
    return (
        (event.status == Event.Status.REGISTRATION or arena_on)  # an arena: join any time
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
        if len(players) == 1:
            raise ServiceError("already_entered", _("This player is already entered."))
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
    club_name: str = "",
    team: Entry | None = None,
    division: Division | None = None,
    seed: int | None = None,
    rating: float | None = None,
) -> Entry:
    """Enter a pair (or a club team, or a pair of a team, or one player of an individual
    event or an arena) in an event. `club_name`: the home club as written, when it is no
    club on the site.

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
    individual = event.format == Event.Format.INDIVIDUAL
    if individual:
        if player_1 is None or player_2 is not None:
            raise ServiceError("one_player", _("Each entry of an individual event is one player."))
        club = club or player_1.club
        _check_players(event, players)
    elif event.format == Event.Format.ARENA:  # a pair, or a player the server partners
        if player_1 is None:
            raise ServiceError("pair_incomplete", _("A pair needs two players."))
        _check_players(event, players)
    elif not is_team:
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
        club_name="" if club else club_name[:120],
        captain=captain,
        player_1=player_1,
        player_2=player_2,
        seed=seed,
        rating=rating,
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


def _check_in_window(event: Event, entry: Entry) -> None:
    """An event that runs itself takes check-ins in its window only, each entry once."""
    pilot = Autopilot.objects.filter(event=event).first()
    if pilot is None:
        return
    now = timezone.now()
    if entry.checked_in is not None:
        raise ServiceError("already_checked_in", _("This entry has already checked in."))
    if pilot.started is not None or now >= pilot.starts:
        raise ServiceError("check_in_closed", _("Check-in closed when the event started."))
    opens = pilot.starts - timedelta(minutes=pilot.check_in_minutes)
    if now < opens:
        raise ServiceError(
            "check_in_not_open",
            _("Check-in opens at %(time)s.")
            % {"time": formats.time_format(timezone.localtime(opens), "TIME_FORMAT")},
        )


def _check_in_open(event: Event) -> None:
    if not event.check_in_open:
        raise ServiceError("check_in_closed", _("Check-in is closed."))


@transaction.atomic
def check_in(user, entry: Entry) -> Entry:
    event, entry = _lock(entry)
    require(user, "entry.act", entry)
    if entry.status != Entry.Status.ACCEPTED:
        raise ServiceError("not_accepted", _("Only accepted entries check in."))
    _check_in_open(event)
    _check_in_window(event, entry)
    if entry.checked_in is None:
        entry.checked_in = timezone.now()
        entry.save(update_fields=["checked_in"])
        audit(user, "entry.check_in", entry, event=event, after={"checked_in": True})
    return entry


@transaction.atomic
def undo_check_in(user, entry: Entry) -> Entry:
    """The entry is no longer checked in (its captain or an organiser), while check-in is
    open; an event that runs itself takes it back before its start only. Undoing it again
    changes nothing."""
    event, entry = _lock(entry)
    require(user, "entry.act", entry)
    _check_in_open(event)
    pilot = Autopilot.objects.filter(event=event).first()
    if pilot is not None and (pilot.started is not None or timezone.now() >= pilot.starts):
        raise ServiceError("check_in_closed", _("Check-in closed when the event started."))
    if entry.checked_in is not None:
        entry.checked_in = None
        entry.save(update_fields=["checked_in"])
        audit(user, "entry.undo_check_in", entry, event=event, before={"checked_in": True})
    return entry


@transaction.atomic
def open_check_in(user, event: Event, is_open: bool) -> Event:
    """Close check-in (nobody checks in or undoes one) or reopen it (organisers)."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    require(user, "event.manage", event)
    if event.check_in_open != is_open:
        event.check_in_open = is_open
        event.save(update_fields=["check_in_open"])
        action = "event.check_in_open" if is_open else "event.check_in_close"
        audit(user, action, event, event=event, after={"check_in_open": is_open})
    return event


@transaction.atomic
def delete_entry(user, entry: Entry) -> None:
    """Delete an entry made by mistake (organisers), with its team's pairs, before anything
    was drawn or paired with it; afterwards it is withdrawn instead. The first entry on the
    waiting list takes a freed place."""
    event, entry = _lock(entry)
    require(user, "event.manage", event)
    if drawn(event):
        raise ServiceError(
            "entry_drawn",
            _("The event's rounds or draw are made: withdraw the entry instead."),
        )
    before = snapshot(entry, ENTRY_FIELDS)
    accepted = entry.status == Entry.Status.ACCEPTED
    audit(user, "entry.delete", entry, event=event, before=before)
    entry.delete()
    if accepted:
        _promote(event, user)
    bump_standings(event)


def drawn(event: Event) -> bool:
    """Whether anything was made of the event's entries: rounds, a draft round, a bracket or
    groups (an entry is withdrawn then, never deleted)."""
    return (
        event.rounds.exists()
        or event.draft_pairings.exists()
        or hasattr(event, "bracket")
        or event.groups.exists()
    )


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
    entry_left.send(sender=Entry, entry=entry)
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


# CSV import of entrants ------------------------------------------------------------------

MAX_CSV_BYTES = 512 * 1024
MAX_CSV_ROWS = 1000
# The columns each kind of event reads, and the headings accepted for them (any case).
HEADINGS = {
    "player_1": ("player_1", "player 1", "player1", "player", "jugador 1", "jogador 1"),
    "player_2": ("player_2", "player 2", "player2", "partner", "jugador 2", "jogador 2"),
    "club": ("club", "clube"),
    "seed": ("seed", "siembra", "cabeza de serie", "cabeça de chave"),
    "rating": ("rating", "elo", "ranking"),
}


@dataclass
class ImportRow:
    """One line of the file: what it says, whom it names, and what is wrong with it."""

    line: int
    names: list[str]
    club_name: str = ""
    players: list[Player | None] = field(default_factory=list)  # None: a new player
    club: Organisation | None = None
    seed: int | None = None
    rating: float | None = None
    errors: list[tuple[str, str]] = field(default_factory=list)  # (code, message)

    def refuse(self, code: str, message) -> None:
        self.errors.append((code, str(message)))

    @property
    def picks(self) -> list[tuple[str, Player | None]]:
        return list(zip(self.names, self.players, strict=True))

    @property
    def new_players(self) -> list[str]:
        return [
            name for name, player in zip(self.names, self.players, strict=True) if player is None
        ]


@dataclass
class ImportPreview:
    """What an import would enter. `errors` concern the whole file; `ok` when it can be saved."""

    text: str = ""
    encoding: str = ""
    columns: list[str] = field(default_factory=list)
    rows: list[ImportRow] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)

    def refuse(self, code: str, message) -> None:
        self.errors.append((code, str(message)))

    @property
    def ok(self) -> bool:
        return bool(self.rows) and not self.errors and not any(r.errors for r in self.rows)

    def problems(self) -> list[dict]:
        """Every error, for the API: {"line": n or None, "code": ..., "message": ...}."""
        found = [{"line": None, "code": c, "message": m} for c, m in self.errors]
        return found + [
            {"line": r.line, "code": c, "message": m} for r in self.rows for c, m in r.errors
        ]


class ImportRefused(ServiceError):
    """The file cannot be imported as it is: `preview` says why, row by row."""

    def __init__(self, preview: ImportPreview):
        super().__init__("bad_csv", _("Nothing was imported: correct the file and try again."))
        self.preview = preview


def decode_csv(data: bytes) -> tuple[str, str]:
    """The file's text and its encoding (UTF-8, else Latin-1 as Windows writes it)."""
    if len(data) > MAX_CSV_BYTES:
        raise ServiceError(
            "file_too_large",
            _("The file is too large: an entry list has at most %(kb)s KB.")
            % {"kb": MAX_CSV_BYTES // 1024},
        )
    if b"\x00" in data:
        raise ServiceError(
            "bad_encoding",
            _("This is not a CSV file in UTF-8 or Latin-1. Save it as “CSV UTF-8” and retry."),
        )
    for encoding, label in (("utf-8-sig", "UTF-8"), ("cp1252", "Latin-1")):
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        if not any(unicodedata.category(c) == "Cc" and c not in "\t\r\n" for c in text):
            return text, label
    raise ServiceError(
        "bad_encoding",
        _("This is not a CSV file in UTF-8 or Latin-1. Save it as “CSV UTF-8” and retry."),
    )


def _columns(event: Event) -> tuple[list[str], list[str]]:
    """(required, optional) columns for the event's entries."""
    if event.format == Event.Format.INDIVIDUAL:
        return ["player_1"], ["club", "seed", "rating"]
    return ["player_1", "player_2"], ["club", "seed", "rating"]


def _header(cells: list[str]) -> dict[str, int]:
    found = {}
    for index, cell in enumerate(cells):
        heading = " ".join(cell.replace("_", " ").split()).casefold()
        for column, names in HEADINGS.items():
            if heading in {n.replace("_", " ") for n in names} and column not in found:
                found[column] = index
    return found


def _read_rows(text: str, preview: ImportPreview) -> list[tuple[int, list[str]]]:
    """The file's non-empty lines as cells, after its heading line (line numbers kept)."""
    lines = text.splitlines()
    first = next((line for line in lines if line.strip()), "")
    delimiter = max(",;\t", key=first.count) if first else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        return [(reader.line_num, row) for row in reader if any(c.strip() for c in row)]
    except csv.Error as error:
        preview.refuse("bad_csv", _("The file is not a readable CSV: %(e)s") % {"e": error})
        return []


def _number(row: ImportRow, value: str, column: str) -> int | float | None:
    value = value.strip().replace(",", ".")
    if not value:
        return None
    try:
        number = int(value) if column == "seed" else float(value)
    except ValueError:
        number = None
    if number is None or number < (1 if column == "seed" else 0) or number > 1_000_000:
        if column == "seed":
            row.refuse("bad_seed", _("The seed must be a whole number from 1."))
        else:
            row.refuse("bad_rating", _("The rating must be a number."))
        return None
    return number


def _find_club(name: str) -> Organisation | None:
    name = " ".join(name.split())
    return (
        Organisation.objects.filter(slug__iexact=name).first()
        or Organisation.objects.filter(name__iexact=name).order_by("pk").first()
    )


def preview_entrants(event: Event, data: bytes | str, *, add_players: bool = True) -> ImportPreview:
    """Read a CSV of entrants without saving anything: every row, whom it names (roster
    players by name, or new players when `add_players`), and an error for each bad row.

    Pairs: columns player 1, player 2, and optionally club, seed and rating. Individual
    events: one player per row. The first line names the columns. A club is one on the site
    (by name or slug), or else its name is kept on the entry as written.
    """
    preview = ImportPreview()
    table = _read_table(event, data, preview)
    if table is None:
        return preview
    heading, header, rows = table
    required, optional = _columns(event)
    preview.columns = [c for c in required + optional if c in header]
    known: dict[str, list[Player]] = {}
    for player in roster(event.organisation):
        known.setdefault(normalised(player.display_name).casefold(), []).append(player)
    seen = _Seen(
        known=known,
        entered={
            pk
            for pair in event.entries.filter(status__in=ACTIVE).values_list("player_1", "player_2")
            for pk in pair
            if pk is not None
        },
        add_players=add_players,
    )
    for line, cells in rows:
        value = {c: cells[i].strip() if i < len(cells) else "" for c, i in header.items()}
        row = ImportRow(line=line, names=[normalised(value[c]) for c in required])
        preview.rows.append(row)
        if len(cells) < len(heading):
            row.refuse("missing_cells", _("This line has fewer cells than the first line."))
        _read_club_and_numbers(row, value, seen)
        for name in row.names:
            row.players.append(None)
            _name_player(row, name, seen)
    return preview


@dataclass
class _Seen:
    """What a CSV's rows are checked against: the roster by name, the players already
    entered, and the names and seeds of the rows read so far (with their lines)."""

    known: dict[str, list[Player]]
    entered: set[int]
    add_players: bool
    names: dict[str, int] = field(default_factory=dict)
    seeds: dict[int, int] = field(default_factory=dict)


def _read_table(
    event: Event, data: bytes | str, preview: ImportPreview
) -> tuple[list[str], dict[str, int], list[tuple[int, list[str]]]] | None:
    """The file's first line, its columns and its rows; None, with the preview refused, for a
    file that cannot be read as entries of `event` at all."""
    if event.entry_kind == Event.EntryKind.TEAM:
        preview.refuse("teams_by_hand", _("Club teams are entered by hand, not from a file."))
        return None
    try:
        preview.text, preview.encoding = (
            decode_csv(data) if isinstance(data, bytes) else (data, "UTF-8")
        )
    except ServiceError as error:
        preview.refuse(error.code, error.message)
        return None
    rows = _read_rows(preview.text, preview)
    if preview.errors:
        return None
    if not rows:
        preview.refuse("empty_file", _("The file has no lines."))
        return None
    (_line, heading), rows = rows[0], rows[1:]
    header = _header(heading)
    required, _optional = _columns(event)
    missing = [c for c in required if c not in header]
    if missing:
        preview.refuse(
            "missing_columns",
            _("The first line must name the columns; missing: %(columns)s.")
            % {"columns": ", ".join(missing)},
        )
    elif len(rows) > MAX_CSV_ROWS:
        preview.refuse(
            "too_many_rows",
            _("A file has at most %(n)s entries.") % {"n": MAX_CSV_ROWS},
        )
    elif not rows:
        preview.refuse("empty_file", _("The file names the columns but has no entries."))
    return None if preview.errors else (heading, header, rows)


def _read_club_and_numbers(row: ImportRow, value: dict[str, str], seen: _Seen) -> None:
    row.club_name = " ".join(value.get("club", "").split())
    if len(row.club_name) > 120:
        row.refuse("club_too_long", _("A club's name has at most 120 characters."))
    elif row.club_name:  # a club on the site, or its name kept as written
        row.club = _find_club(row.club_name)
    row.seed = _number(row, value.get("seed", ""), "seed")
    row.rating = _number(row, value.get("rating", ""), "rating")
    if row.seed is not None:
        if row.seed in seen.seeds:
            row.refuse(
                "duplicate_seed",
                _("Seed %(seed)s is already given on line %(line)s.")
                % {"seed": row.seed, "line": seen.seeds[row.seed]},
            )
        seen.seeds.setdefault(row.seed, row.line)


def _name_player(row: ImportRow, name: str, seen: _Seen) -> None:
    """Whom `name` (the row's last player) names: a roster player, or a new one."""
    key = name.casefold()
    if not name:
        row.refuse("player_missing", _("A player's name is missing."))
        return
    if len(name) > 80:
        row.refuse("name_too_long", _("A name has at most 80 characters."))
        return
    matches = seen.known.get(key, [])
    if key in seen.names:
        if len(matches) == 1:  # named twice, still the roster's player, not a new one
            row.players[-1] = matches[0]
        row.refuse(
            "duplicate_player",
            _("%(name)s is already on line %(line)s.") % {"name": name, "line": seen.names[key]},
        )
        return
    seen.names[key] = row.line
    if len(matches) > 1:
        row.refuse(
            "ambiguous_player",
            _("Several players of the roster are called %(name)s.") % {"name": name},
        )
    elif matches:
        row.players[-1] = matches[0]
        if matches[0].pk in seen.entered:
            row.refuse(
                "already_entered",
                _("%(name)s is already entered in this event.") % {"name": name},
            )
    elif not seen.add_players:
        row.refuse(
            "unknown_player",
            _("%(name)s is not on the club's roster.") % {"name": name},
        )


@transaction.atomic
def import_entrants(
    user, event: Event, data: bytes | str, *, add_players: bool = True
) -> list[Entry]:
    """Enter every row of a CSV of entrants, or nothing (ImportRefused says why, per row).

    New players join the organising club's roster, without an account.
    """
    event = Event.objects.select_for_update().get(pk=event.pk)
    require(user, "event.manage", event)
    preview = preview_entrants(event, data, add_players=add_players)
    if not preview.ok:
        raise ImportRefused(preview)
    made = []
    for row in preview.rows:
        players = [
            player or Player.objects.create(display_name=name, club=event.organisation)
            for name, player in zip(row.names, row.players, strict=True)
        ]
        made.append(
            register(
                user,
                event,
                player_1=players[0],
                player_2=players[1] if len(players) > 1 else None,
                club=row.club,
                club_name=row.club_name,
                seed=row.seed,
                rating=row.rating,
            )
        )
    audit(user, "entry.import", event, event=event, after={"entries": len(made)})
    return made


# Entry forms: players picked from the roster, or new ones typed by name ------------------


@dataclass(frozen=True)
class Pick:
    """A player as an entry form gives them: a roster player's id, or a name typed in."""

    pk: int | None = None
    name: str = ""


def _picked(user, event: Event, pick: Pick | None) -> Player | None:
    if pick is None or (pick.pk is None and not normalised(pick.name)):
        return None
    own = getattr(user, "player", None)
    if own is not None and pick.pk == own.pk:
        return own  # someone entering themselves need not be on the organiser's roster
    players = roster(event.organisation)
    if pick.pk is not None:
        player = players.filter(pk=pick.pk).first()
        if player is None:
            raise ServiceError("not_on_roster", _("This player is not on the club's roster."))
        return player
    name = normalised(pick.name)
    found = list(players.filter(display_name__iexact=name)[:2])
    if len(found) > 1:
        raise ServiceError(
            "ambiguous_player",
            _("Several players of the roster are called %(name)s.") % {"name": name},
        )
    if found:
        return found[0]
    if not can(user, "event.manage", event):
        raise ServiceError(
            "not_on_roster", _("%(name)s is not on the club's roster.") % {"name": name}
        )
    return add_player(user, event.organisation, display_name=name)


@transaction.atomic
def enter_picked(
    user,
    event: Event,
    *,
    player_1: Pick | None = None,
    player_2: Pick | None = None,
    captain: Pick | None = None,
    **fields,
) -> Entry:
    """`register` with players picked from the club's roster; a name not on it becomes a new
    roster player without an account (organisers only). All or nothing."""
    return register(
        user,
        event,
        player_1=_picked(user, event, player_1),
        player_2=_picked(user, event, player_2),
        captain=_picked(user, event, captain),
        **fields,
    )
