"""Demo data: one open dispute over an illegal pass, on the demo club's league."""

import copy

from games.disputes.models import Dispute
from games.disputes.services import open_result_dispute, settings_for
from league.models import Event, Organisation, Player
from league.services import entries, events, fixtures, results

# docs/hand-record.md's example hand, in which seat 1 passes at action 3 holding 5-2, which fits.
ILLEGAL_PASS = {
    "format": "domino-hand/1",
    "rules": "dominican",
    "players": ["Ana", "Luis", "Carmen", "Marco"],
    "hand_number": 1,
    "leader": 2,
    "deal": [
        ["3-0", "1-2", "4-6", "0-2", "0-4", "4-4", "3-5"],
        ["5-2", "3-3", "6-1", "6-5", "1-1", "0-6", "2-3"],
        ["4-5", "5-5", "3-4", "3-1", "0-0", "0-5", "1-5"],
        ["2-6", "6-3", "2-2", "6-6", "1-4", "2-4", "1-0"],
    ],
    "actions": [
        "5-5",
        "pass",
        "3-5@right",
        "pass",
        "3-1",
        "6-2",
        "6-4",
        "1-1",
        "5-4",
        "4-1",
        "0-4",
        "6-5",
        "5-0",
        "6-3",
        "3-0",
        "0-6",
        "5-1",
        "1-0",
        "2-0",
        "6-1",
        "pass",
        "2-2",
        "1-2@left",
        "2-3@left",
        "3-4",
        "4-2@right",
        "4-4",
    ],
}
CORRECT_ACTION = (3, "5-2")


def illegal_pass_record() -> dict:
    return copy.deepcopy(ILLEGAL_PASS)


def _demo_event(club: Organisation, organiser) -> Event:
    event = club.events.filter(matches__entry_b__isnull=False).distinct().first()
    if event is not None:
        return event
    event = events.create_event(
        organiser, club, name="Liga de los jueves (demo)", rule_preset="tournament"
    )
    players = list(Player.objects.filter(club=club).order_by("pk")[:8])
    for i in range(0, len(players) - 1, 2):
        entries.register(organiser, event, player_1=players[i], player_2=players[i + 1])
    fixtures.generate_fixtures(organiser, event)
    return event


def add_demo_dispute(club: Organisation, organiser) -> Dispute:
    """An over-the-board result whose hand record holds an illegal pass, disputed by the
    organiser (the club's referee and the event's chief referee)."""
    event = _demo_event(club, organiser)
    referee = settings_for(event)
    referee.chief_referee = organiser
    referee.save(update_fields=["chief_referee"])
    match = event.matches.filter(entry_b__isnull=False).order_by("round__number", "pk").first()
    game = {"points_a": 110, "points_b": 60, "hands": [illegal_pass_record()]}
    results.enter_result(organiser, match, [game])
    return open_result_dispute(
        organiser, match, 1, 1, "Luis pasó con el 5-2 en la mano: pase ilegal."
    )
