from django import forms
from django.utils.translation import gettext_lazy as _

from league.models import Organisation

from . import services
from .models import RatingPool


class LeaderboardFilter(forms.Form):
    """Filters of a pool's leaderboard: the clubs and countries of its rated players."""

    club = forms.ModelChoiceField(
        label=_("Club"),
        queryset=Organisation.objects.none(),
        required=False,
        empty_label=_("All clubs"),
    )
    country = forms.ChoiceField(label=_("Country"), required=False)

    def __init__(self, data, pool: RatingPool) -> None:
        super().__init__(data)
        clubs, countries = services.active_filters(pool)
        self.fields["club"].queryset = clubs
        self.fields["country"].choices = [("", _("All countries"))] + [(c, c) for c in countries]


class EventPoolForm(forms.Form):
    pool = forms.ChoiceField(label=_("Ranking this event feeds"), required=False)

    def __init__(self, data, choices: dict[str, Organisation | None], current: str) -> None:
        super().__init__(data, initial={"pool": current})
        self.fields["pool"].choices = [("", _("None"))] + [
            (key, organisation.name if organisation else _("Global ranking of online play"))
            for key, organisation in choices.items()
        ]
