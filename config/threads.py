"""How a server's threads share the work and Python's interpreter lock (the GIL).

A daphne server runs every socket on one event-loop thread and the sockets' database work on
worker threads. HTTP requests run each on a thread of their own (Django's ThreadSensitiveContext)
and are not counted here.

- **One input thread** (``input_threads()``, 1): the dealers' inputs. Two threads running Python
  at once in one process do not go twice as fast: they take turns at the one lock, and each of
  them waits for it again at every database round trip. With one thread an input runs through;
  the next waits its turn, which is shorter than the turns it would take with the lock.
- **One socket thread** (``socket_threads()``, 1): the snapshot builds and the checks of a screen
  as it connects. Apart from the inputs, so that an input never waits behind a director console's
  build or a hundred reconnecting screens, nor they behind a burst of inputs.
- **The switch interval** (``switch_ms()``, 0.5 ms): the loop gives the lock up at every system call
  (each socket's send and receive, each wait for events) and waits for a worker to hand it back,
  which a worker busy in Python does only after the switch interval: 5 ms by Python's default.

Measured at 1,250 tables on two cores (tests/bench/load_event.py, two servers, 250 inputs a second;
answer p99 / input -> tablet p99, CPU per input). Python's defaults (5 ms, a pool of six threads):
468-800 / 1,368-2,122 ms. 0.5 ms and a pool of three: 134-238 / 179-455 ms, 6.6-7.2 ms (five 20-s
runs on two days). Then one run each: a pool of two 209 / 231 ms, 6.7 ms; a pool of one 74 / 80 ms,
5.6 ms; one input and one socket thread 68-127 / 70-126 ms, 5.8-6.3 ms (two runs). Three pairs of
30-s runs taken in turn, the pool of three against one input thread: answer p99 232-577 against
140-562 ms, input -> tablet p99 503-1,189 against 141-563 ms (most of that from ``config.live``'s
kept announcements), CPU 7.0-7.3 against 6.8-7.1 ms. At 250 a second the one input thread is
80-98% busy, about 7 ms an input of which 2.5-3 ms is its own CPU: the rest is waiting for the
database, the lock and a core. Two input threads made each input take twice as long on its thread
(13 ms, the same CPU: so mostly the lock and the cores) and were no faster (338 ms p99). A third
server on the same two cores was no faster either (three servers 198 ms p99 and 7.4 ms of CPU an
input, two servers 199 ms and 7.0 ms, run one after the other): past this, more cores. Then an
ordinary input became two statements and no transaction on PostgreSQL (``dealing.kept_writes``:
fewer round trips, so fewer waits for the lock), and deals and hand ends fewer statements: at 250 a
second, answer p50 / p99 25-29 / 172-471 ms before and 4-6 / 34-63 ms after (runs taken in turn).
Then one statement: the tablet's device is checked in it (``screens.tablet_inputs``).
``SERVER_GIL_SWITCH_MS``, ``SERVER_INPUT_THREADS`` and ``SERVER_SOCKET_THREADS`` override them;
``SERVER_TRACE_DIR`` writes down every call these threads run (``config.thread_trace``).

A leaf: it imports no app.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from channels.db import database_sync_to_async

from config import thread_trace


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
    """How many threads build a server's snapshots and check its sockets as they open
    (``SERVER_SOCKET_THREADS``, 1 to 32; 1)."""
    return int(_setting("SERVER_SOCKET_THREADS", 1, 1, 32, whole=True))


def input_threads() -> int:
    """How many threads apply a server's dealer inputs (``SERVER_INPUT_THREADS``, 1 to 32; 1)."""
    return int(_setting("SERVER_INPUT_THREADS", 1, 1, 32, whole=True))


def set_switch_interval() -> None:
    """This process serves: hand the lock over every ``switch_ms`` (once, at start-up)."""
    sys.setswitchinterval(switch_ms() / 1000)


# The pools of each event loop: a server has one loop for its life; a test has one per test, and its
# pools go with it. Static files and anything else that uses the loop's default pool keep it. Only
# the loop's own thread asks for its pools, so no lock.
_pools: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_SIZES = {"socket-db": socket_threads, "input-db": input_threads}


def _off_the_loop(func: Callable, name: str) -> Callable:
    """``func`` as an awaitable run on the running loop's pool ``name`` (made on first use)."""
    loop = asyncio.get_running_loop()
    pools = _pools.setdefault(loop, {})
    pool = pools.get(name)
    if pool is None:
        pool = pools[name] = ThreadPoolExecutor(_SIZES[name](), thread_name_prefix=name)
    trace_folder = thread_trace.folder()
    if trace_folder is None:
        return database_sync_to_async(func, thread_sensitive=False, executor=pool)
    run = database_sync_to_async(
        thread_trace.traced(func, name, trace_folder), thread_sensitive=False, executor=pool
    )

    async def queued(*args, **kwargs):
        return await run(time.time(), *args, **kwargs)

    return queued


def on_socket_thread(func: Callable) -> Callable:
    """``func`` as an awaitable run on a socket thread, its database connections closed as channels'
    ``database_sync_to_async`` closes them. Not tied to the caller's thread: many sockets' work waits
    its turn, at most ``socket_threads()`` at once. Called from a coroutine of the serving loop."""
    return _off_the_loop(func, "socket-db")


def on_input_thread(func: Callable) -> Callable:
    """``on_socket_thread`` for a dealer's input: on a thread of its own, so an input never waits
    behind a snapshot build or a reconnecting screen's checks (nor they behind it)."""
    return _off_the_loop(func, "input-db")
