from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Play")

    def ready(self) -> None:
        # Their receivers: the turn timers arm countdowns, a finished fixture's result goes in.
        from games.services import fixtures, timers  # noqa: F401
