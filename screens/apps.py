from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScreensConfig(AppConfig):
    name = "screens"
    verbose_name = _("Screens and devices")
