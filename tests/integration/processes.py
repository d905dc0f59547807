"""Product processes for the integration tests (celery, daphne), free ports and waiting for a condition."""

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent


def compose_websocket_limits() -> list[str]:
    """daphne's WebSocket limit options exactly as docker/compose.yaml runs the web servers."""
    import yaml

    compose = yaml.safe_load((ROOT / "docker" / "compose.yaml").read_text())
    command = compose["services"]["web"]["command"]
    options = []
    for name in ("--websocket-max-message-size", "--websocket-max-frame-size"):
        options += [name, command[command.index(name) + 1]]
    return options


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
            *compose_websocket_limits(),
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
