"""Tournament control through the API, as a club's own system would run an event: a Swiss
event paired, swapped, pinned, unpaired and played to the end, and a double elimination
whose result is corrected with the preview of what it resets."""

import pytest
from rest_framework.test import APIClient

from api import services
from league.models import Event, Match, Membership, Result
from league.services import events
from league.tournaments.models import BracketSlot
from tests.tournaments.conftest import build, make_user

from .conftest import with_key

pytestmark = pytest.mark.django_db

SWISS = Event.Format.SWISS


class Desk:
    """The club's system: the owner's read-write key, and a second organiser's session
    that confirms what the key proposes."""

    def __init__(self, data, capture) -> None:
        self.data = data
        owner = make_user(f"owner-{data.event.slug}", data.club, Membership.Role.OWNER)
        self.key = with_key(services.create_key(owner, data.club, "Club site", "write")[1])
        self.reader = with_key(services.create_key(owner, data.club, "Widget", "read")[1])
        self.second = APIClient()
        self.second.force_login(data.organiser2)
        self.capture = capture
        self.event = f"/api/v1/events/{data.event.slug}"
        events.set_status(data.organiser, data.event, Event.Status.REGISTRATION)

    def post(self, path: str, body=None, expect: int = 200, client=None):
        with self.capture(execute=True):  # brackets move on once the transaction commits
            response = (client or self.key).post(path, body or {}, format="json")
        assert response.status_code == expect, response.content
        return response.json() if response.content else None

    def play(self, match_id: int, a_wins: bool = True) -> dict:
        """The result through the API, confirmed by a second person when the event's rules
        ask for one."""
        points = (150, 60) if a_wins else (60, 150)
        games = [{"points_a": points[0], "points_b": points[1]}]
        result = self.post(f"/api/v1/matches/{match_id}/result/", {"games": games}, 201)
        if result["status"] == Result.Status.PROPOSED:
            result = self.post(f"/api/v1/results/{result['id']}/confirm/", client=self.second)
        assert result["status"] == Result.Status.CONFIRMED
        return result

    def matches(self, **filters) -> list[dict]:
        """The fixtures as the key reads them, and as the public does: kept since the last
        time they were read, unless something changed them since (then read anew)."""
        query = {"event": self.data.event.slug, "page_size": 500, **filters}
        public = APIClient().get("/api/v1/matches/", query).json()["results"]
        fresh = self.key.get("/api/v1/matches/", query).json()["results"]
        assert public == fresh
        return fresh

    def play_round(self, number: int) -> None:
        for match in self.matches(round=number):
            if match["entry_b"] is not None:
                self.play(match["id"])


def pinned(draft: list[dict]) -> set[tuple]:
    return {(p["entry_a"]["id"], p["entry_b"] and p["entry_b"]["id"]) for p in draft if p["pinned"]}


@pytest.fixture
def desk(django_capture_on_commit_callbacks):
    return lambda data: Desk(data, django_capture_on_commit_callbacks)


def test_a_swiss_event_run_to_the_end_through_the_api(desk, api):
    data = build(SWISS, 7, rounds=3)
    run = desk(data)
    # Nobody else sees or touches the draft: not the public, not a read-only key.
    assert api.get(f"{run.event}/draft/").status_code in (401, 403)
    assert run.reader.post(f"{run.event}/pair/").status_code == 403
    assert api.post(f"{run.event}/pair/").status_code in (401, 403)

    draft = run.post(f"{run.event}/pair/")
    assert [p["table"] for p in draft] == [1, 2, 3, None] and draft[-1]["entry_b"] is None
    assert run.key.get(f"{run.event}/draft/").json() == draft
    assert run.matches() == []  # a draft is not playable
    # Swap two entries of different tables: both tables are pinned and kept by a new pairing.
    first, second = draft[0]["entry_a"]["id"], draft[1]["entry_b"]["id"]
    swapped = run.post(f"{run.event}/swap/", {"first": first, "second": second})
    assert [p["pinned"] for p in swapped] == [True, True, False, False]
    assert swapped[0]["entry_a"]["id"] == second and swapped[1]["entry_b"]["id"] == first
    again = run.post(f"{run.event}/pair/")
    assert pinned(again) == pinned(swapped) and len(pinned(again)) == 2
    table = next(p for p in again if p["pinned"])
    unpinned = run.post(f"{run.event}/pin/", {"pairing": table["id"], "pinned": False})
    assert len(pinned(unpinned)) == 1
    refused = run.key.post(f"{run.event}/swap/", {"first": first, "second": first}, format="json")
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "bad_swap"

    round_1 = run.post(f"{run.event}/publish/", expect=201)
    assert round_1["number"] == 1
    assert len(run.matches(round=1)) == 4
    assert run.key.get(f"{run.event}/draft/").json() == []
    early = run.key.post(f"{run.event}/pair/")
    assert early.status_code == 422 and early.json()["error"]["code"] == "round_unfinished"
    run.play_round(1)

    # Round 2 is published, then unpaired (no result yet), then paired and played; the
    # fixtures kept for the public follow.
    assert len(run.matches()) == len(run.matches(round=2)) + 4 == 4
    run.post(f"{run.event}/pair/")
    run.post(f"{run.event}/publish/", expect=201)
    assert len(run.matches()) == len(run.matches(round=2)) + 4 == 8
    assert run.post(f"{run.event}/unpair/") == {"round": 2}
    assert len(run.matches()) == 4 and run.matches(round=2) == []
    for number in (2, 3):
        run.post(f"{run.event}/pair/")
        run.post(f"{run.event}/publish/", expect=201)
        played_before = {
            frozenset((m["entry_a"]["id"], m["entry_b"]["id"]))
            for m in run.matches()
            if m["round"] < number and m["entry_b"]
        }
        for match in run.matches(round=number):
            if match["entry_b"]:
                assert frozenset((match["entry_a"]["id"], match["entry_b"]["id"])) not in (
                    played_before
                )
        run.play_round(number)
    # A played round cannot be unpaired; every round is paired.
    assert run.key.post(f"{run.event}/unpair/").json()["error"]["code"] == "results_entered"
    assert run.key.post(f"{run.event}/pair/").json()["error"]["code"] == "all_rounds_played"
    finished = run.post(f"{run.event}/status/", {"status": "finished"})
    assert finished["status"] == "finished"
    rows = api.get(f"{run.event}/standings/").json()["tables"][0]["standings"]
    assert len(rows) == 7 and all(r["played"] == 3 for r in rows)
    assert sum(r["won"] for r in rows) == 3 * 4  # three tables and a bye each round
    assert Match.objects.filter(event=data.event).count() == 3 * 4


def test_a_double_elimination_with_a_correction_through_the_api(desk, api):
    data = build(Event.Format.DOUBLE_ELIMINATION, 4, grand_final_reset=True)
    run = desk(data)
    seeds = [e.pk for e in reversed(data.entries)]
    bad = run.key.post(f"{run.event}/draw-bracket/", {"seeds": seeds[:3]}, format="json")
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "bad_seeds"
    bracket = run.post(f"{run.event}/draw-bracket/", {"seeds": seeds}, expect=201)
    assert bracket["kind"] == "double"
    assert run.key.post(f"{run.event}/draw-bracket/").json()["error"]["code"] == "bracket_exists"
    opening = [s for s in bracket["slots"] if s["match"]]
    assert len(opening) == 2 and opening[0]["home"]["id"] == seeds[0]

    def slots() -> dict[int, dict]:
        return {s["number"]: s for s in api.get(f"{run.event}/bracket/").json()["slots"]}

    # Both winners' semi-finals and the winners' final are played: the bracket moves on.
    for slot in opening:
        run.play(slot["match"])
    winners_final = next(
        s for s in slots().values() if s["stage"] == "winners" and s["match"] and not s["winner"]
    )
    run.play(winners_final["match"])
    semi = opening[0]
    assert slots()[semi["number"]]["winner"]["id"] == semi["home"]["id"]

    # Correcting the first semi-final so that its other side wins: the preview names the
    # played matches that depended on it, and the correction is refused until it names them.
    flipped = [{"points_a": 60, "points_b": 150}]
    url = f"/api/v1/matches/{semi['match']}"
    preview = run.post(f"{url}/correction-preview/", {"games": flipped})
    assert winners_final["match"] in [m["id"] for m in preview]
    same = run.post(f"{url}/correction-preview/", {"games": [{"points_a": 150, "points_b": 1}]})
    assert same == []
    assert run.reader.post(f"{url}/correction-preview/", {"games": flipped}).status_code == 403
    refused = run.key.post(
        f"{url}/correction/", {"games": flipped, "note": "Wrong sheet"}, format="json"
    )
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "confirm_reset"
    untouched = Result.objects.get(match=winners_final["match"], status=Result.Status.CONFIRMED)
    reset = [m["id"] for m in preview]
    corrected = run.post(
        f"{url}/correction/", {"games": flipped, "note": "Wrong sheet", "reset": reset}, 201
    )
    assert (corrected["games_a"], corrected["games_b"]) == (0, 1)
    untouched.refresh_from_db()
    assert untouched.status == Result.Status.SUPERSEDED
    after = slots()
    assert after[semi["number"]]["winner"]["id"] == semi["away"]["id"]
    final = after[winners_final["number"]]
    assert semi["away"]["id"] in (final["home"]["id"], final["away"]["id"])
    assert final["winner"] is None

    # Played on to the end: the bracket finishes with one champion.
    for _ in range(10):
        pending = [s for s in slots().values() if s["match"] and s["winner"] is None]
        if not pending:
            break
        for slot in pending:
            run.play(slot["match"], a_wins=slot["stage"] != "grand_final")
    grand = next(s for s in slots().values() if s["stage"] == "grand_final")
    assert grand["winner"] is not None
    assert BracketSlot.objects.filter(bracket__event=data.event).count() >= 6
