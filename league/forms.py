from urllib.parse import urlsplit

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm, UserCreationForm
from django.db import transaction
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _

from .models import Player
from .tasks import send_email


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
        fields = ("display_name", "country", "language", "photo")


class QueuedPasswordResetForm(PasswordResetForm):
    """Password reset whose email leaves through the background worker."""

    def send_mail(
        self,
        subject_template_name,
        email_template_name,
        context,
        from_email,
        to_email,
        html_email_template_name=None,
    ) -> None:
        site = urlsplit(settings.SITE_URL)  # links on the site's address, not the request's
        context = {**context, "protocol": site.scheme, "domain": site.netloc}
        subject = "".join(render_to_string(subject_template_name, context).splitlines())
        body = render_to_string(email_template_name, context)
        html = (
            render_to_string(html_email_template_name, context)
            if html_email_template_name
            else None
        )
        transaction.on_commit(lambda: send_email.delay(subject, body, [to_email], html))
