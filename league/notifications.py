"""Site notifications: stored first, then pushed to the user's open pages."""

import asyncio

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from django.utils import translation

from .models import Notification, Player


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def push_to_user(user_id: int, message: dict) -> None:
    push_to_users([(user_id, message)])


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
    return in_language(language_of(user), message, params)


def in_language(language: str, message, params: dict | None = None) -> str:
    """Render a (lazy) translatable message, with its parameters, in `language`."""
    with translation.override(language):
        params = {key: str(value) for key, value in (params or {}).items()}
        return str(message) % params if params else str(message)


def _payload(notification: Notification) -> dict:
    return {
        "type": "notification.created",
        "id": notification.pk,
        "message": notification.message,
        "url": notification.url,
    }


def notify(user, message, url: str = "", **params) -> Notification:
    """Notify a user; `message` is a lazy translatable string, `params` fill it in."""
    text = in_language_of(user, message, params)
    notification = Notification.objects.create(user=user, message=text[:300], url=url)
    payload = _payload(notification)
    transaction.on_commit(lambda: push_to_user(user.pk, payload))
    return notification


def notify_each(links: list[tuple[int, str]], message, **params) -> list[Notification]:
    """The same message to many users at once, each with its link (`links`: user ids and
    urls): stored in one insert, each in its reader's language (read in one query, the
    message rendered once per language), and pushed to their pages together on commit."""
    languages = dict(
        Player.objects.filter(user_id__in={user_id for user_id, _url in links}).values_list(
            "user_id", "language"
        )
    )
    texts: dict[str, str] = {}
    notifications = []
    for user_id, url in links:
        language = languages.get(user_id) or settings.LANGUAGE_CODE
        if language not in texts:
            texts[language] = in_language(language, message, params)
        notifications.append(Notification(user_id=user_id, message=texts[language][:300], url=url))
    Notification.objects.bulk_create(notifications)
    pushed = [(n.user_id, _payload(n)) for n in notifications]
    transaction.on_commit(lambda: push_to_users(pushed))
    return notifications


def push_to_users(messages: list[tuple[int, dict]]) -> None:
    """Send each (user id, message) to that user's pages, all at once on one event loop."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return

    async def send_all() -> None:
        await asyncio.gather(
            *(layer.group_send(user_group(user_id), message) for user_id, message in messages)
        )

    async_to_sync(send_all)()


def close_user_sockets(user_id: int) -> None:
    """Every socket of the user closes itself: used when the user logs out."""
    push_to_user(user_id, {"type": "session.ended"})
