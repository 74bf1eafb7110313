"""What each rule option of the engine (`games.engine.Rules`) is called and what it decides,
in the players' words and their languages: the one place the event forms, the private-table
form and docs/rules.md take them from (tests/engine/test_docs.py holds the doc to them)."""

from django.utils.translation import gettext_lazy as _

LABELS = {
    "players": _("Players at the table"),
    "pairs": _("Play in pairs"),
    "target": _("Points to win"),
    "scoring": _("Who scores a hand"),
    "domino_points": _("A domino scores"),
    "block_winner": _("Who wins a tranque"),
    "block_points": _("A tranque scores"),
    "round_to": _("Rounding of a hand's points"),
    "shutout_multiplier": _("A shutout (lisa, pollona) counts as this many wins"),
    "tiles_per_hand": _("Tiles dealt to each player"),
    "boneyard": _("Draw from the boneyard"),
    "table_points": _("Table points (multiples of five)"),
    "pass_points": _("Pass bonus"),
    "galo_points": _("Galo bonus"),
    "paso_corrido_bonus": _("Paso corrido bonus"),
    "capicua_bonus": _("Capicúa bonus"),
    "opening_bonus_double": _("Opening bonus (double)"),
    "opening_bonus_other": _("Opening bonus (other tile)"),
    "double_domino_bonus": _("Double domino bonus"),
    "five_doubles_points": _("Points per double (five doubles)"),
    "no_double_penalty": _("No-double penalty"),
    "bonus_cap": _("Bonuses cannot win the match"),
    "first_opener": _("Who opens the first hand"),
    "opening_tile": _("Opening tile"),
    "next_opener": _("Who opens the next hands"),
    "after_block_opener": _("Who opens after a tranque"),
    "after_tie_opener": _("Who opens after a tied tranque"),
    "spinner": _("A double opening is a spinner (four ends)"),
    "direction": _("Direction of play"),
    "turn_seconds": _("Seconds per turn"),
    "five_doubles_seconds": _("Seconds to choose with five doubles"),
}

# Each in plain words; docs/rules.md's row of the option starts with the same sentence.
HELP = {
    "players": _("How many seats the table has."),
    "pairs": _(
        "Four players in two partnerships, partners sitting across; off, everyone plays for "
        "themselves."
    ),
    "tiles_per_hand": _(
        "How many tiles each player is dealt; all hands together must fit in the 28 tiles."
    ),
    "boneyard": _(
        "A player who cannot play draws until a tile fits, and passes only when no tile is "
        "left to draw."
    ),
    "direction": _("Which way play goes round the table on screen; the rules do not change."),
    "first_opener": _("Who makes the salida of a match's first hand."),
    "opening_tile": _("The tile that must open the first hand, when its holder opens."),
    "next_opener": _("Who opens the hands after a domino."),
    "after_block_opener": _("Who opens after a tranque that somebody won."),
    "after_tie_opener": _("Who opens after a tranque that nobody won."),
    "no_double_penalty": _(
        "What every other side scores when the winner must open with a double, holds none, "
        "and the salida passes on."
    ),
    "spinner": _(
        "A double salida takes tiles on four ends: left and right first, then up and down."
    ),
    "table_points": _(
        "After every play, a table count that is a multiple of five is scored at once by the "
        "player's side."
    ),
    "pass_points": _("The first pase after a play scores this for the side that made the play."),
    "galo_points": _(
        "A player plays, everyone else passes, and the same player plays again: the side "
        "scores this."
    ),
    "five_doubles_points": _(
        "A player dealt five doubles or more chooses these points per double for the side, "
        "or a new deal; 0 turns it off."
    ),
    "five_doubles_seconds": _("How long a live table waits for the five-doubles choice."),
    "paso_corrido_bonus": _(
        "The Dominican pase corrido: a player plays, everyone else passes, and the same "
        "player plays again."
    ),
    "capicua_bonus": _(
        "A domino made with a tile that is not a double and fits both open ends, showing "
        "different numbers."
    ),
    "opening_bonus_double": _(
        "The salida is a double and leaves the next player with no play while the opener's "
        "partner has one."
    ),
    "opening_bonus_other": _("The same, when the salida is not a double."),
    "double_domino_bonus": _("A domino made with a double (batida com carroça)."),
    "bonus_cap": _(
        "Bonuses can take a side to one point short of the target: only a hand's own points "
        "win the match."
    ),
    "domino_points": _(
        "What a domino scores: the pips left in every other hand, or in the opponents' hands only."
    ),
    "block_winner": _(
        "Who wins a tranque: the blocker against the next player, or the side with the fewest pips."
    ),
    "block_points": _(
        "What a won tranque scores: the pips in the other hands, in all hands, or in the "
        "losers' hands."
    ),
    "round_to": _("A hand's points are rounded down to a multiple of this."),
    "scoring": _(
        "Who scores a hand: the winner, or (Goat) every other side scores its own pips and "
        "reaching the target loses."
    ),
    "target": _("The match ends after the hand in which a side reaches these points."),
    "shutout_multiplier": _(
        "How many match wins a shutout (lisa, pollona) counts for in the standings."
    ),
    "turn_seconds": _("How long a player has for each turn at a live table."),
}
