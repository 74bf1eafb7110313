"""What the competition app does when something outside it happens."""

from django.contrib.auth.signals import user_logged_out
from django.dispatch import receiver

from .notifications import close_user_sockets


@receiver(user_logged_out, dispatch_uid="league.close_sockets_on_logout")
def close_sockets_on_logout(sender, request, user, **kwargs) -> None:
    if user is not None:
        close_user_sockets(user.pk)
