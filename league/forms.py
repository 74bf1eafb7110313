from urllib.parse import urlsplit

from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm, UserCreationForm
from django.db import transaction
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _

from . import accounts
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


class LimitedSignIn:
    """Sign-in limits (league.accounts.sign_in_attempt) around the password check; a
    refusal is the form's error, with when to try again (`refusal`)."""

    refusal: accounts.TooManyAttempts | None = None

    def clean(self) -> dict:
        username = self.cleaned_data.get("username")
        if username is None or not self.cleaned_data.get("password"):
            return super().clean()
        try:
            attempt = accounts.sign_in_attempt(self.request, username)
        except accounts.TooManyAttempts as refusal:
            self.refusal = refusal
            raise forms.ValidationError(refusal.message, code="rate_limited") from None
        cleaned = super().clean()  # a wrong password raises: the attempt stays counted
        for verdict in attempt:
            verdict.take_back()
        return cleaned


class SignInForm(LimitedSignIn, AuthenticationForm):
    pass


class AdminSignInForm(LimitedSignIn, AdminAuthenticationForm):
    pass


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
