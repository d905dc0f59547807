"""How a server's threads share the work and Python's interpreter lock (the GIL).

A daphne server runs every socket on one event-loop thread, and the sockets' database work (a dealer
input, a snapshot build, a screen's check as it connects) on worker threads. HTTP requests run each on
a thread of their own (Django's ThreadSensitiveContext) and are not counted here.

- **The socket threads** (``socket_threads()``, 3, a pool of their own): Python's default pool has
  six, and with six inputs at once in one process they take turns at the one lock, each input
  taking as long as all of them. With three, an input mostly runs through while the next waits its
  turn, and fewer threads take the lock from the event loop.
- **The switch interval** (``switch_ms()``, 0.5 ms): the loop gives the lock up at every system call
  (each socket's send and receive, each wait for events) and waits for a worker to hand it back,
  which a worker busy in Python does only after the switch interval: 5 ms by Python's default. Under
  load the loop makes dozens of system calls a turn, so every answer, snapshot and pong queued behind
  those waits.

Measured at 1,250 tables on two cores (tests/bench/load_event.py, two servers, 250 inputs a second,
all runs on one day and machine; answer p99 / input -> tablet p99):
Python's defaults (5 ms, six threads) 468-800 / 1,368-2,122 ms over three runs; 1 ms 317 / 767 ms;
0.5 ms 229-241 / 396-696 ms over two runs; 0.5 ms and three threads 147-238 / 207-455 ms over four runs
(the threads as the loop's default pool, then as a pool of their own), CPU per input 6.8-7.2 ms.
``SERVER_GIL_SWITCH_MS`` and ``SERVER_SOCKET_THREADS`` override them.

A leaf: it imports no app.
"""

from __future__ import annotations

import asyncio
import os
import sys
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from channels.db import database_sync_to_async


def _setting(name: str, default: float, low: float, high: float, whole: bool = False) -> float:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw) if whole else float(raw)
    except ValueError:
        value = float("nan")
    if not low <= value <= high:
        kind = "a whole number" if whole else "a number"
        raise ValueError(f"{name} must be {kind} from {low:g} to {high:g}, not {raw!r}")
    return value


def switch_ms() -> float:
    """The switch interval of a server, in ms (``SERVER_GIL_SWITCH_MS``, 0.1 to 50; 0.5)."""
    return _setting("SERVER_GIL_SWITCH_MS", 0.5, 0.1, 50)


def socket_threads() -> int:
    """How many threads do a server's socket database work (``SERVER_SOCKET_THREADS``, 1 to 32; 3)."""
    return int(_setting("SERVER_SOCKET_THREADS", 3, 1, 32, whole=True))


def set_switch_interval() -> None:
    """This process serves: hand the lock over every ``switch_ms`` (once, at start-up)."""
    sys.setswitchinterval(switch_ms() / 1000)


# The socket threads of each event loop: a server has one loop for its life; a test has one per test,
# and its pool goes with it. Static files and anything else that uses the loop's default pool keep it.
# Only the loop's own thread asks for its pool, so no lock.
_pools: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def socket_pool(loop: asyncio.AbstractEventLoop) -> ThreadPoolExecutor:
    """``loop``'s pool of socket threads, made on first use."""
    pool = _pools.get(loop)
    if pool is None:
        pool = _pools[loop] = ThreadPoolExecutor(socket_threads(), thread_name_prefix="socket-db")
    return pool


def on_socket_thread(func: Callable) -> Callable:
    """``func`` as an awaitable run on a socket thread, its database connections closed as channels'
    ``database_sync_to_async`` closes them. Not tied to the caller's thread: many sockets' work runs
    side by side, at most ``socket_threads()`` at once. Called from a coroutine of the serving loop."""
    return database_sync_to_async(
        func, thread_sensitive=False, executor=socket_pool(asyncio.get_running_loop())
    )
