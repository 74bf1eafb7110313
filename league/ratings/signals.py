"""The hook: each confirmed result (and each correction) is rated once its transaction commits."""

from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from league.models import Result

from . import services


@receiver(post_save, sender=Result, dispatch_uid="ratings.rate_confirmed_result")
def rate_confirmed_result(sender, instance: Result, **kwargs) -> None:
    if instance.status == Result.Status.CONFIRMED:
        transaction.on_commit(lambda: services.result_counted(instance.match))
