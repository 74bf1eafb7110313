from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StatsConfig(AppConfig):
    name = "games.stats"
    label = "stats"
    verbose_name = _("Player statistics")

    def ready(self) -> None:
        from . import receivers  # noqa: F401
