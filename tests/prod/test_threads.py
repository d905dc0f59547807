"""How a server's threads share the work and the interpreter lock (config.threads): the event loop
that carries every socket gets the lock back within half a millisecond, and the sockets' database
work runs on a small pool of its own (issue 11)."""

import asyncio
import os
import subprocess
import sys
import threading
import time

import pytest

from config import threads


def test_defaults_and_overrides(monkeypatch):
    monkeypatch.delenv("SERVER_GIL_SWITCH_MS", raising=False)
    monkeypatch.delenv("SERVER_SOCKET_THREADS", raising=False)
    assert (threads.switch_ms(), threads.socket_threads()) == (0.5, 3)
    monkeypatch.setenv("SERVER_GIL_SWITCH_MS", "2")
    monkeypatch.setenv("SERVER_SOCKET_THREADS", "8")
    assert (threads.switch_ms(), threads.socket_threads()) == (2.0, 8)


@pytest.mark.parametrize(
    ("name", "raw", "message"),
    [
        ("SERVER_GIL_SWITCH_MS", "0", "a number from 0.1 to 50"),
        ("SERVER_GIL_SWITCH_MS", "fast", "a number from 0.1 to 50"),
        ("SERVER_GIL_SWITCH_MS", "nan", "a number from 0.1 to 50"),
        ("SERVER_GIL_SWITCH_MS", "1e9", "a number from 0.1 to 50"),
        ("SERVER_SOCKET_THREADS", "0", "a whole number from 1 to 32"),
        ("SERVER_SOCKET_THREADS", "2.5", "a whole number from 1 to 32"),
        ("SERVER_SOCKET_THREADS", "100", "a whole number from 1 to 32"),
    ],
)
def test_a_setting_out_of_range_stops_the_server_with_its_name_and_range(monkeypatch, name, raw, message):
    monkeypatch.setenv(name, raw)
    with pytest.raises(ValueError, match=f"{name} must be {message}, not '{raw}'"):
        threads.switch_ms() if name == "SERVER_GIL_SWITCH_MS" else threads.socket_threads()


def test_the_servers_entry_point_sets_the_switch_interval():
    """What daphne imports (config.asgi) sets it; a process that is no server keeps Python's 5 ms."""
    code = "import sys; before = sys.getswitchinterval(); import config.asgi; print(before, sys.getswitchinterval())"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**env, "SERVER_GIL_SWITCH_MS": "0.2"},
    ).stdout.split()
    assert [round(float(v), 6) for v in out] == [0.005, 0.0002]


@pytest.mark.django_db  # channels closes stale database connections around each call
def test_socket_work_runs_at_most_socket_threads_at_once_off_the_event_loop():
    running, most, names = [0], [0], set()
    guard = threading.Lock()

    def work():
        with guard:
            running[0] += 1
            most[0] = max(most[0], running[0])
            names.add(threading.current_thread().name)
        time.sleep(0.05)
        with guard:
            running[0] -= 1
        return threading.get_ident()

    async def main():
        loop_thread = threading.get_ident()
        idents = await asyncio.gather(*(threads.on_socket_thread(work)() for _ in range(12)))
        return loop_thread, idents

    loop_thread, idents = asyncio.run(main())
    assert loop_thread not in idents
    assert most[0] == threads.socket_threads() == 3
    assert all(name.startswith("socket-db") for name in names)
