"""What keeps a match's result from changing now, as the apps above the competition know it.

league/ never imports games/ (README, Architecture): the referees' disputes register their
hold here when they start (`games.disputes.apps`), and results ask every registered hold.
"""

from collections.abc import Callable

from ..models import Match
from .errors import ServiceError

# A hold gives the error that refuses the change, or None when it does not hold the match.
ResultHold = Callable[[Match], ServiceError | None]

_holds: dict[str, ResultHold] = {}


def register_result_hold(name: str, hold: ResultHold) -> None:
    _holds[name] = hold


def refuse_while_held(match: Match) -> None:
    for hold in _holds.values():
        if (error := hold(match)) is not None:
            raise error
