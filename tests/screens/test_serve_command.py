"""``manage.py serve``: migrates, loads the demo, ticks the clocks and hands daphne the ASGI app."""

import io
import threading

import pytest
from django.conf import settings
from django.core.management import call_command

pytestmark = pytest.mark.django_db(transaction=True)


def test_serve_prints_the_urls_and_runs_daphne_with_the_ticker(monkeypatch):
    from screens.management.commands import serve

    ran = {}

    class FakeServer:
        def __init__(self, application, endpoints, signal_handlers, **options):
            ran["endpoints"] = endpoints
            ran["application"] = application
            ran["options"] = options

        def run(self):
            ran["ticker"] = any(t.name == "clock-ticker" and t.is_alive() for t in threading.enumerate())

    monkeypatch.setattr(serve, "Server", FakeServer)
    out = io.StringIO()
    call_command("serve", "--demo", "--port", "8123", stdout=out)
    text = out.getvalue()
    for url in ("http://127.0.0.1:8123/", "/admin/", "/api/docs/", "sign in as"):
        assert url in text
    assert ran["endpoints"] == ["tcp:port=8123:interface=127.0.0.1"]
    assert ran["ticker"]
    # daphne's limit is above the biggest snapshot it sends: autobahn applies it both ways
    big = settings.WEBSOCKET_SERVER_MAX_BYTES
    assert big >= 4 * 1024 * 1024
    assert ran["options"] == {"websocket_max_message_size": big, "websocket_max_frame_size": big}


def test_the_ticker_runs_every_beat_task_until_stopped(monkeypatch):
    from django.conf import settings

    from screens.management.commands import serve

    # The one-machine ticker runs exactly what Celery beat runs in production.
    assert [name for name, _task, _period in serve.beat_tasks()] == list(settings.CELERY_BEAT_SCHEDULE)
    stop = threading.Event()
    calls = []

    def tick():
        calls.append(1)
        if len(calls) == 3:
            stop.set()

    monkeypatch.setattr(serve, "beat_tasks", lambda: [("advance-clocks", tick, 0.0)])
    serve.run_ticker(stop, interval=0.01)
    assert len(calls) == 3
