"""Competition pages: names for people (a display name, never an id or a username) and
standings values."""

from django import template
from django.utils.html import format_html_join

register = template.Library()


@register.filter
def person(user) -> str:
    """The user's player name, else their full name, else their username; "—" for nobody."""
    if user is None:
        return "—"
    player = getattr(user, "player", None)
    if player is not None and player.display_name:
        return player.display_name
    return user.get_full_name() or user.get_username()


@register.simple_tag
def tiebreak_value(row, key: str) -> str:
    """A standings row's value for one tiebreak: its lot for lots, "–" where not used."""
    if key == "lots":
        return str(row.entry.lot) if row.entry.lot is not None else "–"
    value = row.values.get(key)
    if value is None:
        return "–"
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


@register.filter
def pair_lines(entry) -> str:
    """A pair's name with each player's name kept whole where a line breaks ("Carmen Díaz /"
    then "Isabel Cabrera", not "Carmen Díaz / Isabel" then "Cabrera")."""
    parts = str(entry).split(" / ")
    return format_html_join(
        " ",
        '<span class="name-part">{}</span>',
        ((part + (" /" if i < len(parts) - 1 else ""),) for i, part in enumerate(parts)),
    )
