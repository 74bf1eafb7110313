"""The hook: the league's `result_confirmed` signal, sent once a result (or a correction, or
a referee's ruling) is confirmed and its transaction has committed."""

from django.dispatch import receiver

from league.signals import result_confirmed

from . import services


@receiver(result_confirmed, dispatch_uid="ratings.rate_confirmed_result")
def rate_confirmed_result(sender, match, result, correction: bool = False, **kwargs) -> None:
    services.result_counted(match)
