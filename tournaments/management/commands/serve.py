"""``manage.py serve``: the whole service on one machine.

Migrates, optionally loads the demo, starts the in-process clock ticker (the same
``advance_clocks`` function Celery beat runs in production, once a second) and serves HTTP and
WebSockets with daphne, static files included.
"""

import logging
import threading

from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import close_old_connections

logger = logging.getLogger(__name__)


def run_ticker(stop: threading.Event, interval: float = 1.0) -> None:
    from tournaments.tasks import advance_clocks

    while not stop.wait(interval):
        try:
            advance_clocks()
        except Exception:  # a bad tick must not stop the clock for good: log it and tick again
            logger.exception("clock tick failed")
        finally:
            close_old_connections()


def application():
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

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
        from daphne.endpoints import build_endpoint_description_strings
        from daphne.server import Server

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
            ).run()
        finally:
            stop.set()

    def _demo(self, base):
        from tournaments.demo import load_demo

        demo = load_demo()
        t = demo.tournament
        lines = [
            "",
            f"Demo tournament: {t.name} (id {t.pk}), {t.entries.count()} entries, status {t.status}",
            f"  sign in as       {demo.username} / {demo.password}",
            f"  clock            {base}/clock/{t.pk}/",
            f"  API              {base}/api/tournaments/{t.pk}/",
        ]
        if not demo.seated:
            lines.append("  (the tables app is not installed: players are not seated)")
        try:
            from tournaments.devices import demo_links
        except ImportError:
            return lines
        for label, url in demo_links(t, base):
            lines.append(f"  {label:<16} {url}")
        return lines
