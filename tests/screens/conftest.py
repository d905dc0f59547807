"""Fixtures for the live-screen tests: a small running tournament with seated tables."""

import pytest
from django.contrib.auth import get_user_model


def make_tournament(
    *,
    level_minutes=20,
    players=6,
    seats_per_table=8,
    game="courchevel_hilo",
    betting="pot_limit",
    name="Live test",
    start=True,
    master_seed=False,
):
    from tables.services import draw_seats
    from tournaments import services
    from tournaments.models import BlindStructure, Level, Player

    structure = BlindStructure.objects.create(name=f"{name} levels", betting=betting)
    rows = [
        dict(small_blind=10, big_blind=20),
        dict(small_blind=15, big_blind=30, ante=5, ante_kind="per_player"),
        dict(is_break=True, color_up=[5]),
        dict(small_blind=25, big_blind=50, ante=50, ante_kind="big_blind"),
        dict(small_blind=50, big_blind=100, ante=100, ante_kind="big_blind"),
    ]
    for order, row in enumerate(rows):
        Level.objects.create(structure=structure, order=order, duration_minutes=level_minutes, **row)
    fields = dict(
        name=name,
        game=game,
        betting=betting,
        starting_stack=3000,
        buy_in=100,
        seats_per_table=seats_per_table,
    )
    if master_seed:
        fields["seeding"] = "master"
    tournament = services.create_tournament(structure=structure, **fields)
    services.open_registration(tournament)
    for i in range(players):
        services.register(tournament, Player.objects.create(name=f"Player {i + 1}"))
    if players:
        draw_seats(tournament)
    if start and players >= 2:
        services.start_tournament(tournament)
    tournament.refresh_from_db()
    return tournament


@pytest.fixture
def tournament(db):
    return make_tournament()


@pytest.fixture
def staff(db):
    return get_user_model().objects.create_user("director", password="pw-director-1", is_staff=True)


@pytest.fixture
def plain_user(db):
    return get_user_model().objects.create_user("someone", password="pw-someone-1")


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


# --- the browser tests' server --------------------------------------------------------------------
# It takes a while to migrate a fresh database and warm up, so it is started as soon as pytest knows
# that browser tests will run, and the other tests run meanwhile.


class BrowserServer:
    def __init__(self):
        import os
        import socket
        import subprocess
        import sys
        import tempfile
        from pathlib import Path

        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
        self.dir = tempfile.TemporaryDirectory(prefix="live-browser-")
        db = Path(self.dir.name) / "db.sqlite3"
        self.log_path = Path(self.dir.name) / "server.log"
        self.log = open(self.log_path, "w")  # noqa: SIM115 - the server writes to it until it stops
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
        root = Path(__file__).resolve().parents[2]
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.screens.browser_server", str(db), str(self.port)],
            cwd=root,
            stdout=subprocess.PIPE,
            stderr=self.log,
            env=env,
            text=True,
        )
        self.data = None

    def ready(self, timeout: float = 180):
        import json
        import select
        import socket
        import time

        if self.data is None:
            ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
            line = self.proc.stdout.readline() if ready else ""
            if not line:
                raise RuntimeError(
                    f"the browser tests' server did not start: {self.log_path.read_text()[-3000:]}"
                )
            self.data = json.loads(line)
            deadline = time.monotonic() + 60
            while True:
                try:
                    socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                    break
                except OSError:
                    if time.monotonic() > deadline or self.proc.poll() is not None:
                        raise RuntimeError("the browser tests' server is not listening") from None
                    time.sleep(0.2)
        return f"http://127.0.0.1:{self.port}", self.data

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except Exception:
            self.proc.kill()
        self.log.close()
        self.dir.cleanup()


_SERVER_KEY = "live_browser_server"


def browser_server(config) -> BrowserServer:
    server = getattr(config, _SERVER_KEY, None)
    if server is None:
        server = BrowserServer()
        setattr(config, _SERVER_KEY, server)
    return server


@pytest.hookimpl(trylast=True)  # after -m / -k have deselected what will not run
def pytest_collection_modifyitems(session, config, items):
    import os

    if hasattr(config, "workerinput") or not os.path.exists("/usr/bin/chromium"):
        return  # under xdist each worker starts the server only if it runs a browser test
    if any(item.get_closest_marker("browser") and "tests/screens/" in item.nodeid for item in items):
        browser_server(config)


def pytest_unconfigure(config):
    server = getattr(config, _SERVER_KEY, None)
    if server is not None:
        server.stop()
