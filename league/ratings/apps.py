from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "league.ratings"
    label = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        from importlib import import_module

        from core.triggers import keep_on_sqlite

        from . import receivers  # noqa: F401

        touch = import_module("league.ratings.migrations.0005_updated")
        keep_on_sqlite(self.label, "0005_updated", touch.SQLITE)
