"""The Celery app. With no REDIS_URL, tasks run in-process (eager) on the embedded defaults."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("courchevel")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
