"""Read-only questions other apps ask about disputes (importable without the services)."""

from django.utils.translation import gettext_lazy as _

from league.models import Match
from league.services.errors import ServiceError

from .models import Dispute


def has_open_dispute(match: Match) -> bool:
    """A dispute on one of the match's hands awaits a ruling or an appeal decision."""
    return Dispute.objects.filter(match=match, status__in=Dispute.PENDING).exists()


def dispute_hold(match: Match) -> ServiceError | None:
    """The competition's result hold (`league.services.holds`): a match whose hand is
    before the referees keeps its result until the ruling."""
    if has_open_dispute(match):
        return ServiceError(
            "dispute_open", _("A hand of this match is before the referees: wait for the ruling.")
        )
    return None
