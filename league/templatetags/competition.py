"""Competition pages: names for people (a display name, never an id or a username) and
standings values."""

from babel import Locale, UnknownLocaleError
from django import template
from django.utils import translation
from django.utils.html import format_html_join

from league.rule_options import LABELS

register = template.Library()


@register.filter
def rule_option(name: str) -> str:
    """A rule option's name in the reader's language."""
    return str(LABELS.get(name, name))


@register.filter
def country(code: str) -> str:
    """A country's name in the reader's language, from its two-letter code ("DO" ->
    "República Dominicana" in Spanish); the code itself if unknown."""
    code = (code or "").upper()
    try:
        names = Locale.parse(translation.get_language() or "es", sep="-").territories
    except (UnknownLocaleError, ValueError):
        return code
    return names.get(code, code)


MINUS = "\u2212"  # the minus sign the pages write; CSV files and the API keep numbers


def with_minus(text: str) -> str:
    """A number as text, its leading hyphen made the minus sign ("-12" -> "−12")."""
    return MINUS + text[1:] if text.startswith("-") else text


@register.filter
def signed(value, plus: str = "") -> str:
    """A signed number as a page shows it (a points difference, a rating): negative with the
    minus sign "−", not a hyphen; `signed:"+"` also marks a positive change ("+12"). Takes a
    number or a number already formatted (`floatformat`)."""
    if value is None or value == "":
        return ""
    text = str(value)
    if not text.lstrip("-").strip("0.,"):  # zero, whatever its sign or decimals
        return text.lstrip("-")
    if plus and not text.startswith("-"):
        text = plus + text
    return with_minus(text)


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
    return with_minus(str(int(value)) if float(value).is_integer() else f"{value:.1f}")


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
