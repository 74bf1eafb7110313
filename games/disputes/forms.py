from django import forms
from django.utils.translation import gettext_lazy as _

from league.models import Event, Round

from .models import RefereeSettings
from .services import referees


class OpenDisputeForm(forms.Form):
    game = forms.IntegerField(label=_("Game"), min_value=1, max_value=999, initial=1)
    hand = forms.IntegerField(label=_("Hand"), min_value=1, max_value=999, initial=1)
    reason = forms.CharField(
        label=_("What went wrong"), max_length=2000, widget=forms.Textarea(attrs={"rows": 3})
    )


class LiveDisputeForm(forms.Form):
    reason = OpenDisputeForm.base_fields["reason"]


class RefereeSettingsForm(forms.ModelForm):
    class Meta:
        model = RefereeSettings
        fields = ["window_hours", "chief_referee", "penalty_points"]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        ids = [user.pk for user in referees(self.instance.event)]
        field = self.fields["chief_referee"]
        field.queryset = field.queryset.filter(pk__in=ids)
        field.help_text = _("One of the event's referees; decides appeals.")


class BatchForm(forms.Form):
    round = forms.ModelChoiceField(label=_("Round"), queryset=Round.objects.none(), required=False)
    file = forms.FileField(
        label=_("Hand records (JSON lines)"),
        help_text=_(
            "One domino-hand/1 record per line; add “table” (and “game”) so that a "
            "faulty hand can be disputed."
        ),
    )

    def __init__(self, event: Event, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["round"].queryset = event.rounds.all()
