from django import forms
from django.utils.translation import gettext_lazy as _

from .models import ApiKey, Webhook


class ApiKeyForm(forms.Form):
    name = forms.CharField(
        label=_("Name"),
        max_length=80,
        help_text=_("Where the key is used, e.g. the club's website."),
    )
    access = forms.ChoiceField(label=_("Access"), choices=ApiKey.Access.choices)


class WebhookForm(forms.Form):
    url = forms.URLField(label=_("Address"), max_length=300, assume_scheme="https")
    topics = forms.MultipleChoiceField(
        label=_("Topics"), choices=Webhook.Topic.choices, widget=forms.CheckboxSelectMultiple
    )
