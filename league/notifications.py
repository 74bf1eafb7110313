"""Site notifications: stored first, then pushed to the user's open pages."""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from django.utils import translation

from .models import Notification


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def push_to_user(user_id: int, message: dict) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(user_group(user_id), message)


def absolute(url: str) -> str:
    """A site path as a full link, for emails."""
    return url if "://" in url else f"{settings.SITE_URL}{url}"


def language_of(user) -> str:
    """The language a user reads messages in: their profile's, else the site's default."""
    player = getattr(user, "player", None) if user is not None else None
    return (player.language if player is not None else "") or settings.LANGUAGE_CODE


def in_language_of(user, message, params: dict | None = None) -> str:
    """Render a (lazy) translatable message, with its parameters, in the user's language.

    Parameters are formatted inside the same language, so that a match's name or a date
    also reads in the recipient's language, not in the language of whoever acted.
    """
    with translation.override(language_of(user)):
        params = {key: str(value) for key, value in (params or {}).items()}
        return str(message) % params if params else str(message)


def notify(user, message, url: str = "", **params) -> Notification:
    """Notify a user; `message` is a lazy translatable string, `params` fill it in."""
    text = in_language_of(user, message, params)
    notification = Notification.objects.create(user=user, message=text[:300], url=url)
    payload = {
        "type": "notification.created",
        "id": notification.pk,
        "message": notification.message,
        "url": notification.url,
    }
    transaction.on_commit(lambda: push_to_user(user.pk, payload))
    return notification


def close_user_sockets(user_id: int) -> None:
    """Every socket of the user closes itself: used when the user logs out."""
    push_to_user(user_id, {"type": "session.ended"})
