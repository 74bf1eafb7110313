from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = _("Competition")

    def ready(self) -> None:
        from . import receivers  # noqa: F401
