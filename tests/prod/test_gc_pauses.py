"""The server's garbage-collection pauses (config.gc_pauses): a long one is logged, and what the
server imported at start-up is kept out of every later collection."""

import gc
import logging
import re
import threading
import weakref

import pytest

from config import gc_pauses


@pytest.fixture(autouse=True)
def _watched():
    yield
    gc_pauses.unwatch()


def test_a_collection_longer_than_the_limit_is_logged_with_its_generation(monkeypatch, caplog):
    monkeypatch.setattr(gc_pauses, "SLOW_MS", 0.0)  # every collection counts as slow here
    gc_pauses.watch()
    gc_pauses.watch()  # once per process, however often it is asked
    assert gc.callbacks.count(gc_pauses._measure) == 1
    before = dict(gc_pauses.stats)
    with caplog.at_level(logging.WARNING, logger="config.gc_pauses"):
        gc.collect()
    assert any("garbage collection of generation 2 took" in r.getMessage() for r in caplog.records)
    assert gc_pauses.stats["slow"] > before["slow"] and gc_pauses.stats["collections"] > before["collections"]


def test_a_quick_collection_is_counted_but_not_logged(monkeypatch, caplog):
    monkeypatch.setattr(gc_pauses, "SLOW_MS", 10_000.0)
    gc_pauses.watch()
    with caplog.at_level(logging.WARNING, logger="config.gc_pauses"):
        gc.collect(0)
    assert not [r for r in caplog.records if r.name == "config.gc_pauses"]


def test_settling_moves_what_exists_out_of_the_collectors_sight():
    try:
        gc.unfreeze()
        kept = [object() for _ in range(10)]  # alive now, as the server's modules are at start-up
        assert gc.get_freeze_count() == 0
        gc_pauses.settle()
        assert gc.get_freeze_count() > len(kept)
        assert not any(o is kept for o in gc.get_objects())  # no collection walks them any more
    finally:
        gc.unfreeze()


def test_what_the_server_holds_is_frozen_every_turn_and_thawed_every_hour():
    try:
        gc.unfreeze()
        held = [[n] for n in range(100)]  # snapshots and hands the server keeps
        assert gc_pauses.tend(last_thaw=0.0, now=10.0, thaw_every=3600.0) == 0.0
        assert gc.get_freeze_count() >= len(held)
        # An hour on: everything thawed, collected once and frozen again.
        assert gc_pauses.tend(last_thaw=0.0, now=3600.0, thaw_every=3600.0) == 3600.0
        assert gc.get_freeze_count() >= len(held)
    finally:
        gc.unfreeze()


def test_a_cycle_that_died_while_frozen_is_freed_at_the_thaw_not_kept_for_ever():
    """A socket's consumer alive at a freeze and closed later (a cycle): no young collection sees it;
    the hourly thaw's full collection frees it, before the next turn freezes what is left again."""

    class Node:
        pass

    was_enabled = gc.isenabled()
    try:
        gc.unfreeze()
        gc.disable()  # only the keeper's turns collect
        node = Node()
        node.me = node
        alive = weakref.ref(node)
        gc_pauses.tend(last_thaw=0.0, now=10.0, thaw_every=3600.0)  # frozen while alive
        del node
        gc_pauses.tend(last_thaw=0.0, now=12.0, thaw_every=3600.0)
        assert alive() is not None  # dead, frozen: an ordinary turn does not see it
        last_thaw = gc_pauses.tend(last_thaw=0.0, now=3600.0, thaw_every=3600.0)
        gc_pauses.tend(last_thaw=last_thaw, now=3602.0, thaw_every=3600.0)
        assert alive() is None
    finally:
        gc.unfreeze()
        if was_enabled:
            gc.enable()


def test_a_dead_cycle_is_freed_before_the_freeze_not_kept_until_the_thaw():
    """What an input leaves in cycles is dead when it ends; a freeze must not keep it for an hour."""

    class Node:
        pass

    was_enabled = gc.isenabled()
    try:
        gc.unfreeze()
        gc.disable()  # no automatic collection in between: only the keeper's turn may free it
        node = Node()
        node.me = node
        alive = weakref.ref(node)
        del node
        assert alive() is not None  # dead, but in a cycle: only a collection frees it
        gc_pauses.tend(last_thaw=0.0, now=10.0, thaw_every=3600.0)
        assert alive() is None
    finally:
        gc.unfreeze()
        if was_enabled:
            gc.enable()


def test_the_keeper_freezes_on_its_own_until_it_is_stopped(monkeypatch):
    """A server keeps freezing every FREEZE_EVERY seconds; a process that imported the server's entry
    point but is no server (the test suite) stops it and gets Python's own collector back."""
    import time

    monkeypatch.setattr(gc_pauses, "FREEZE_EVERY", 0.01)
    try:
        gc.unfreeze()
        gc_pauses.keep_settling()
        deadline = time.monotonic() + 5
        while gc.get_freeze_count() == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert gc.get_freeze_count() > 0
    finally:
        gc_pauses.stop_settling()
    assert not any(t.name == "gc-freeze" and t.is_alive() for t in threading.enumerate())
    assert gc.get_freeze_count() == 0


def test_the_young_report_names_what_the_young_collection_is_about_to_walk(monkeypatch, caplog):
    """GC_YOUNG_REPORT=1: each turn first logs what the young generations hold, by kind, so a slow
    young collection can be traced to what the server made since the last freeze."""

    class ShotClock:  # a kind no other code makes: it can only come from here
        pass

    monkeypatch.setattr(gc_pauses, "YOUNG_REPORT", True)
    was_enabled = gc.isenabled()
    try:
        gc.unfreeze()
        gc.disable()  # nothing collects them before the turn looks
        made = [ShotClock() for _ in range(300)]
        with caplog.at_level(logging.WARNING, logger="config.gc_pauses"):
            gc_pauses.tend(last_thaw=0.0, now=10.0, thaw_every=3600.0)
        (report,) = [r.getMessage() for r in caplog.records if "young generations" in r.getMessage()]
        counted = {kind: int(n) for kind, n in re.findall(r"([\w.<>]+) (\d+)", report.split(";")[0])}
        assert counted.get(ShotClock.__qualname__, 0) >= len(made)
        assert gc.get_freeze_count() >= len(made)  # and the turn froze them as it always does
    finally:
        gc.unfreeze()
        if was_enabled:
            gc.enable()


def test_no_young_report_unless_asked(caplog):
    try:
        gc.unfreeze()
        with caplog.at_level(logging.WARNING, logger="config.gc_pauses"):
            gc_pauses.tend(last_thaw=0.0, now=10.0, thaw_every=3600.0)
        assert not [r for r in caplog.records if "young generations" in r.getMessage()]
    finally:
        gc.unfreeze()
