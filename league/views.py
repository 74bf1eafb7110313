from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods
from django.views.i18n import set_language as django_set_language

from . import accounts
from .forms import ProfileForm, QueuedPasswordResetForm, SignInForm, SignUpForm
from .models import Event, Invitation, Organisation, Player
from .services import players


def home(request: HttpRequest) -> HttpResponse:
    listed = Event.objects.exclude(status=Event.Status.DRAFT).select_related("organisation")
    return render(
        request,
        "home.html",
        {"events": listed[:6], "clubs": Organisation.objects.filter(kind=Organisation.Kind.CLUB)},
    )


def _after_signup(request: HttpRequest) -> str:
    """Where a new account goes: the page it was asked from, else an invitation opened
    before signing up (so that the invitation is not lost), else the profile."""
    wanted = request.POST.get("next") or request.GET.get("next", "")
    if wanted and url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return wanted
    token = request.session.get("invitation")
    if token and Invitation.objects.filter(token=token, accepted=None, revoked=False).exists():
        return reverse("invitation", args=[token])
    return reverse("profile")


def too_many(response: HttpResponse, refusal: accounts.TooManyAttempts) -> HttpResponse:
    """The form again, with the limit's message, as a 429 saying when to try again."""
    response.status_code = 429
    response["Retry-After"] = refusal.retry_after
    return response


class SignInView(auth_views.LoginView):
    """Signing in, within the limits of league.accounts.sign_in_attempt; a browser that
    signs in is remembered for the account (its own limit, never the strangers')."""

    form_class = SignInForm

    def form_valid(self, form: SignInForm) -> HttpResponse:
        response = super().form_valid(form)
        accounts.remember_device(self.request, response, form.get_user().get_username())
        return response

    def form_invalid(self, form: SignInForm) -> HttpResponse:
        response = super().form_invalid(form)
        return response if form.refusal is None else too_many(response, form.refusal)


class PasswordResetView(auth_views.PasswordResetView):
    """A reset link by e-mail (from the worker), within league.accounts.reset_attempt."""

    form_class = QueuedPasswordResetForm

    def form_valid(self, form: QueuedPasswordResetForm) -> HttpResponse:
        try:
            accounts.reset_attempt(self.request, form.cleaned_data["email"])
        except accounts.TooManyAttempts as refusal:
            form.add_error(None, refusal.message)
            return too_many(self.form_invalid(form), refusal)
        return super().form_valid(form)


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    pending = Invitation.objects.filter(
        token=request.session.get("invitation", ""), accepted=None, revoked=False
    ).first()
    initial = {}
    if pending is not None:
        name = pending.player.display_name if pending.player else ""
        initial = {"email": pending.email, "display_name": name}
    form = SignUpForm(request.POST or None, initial=initial)
    refusal = None
    if request.method == "POST":
        try:
            accounts.sign_up_attempt(request, request.POST.get("email", ""))
        except accounts.TooManyAttempts as error:
            refusal = error
            form.add_error(None, refusal.message)
    if refusal is None and request.method == "POST" and form.is_valid():
        player = accounts.register_player(
            username=form.cleaned_data["username"],
            email=form.cleaned_data["email"],
            password=form.cleaned_data["password1"],
            display_name=form.cleaned_data["display_name"],
            language=get_language() or "",
        )
        login(request, player.user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome to Capicúa, %(name)s!") % {"name": player})
        return redirect(_after_signup(request))
    response = render(
        request,
        "registration/signup.html",
        {"form": form, "next": request.GET.get("next", ""), "invitation": pending},
    )
    return response if refusal is None else too_many(response, refusal)


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    player = accounts.player_for(request.user)
    form = ProfileForm(request.POST or None, request.FILES or None, instance=player)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your profile was saved."))
        return redirect("profile")
    return render(request, "league/profile.html", {"form": form, "player": player})


def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    return render(
        request,
        "league/player.html",
        {"player": player, "upcoming": players.upcoming(player), "played": players.played(player)},
    )


@require_http_methods(["POST"])
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's language switch, remembered on the profile of a signed-in user."""
    response = django_set_language(request)
    accounts.remember_language(request.user, request.POST.get("language", ""))
    return response
