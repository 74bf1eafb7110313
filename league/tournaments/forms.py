"""Forms of the tournament pages: they shape the input; the services decide."""

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from ..event_forms import RosterForm, RosterPickField
from ..models import Entry, Event
from .models import Tournament
from .services.common import OPTION_FIELDS


class OptionsForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = sorted({name for names in OPTION_FIELDS.values() for name in names})

    def __init__(self, *args: Any, event: Event, **kwargs: Any):
        super().__init__(*args, **kwargs)
        for name in list(self.fields):
            if name not in OPTION_FIELDS[event.format]:
                del self.fields[name]


class _EntriesForm(forms.Form):
    def __init__(self, *args: Any, event: Event, **kwargs: Any):
        super().__init__(*args, **kwargs)
        queryset = event.entries.filter(team__isnull=True).exclude(status=Entry.Status.WITHDRAWN)
        for field in self.fields.values():
            if isinstance(field, forms.ModelChoiceField):
                field.queryset = queryset


class PairingForm(_EntriesForm):
    """Two entries: to swap in the draft, or never to pair."""

    first = forms.ModelChoiceField(Entry.objects.none(), label=_("Entry"))
    second = forms.ModelChoiceField(Entry.objects.none(), label=_("Other entry"))
    reason = forms.CharField(label=_("Reason"), max_length=120, required=False)


class PlayerForm(RosterForm):
    player = RosterPickField(label=_("Player"))


class PairEntryForm(RosterForm):
    player_1 = RosterPickField(label=_("Player"))
    player_2 = RosterPickField(label=_("Partner"))
    name = forms.CharField(label=_("Name of the pair (optional)"), max_length=120, required=False)


class SeedsForm(forms.Form):
    """Seeding by hand: a seed number for every entry that plays."""

    def __init__(self, *args: Any, entries: list[Entry], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.entries = entries
        for number, entry in enumerate(entries, 1):
            self.fields[f"seed_{entry.pk}"] = forms.IntegerField(
                label=str(entry), min_value=1, max_value=len(entries), initial=number
            )

    def clean(self) -> dict:
        data = super().clean()
        numbers = [data.get(f"seed_{e.pk}") for e in self.entries]
        if None not in numbers and len(set(numbers)) != len(numbers):
            raise forms.ValidationError(_("Give every entry a different seed."))
        return data

    def seeds(self) -> list[Entry]:
        return sorted(self.entries, key=lambda e: self.cleaned_data[f"seed_{e.pk}"])


class TableResultForm(forms.Form):
    points_a = forms.IntegerField(label=_("Points of seats 1 and 3"), min_value=0)
    points_b = forms.IntegerField(label=_("Points of seats 2 and 4"), min_value=0)
