"""The engine's fault codes in the user's language.

The engine writes its rulings in English for other programs; people read the code's meaning
in their own language, wherever a ruling is shown (pages, API, referee review).
"""

from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

FAULTS = {
    "bad_record": _("The record is incomplete or not well formed."),
    "bad_tile": _("A tile or action that does not exist in the double-six set."),
    "bad_deal": _(
        "The deal is wrong: a tile dealt twice, a wrong number of tiles, or a "
        "boneyard that does not hold the rest."
    ),
    "bad_declaration": _(
        "A five-doubles declaration by a seat without five doubles, or "
        "under rules without that option."
    ),
    "wrong_opener": _("The wrong seat made the salida."),
    "wrong_opening_tile": _("The salida was not made with the tile the rules require."),
    "not_in_hand": _("The player does not hold that tile."),
    "does_not_fit": _("The tile does not fit that end."),
    "ambiguous_end": _("The tile fits more than one end and none was named."),
    "illegal_pass": _("Illegal pase: the player held a tile that fits."),
    "illegal_draw": _("Illegal draw: the player held a tile that fits, or the boneyard was empty."),
    "after_end": _("An action after the hand had already ended."),
}


def describe(code: str) -> str:
    return str(FAULTS.get(code, code))


def localised(ruling: dict) -> dict:
    """The ruling with its fault explained in the active language (English keeps the
    engine's own, more detailed, message)."""
    error = ruling.get("error")
    if not error or (get_language() or "en").startswith("en"):
        return ruling
    return ruling | {"error": error | {"message": describe(error["code"])}}
