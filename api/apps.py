from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ApiConfig(AppConfig):
    """API keys, webhooks and embeddable widgets for club websites."""

    name = "api"
    label = "league_api"
    verbose_name = _("API and webhooks")

    def ready(self) -> None:
        from importlib import import_module

        from core.triggers import keep_on_sqlite

        from . import receivers  # noqa: F401

        touch = import_module("api.migrations.0003_updated")
        keep_on_sqlite(self.label, "0003_updated", touch.SQLITE)
