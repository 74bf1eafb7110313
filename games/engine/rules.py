"""The rule model, the five presets and their named variants (docs/rules.md)."""

from dataclasses import dataclass, fields, replace
from typing import Any

from .errors import RulesError
from .tiles import tile_id

_CHOICES = {
    "direction": ("ccw", "cw"),
    "first_opener": ("tile", "lowest_double", "highest_tile"),
    "next_opener": ("winner_any", "winner_double", "first_rule"),
    "after_block_opener": ("winner", "blocker", "first_rule"),
    "after_tie_opener": ("previous_opener", "blocker", "first_rule"),
    "domino_points": ("all_hands", "opponents"),
    "block_winner": ("blocker_vs_next", "lowest_side"),
    "block_points": ("others", "all_hands", "opponents"),
    "scoring": ("winner", "penalty"),
}
_ONE_OF = {"players": (2, 3, 4), "table_points": (0, 5), "round_to": (1, 5)}
_MINIMUM = {
    "tiles_per_hand": 2,
    "target": 1,
    "shutout_multiplier": 1,
    "five_doubles_seconds": 1,
    "turn_seconds": 1,
}

# The values an option may take, for the forms that offer them.
CHOICES = _CHOICES
ONE_OF = _ONE_OF
MINIMUM = _MINIMUM


@dataclass(frozen=True, slots=True)
class Rules:
    """A complete rule set: a preset and its options (docs/rules.md, section 2)."""

    preset: str  # the preset these rules start from; never overridden
    players: int  # seats at the table: 2, 3 or 4
    pairs: bool  # four players in two partnerships, seats 0+2 against 1+3
    tiles_per_hand: int  # tiles dealt to each seat
    boneyard: bool  # a draw game: a stuck player draws until a tile fits
    direction: str  # "ccw" or "cw": how seats are drawn on screen only
    first_opener: str  # who opens a match's first hand: tile, lowest_double, highest_tile
    opening_tile: str  # the tile that must open the first hand under first_opener "tile"
    next_opener: str  # who opens after a domino: winner_any, winner_double, first_rule
    after_block_opener: str  # who opens after a won block: winner, blocker, first_rule
    after_tie_opener: str  # who opens after a tied block: previous_opener, blocker, first_rule
    no_double_penalty: int  # scored by the other sides when a winner_double salida passes on
    spinner: bool  # a double salida takes tiles on four ends
    table_points: int  # 5: a table count that is a multiple of 5 scores at once; 0: off
    pass_points: int  # the first pass after a play scores this for the player's side
    galo_points: int  # a seat plays again after every other seat passed
    five_doubles_points: int  # per double, for a seat dealt five doubles; 0: no such choice
    five_doubles_seconds: int  # how long a live table waits for the five-doubles choice
    paso_corrido_bonus: int  # the Dominican name of the galo, scored the same way
    capicua_bonus: int  # a domino with a non-double fitting two ends showing different numbers
    opening_bonus_double: int  # a double salida leaves the next seat stuck and not the partner
    opening_bonus_other: int  # the same for a salida that is not a double
    double_domino_bonus: int  # a domino made with a double
    bonus_cap: bool  # bonuses take a side to target - 1 at most
    domino_points: str  # what a domino scores: all_hands or opponents
    block_winner: str  # who wins a block: blocker_vs_next or lowest_side
    block_points: str  # what a won block scores: others, all_hands or opponents
    round_to: int  # a hand's normal points are rounded down to a multiple of this (1 or 5)
    scoring: str  # "winner" scores the winner; "penalty" (Goat) scores the others' own pips
    target: int  # the match ends after the hand in which a side reaches this
    shutout_multiplier: int  # how many match wins a shutout counts for
    turn_seconds: int  # the turn timer of a live table

    def __post_init__(self) -> None:
        for f in fields(self):
            _check_option(f.name, f.type, getattr(self, f.name))
        if self.preset not in _BASE:
            raise RulesError(f"unknown preset {self.preset!r}")
        if self.pairs and self.players != 4:
            raise RulesError("pairs need 4 players")
        dealt = self.players * self.tiles_per_hand
        if dealt > 28:
            raise RulesError(
                f"{self.players} hands of {self.tiles_per_hand} tiles need {dealt} of 28 tiles"
            )
        if self.boneyard and dealt == 28:
            raise RulesError("a draw game needs at least one tile left in the boneyard")

    @property
    def sides(self) -> int:
        return 2 if self.pairs else self.players

    def with_options(self, **overrides: Any) -> "Rules":
        """These rules with some options overridden (validated like any rules)."""
        if "preset" in overrides:
            raise RulesError("the preset of a rule set cannot be overridden")
        for name in overrides:
            if name not in _OPTIONS:
                raise RulesError(f"unknown option {name!r}")
        return replace(self, **overrides)


def _check_option(name: str, kind: Any, value: Any) -> None:
    if kind in (bool, "bool"):
        if not isinstance(value, bool):
            raise RulesError(f"option {name!r} must be true or false, not {value!r}")
    elif kind in (int, "int"):
        if not isinstance(value, int) or isinstance(value, bool):
            raise RulesError(f"option {name!r} must be an integer, not {value!r}")
        if name in _ONE_OF and value not in _ONE_OF[name]:
            raise RulesError(f"option {name!r} must be one of {_ONE_OF[name]}, not {value}")
        if value < _MINIMUM.get(name, 0):
            raise RulesError(f"option {name!r} must be at least {_MINIMUM.get(name, 0)}")
    elif not isinstance(value, str):
        raise RulesError(f"option {name!r} must be a string, not {value!r}")
    elif name == "opening_tile":
        if tile_id(value) is None:
            raise RulesError(f"option 'opening_tile' is not a tile: {value!r}")
    elif name in _CHOICES and value not in _CHOICES[name]:
        raise RulesError(f"option {name!r} must be one of {_CHOICES[name]}, not {value!r}")


_COMMON = dict(
    players=4,
    pairs=True,
    tiles_per_hand=7,
    boneyard=False,
    opening_tile="6-6",
    five_doubles_seconds=15,
    no_double_penalty=0,
    spinner=False,
    table_points=0,
    pass_points=0,
    galo_points=0,
    five_doubles_points=0,
    paso_corrido_bonus=0,
    capicua_bonus=0,
    opening_bonus_double=0,
    opening_bonus_other=0,
    double_domino_bonus=0,
    bonus_cap=False,
    round_to=1,
    scoring="winner",
    shutout_multiplier=1,
)
_BASE: dict[str, dict[str, Any]] = {
    "dominican": dict(
        direction="ccw",
        first_opener="tile",
        next_opener="winner_any",
        after_block_opener="winner",
        after_tie_opener="blocker",
        paso_corrido_bonus=30,
        capicua_bonus=30,
        opening_bonus_double=30,
        opening_bonus_other=60,
        bonus_cap=True,
        domino_points="all_hands",
        block_winner="blocker_vs_next",
        block_points="others",
        target=200,
        shutout_multiplier=2,
        turn_seconds=20,
    ),
    "brazilian": dict(
        direction="cw",
        first_opener="tile",
        next_opener="winner_double",
        after_block_opener="first_rule",
        after_tie_opener="first_rule",
        no_double_penalty=20,
        spinner=True,
        table_points=5,
        pass_points=20,
        galo_points=50,
        five_doubles_points=10,
        double_domino_bonus=20,
        domino_points="opponents",
        block_winner="lowest_side",
        block_points="opponents",
        round_to=5,
        target=200,
        turn_seconds=20,
    ),
    "tournament": dict(
        direction="ccw",
        first_opener="tile",
        next_opener="winner_any",
        after_block_opener="blocker",
        after_tie_opener="blocker",
        domino_points="all_hands",
        block_winner="lowest_side",
        block_points="all_hands",
        target=100,
        turn_seconds=30,
    ),
    "latin": dict(
        direction="ccw",
        first_opener="tile",
        next_opener="winner_any",
        after_block_opener="winner",
        after_tie_opener="previous_opener",
        domino_points="opponents",
        block_winner="lowest_side",
        block_points="opponents",
        target=100,
        turn_seconds=20,
    ),
    "vog": dict(
        direction="cw",
        first_opener="lowest_double",
        next_opener="first_rule",
        after_block_opener="first_rule",
        after_tie_opener="first_rule",
        domino_points="opponents",
        block_winner="lowest_side",
        block_points="opponents",
        target=100,
        turn_seconds=30,
    ),
}
PRESETS: dict[str, Rules] = {
    name: Rules(preset=name, **{**_COMMON, **options}) for name, options in _BASE.items()
}
_OPTIONS = frozenset(f.name for f in fields(Rules)) - {"preset"}


def _vog_forms(name: str, base: dict[str, Any], draw: bool) -> dict[str, dict[str, Any]]:
    four = {**base, "tiles_per_hand": 5} if draw else base
    return {
        name: four,
        f"{name}_2p": {**base, "players": 2, "pairs": False},
        f"{name}_3p": {**four, "players": 3, "pairs": False},
    }


# Named variants offered in the interface; records carry them as preset + overrides.
VARIANTS: dict[str, dict[str, Any]] = {
    "tournament_short": {"preset": "tournament", "target": 50},
    "tournament_classic": {"preset": "tournament", "target": 100},
    "tournament_long": {"preset": "tournament", "target": 200},
    "tournament_capicua": {"preset": "tournament", "capicua_bonus": 30},
    # Seed 002: one against one, each player draws from the pozo until a tile fits.
    "tournament_1v1": {"preset": "tournament", "players": 2, "pairs": False, "boneyard": True},
    "brazilian_100": {"preset": "brazilian", "target": 100},
    "brazilian_300": {"preset": "brazilian", "target": 300},
    "brazilian_no_pass": {"preset": "brazilian", "pass_points": 0},
    "brazilian_first_rule": {"preset": "brazilian", "next_opener": "first_rule"},
    **_vog_forms("vog", {"preset": "vog"}, draw=False),
    **_vog_forms("vog_draw", {"preset": "vog", "boneyard": True}, draw=True),
    **_vog_forms("vog_goat", {"preset": "vog", "scoring": "penalty", "target": 101}, False),
    **_vog_forms(
        "vog_international",
        {
            "preset": "vog",
            "first_opener": "highest_tile",
            "next_opener": "winner_any",
            "after_block_opener": "winner",
        },
        draw=False,
    ),
}

_CACHE: dict[Any, Rules] = {}


def rules_from_spec(spec: Any) -> Rules:
    """The rules of a record's `rules` field: a preset name, or {"preset": ..., options}."""
    key: Any
    try:
        key = (
            spec
            if isinstance(spec, str)
            else tuple(sorted((k, type(v).__name__, v) for k, v in spec.items()))
        )
        hit = _CACHE.get(key)
    except (AttributeError, TypeError):
        key = hit = None
    if hit is not None:
        return hit
    if isinstance(spec, str):
        if spec not in PRESETS:
            raise RulesError(f"unknown preset {spec!r}")
        rules = PRESETS[spec]
    elif isinstance(spec, dict):
        preset = spec.get("preset")
        if not isinstance(preset, str) or preset not in PRESETS:
            raise RulesError(f"unknown preset {preset!r}")
        rules = PRESETS[preset].with_options(**{k: v for k, v in spec.items() if k != "preset"})
    else:
        raise RulesError("rules must be a preset name or an object")
    if key is not None and len(_CACHE) < 4096:
        _CACHE[key] = rules
    return rules


def rules_to_spec(rules: Rules) -> str | dict[str, Any]:
    """The shortest `rules` field for these rules: the preset name or preset + overrides."""
    base = PRESETS[rules.preset]
    overrides = {
        n: getattr(rules, n) for n in sorted(_OPTIONS) if getattr(rules, n) != getattr(base, n)
    }
    return {"preset": rules.preset, **overrides} if overrides else rules.preset


def variant(name: str, **overrides: Any) -> Rules:
    """A preset or named variant (VARIANTS), with further option overrides."""
    spec = {"preset": name} if name in PRESETS else VARIANTS.get(name)
    if spec is None:
        raise RulesError(f"unknown rule set {name!r}")
    return rules_from_spec({**spec, **overrides})
