"""The admin app with the project's guarded site (``config.admin_guard``): listed in INSTALLED_APPS
in place of ``django.contrib.admin``."""

from django.contrib.admin.apps import AdminConfig as DjangoAdminConfig


class AdminConfig(DjangoAdminConfig):
    default_site = "config.admin_guard.GuardedAdminSite"
