"""Every format run from creation to its final standings through the API alone, as a club's
own system would with one owner's read-write key: the event and its options made, entrants
imported, every round drawn, paired or seated (each previewed first, and the preview is what
is then made), every result entered, the event finished. The final standings the API gives
are the ones the event's public page shows, row for row."""

from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from rest_framework.test import APIClient

from api import services
from league.models import AuditEntry, Entry, Event, Match, Membership, Organisation, Round
from league.tournaments.models import Bracket, Group, Seat, TableResult
from tests.league.conftest import make_user

from .conftest import with_key

pytestmark = pytest.mark.django_db
F = Event.Format
NAMES = [
    "Ana Pérez",
    "Beto Díaz",
    "Carla Núñez",
    "Dario Peña",
    "Elena Rosario",
    "Félix Marte",
    "Gina Soto",
    "Hugo Almonte",
    "Iris Batista",
    "Juan Guzmán",
    "Karla Féliz",
    "Luis Tavárez",
    "Marta Ureña",
    "Nelson Cruz",
    "Olga Polanco",
    "Pablo Reyes",
]


class Club:
    """A club's system: its owner's read-write key and nothing else."""

    def __init__(self, capture) -> None:
        self.club = Organisation.objects.create(name="Club Capicúa", slug="club-capicua")
        self.owner = make_user("duena", self.club, Membership.Role.OWNER)
        token = services.create_key(self.owner, self.club, "Club system", "write")[1]
        self.key = with_key(token)
        self.capture = capture
        self.calls = 0

    def call(self, method: str, path: str, body=None, expect: int = 200):
        with self.capture(execute=True):  # what follows a commit (brackets move on) happens
            response = getattr(self.key, method)(f"/api/v1/{path}", body, format="json")
        self.calls += 1
        assert response.status_code == expect, (path, response.content)
        return response.json() if response.content else None

    def every(self, path: str, **query) -> list[dict]:
        query = {"page_size": 500, **query}
        with self.capture(execute=True):
            response = self.key.get(f"/api/v1/{path}", query)
        self.calls += 1
        assert response.status_code == 200, response.content
        return response.json()["results"]

    def event(self, event_format: str, options: dict, entrants: str) -> str:
        body = {
            "organisation": self.club.slug,
            "name": f"Copa {event_format}",
            "format": event_format,
            "rule_preset": "tournament",
            "options": options,
        }
        made = self.call("post", "events/", body, 201)
        assert made["options"] == {**made["options"], **options}
        slug = made["slug"]
        self.call("post", f"events/{slug}/status/", {"status": "registration"})
        csv = {"csv": entrants, "dry_run": True}
        assert self.call("post", f"events/{slug}/import-entries/", csv)["ok"] is True
        entered = self.call("post", f"events/{slug}/import-entries/", {"csv": entrants}, 201)
        assert len(entered) == len(entrants.splitlines()) - 1
        return slug

    def play(self, match: dict) -> None:
        """A result made up from the match's ids, entered by the owner: it counts at once."""
        a, b = match["entry_a"]["id"], match["entry_b"]["id"]
        a_wins = (a * 7 + b * 3 + match["id"]) % 5 < 3
        loser = (a + b + match["id"]) % 90
        points = (100 + match["id"] % 40, loser) if a_wins else (loser, 100 + match["id"] % 40)
        games = [{"points_a": points[0], "points_b": points[1]}]
        result = self.call("post", f"matches/{match['id']}/result/", {"games": games}, 201)
        assert result["status"] == "confirmed"

    def play_all(self, slug: str, **query) -> int:
        """Every match of the event still to play (with `query`'s filters); how many."""
        waiting = [
            m
            for m in self.every("matches/", event=slug, status="scheduled", **query)
            if m["entry_b"] is not None and m["result"] is None
        ]
        for match in waiting:
            self.play(match)
        return len(waiting)

    def play_bracket(self, slug: str) -> None:
        while self.play_all(slug):
            pass
        slots = self.call("get", f"events/{slug}/bracket/")["slots"]
        assert all(s["winner"] for s in slots if s["needed"]), slots

    def finish(self, slug: str) -> list[dict]:
        assert self.call("post", f"events/{slug}/status/", {"status": "finished"})["status"] == (
            "finished"
        )
        return self.call("get", f"events/{slug}/standings/")["tables"]


def pairs(count: int) -> str:
    rows = [f"{NAMES[2 * n]} {n},{NAMES[2 * n + 1]} {n}" for n in range(count)]
    return "player 1,player 2\n" + "\n".join(rows) + "\n"


def players(count: int) -> str:
    return "player\n" + "\n".join(f"{NAMES[n % 16]} {n}" for n in range(count)) + "\n"


@pytest.fixture
def club(django_capture_on_commit_callbacks):
    return Club(django_capture_on_commit_callbacks)


class Tables(HTMLParser):
    """The standings tables of a page: each a list of rows, each row a list of cells (their
    text, and their `data-entry` when the row has one)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self.depth = 0  # inside a standings table's body
        self.cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table" and "standings" in (attrs.get("class") or "").split():
            self.tables.append([])
            self.depth = 1
        elif self.depth and tag == "tbody":
            self.depth = 2
        elif self.depth == 2 and tag == "tr":
            self.tables[-1].append([attrs["data-entry"]] if "data-entry" in attrs else [])
        elif self.depth == 2 and tag == "td":
            self.cell = []
        elif self.cell is not None and tag == "span":
            self.cell.append("\x00")  # a badge after the name: not the name

    def handle_endtag(self, tag):
        if tag == "td" and self.cell is not None:
            self.tables[-1][-1].append("".join(self.cell).split("\x00")[0].strip())
            self.cell = None
        elif tag == "table":
            self.depth = 0

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def page_tables(slug: str, league: bool = False) -> list[list[list[str]]]:
    page = APIClient().get(
        reverse("standings" if league else "tournament", args=[slug]), HTTP_ACCEPT_LANGUAGE="en"
    )
    assert page.status_code == 200
    parser = Tables()
    parser.feed(page.content.decode())
    return parser.tables


def signed(value: int) -> str:
    """A number as the pages write it: negative with the minus sign."""
    return str(value).replace("-", "−")


def place(row: dict) -> str:
    first, last = row["places"]
    return {(1, 1): "Winner", (2, 2): "Runner-up"}.get((first, last)) or (
        str(first) if first == last else f"{first}–{last}"
    )


def test_a_league_through_the_api(club):
    slug = club.event(F.LEAGUE, {}, pairs(6))
    rounds = club.call("post", f"events/{slug}/fixtures/", {}, 201)
    assert len(rounds) == 5
    assert club.play_all(slug) == 15
    (table,) = club.finish(slug)
    (page,) = page_tables(slug, league=True)
    # The league's page: the pair's name (as data-entry), position, name, played, won, lost.
    assert [[r[0], r[1].rstrip("="), r[3], r[4], r[5]] for r in page] == [
        [s["entry"]["name"], str(s["position"]), str(s["played"]), str(s["won"]), str(s["lost"])]
        for s in table["standings"]
    ]
    assert sum(s["won"] for s in table["standings"]) == 15


def test_a_swiss_through_the_api(club):
    slug = club.event(F.SWISS, {"rounds": 3, "avoid_same_club": True}, pairs(7))
    for number in (1, 2, 3):
        draft = club.call("post", f"events/{slug}/pair/")
        assert club.call("get", f"events/{slug}/draft/") == draft
        assert club.call("post", f"events/{slug}/publish/", expect=201)["number"] == number
        assert club.play_all(slug, round=number) == 3  # seven pairs: a bye each round
    refused = club.key.post(f"/api/v1/events/{slug}/pair/", format="json")
    assert refused.json()["error"]["code"] == "all_rounds_played"
    (table,) = club.finish(slug)
    (page,) = page_tables(slug)
    assert [r[:6] for r in page] == [
        [str(s["entry"]["id"]), str(s["position"]), s["entry"]["name"], str(s["played"])]
        + [str(s["won"]), str(s["lost"])]
        for s in table["standings"]
    ]
    assert all(s["played"] == 3 for s in table["standings"])


@pytest.mark.parametrize(
    ("event_format", "options"),
    [
        (F.SINGLE_ELIMINATION, {"seeding": "lot", "third_place": True}),
        (F.DOUBLE_ELIMINATION, {"seeding": "registration", "grand_final_reset": True}),
    ],
)
def test_an_elimination_through_the_api(club, event_format, options):
    slug = club.event(event_format, options, pairs(8))
    preview = club.call("post", f"events/{slug}/draw-bracket/", {"dry_run": True})
    assert all(s["match"] is None for s in preview["slots"])
    assert club.every("matches/", event=slug) == []  # a preview draws nothing
    seeds = [e["id"] for e in preview["seeds"]]
    drawn = club.call("post", f"events/{slug}/draw-bracket/", {"seeds": seeds}, 201)
    assert [e["id"] for e in drawn["seeds"]] == seeds
    strip = ("number", "stage", "round", "home", "away")
    assert [{k: s[k] for k in strip} for s in drawn["slots"]] == [
        {k: s[k] for k in strip} for s in preview["slots"]
    ]
    club.play_bracket(slug)
    (table,) = club.finish(slug)
    rows = table["standings"]
    assert rows[0]["places"] == [1, 1] and not any(r["in_play"] for r in rows)
    if event_format == F.SINGLE_ELIMINATION:
        assert [r["places"] for r in rows[:4]] == [[1, 1], [2, 2], [3, 3], [4, 4]]
    (page,) = page_tables(slug)
    assert [r[:7] for r in page] == [
        [str(s["entry"]["id"]), str(s["position"]), s["entry"]["name"], place(s)]
        + [str(s["played"]), str(s["won"]), str(s["lost"])]
        for s in rows
    ]


def test_groups_and_a_playoff_through_the_api(club):
    options = {"seeding": "lot", "groups": 2, "qualifiers_per_group": 2, "third_place": True}
    slug = club.event(F.GROUPS_PLAYOFF, options, pairs(8))
    preview = club.call("post", f"events/{slug}/draw-groups/", {"dry_run": True})
    assert [len(g["entries"]) for g in preview["groups"]] == [4, 4] and preview["rounds"] == 3
    assert club.every("rounds/", event=slug) == []
    seeds = [e["id"] for e in preview["seeds"]]
    drawn = club.call("post", f"events/{slug}/draw-groups/", {"seeds": seeds}, 201)
    assert drawn == preview
    assert len(club.every("rounds/", event=slug)) == 3
    early = club.key.post(f"/api/v1/events/{slug}/playoff/", {"dry_run": True}, format="json")
    assert early.status_code == 422 and early.json()["error"]["code"] == "groups_unfinished"
    assert club.play_all(slug) == 12
    playoff = club.call("post", f"events/{slug}/playoff/", {"dry_run": True})
    standings = club.call("get", f"events/{slug}/standings/")["tables"]
    winners = [t["standings"][0]["entry"] for t in standings]
    assert playoff["seeds"][:2] == winners  # group winners first
    started = club.call("post", f"events/{slug}/playoff/", {}, 201)
    assert started["seeds"] == playoff["seeds"] and started["first_round"] == 4
    club.play_bracket(slug)
    tables = club.finish(slug)
    pages = page_tables(slug)
    assert [t["name"] for t in tables] == ["A", "B"]
    assert [[r[:3] for r in page] for page in pages] == [
        [[str(s["position"]), s["entry"]["name"], str(s["won"])] for s in t["standings"]]
        for t in tables
    ]
    assert [[r[4] for r in page] for page in pages] == [
        [signed(s["point_difference"]) for s in t["standings"]] for t in tables
    ]


def test_an_individual_event_through_the_api(club):
    options = {"rounds": 3, "sit_out_score": 0.5, "sit_out_points": 20}
    slug = club.event(F.INDIVIDUAL, options, players(9))
    for number in (1, 2, 3):
        preview = club.call("post", f"events/{slug}/seat/", {"dry_run": True})
        assert preview["round"] is None and preview["number"] == number
        assert len(preview["tables"]) == 2 and len(preview["sitting_out"]) == 1
        seated = club.call("post", f"events/{slug}/seat/", {}, 201)
        assert {**seated, "round": None} == preview
        assert club.call("get", f"rounds/{seated['round']}/seating/") == seated
        early = club.key.post(f"/api/v1/events/{slug}/seat/", format="json")
        assert early.json()["error"]["code"] == "round_unfinished"
        for table in seated["tables"]:
            result = {
                "round": seated["round"],
                "table": table["table"],
                "points_a": 100 + number * table["table"],
                "points_b": 30 * table["table"] + number,
            }
            entered = club.call("post", "table-results/", result, 201)
            assert entered["status"] == "confirmed" and entered["number"] == number
        assert all(
            t["result"] for t in club.call("get", f"rounds/{seated['round']}/seating/")["tables"]
        )
    assert (
        club.key.post(f"/api/v1/events/{slug}/seat/", format="json").json()["error"]["code"]
        == "all_rounds_played"
    )
    assert len(club.every("table-results/", event=slug)) == 6
    (table,) = club.finish(slug)
    (page,) = page_tables(slug)
    assert [r[:6] for r in page] == [
        [str(s["position"]), s["entry"]["name"], str(s["played"]), str(s["won"])]
        + [str(s["sat_out"]), f"{s['score']:g}"]
        for s in table["standings"]
    ]
    assert sum(s["sat_out"] for s in table["standings"]) == 3


def _state() -> dict:
    watched = [Event, Entry, Round, Match, Group, Bracket, Seat, TableResult, AuditEntry]
    return {m.__name__: list(m.objects.order_by("pk").values()) for m in watched}


def test_previews_and_refusals_change_nothing(club):
    groups = club.event(F.GROUPS_PLAYOFF, {"seeding": "lot", "groups": 2}, pairs(8))
    single = club.event(F.SINGLE_ELIMINATION, {"seeding": "lot"}, pairs(4))
    individual = club.event(F.INDIVIDUAL, {"rounds": 2}, players(8))
    reader = with_key(services.create_key(club.owner, club.club, "Widget", "read")[1])
    before = _state()
    for slug, path in (
        (groups, "draw-groups"),
        (single, "draw-bracket"),
        (individual, "seat"),
    ):
        club.call("post", f"events/{slug}/{path}/", {"dry_run": True})
        refused = reader.post(f"/api/v1/events/{slug}/{path}/", {}, format="json")
        assert refused.status_code == 403
    refusals = [
        (groups, "playoff", {}, 422, "no_groups"),
        (groups, "playoff", {"dry_run": True}, 422, "no_groups"),
        (groups, "seat", {}, 422, "wrong_format"),
        (individual, "draw-groups", {}, 422, "wrong_format"),
        (single, "draw-groups", {}, 422, "wrong_format"),
        (single, "draw-bracket", {"seeds": [999999]}, 400, "invalid"),
        (groups, "draw-groups", {"seeds": [999999]}, 400, "invalid"),
        (groups, "draw-groups", {"dry_run": "maybe"}, 400, "invalid"),
        (individual, "unseat", {}, 422, "no_round"),
    ]
    for slug, path, body, code, error in refusals:
        refused = club.key.post(f"/api/v1/events/{slug}/{path}/", body, format="json")
        assert (refused.status_code, refused.json()["error"]["code"]) == (code, error), path
    assert _state() == before


def test_a_players_table_result_waits_for_a_second_person(club):
    slug = club.event(F.INDIVIDUAL, {"rounds": 2}, players(8))
    seated = club.call("post", f"events/{slug}/seat/", {}, 201)
    table = seated["tables"][0]
    # The owner's key enters nothing that the rules refuse: a table that is not there, a
    # tie, a score short of the target.
    for points_a, points_b, table_number, code in (
        (100, 40, 9, "no_table"),
        (100, 100, 1, "bad_score"),
        (90, 40, 1, "bad_score"),
    ):
        body = {"round": seated["round"], "table": table_number}
        refused = club.key.post(
            "/api/v1/table-results/", {**body, "points_a": points_a, "points_b": points_b}, "json"
        )
        assert (refused.status_code, refused.json()["error"]["code"]) == (422, code)
    player = Entry.objects.get(pk=table["side_a"][0]["id"]).player_1
    player.user = get_user_model().objects.create_user("jugadora")  # she claims her profile
    player.save(update_fields=["user"])
    seat_holder = APIClient()
    seat_holder.force_login(player.user)
    body = {"round": seated["round"], "table": 1, "points_a": 100, "points_b": 20}
    proposed = seat_holder.post("/api/v1/table-results/", body, format="json")
    assert proposed.status_code == 201 and proposed.json()["status"] == "proposed"
    same = seat_holder.post(f"/api/v1/table-results/{proposed.json()['id']}/confirm/")
    assert same.json()["error"]["code"] == "second_person"
    confirmed = club.call("post", f"table-results/{proposed.json()['id']}/confirm/")
    assert confirmed["status"] == "confirmed"
    refused = club.key.post(f"/api/v1/events/{slug}/unseat/", format="json")
    assert refused.json()["error"]["code"] == "results_entered"


def test_a_seated_round_is_withdrawn_before_any_result(club):
    slug = club.event(F.INDIVIDUAL, {"rounds": 2}, players(8))
    seated = club.call("post", f"events/{slug}/seat/", {}, 201)
    assert club.call("post", f"events/{slug}/unseat/") == {"round": 1}
    gone = club.key.get(f"/api/v1/rounds/{seated['round']}/seating/")
    assert gone.status_code == 404
    assert club.call("post", f"events/{slug}/seat/", {}, 201)["number"] == 1
