from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeagueApiConfig(AppConfig):
    """API keys, webhooks and embeddable widgets for club websites."""

    name = "league.api"
    label = "league_api"
    verbose_name = _("API and webhooks")

    def ready(self) -> None:
        from django.db.models.signals import post_save

        from league.models import Event
        from league.signals import standings_changed

        from . import views, webhooks

        webhooks.connect()
        standings_changed.connect(views.forget_standings, dispatch_uid="api.standings")
        post_save.connect(views.forget_event_standings, sender=Event, dispatch_uid="api.event")
