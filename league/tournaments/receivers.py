"""Brackets move on when a result is confirmed."""

from django.db import transaction
from django.dispatch import receiver

from ..models import Event
from ..signals import result_confirmed
from .models import BracketSlot
from .services.brackets import sync


@receiver(result_confirmed, dispatch_uid="tournaments.advance_bracket")
def advance_bracket(sender, match, result, correction: bool = False, **kwargs) -> None:
    slot = BracketSlot.objects.select_related("bracket").filter(match_id=match.pk).first()
    if slot is None:
        return
    with transaction.atomic():
        Event.objects.select_for_update().get(pk=match.event_id)
        sync(slot.bracket)
