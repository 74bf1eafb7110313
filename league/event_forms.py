"""Forms of the competition pages. They only shape input; the services decide."""

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import (
    RULE_PRESET_CHOICES,
    Division,
    Entry,
    Event,
    Membership,
    Organisation,
    Player,
    Season,
)
from .services.events import DEFAULT_TIEBREAKS, EDITABLE

TIEBREAK_SLOTS = len(Event.Tiebreak.choices)
LOCAL_DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


class EventForm(forms.ModelForm):
    rule_preset = forms.ChoiceField(label=_("Rule set"), choices=RULE_PRESET_CHOICES)
    rule_overrides = forms.JSONField(
        label=_("Rule overrides"),
        required=False,
        initial=dict,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_('Options that differ from the preset, e.g. {"target": 150}.'),
    )

    class Meta:
        model = Event
        fields = [f for f in EDITABLE if f != "tiebreaks"]
        widgets = {
            "description": forms.Textarea(attrs={"rows": 3}),
            "registration_opens": LOCAL_DATETIME,
            "registration_closes": LOCAL_DATETIME,
        }

    def __init__(self, *args: Any, organisation: Organisation, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["season"].queryset = Season.objects.filter(organisation=organisation)
        current = self.instance.tiebreaks if self.instance.pk else DEFAULT_TIEBREAKS
        for i in range(TIEBREAK_SLOTS):
            self.fields[f"tiebreak_{i + 1}"] = forms.ChoiceField(
                label=_("Tiebreak %(n)s") % {"n": i + 1},
                choices=[("", "—"), *Event.Tiebreak.choices],
                required=False,
                initial=current[i] if i < len(current) else "",
            )

    def clean_rule_overrides(self) -> Any:
        return self.cleaned_data["rule_overrides"] or {}

    def settings(self) -> dict[str, Any]:
        """The cleaned values as keyword arguments of the event services."""
        values = {name: self.cleaned_data[name] for name in self.Meta.fields}
        values["tiebreaks"] = [
            self.cleaned_data[f"tiebreak_{i + 1}"]
            for i in range(TIEBREAK_SLOTS)
            if self.cleaned_data.get(f"tiebreak_{i + 1}")
        ]
        return values


class SeasonForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = ["name", "starts", "ends"]
        widgets = {
            "starts": forms.DateInput(attrs={"type": "date"}),
            "ends": forms.DateInput(attrs={"type": "date"}),
        }


class DivisionForm(forms.Form):
    name = forms.CharField(label=_("Division"), max_length=80)


class InviteForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=Membership.Role.choices)
    email = forms.EmailField(label=_("Email (optional)"), required=False)


class EntryForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120, required=False)
    player_1 = forms.ModelChoiceField(Player.objects.all(), label=_("Player"), required=False)
    player_2 = forms.ModelChoiceField(Player.objects.all(), label=_("Partner"), required=False)
    captain = forms.ModelChoiceField(Player.objects.all(), label=_("Captain"), required=False)
    club = forms.ModelChoiceField(Organisation.objects.all(), label=_("Club"), required=False)
    division = forms.ModelChoiceField(Division.objects.none(), label=_("Division"), required=False)
    team = forms.ModelChoiceField(Entry.objects.none(), label=_("Team"), required=False)

    def __init__(self, *args: Any, event: Event, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["division"].queryset = event.divisions.all()
        if not event.divisions.exists():
            del self.fields["division"]
        if event.entry_kind == Event.EntryKind.TEAM:
            self.fields["team"].queryset = event.entries.filter(team__isnull=True)
        else:
            del self.fields["team"]
            del self.fields["club"]


class ResultForm(forms.Form):
    """Points of each game; a game's hand records may be pasted as a JSON list."""

    def __init__(self, *args: Any, games: int, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.game_count = games
        for n in range(1, games + 1):
            required = n == 1
            self.fields[f"game_{n}_a"] = forms.IntegerField(
                label=_("Game %(n)s: points of A") % {"n": n}, min_value=0, required=required
            )
            self.fields[f"game_{n}_b"] = forms.IntegerField(
                label=_("Game %(n)s: points of B") % {"n": n}, min_value=0, required=required
            )
            self.fields[f"game_{n}_hands"] = forms.JSONField(
                label=_("Game %(n)s: hand records (optional)") % {"n": n},
                required=False,
                widget=forms.Textarea(attrs={"rows": 2}),
            )
        self.fields["note"] = forms.CharField(label=_("Note"), max_length=300, required=False)

    def games(self) -> list[dict[str, Any]]:
        played = []
        for n in range(1, self.game_count + 1):
            a, b = self.cleaned_data.get(f"game_{n}_a"), self.cleaned_data.get(f"game_{n}_b")
            if a is None and b is None:
                continue
            played.append(
                {"points_a": a, "points_b": b, "hands": self.cleaned_data.get(f"game_{n}_hands")}
            )
        return played


class ScheduleForm(forms.Form):
    scheduled = forms.DateTimeField(label=_("Date and time"), required=False, widget=LOCAL_DATETIME)
    venue = forms.CharField(label=_("Venue"), max_length=120, required=False)
    table = forms.IntegerField(label=_("Table"), min_value=1, max_value=999, required=False)


class NoteForm(forms.Form):
    note = forms.CharField(label=_("Note"), max_length=300, required=False)
