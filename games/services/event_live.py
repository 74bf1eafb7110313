"""What the live page of an online event shows (#34, docs/online-events.md): the round clock
from the deadline the autopilot keeps, the reader's own table the moment it opens, every
table of the round with its public score and the way to watch it, the standings, and the
podium at the end. Only the public facts of each table (`table_facts`): never a tile."""

from dataclasses import dataclass, field

from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from games.models import Table
from league.models import Autopilot, Entry, Event
from league.services import autopilot
from league.services.autopilot import Clock, clock
from league.tournaments.services.standings import summary_table

from .autopilot import round_tables
from .messages import table_facts


@dataclass
class LiveTable:
    """A table of the round: the names on each side, its public score, and its page (where
    its players play and everyone else watches)."""

    code: str
    url: str
    sides: list[str]
    scores: list[int]
    status: str
    hand_number: int
    winner: int | None
    mine: bool = False


@dataclass
class LivePage:
    event: Event
    pilot: Autopilot | None
    clock: Clock
    entry: Entry | None = None
    can_check_in: bool = False
    my_table: LiveTable | None = None
    tables: list[LiveTable] = field(default_factory=list)
    standings: list[dict] = field(default_factory=list)
    podium: list[tuple[int, Entry]] = field(default_factory=list)


def own_entry(event: Event, user) -> Entry | None:
    """The reader's entry in the event (accepted first)."""
    if not user.is_authenticated:
        return None
    found = event.entries.filter(Q(player_1__user=user) | Q(player_2__user=user))
    return found.order_by("status", "pk").first()


def _sides(table: Table) -> list[str]:
    """The names of each side: a pair's entry, or the seats across the table (seats 0 and
    2 against 1 and 3)."""
    match = table.fixture
    if match is not None:
        return [str(match.entry_a), str(match.entry_b) if match.entry_b_id else ""]
    seats = sorted(table.seats.all(), key=lambda seat: seat.number)
    return [" · ".join(s.name for s in seats if s.number % 2 == side) for side in (0, 1)]


def live_tables(event: Event, number: int, user=None) -> list[LiveTable]:
    """The tables of round `number` (the autopilot's round, read first: a round opening
    meanwhile shows with its clock at the next read, never under the last round's)."""
    found = (
        round_tables(event, number)
        .defer("state")
        .select_related("fixture__entry_a", "fixture__entry_b")
        .prefetch_related("seats")
        .order_by("fixture__round__number", "fixture__table", "seating_table", "pk")
    )
    rows = []
    for table in found:
        facts = table_facts(table)
        mine = user is not None and any(s.user_id == user.pk for s in table.seats.all())
        rows.append(
            LiveTable(
                code=table.code,
                url=reverse("table", args=[table.code]),
                sides=_sides(table),
                scores=list(facts["scores"]),
                status=table.status,
                hand_number=table.hand_number,
                winner=facts["winner"],
                mine=bool(mine),
            )
        )
    return rows


def live_page(event: Event, user) -> LivePage:
    """Everything the live page shows `user` (anyone, signed in or not)."""
    pilot = Autopilot.objects.filter(event=event).first()
    now = timezone.now()
    page = LivePage(event=event, pilot=pilot, clock=clock(event, pilot, now))
    page.entry = own_entry(event, user)
    if page.entry is not None and pilot is not None:
        page.can_check_in = (
            page.clock.state == "check_in"
            and page.entry.status == Entry.Status.ACCEPTED
            and page.entry.checked_in is None
        )
    if pilot is not None and pilot.round:
        viewer = user if user.is_authenticated else None
        page.tables = live_tables(event, pilot.round, viewer)
        page.my_table = next(
            (t for t in page.tables if t.mine and t.status != Table.Status.FINISHED), None
        )
    page.standings = summary_table(event)
    if event.status == Event.Status.FINISHED:
        page.podium = autopilot.podium(event)
    return page
