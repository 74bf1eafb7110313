from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DemoConfig(AppConfig):
    """The demo club and its events (`manage.py seed_demo`, loaded by `make run`)."""

    name = "demo"
    verbose_name = _("Demo data")
