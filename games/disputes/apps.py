from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DisputesConfig(AppConfig):
    name = "games.disputes"
    label = "disputes"
    verbose_name = _("Referees and disputes")

    def ready(self) -> None:
        from league.services.holds import register_result_hold

        from .selectors import dispute_hold

        register_result_hold("dispute", dispute_hold)
