from .events import RULE_PRESET_CHOICES, RULE_PRESETS, Division, Entry, Event, Match, Round, Season
from .organisations import Invitation, Membership, Notification, Organisation, Player
from .results import AuditEntry, Result

__all__ = [
    "RULE_PRESET_CHOICES",
    "RULE_PRESETS",
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
