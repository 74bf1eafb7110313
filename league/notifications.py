"""Site notifications: stored first, then pushed to the user's open pages."""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from .models import Notification


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def push_to_user(user_id: int, message: dict) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(user_group(user_id), message)


def notify(user, message: str, url: str = "") -> Notification:
    notification = Notification.objects.create(user=user, message=message, url=url)
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
