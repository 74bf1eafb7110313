"""Stable error codes of the live tables and their translated messages."""

from django.utils.translation import gettext_lazy as _

from league.services.errors import ServiceError

MESSAGES = {
    "bad_message": _("That message could not be read."),
    "bad_rules": _("Those rules are not valid."),
    "bad_seat": _("There is no such seat."),
    "seat_taken": _("That seat is taken."),
    "not_seated": _("You do not hold a seat at this table."),
    "not_host": _("Only the host can do that."),
    "not_casual": _("Bots can only sit at casual tables."),
    "not_waiting": _("The seats can no longer change."),
    "not_playing": _("No hand is being played."),
    "not_between": _("The next hand cannot start now."),
    "stale": _("The table moved on; here it is again."),
    "not_your_turn": _("It is not your turn."),
    "illegal": _("That move is not allowed."),
    "rate_limited": _("Too many messages."),
    "queue_partner": _("Your partner must be another player."),
    "no_table": _("There is no such table."),
    "not_replaced": _("Your seat is not played by a bot."),
    "partner_playing": _("Your partner is playing at another table."),
    "bad_level": _("There is no such bot level."),
    "not_finished": _("This table has not finished yet."),
    "no_queue": _("There is no such queue."),
    "no_player": _("Sit down first: bots do not play a table without a person."),
}


class TableError(ServiceError):
    """A refused live-table request: nothing was changed. The message is the one of the
    code's table above, which the live protocol sends (docs/live-protocol.md)."""

    def __init__(self, code: str) -> None:
        super().__init__(code, MESSAGES.get(code, MESSAGES["illegal"]))


# An error names the client's message id by this many characters at most.
ECHO_MAX = 64


def error_answer(code: str, client_id: str | None = None) -> dict:
    """The message a client gets for a refused request (translated in the active language);
    its `id` is the start of the client's, never more than ECHO_MAX characters."""
    return {
        "type": "error",
        "id": None if client_id is None else client_id[:ECHO_MAX],
        "code": code,
        "message": str(MESSAGES.get(code, MESSAGES["illegal"])),
    }
