from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FairPlayConfig(AppConfig):
    name = "games.fairplay"
    label = "fairplay"
    verbose_name = _("Fair play")
