from .arena import ArenaGame, ArenaSpot
from .autopilot import Autopilot
from .events import RULE_PRESET_CHOICES, Division, Entry, Event, Match, Round, Season
from .organisations import Invitation, Membership, Notification, Organisation, Player
from .results import AuditEntry, Result

__all__ = [
    "ArenaGame",
    "ArenaSpot",
    "Autopilot",
    "RULE_PRESET_CHOICES",
    "AuditEntry",
    "Division",
    "Entry",
    "Event",
    "Invitation",
    "Match",
    "Membership",
    "Notification",
    "Organisation",
    "Player",
    "Result",
    "Round",
    "Season",
]
