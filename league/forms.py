from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from .models import Player


class SignUpForm(UserCreationForm):
    display_name = forms.CharField(label=_("Name shown to other players"), max_length=80)
    email = forms.EmailField(label=_("Email"))

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].lower()
        if get_user_model().objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(
                _("An account with this email already exists."), code="email_taken"
            )
        return email


class ProfileForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ("display_name", "country", "photo")
