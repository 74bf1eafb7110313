"""Account services: one place that creates a user together with their player profile, and
the limits on signing in, signing up and resetting a password."""

import hashlib
import math
import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.utils.translation import ngettext

from core import limits
from core.limits import client_ip

from .models import Player


@transaction.atomic
def register_player(
    *, username: str, email: str, password: str, display_name: str, language: str = ""
) -> Player:
    user = get_user_model().objects.create_user(username=username, email=email, password=password)
    return Player.objects.create(user=user, display_name=display_name, language=language)


def player_for(user) -> Player:
    """The user's player profile, created on first need (for staff made with createsuperuser)."""
    player, _ = Player.objects.get_or_create(
        user=user, defaults={"display_name": user.get_full_name() or user.get_username()}
    )
    return player


def remember_language(user, language: str) -> None:
    """Keep the language a signed-in user chose, for what reaches them later."""
    if user.is_authenticated and language in dict(settings.LANGUAGES):
        Player.objects.filter(pk=player_for(user).pk).update(language=language)


# Sign-in, sign-up and password reset limits (settings.ACCOUNT_RATES) ----------------------

DEVICE_COOKIE = "capicua_device"
DEVICE_SALT = "capicua.accounts.device"
DEVICE_DAYS = 365
DEVICES_KEPT = 5  # accounts a browser is known for


class TooManyAttempts(Exception):
    """A limit refused the attempt; `wait` seconds until the next would pass."""

    def __init__(self, wait: float) -> None:
        super().__init__(wait)
        self.wait = wait

    @property
    def minutes(self) -> int:
        return max(1, math.ceil(self.wait / 60))

    @property
    def message(self) -> str:
        return ngettext(
            "Too many attempts. Try again in %(minutes)s minute.",
            "Too many attempts. Try again in %(minutes)s minutes.",
            self.minutes,
        ) % {"minutes": self.minutes}

    @property
    def retry_after(self) -> str:
        return str(math.ceil(self.wait))


def _charge(counts: list[tuple[str, str]]) -> list[limits.Verdict]:
    """Count the attempt against each (limit, ident) in turn; the first refusal stops it,
    and what the attempt was counted for before it is taken back."""
    passed = []
    for name, ident in counts:
        rate = limits.Rate.parse(settings.ACCOUNT_RATES.get(name))
        if rate is None:
            continue
        verdict = limits.hit(name, ident, rate)
        if not verdict.allowed:
            for earlier in passed:
                earlier.take_back()
            raise TooManyAttempts(verdict.wait)
        passed.append(verdict)
    return passed


def _known(username: str) -> str:
    return hashlib.blake2b(username.casefold().encode(), digest_size=8).hexdigest()


def _devices(request: HttpRequest) -> dict[str, str]:
    """The accounts this browser signed in to (their hashed names) and its nonce for each."""
    try:
        pairs = signing.loads(
            request.COOKIES.get(DEVICE_COOKIE, ""),
            salt=DEVICE_SALT,
            max_age=DEVICE_DAYS * 86400,
        )
        return {str(name): str(nonce) for name, nonce in pairs}
    except (signing.BadSignature, TypeError, ValueError):
        return {}


def sign_in_attempt(request: HttpRequest, username: str) -> list[limits.Verdict]:
    """Count a sign-in before its password is checked (take it back when it was right):
    per client address, and per account, except from a browser that signed in to it
    before, which has its own count. Raises TooManyAttempts."""
    nonce = _devices(request).get(_known(username))
    account = (
        ("sign_in_device", f"{username.casefold()}:{nonce}")
        if nonce
        else ("sign_in_account", username.casefold())
    )
    return _charge([("sign_in_address", client_ip(request)), account])


def remember_device(request: HttpRequest, response: HttpResponse, username: str) -> None:
    """Mark this browser as one that signed in to `username` (the device cookie)."""
    devices = _devices(request)
    name = _known(username)
    nonce = devices.pop(name, None) or secrets.token_urlsafe(12)
    kept = [*list(devices.items())[-(DEVICES_KEPT - 1) :], (name, nonce)]
    response.set_cookie(
        DEVICE_COOKIE,
        signing.dumps(kept, salt=DEVICE_SALT, compress=True),
        max_age=DEVICE_DAYS * 86400,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def sign_up_attempt(request: HttpRequest, email: str) -> None:
    """Count a sign-up, per client address and per e-mail. Raises TooManyAttempts."""
    _charge([("sign_up_address", client_ip(request)), ("sign_up_email", email.strip().lower())])


def reset_attempt(request: HttpRequest, email: str) -> None:
    """Count a password reset, per client address and per e-mail (each sends a mail).
    Raises TooManyAttempts."""
    _charge([("reset_address", client_ip(request)), ("reset_email", email.strip().lower())])
