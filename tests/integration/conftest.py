"""The integration suite: real PostgreSQL, Redis, celery and daphne processes.

Every test here is marked ``integration`` and skipped unless DATABASE_URL (PostgreSQL) and
REDIS_URL are set; ``.ci/run`` starts throwaway servers and sets both. The Redis database named by
REDIS_URL is flushed before each test: point it at a server you can spare.

Processes run the product's own commands (``celery worker``, ``celery beat``, ``daphne``) on free
loopback ports, against the test database that pytest-django created, and are always stopped (the
whole process group, so no prefork child outlives its test).
"""

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent
CONFIGURED = os.environ.get("DATABASE_URL", "").startswith("postgres") and bool(os.environ.get("REDIS_URL"))


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    skip = pytest.mark.skip(reason="needs DATABASE_URL (PostgreSQL) and REDIS_URL")
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.integration)
            if not CONFIGURED:
                item.add_marker(skip)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(predicate, timeout: float, interval: float = 0.05, what: str = "condition"):
    """Poll until ``predicate()`` returns something truthy; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        time.sleep(interval)


class Processes:
    """Starts product processes in their own process groups and stops every one of them."""

    def __init__(self, env: dict, log_dir: Path):
        self.env = env
        self.log_dir = log_dir
        self.running: list[tuple[str, subprocess.Popen]] = []

    def start(self, name: str, *args: str, extra_env: dict | None = None) -> subprocess.Popen:
        log = open(self.log_dir / f"{name}.log", "ab")  # noqa: SIM115 - kept open for the process's lifetime
        process = subprocess.Popen(
            list(args),
            cwd=ROOT,
            env={**self.env, **(extra_env or {})},
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,  # its own process group: kill() reaches prefork children too
        )
        log.close()
        self.running.append((name, process))
        return process

    def celery(self, name: str, *args: str, extra_env: dict | None = None) -> subprocess.Popen:
        return self.start(
            name, str(VENV_BIN / "celery"), "--app", "config.celery", *args, extra_env=extra_env
        )

    def worker(self, name: str = "worker", extra_env: dict | None = None) -> subprocess.Popen:
        return self.celery(
            name,
            "worker",
            "--loglevel",
            "INFO",
            "--concurrency",
            "1",
            "--hostname",
            f"{name}@%h",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            extra_env=extra_env,
        )

    def beat(self, name: str = "beat") -> subprocess.Popen:
        return self.celery(
            name, "beat", "--loglevel", "INFO", "--schedule", str(self.log_dir / f"{name}-schedule")
        )

    def daphne(self, name: str, port: int) -> subprocess.Popen:
        return self.start(
            name,
            str(VENV_BIN / "daphne"),
            "--bind",
            "127.0.0.1",
            "--port",
            str(port),
            "config.asgi:application",
        )

    def kill(self, process: subprocess.Popen, sig=signal.SIGKILL) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, sig)
        process.wait(timeout=20)

    def stop_all(self) -> None:
        for _, process in reversed(self.running):
            if process.poll() is None:
                try:
                    os.killpg(process.pid, signal.SIGTERM)
                except ProcessLookupError:
                    continue
        for _, process in reversed(self.running):
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)
        # A killed process group may leave children behind if the leader died first.
        for _, process in self.running:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)

    def logs(self) -> str:
        parts = []
        for path in sorted(self.log_dir.glob("*.log")):
            parts.append(f"----- {path.name} -----\n{path.read_text(errors='replace')[-4000:]}")
        return "\n".join(parts)


@pytest.fixture
def redis_client():
    import redis

    client = redis.Redis.from_url(os.environ["REDIS_URL"], socket_timeout=5)
    client.flushdb()
    yield client
    client.flushdb()
    client.close()


@pytest.fixture
def service_env(transactional_db, redis_client):
    """The environment for product processes: the test database, the test Redis."""
    import dj_database_url
    from django.db import connection

    url = dj_database_url.parse(os.environ["DATABASE_URL"])
    test_name = connection.settings_dict["NAME"]
    database_url = f"postgres://{url['USER']}:{url['PASSWORD']}@{url['HOST']}:{url['PORT']}/{test_name}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DJANGO_ALLOW_ASYNC"))}
    env.update(
        DATABASE_URL=database_url,
        REDIS_URL=os.environ["REDIS_URL"],
        DJANGO_SETTINGS_MODULE="config.settings",
        PYTHONPATH=str(ROOT),
        PYTHONUNBUFFERED="1",
        # The integration tests sign their HTTP requests in with Basic auth (off outside tests).
        DJANGO_API_BASIC_AUTH="1",
    )
    return env


@pytest.fixture
def processes(service_env, tmp_path, request):
    procs = Processes(service_env, tmp_path)
    yield procs
    procs.stop_all()
    if request.node.rep_call.failed if hasattr(request.node, "rep_call") else False:
        print(procs.logs())


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)
