"""``manage.py serve``: the whole service on one machine.

Migrates, optionally loads the demo, starts the in-process ticker (the tasks Celery beat runs in
production, ``CELERY_BEAT_SCHEDULE``, each at its period) and serves HTTP and WebSockets with
daphne, static files included (Django's static files handler, which serves them with DEBUG off too).
DEBUG stays off unless DJANGO_DEBUG=1 asks for it.
"""

import logging
import threading
import time

from daphne.endpoints import build_endpoint_description_strings
from daphne.server import Server
from django.conf import settings
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import close_old_connections

from config.celery import app as celery_app
from screens.demo import demo_links, load_demo

logger = logging.getLogger(__name__)


def beat_tasks() -> list[tuple[str, object, float]]:
    """(name, task, period in seconds) for every entry of the beat schedule."""
    celery_app.loader.import_default_modules()
    return [
        (name, celery_app.tasks[entry["task"]], float(entry["schedule"]))
        for name, entry in settings.CELERY_BEAT_SCHEDULE.items()
    ]


def run_ticker(stop: threading.Event, interval: float = 1.0) -> None:
    """Beat's job on one machine: each task at its period. Every task is idempotent, so a late or
    repeated tick changes nothing twice."""
    tasks = beat_tasks()
    due = dict.fromkeys((name for name, _task, _period in tasks), 0.0)
    while not stop.wait(interval):
        now = time.monotonic()
        for name, task, period in tasks:
            if now < due[name]:
                continue
            due[name] = now + period - interval / 2
            try:
                task()
            except Exception:  # a bad tick must not stop the clock for good: log it and tick again
                logger.exception("%s failed", name)
            finally:
                close_old_connections()


def application():
    # Imported when serving: config.asgi sets up Django's ASGI handler at import.
    from config.asgi import application as app

    return ASGIStaticFilesHandler(app)


class Command(BaseCommand):
    help = "Run the service (daphne, clock ticker) on one machine; --demo loads a tournament in progress."

    def add_arguments(self, parser):
        parser.add_argument("--demo", action="store_true", help="load the demo tournament")
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--no-ticker", action="store_true", help="do not tick clocks (Celery beat does)")

    def handle(self, *args, demo=False, host="127.0.0.1", port=8000, no_ticker=False, **options):
        call_command("migrate", interactive=False, verbosity=0)
        shown_host = f"[{host}]" if ":" in host else host
        base = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else shown_host}:{port}"
        lines = []
        if demo:
            lines += self._demo(base)
        stop = threading.Event()
        if not no_ticker:
            threading.Thread(target=run_ticker, args=(stop,), name="clock-ticker", daemon=True).start()
        lines = [
            "",
            f"Courchevel tournament director on {base}/",
            f"  console          {base}/",
            f"  admin            {base}/admin/",
            f"  API docs         {base}/api/docs/",
            *lines,
            "",
        ]
        self.stdout.write("\n".join(lines))
        try:
            Server(
                application=application(),
                endpoints=build_endpoint_description_strings(host=host, port=port),
                signal_handlers=True,
                # Both ways (autobahn checks what it sends too): above the biggest snapshot. A
                # screen's own messages are refused far below this by the consumers (close 1009).
                websocket_max_message_size=settings.WEBSOCKET_SERVER_MAX_BYTES,
                websocket_max_frame_size=settings.WEBSOCKET_SERVER_MAX_BYTES,
            ).run()
        finally:
            stop.set()

    def _demo(self, base):
        demo = load_demo()
        t = demo.tournament
        lines = [
            "",
            f"Demo tournament: {t.name} (id {t.pk}), {t.entries.count()} entries, status {t.status}",
            *(
                f"  sign in as       {username} / {password}  ({role})"
                for role, username, password in demo.users
            ),
            f"  clock            {base}/clock/{t.pk}/",
            f"  API              {base}/api/tournaments/{t.pk}/",
        ]
        for label, url in demo_links(t, base):
            lines.append(f"  {label:<16} {url}")
        return lines
