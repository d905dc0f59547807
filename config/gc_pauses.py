"""The garbage collector's pauses in a server process: measured, logged when long, and kept short.

A daphne server at a big event holds a great many long-lived objects (its sockets' consumers, the
shared snapshots, the hands kept in memory, Django's and the apps' modules: about 300,000 at 1,250
tables). CPython's full collection walks every one of them while every socket and request of that
process waits: 40-270 ms, several times a minute, the whole tail of inputs that otherwise take 7 ms.
Most of those objects are freed by reference counting when they go (snapshots and engine hands hold
no cycles), so the collector need not look at them at all: every ``FREEZE_EVERY`` seconds what exists
is moved out of its sight (``gc.freeze()``) and a full collection walks only what came since. A cycle
that was alive at a freeze and dies later (a socket that closed) waits for the hourly thaw
(``THAW_EVERY``), when one full collection sees everything again: at 1,250 tables on two servers
that collection took 300-383 ms and freed 7,700-14,800 objects a server (tests/bench/load_event.py
--rates 100 --seconds 420 with GC_THAW_EVERY=240). Before, the thaw only unfroze, and the next turn
froze again before Python's own thresholds ran a full collection: those cycles were kept for ever.
So what a server keeps between inputs must hold no cycle (tests/prod/test_no_cycles.py): a tablet's
device kept a minute by its socket (with select_related's way back from its user) and the hand kept
between inputs (with its secrets cached on it) made the thaw after 20 minutes at 100 inputs a second
free 250,000-307,000 objects and pause each server 1.1-2.0 s, and memory grew until it; without those
cycles, the thaw after 5 minutes freed 21 and 2,283 objects in 262-305 ms (it was 34,000-39,000
objects with them; ``GC_THAW_REPORT=1`` logs what a thaw frees, by kind).
Every collection that still takes longer than ``SLOW_MS`` is logged with its generation.

Why every half second: a full collection walks what came since the last freeze, so the shorter the
interval the shorter the pause. Freezing costs nothing (it moves a list); what it costs is the dead
cycles it keeps until the thaw. An input leaves about 25 objects in cycles, dead when it ends but
freed only at the next young collection, so each freeze first runs one (``gc.collect(1)``). Measured
in process (tests/bench/profile_input.py, 1,200 inputs, objects kept frozen in dead cycles): freezing
after every input 30,446, or 0 with the young collection first; every 150 inputs (2 s of one server
at 75 inputs a second) 2,144, or 550 with it. At 1,250 tables
(tests/bench/load_event.py, two servers), 30 s -> 2 s took input -> tablet at 250 inputs a second
from p50 116 / p99 628 ms to 38 / 566 ms, and at 100 a second p99 111 -> 58 ms. Then 2 s -> 0.5 s
(``--rates 250 --seconds 300``, run one after the other): the young collections of 20 ms or more
went from 52 to 1 in the two servers' five minutes (at 2 s each held the interpreter lock for 10-12
ms of CPU, though the young generations held only 1,600-24,000 objects: ``GC_YOUNG_REPORT=1`` logs
what they hold at each freeze), answer p99 37 -> 32 ms, input -> tablet p99 41 -> 37 ms, the same
CPU an input (4.44 and 4.41 ms) and the same memory growth. ``GC_FREEZE_EVERY`` (seconds) overrides
it, and ``GC_THAW_EVERY`` the hour.

A leaf: it imports no app.
"""

from __future__ import annotations

import collections
import gc
import logging
import os
import threading
import time

logger = logging.getLogger(__name__)

SLOW_MS = 20.0
FREEZE_EVERY = float(os.environ.get("GC_FREEZE_EVERY", "0.5"))  # seconds
THAW_EVERY = float(os.environ.get("GC_THAW_EVERY", "3600"))  # seconds (shorter to measure a thaw)
# Set: the thaw logs the kinds of object its full collection freed (what died in cycles while frozen).
THAW_REPORT = os.environ.get("GC_THAW_REPORT", "") not in ("", "0")
# Set: each freeze first logs what the young generations hold, by kind (what the young collection walks).
YOUNG_REPORT = os.environ.get("GC_YOUNG_REPORT", "") not in ("", "0")

_started: list[tuple[float, float]] = []
stats = {"collections": 0, "slow": 0, "longest_ms": 0.0}


def _measure(phase: str, info: dict) -> None:
    if phase == "start":
        _started.append((time.perf_counter(), time.thread_time()))
        return
    if not _started:
        return
    wall, cpu = _started.pop()
    took = (time.perf_counter() - wall) * 1000
    # The collection itself holds the interpreter lock: its CPU time is how long every other thread
    # of the process waited for it. The wall time also counts waits for the lock around it (on a busy
    # server, a thread that calls the collector waits for the lock like any other).
    cpu_ms = (time.thread_time() - cpu) * 1000
    stats["collections"] += 1
    stats["longest_ms"] = max(stats["longest_ms"], took)
    if took >= SLOW_MS:
        stats["slow"] += 1
        logger.warning(
            "garbage collection of generation %s took %.0f ms (%.0f ms of CPU, %s objects collected)",
            info.get("generation"),
            took,
            cpu_ms,
            info.get("collected"),
        )


def watch() -> None:
    """Log every collection of this process that takes longer than ``SLOW_MS`` (once per process)."""
    if _measure not in gc.callbacks:
        gc.callbacks.append(_measure)


def unwatch() -> None:
    """Stop measuring (a process that is no server: the test suite, at its end)."""
    while _measure in gc.callbacks:
        gc.callbacks.remove(_measure)


def settle() -> None:
    """After start-up: what exists now lives as long as the process, so no collection walks it again."""
    gc.collect()
    gc.freeze()


def tend(last_thaw: float, now: float, thaw_every: float = THAW_EVERY) -> float:
    """One turn of the keeper: everything thawed when ``thaw_every`` has passed since the last thaw,
    else what exists frozen. Returns when the last thaw was."""
    if now - last_thaw >= thaw_every:
        # One full collection of everything, here and now: it frees the cycles that died while frozen
        # (a closed socket's). Left to Python's own thresholds it might not run before the next turn
        # freezes them again, and they would be kept for ever.
        gc.unfreeze()
        if THAW_REPORT:
            _collect_and_report()
        else:
            gc.collect()
        gc.freeze()
        return now
    # The young generations hold the cycles that died since their last collection (an input's, a
    # request's): freed first, so they are not kept frozen until the thaw. A young collection is small.
    if YOUNG_REPORT:
        _report_young()
    gc.collect(1)
    gc.freeze()
    return last_thaw


def _collect_and_report() -> None:
    """The thaw's full collection, keeping what it frees long enough to count it by type (logged)."""
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        counted = _by_kind(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    logger.warning("the thaw freed %s", counted)


def _report_young() -> None:
    """Log what the young collection is about to walk, by kind and by module (a diagnostic: it costs as
    much again as the collection)."""
    logger.warning(
        "the young generations hold %s", _by_kind(gc.get_objects(generation=0) + gc.get_objects(generation=1))
    )


def _by_kind(objects: list) -> str:
    """``objects`` counted by type and by module, the commonest first: what a report logs."""
    kinds = collections.Counter(type(obj).__qualname__ for obj in objects)
    modules = collections.Counter(getattr(type(obj), "__module__", "?") for obj in objects)
    return "{} objects: {}; by module: {}".format(
        sum(kinds.values()),
        ", ".join(f"{name} {n}" for name, n in kinds.most_common(25)),
        ", ".join(f"{name} {n}" for name, n in modules.most_common(12)),
    )


_keeper: list[threading.Thread] = []
_stopping = threading.Event()


def keep_settling() -> None:
    """From now on (once per process), ``tend`` every ``FREEZE_EVERY`` seconds, in a daemon thread:
    it moves the collector's lists and runs a young collection."""
    if _keeper and _keeper[0].is_alive():
        return
    _keeper.clear()
    _stopping.clear()

    def run():
        last_thaw = time.monotonic()
        while not _stopping.wait(FREEZE_EVERY):
            last_thaw = tend(last_thaw, time.monotonic())

    _keeper.append(threading.Thread(target=run, name="gc-freeze", daemon=True))
    _keeper[0].start()


def stop_settling() -> None:
    """Back to Python's own collector: no more freezing, everything thawed (a process that imported the
    server's entry point but is no server: the test suite)."""
    if _keeper:
        _stopping.set()
        _keeper[0].join()
        _keeper.clear()
    gc.unfreeze()
