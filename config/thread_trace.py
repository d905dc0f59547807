"""Where a server's work threads spend their time, call by call (``SERVER_TRACE_DIR``; off by default).

When the variable names a folder, every call run on a server's input or socket thread
(``config.threads``) appends a line to ``threads-<pid>.log`` there::

    <queued> <started> <ended> <pool> <what> [<detail>]

(Unix seconds; ``what``: the function; ``detail``: the function it was handed, e.g. which snapshot a
shared build made). ``tests/bench/thread_trace.py`` sums the lines per second: which thread was
saturated when, and by what. Why: a benchmark's slow seconds, read beside the servers' own account
of them, showed the clock screens rebuilt once a second for nothing they show (docs/production.md).
For a benchmark or a bad night, not every day: a line per dealer input.

A leaf: it imports no app.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable

FLUSH_SECONDS = 1.0


def folder() -> str | None:
    """The folder the trace goes to, or None (not tracing)."""
    return os.environ.get("SERVER_TRACE_DIR") or None


class _Writer:
    """One file per process, written by every thread of it; flushed at least once a second so that a
    server stopped by a signal loses at most that much."""

    def __init__(self, path: str):
        self.file = open(path, "a", buffering=1 << 16, encoding="utf-8")  # noqa: SIM115 (the process's life)
        self.lock = threading.Lock()
        self.flushed = time.monotonic()

    def write(self, line: str) -> None:
        with self.lock:
            self.file.write(line)
            if time.monotonic() - self.flushed >= FLUSH_SECONDS:
                self.file.flush()
                self.flushed = time.monotonic()


_writers: dict[tuple[str, int], _Writer] = {}
_writers_lock = threading.Lock()


def _writer(trace_folder: str) -> _Writer:
    key = (trace_folder, os.getpid())
    writer = _writers.get(key)
    if writer is None:
        with _writers_lock:
            writer = _writers.get(key)
            if writer is None:
                os.makedirs(trace_folder, exist_ok=True)
                writer = _writers[key] = _Writer(os.path.join(trace_folder, f"threads-{os.getpid()}.log"))
    return writer


def flush() -> None:
    """Write out what this process has buffered (a reader that cannot wait for the next second)."""
    with _writers_lock:
        writers = list(_writers.values())
    for writer in writers:
        with writer.lock:
            writer.file.flush()


def name_of(func) -> str:
    """A function's name without spaces (one field of a line)."""
    name = getattr(func, "__qualname__", None) or type(func).__name__
    return name.replace(" ", "_").replace("<", "").replace(">", "")


def traced(func: Callable, pool: str, trace_folder: str) -> Callable:
    """``func`` taking the time it was queued as its first argument, and writing its line when it ends."""
    what = name_of(func)

    def run(queued: float, *args, **kwargs):
        started = time.time()
        try:
            return func(*args, **kwargs)
        finally:
            detail = f" {name_of(args[0])}" if args and callable(args[0]) else ""
            _writer(trace_folder).write(
                f"{queued:.4f} {started:.4f} {time.time():.4f} {pool} {what}{detail}\n"
            )

    return run
