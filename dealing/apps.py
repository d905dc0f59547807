from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DealingConfig(AppConfig):
    name = "dealing"
    verbose_name = _("Dealing")
