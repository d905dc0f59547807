"""``manage.py serve``: migrates, loads the demo, ticks the clocks and hands daphne the ASGI app."""

import io
import threading

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db(transaction=True)


def test_serve_prints_the_urls_and_runs_daphne_with_the_ticker(monkeypatch):
    import daphne.server

    ran = {}

    class FakeServer:
        def __init__(self, application, endpoints, signal_handlers):
            ran["endpoints"] = endpoints
            ran["application"] = application

        def run(self):
            ran["ticker"] = any(t.name == "clock-ticker" and t.is_alive() for t in threading.enumerate())

    monkeypatch.setattr(daphne.server, "Server", FakeServer)
    out = io.StringIO()
    call_command("serve", "--demo", "--port", "8123", stdout=out)
    text = out.getvalue()
    for url in ("http://127.0.0.1:8123/", "/admin/", "/api/docs/", "sign in as"):
        assert url in text
    assert ran["endpoints"] == ["tcp:port=8123:interface=127.0.0.1"]
    assert ran["ticker"]


def test_the_ticker_calls_advance_clocks_until_stopped(monkeypatch):
    from tournaments import tasks
    from tournaments.management.commands import serve

    stop = threading.Event()
    calls = []

    def tick():
        calls.append(1)
        if len(calls) == 3:
            stop.set()

    monkeypatch.setattr(tasks, "advance_clocks", tick)
    serve.run_ticker(stop, interval=0.01)
    assert len(calls) == 3
