from django.apps import AppConfig
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = _("Competition")

    def ready(self) -> None:
        from importlib import import_module

        from core.limits import Rate
        from core.triggers import keep_on_sqlite

        from . import receivers  # noqa: F401

        touch = import_module("league.migrations.0007_updated")
        keep_on_sqlite(self.label, "0007_updated", touch.SQLITE)

        for name, rate in settings.ACCOUNT_RATES.items():
            try:
                Rate.parse(rate)
            except ValueError as error:
                raise ImproperlyConfigured(f"ACCOUNT_RATE_{name.upper()}: {error}.") from None
