"""The private-table form: every option of the engine's rule model as a field, grouped, and
the presets and named variants (rules.md section 3) that fill them in."""

from dataclasses import asdict, fields

from django import forms
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games.engine import PRESETS, VARIANTS, Rules, RulesError, rules_from_spec, rules_to_spec
from games.engine.rules import CHOICES, MINIMUM, ONE_OF
from games.engine.tiles import PARSE
from games.services.tables import NEXT_HAND_SECONDS
from league.rule_options import HELP, LABELS

# Every preset and named variant; the number of players (and pairs) is the rule set's own.
# A preset can also be a variant's name ("vog" is the four-player form of the VOG family):
# each name is offered once.
NAMES = list(dict.fromkeys([*PRESETS, *VARIANTS]))
NAME_LABELS = {
    "dominican": _("Dominican"),
    "brazilian": _("Brazilian"),
    "tournament": _("Tournament"),
    "latin": _("Latin"),
    "vog": _("VOG"),
    "tournament_short": _("Tournament, short (50)"),
    "tournament_classic": _("Tournament, classic (100)"),
    "tournament_long": _("Tournament, long (200)"),
    "tournament_capicua": _("Tournament with a capicúa bonus"),
    "brazilian_100": _("Brazilian to 100"),
    "brazilian_300": _("Brazilian to 300"),
    "brazilian_no_pass": _("Brazilian without pass points"),
    "brazilian_first_rule": _("Brazilian, every hand opened as the first"),
    "vog_draw": _("VOG with a boneyard"),
    "vog_goat": _("VOG Goat (penalty points)"),
    "vog_international": _("VOG international"),
    "tournament_1v1": _("Tournament, one against one with the pozo"),
    "vog_2p": _("VOG, two players"),
    "vog_3p": _("VOG, three players"),
    "vog_draw_2p": _("VOG with a boneyard, two players"),
    "vog_draw_3p": _("VOG with a boneyard, three players"),
    "vog_goat_2p": _("VOG Goat, two players"),
    "vog_goat_3p": _("VOG Goat, three players"),
    "vog_international_2p": _("VOG international, two players"),
    "vog_international_3p": _("VOG international, three players"),
}
# The rule sets by the players they seat, as the form's list groups them.
PLAYER_GROUPS = {
    4: _("Four players, two pairs"),
    3: _("Three players, each on their own"),
    2: _("Two players, one against one"),
}


def _players(name: str) -> int:
    return rules_from_spec(VARIANTS.get(name, name)).players


def name_choices() -> list[tuple[str | Promise, list[tuple[str, str | Promise]]]]:
    """The offered rule sets, grouped by how many players they seat."""
    return [
        (title, [(n, NAME_LABELS.get(n, n)) for n in NAMES if _players(n) == players])
        for players, title in PLAYER_GROUPS.items()
    ]


# Options fixed at a live table, and the groups the others are shown in.
FIXED = ("preset", "players", "pairs")
GROUPS = {
    "scoring": (
        _("Scoring"),
        [
            "target",
            "scoring",
            "domino_points",
            "block_winner",
            "block_points",
            "round_to",
            "shutout_multiplier",
            "tiles_per_hand",
            "boneyard",
        ],
    ),
    "bonuses": (
        _("Bonuses"),
        [
            "table_points",
            "pass_points",
            "galo_points",
            "paso_corrido_bonus",
            "capicua_bonus",
            "opening_bonus_double",
            "opening_bonus_other",
            "double_domino_bonus",
            "five_doubles_points",
            "no_double_penalty",
            "bonus_cap",
        ],
    ),
    "opening": (
        _("Opening"),
        [
            "first_opener",
            "opening_tile",
            "next_opener",
            "after_block_opener",
            "after_tie_opener",
            "spinner",
            "direction",
        ],
    ),
    "time": (_("Time"), ["turn_seconds", "five_doubles_seconds", "next_hand_seconds"]),
}
CHOICE_LABELS = {
    "ccw": _("Counter-clockwise"),
    "cw": _("Clockwise"),
    "tile": _("The holder of the opening tile"),
    "lowest_double": _("The holder of the lowest double"),
    "highest_tile": _("The holder of the highest tile"),
    "winner_any": _("The winner, with any tile"),
    "winner_double": _("The winner, with a double"),
    "first_rule": _("As in the first hand"),
    "winner": _("The winner"),
    "blocker": _("The player who blocked"),
    "previous_opener": _("The previous opener"),
    "all_hands": _("All the hands"),
    "opponents": _("The opponents' hands"),
    "others": _("Every hand but the winner's"),
    "blocker_vs_next": _("The blocker or the next player, fewer pips"),
    "lowest_side": _("The pair with fewer pips"),
    "penalty": _("Penalty (Goat): the losers score their own pips"),
}
INT_LABELS = {
    "table_points": {0: _("Off"), 5: _("On")},
    "round_to": {1: _("None"), 5: _("Down to a multiple of 5")},
}
TILES = sorted({name for name in PARSE if int(name[0]) >= int(name[2])}, reverse=True)
# The engine's refusals of a combination, by the field they concern.
REFUSALS = {
    "tiles_per_hand": _("That many tiles for every player need more than the 28 tiles."),
    "boneyard": _("A draw game needs at least one tile left in the boneyard: deal fewer tiles."),
}


def _field(name: str, kind: object) -> forms.Field:
    field = _bare_field(name, kind)
    field.label, field.help_text = LABELS[name], HELP[name]
    return field


def _bare_field(name: str, kind: object) -> forms.Field:
    if kind is bool:
        return forms.BooleanField(required=False)
    if name == "opening_tile":
        return forms.ChoiceField(choices=[(t, t) for t in TILES])
    if name in CHOICES:
        return forms.ChoiceField(choices=[(c, CHOICE_LABELS[c]) for c in CHOICES[name]])
    if name in ONE_OF:
        return forms.TypedChoiceField(
            coerce=int, choices=[(v, INT_LABELS[name][v]) for v in ONE_OF[name]]
        )
    if name == "turn_seconds":  # a live turn: long enough to think, short enough to wait for
        return forms.IntegerField(min_value=5, max_value=600)
    return forms.IntegerField(min_value=MINIMUM.get(name, 0))


def option_values(name: str) -> dict:
    """All the option values of a preset or named variant (what choosing it fills in)."""
    values = asdict(rules_from_spec(VARIANTS.get(name, name)))
    return {k: v for k, v in values.items() if k not in FIXED}


class PrivateTableForm(forms.Form):
    preset = forms.ChoiceField(
        label=_("Rules"),
        choices=name_choices,
        help_text=_("Choosing rules fills in every option below; change any of them."),
    )

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("initial", {"preset": NAMES[0], **option_values(NAMES[0])})
        super().__init__(*args, **kwargs)
        for option in fields(Rules):
            if option.name not in FIXED:
                self.fields[option.name] = _field(option.name, option.type)
        self.fields["next_hand_seconds"] = forms.IntegerField(
            label=_("Seconds the next hand waits for an absent player"),
            min_value=10,
            max_value=600,
            initial=NEXT_HAND_SECONDS,
        )

    def groups(self) -> list[dict]:
        """The option fields in their groups, for the template; a group with an error opens."""
        out = []
        for key, (title, names) in GROUPS.items():
            bound = [self[n] for n in names]
            opened = key == "scoring" or any(b.errors for b in bound)
            out.append({"key": key, "title": title, "fields": bound, "open": opened})
        return out

    def values_json(self) -> dict:
        """Each offered rule set's option values, for the page's script to fill them in."""
        return {name: option_values(name) for name in NAMES}

    def clean(self) -> dict:
        super().clean()
        data = self.cleaned_data
        if self.errors:
            return data
        options = {o.name: data[o.name] for o in fields(Rules) if o.name not in FIXED}
        name = data["preset"]
        try:
            rules = rules_from_spec(VARIANTS.get(name, name)).with_options(**options)
        except RulesError as error:
            # The engine's combination checks: too many tiles, or none left to draw.
            field = "boneyard" if "boneyard" in str(error) else "tiles_per_hand"
            self.add_error(field, REFUSALS[field])
            return data
        data["spec"] = rules_to_spec(rules)
        return data
