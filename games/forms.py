"""The private-table form: a preset and any overridden options."""

import json

from django import forms
from django.utils.translation import gettext_lazy as _

from games.engine import PRESETS, RulesError, rules_from_spec
from games.engine.tiles import PARSE

BONUSES = [
    ("pass_points", _("Pass bonus")),
    ("galo_points", _("Galo bonus")),
    ("paso_corrido_bonus", _("Paso corrido bonus")),
    ("capicua_bonus", _("Capicúa bonus")),
    ("opening_bonus_double", _("Opening bonus (double)")),
    ("opening_bonus_other", _("Opening bonus (other tile)")),
    ("double_domino_bonus", _("Double domino bonus")),
    ("five_doubles_points", _("Points per double (five doubles)")),
    ("no_double_penalty", _("No-double penalty")),
]
TILES = sorted({name for name in PARSE if int(name[0]) >= int(name[2])}, reverse=True)


class PrivateTableForm(forms.Form):
    preset = forms.ChoiceField(label=_("Rules"), choices=[(p, p.capitalize()) for p in PRESETS])
    target = forms.IntegerField(label=_("Points to win"), required=False, min_value=1)
    turn_seconds = forms.IntegerField(
        label=_("Seconds per turn"), required=False, min_value=5, max_value=600
    )
    opening_tile = forms.ChoiceField(
        label=_("Opening tile"),
        required=False,
        choices=[("", _("As the rules say"))] + [(t, t) for t in TILES],
    )
    table_points = forms.TypedChoiceField(
        label=_("Table points (multiples of five)"),
        required=False,
        coerce=int,
        empty_value=None,
        choices=[("", _("As the rules say")), (0, _("Off")), (5, _("On"))],
    )
    bonus_cap = forms.TypedChoiceField(
        label=_("Bonuses cannot win the match"),
        required=False,
        empty_value=None,
        coerce=lambda v: v == "1",
        choices=[("", _("As the rules say")), ("1", _("Yes")), ("0", _("No"))],
    )
    other = forms.CharField(
        label=_("Other options (JSON)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_('For example {"spinner": true}'),
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for name, label in BONUSES:
            self.fields[name] = forms.IntegerField(label=label, required=False, min_value=0)

    def clean(self) -> dict:
        data = super().clean()
        spec: dict = {"preset": data.get("preset")}
        for name, value in data.items():
            if name not in ("preset", "other") and value not in (None, ""):
                spec[name] = value
        if spec.get("opening_tile"):
            spec["first_opener"] = "tile"
        if data.get("other"):
            try:
                other = json.loads(data["other"])
            except ValueError:
                other = None
            if not isinstance(other, dict):
                raise forms.ValidationError(_("The other options must be a JSON object."))
            spec.update({k: v for k, v in other.items() if k != "preset"})
        try:
            rules = rules_from_spec(spec)
        except (RulesError, TypeError) as error:
            raise forms.ValidationError(
                _("Those rules are not valid: %(error)s"), params={"error": error}
            ) from error
        if rules.players != 4 or not rules.pairs:
            raise forms.ValidationError(_("Live tables seat four players in two pairs."))
        data["spec"] = spec
        return data
