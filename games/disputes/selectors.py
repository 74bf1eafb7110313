"""Read-only questions other apps ask about disputes (importable without the services)."""

from league.models import Match

from .models import Dispute


def has_open_dispute(match: Match) -> bool:
    """A dispute on one of the match's hands awaits a ruling or an appeal decision."""
    return Dispute.objects.filter(match=match, status__in=Dispute.PENDING).exists()
