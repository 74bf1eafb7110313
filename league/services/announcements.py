"""What players are told by email when a round is published: their table, their opponents
and when, each in the player's own language, sent by the background worker."""

from django.conf import settings
from django.db.models import F
from django.utils import formats, translation
from django.utils.translation import gettext as _

from ..models import Match, Player, Round
from ..notifications import absolute

Mail = tuple[str, str, list[str]]


def _language(player: Player) -> str:
    return player.language or settings.LANGUAGE_CODE


def _when(round_: Round) -> str:
    if round_.date is None:
        return ""
    text = formats.date_format(round_.date, "DATE_FORMAT")
    if round_.time is not None:
        text += " · " + formats.time_format(round_.time, "TIME_FORMAT")
    return text


def _mail(player: Player, match: Match, opponent, round_: Round) -> str:
    """The body of one player's email (in the active language)."""
    event = round_.event
    if opponent is None:
        where = _("You have a bye in this round.")
    else:
        where = _("Table %(table)s: %(pair)s against %(opponent)s.") % {
            "table": match.table or "–",
            "pair": match.entry_a if opponent == match.entry_b else match.entry_b,
            "opponent": opponent,
        }
    lines = [
        _("Hello %(name)s,") % {"name": player.display_name},
        "",
        _("%(round)s of %(event)s is published.") % {"round": round_, "event": event},
        where,
    ]
    when = _when(round_)
    if when:
        lines.append(_("When: %(when)s") % {"when": when})
    lines += ["", absolute(event.get_absolute_url())]
    return "\n".join(lines)


def round_published_mails(round_: Round) -> list[Mail]:
    """One email for each player of the round who has an address, in their language."""
    matches = round_.matches.filter(parent__isnull=True).select_related(
        "event",
        "entry_a__player_1__user",
        "entry_a__player_2__user",
        "entry_b__player_1__user",
        "entry_b__player_2__user",
    )
    mails, seen = [], set()
    for match in matches.order_by(F("table").asc(nulls_last=True), "pk"):  # the bye last
        for entry, opponent in ((match.entry_a, match.entry_b), (match.entry_b, match.entry_a)):
            for player in entry.players if entry is not None else []:
                address = player.contact_email
                if not address or address.lower() in seen:
                    continue
                seen.add(address.lower())
                with translation.override(_language(player)):
                    subject = _("%(event)s: %(round)s") % {"event": round_.event, "round": round_}
                    mails.append((subject, _mail(player, match, opponent, round_), [address]))
    return mails
