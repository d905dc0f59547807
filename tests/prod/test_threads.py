"""How a server's threads share the work and the interpreter lock (config.threads): the event loop
that carries every socket gets the lock back within half a millisecond, and the sockets' database
work runs on threads of its own: one for the dealers' inputs, one for the rest (issue 11)."""

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
    monkeypatch.delenv("SERVER_INPUT_THREADS", raising=False)
    assert (threads.switch_ms(), threads.socket_threads(), threads.input_threads()) == (0.5, 1, 1)
    monkeypatch.setenv("SERVER_GIL_SWITCH_MS", "2")
    monkeypatch.setenv("SERVER_SOCKET_THREADS", "8")
    monkeypatch.setenv("SERVER_INPUT_THREADS", "3")
    assert (threads.switch_ms(), threads.socket_threads(), threads.input_threads()) == (2.0, 8, 3)


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
        ("SERVER_INPUT_THREADS", "0", "a whole number from 1 to 32"),
        ("SERVER_INPUT_THREADS", "two", "a whole number from 1 to 32"),
    ],
)
def test_a_setting_out_of_range_stops_the_server_with_its_name_and_range(monkeypatch, name, raw, message):
    monkeypatch.setenv(name, raw)
    with pytest.raises(ValueError, match=f"{name} must be {message}, not '{raw}'"):
        {
            "SERVER_GIL_SWITCH_MS": threads.switch_ms,
            "SERVER_SOCKET_THREADS": threads.socket_threads,
            "SERVER_INPUT_THREADS": threads.input_threads,
        }[name]()


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
def test_socket_work_runs_at_most_socket_threads_at_once_off_the_event_loop(monkeypatch):
    monkeypatch.setenv("SERVER_SOCKET_THREADS", "3")
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


@pytest.mark.django_db
def test_an_input_never_waits_behind_a_snapshot_build_nor_a_build_behind_an_input():
    """A dealer's input runs on its own thread: a build that is still running (here, one that waits
    for the input) does not hold it back, and the input runs on neither the loop nor a socket thread."""
    input_done = threading.Event()

    def build():
        return input_done.wait(timeout=10), threading.current_thread().name

    def dealer_input():
        input_done.set()
        return threading.current_thread().name

    async def main():
        return await asyncio.gather(
            threads.on_socket_thread(build)(), threads.on_input_thread(dealer_input)()
        )

    (waited, build_thread), input_thread = asyncio.run(main())
    assert waited, "the input waited behind the build"
    assert build_thread.startswith("socket-db") and input_thread.startswith("input-db")


@pytest.mark.django_db
def test_with_a_trace_folder_every_call_of_the_work_threads_is_written_down_and_summed(monkeypatch, tmp_path):
    """SERVER_TRACE_DIR (config.thread_trace): what each work thread ran, when it was queued, started
    and ended, which tests/bench/thread_trace.py sums per second: how a benchmark's slow seconds were
    read (docs/production.md). Without the variable nothing is written."""
    from tests.bench import thread_trace as summed

    def build_the_clock():
        time.sleep(0.03)
        return "built"

    def shared_build(build):  # as screens.snapshot_hub hands a build to the socket thread
        return build()

    def an_input():
        return "applied"

    async def main():
        return await asyncio.gather(
            threads.on_socket_thread(shared_build)(build_the_clock), threads.on_input_thread(an_input)()
        )

    monkeypatch.delenv("SERVER_TRACE_DIR", raising=False)
    assert asyncio.run(main()) == ["built", "applied"]
    assert list(tmp_path.iterdir()) == []

    monkeypatch.setenv("SERVER_TRACE_DIR", str(tmp_path / "threads"))
    assert asyncio.run(main()) == ["built", "applied"]
    from config import thread_trace

    thread_trace.flush()
    (log,) = (tmp_path / "threads").iterdir()
    assert log.name == f"threads-{os.getpid()}.log"
    lines = [line.split() for line in log.read_text().splitlines()]
    by_pool = {line[3]: line for line in lines}
    assert set(by_pool) == {"socket-db", "input-db"}
    queued, started, ended = (float(x) for x in by_pool["socket-db"][:3])
    assert queued <= started < ended and ended - started >= 0.03
    assert by_pool["socket-db"][4:] == [
        "test_with_a_trace_folder_every_call_of_the_work_threads_is_written_down_and_summed.locals.shared_build",
        "test_with_a_trace_folder_every_call_of_the_work_threads_is_written_down_and_summed.locals.build_the_clock",
    ]
    trace = summed.read(log)
    assert sum(trace.calls.values()) == 2
    assert trace.busy["socket-db", " ".join(by_pool["socket-db"][4:])] >= 0.03
    assert any("busiest seconds by the input-db thread" in line for line in summed.summary(trace))
