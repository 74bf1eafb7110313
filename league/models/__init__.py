from .organisations import Membership, Notification, Organisation, Player

__all__ = ["Membership", "Notification", "Organisation", "Player"]
