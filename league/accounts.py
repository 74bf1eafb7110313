"""Account services: one place that creates a user together with their player profile."""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

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
