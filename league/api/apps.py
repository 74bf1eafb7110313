from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeagueApiConfig(AppConfig):
    """API keys, webhooks and embeddable widgets for club websites."""

    name = "league.api"
    label = "league_api"
    verbose_name = _("API and webhooks")

    def ready(self) -> None:
        from . import receivers  # noqa: F401
