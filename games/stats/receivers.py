"""The hook: the league's `result_confirmed` signal (a result confirmed or corrected, a
referee's ruling applied) counts the match's recorded hands again."""

from django.dispatch import receiver

from league.signals import result_confirmed

from . import services


@receiver(result_confirmed, dispatch_uid="stats.count_confirmed_result")
def count_confirmed_result(sender, match, result, correction: bool = False, **kwargs) -> None:
    services.queue_league_match(match.pk)
