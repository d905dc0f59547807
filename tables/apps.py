from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = _("Tables")

    def ready(self):
        # Registers the Celery tasks in every process, so ``tables.services`` can queue them by name
        # without importing the task module that imports it (no import cycle).
        from . import tasks  # noqa: F401
