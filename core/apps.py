"""The project's own start-up: the embedded mode's folders are made here, once Django starts
(a server, a worker, a management command), never when the settings are imported."""

from django.apps import AppConfig
from django.conf import settings


class CapicuaConfig(AppConfig):
    name = "core"
    label = "capicua"
    verbose_name = "Capicúa"

    def ready(self) -> None:
        for folder in settings.CAPICUA_DIRS:
            folder.mkdir(parents=True, exist_ok=True)
