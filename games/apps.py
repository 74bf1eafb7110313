from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Play")

    def ready(self) -> None:
        from importlib import import_module

        from core.triggers import keep_on_sqlite
        from league.ratings.sources import register_ranked_tables

        from . import receivers  # noqa: F401
        from .services.ratings import RANKED_TABLES

        register_ranked_tables(RANKED_TABLES)
        seat = import_module("games.migrations.0003_seat_changes_through_empty")
        keep_on_sqlite(self.label, "0003_seat_changes_through_empty", seat.SQLITE)
