"""One build per snapshot, shared by every socket of this server that shows it.

A change is announced once per group (``config.live``); every socket of that group in this process
receives the message at nearly the same moment. Instead of each socket rebuilding the same snapshot,
the sockets subscribe here by what they show (``("clock", tournament)``, ``("table", table)`` …):
the first "changed" starts one build at once, in a worker thread; changes that arrive while it runs
mark it dirty, and one more build follows when it is done. Each finished snapshot is encoded to JSON
once and handed to every subscriber, which sends it if its version is newer than what it sent last.

So a level change seen by a hundred clock screens costs one build, not a hundred, and no change
waits behind an artificial delay.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable, Hashable

from config import json_text
from config.threads import on_socket_thread

RECENT_ANNOUNCEMENTS = 64
# How long a refresh waits for the snapshot its own input announced before it reads the input's patch
# back from the database (one query; a table with no such reader is built). A lost announcement (rare:
# a full channel, a Redis failover) shows this much later; a late one on a busy server costs that read,
# never a whole table's build, which would make the backlog that delayed it worse.
PATIENCE = 1.0


class _Key:
    def __init__(self, build: Callable[[], dict]):
        self.build = build
        self.subscribers: set = set()
        self.dirty = False
        self.task: asyncio.Task | None = None
        self.waiters: list = []
        # Announcements already acted on: every socket of a group receives the same one.
        self.seen: dict[str, None] = {}
        self.latest: tuple[dict, str] | None = None  # the last build, encoded
        # Refreshes that wait for a snapshot showing something (the tablet's own input): (wants, future).
        self.patient: list = []
        # Patches that came while a build or a delivery ran: tried on top of its result, in order.
        self.deferred: list = []
        self.fresh = False  # the last _apply sent something new


class SnapshotHub:
    """Per process and event loop: keys -> their subscribers and at most one running build."""

    def __init__(self):
        self.keys: dict[Hashable, _Key] = {}
        self.patches = 0  # snapshots patched instead of built (the benchmark prints it)

    def subscribe(self, key: Hashable, consumer, build: Callable[[], dict]) -> None:
        self.keys.setdefault(key, _Key(build)).subscribers.add(consumer)

    def unsubscribe(self, key: Hashable, consumer) -> None:
        entry = self.keys.get(key)
        if entry is None:
            return
        entry.subscribers.discard(consumer)
        if not entry.subscribers and (entry.task is None or entry.task.done()):
            del self.keys[key]

    def changed(self, key: Hashable, announcement: str | None = None) -> None:
        """The thing behind ``key`` changed: build it (now, or once more after the running build).

        ``announcement`` is the id of the message that said so: the same message reaching another
        socket of this server asks for nothing more."""
        entry = self.keys.get(key)
        if entry is None:
            return
        if announcement is not None:
            if announcement in entry.seen:
                return
            entry.seen[announcement] = None
            if len(entry.seen) > RECENT_ANNOUNCEMENTS:
                del entry.seen[next(iter(entry.seen))]
        entry.dirty = True
        if entry.task is None or entry.task.done():
            entry.task = asyncio.ensure_future(self._run(key, entry))

    def patched(
        self,
        key: Hashable,
        announcement: str | None,
        patch: dict,
        apply: Callable[[dict, dict], dict | None],
    ) -> None:
        """A change that carries the part it changed (``config.live``): applied to the last build when
        it follows it exactly and nothing is being built, and sent to every subscriber; otherwise
        the snapshot is built as for any change."""
        entry = self.keys.get(key)
        if entry is None:
            return
        if announcement is not None and announcement in entry.seen:
            return
        if entry.latest is None:
            self.changed(key, announcement)
            return
        if announcement is not None:
            entry.seen[announcement] = None
            if len(entry.seen) > RECENT_ANNOUNCEMENTS:
                del entry.seen[next(iter(entry.seen))]
        if entry.task is not None and not entry.task.done():
            # A build or a delivery is under way: the patch is tried on top of what it gives, rather
            # than building the snapshot once more (under load, the next input's patch often comes
            # while the last one is still being sent).
            entry.deferred.append((patch, apply))
            return
        entry.fresh = False
        if not self._apply(entry, patch, apply):
            self.changed(key)
            return
        if entry.fresh:  # nothing to send for a patch the snapshot already showed
            entry.task = asyncio.ensure_future(self._deliver(key, entry, *entry.latest))

    def _apply(self, entry: _Key, patch: dict, apply: Callable[[dict, dict], dict | None]) -> bool:
        """Patch the last build: True when it is patched or already shows the patch (nothing to send
        then), False when the patch does not follow it (the snapshot must be built)."""
        snapshot = apply(entry.latest[0], patch)
        if snapshot is None:
            return False
        if snapshot is entry.latest[0]:  # a patch that this snapshot already shows (it came late)
            return True
        text = json_text.dumps(snapshot)
        entry.latest = (snapshot, text)
        self.patches += 1
        self._offer(entry, snapshot, text)
        entry.fresh = True
        return True

    async def _apply_deferred(self, entry: _Key) -> None:
        """The patches that came during a build or a delivery, on top of what it gave, each sent as it
        applies; one that does not follow marks the snapshot dirty (the caller builds it once more,
        and that build reads all they carry)."""
        while entry.deferred and not entry.dirty:
            patch, apply = entry.deferred.pop(0)
            entry.fresh = False
            if not self._apply(entry, patch, apply):
                entry.dirty = True
                break
            if entry.fresh:
                snapshot, text = entry.latest
                for consumer in list(entry.subscribers):
                    await consumer.deliver(snapshot, text)
        if entry.dirty:
            entry.deferred.clear()

    async def _deliver(self, key: Hashable, entry: _Key, snapshot: dict, text: str) -> None:
        for consumer in list(entry.subscribers):
            await consumer.deliver(snapshot, text)
        await self._apply_deferred(entry)
        if entry.dirty:  # a change, or a patch that did not follow, came while this was being sent
            await self._run(key, entry)
        elif not entry.subscribers and self.keys.get(key) is entry:
            del self.keys[key]

    def _offer(self, entry: _Key, snapshot: dict, text: str) -> None:
        """A new snapshot: the refreshes waiting for what it shows have it."""
        for wants, waiter in list(entry.patient):
            if waiter.done() or wants(snapshot):
                entry.patient.remove((wants, waiter))
                if not waiter.done():
                    waiter.set_result((snapshot, text))

    async def awaited(
        self,
        key: Hashable,
        consumer,
        wants: Callable[[dict], bool],
        patience: float | None = None,
        fallback: Callable[[], Awaitable[tuple[dict | None, Callable]]] | None = None,
    ) -> tuple[dict, str] | None:
        """The first snapshot that shows what ``wants`` looks for: the last one if it does, else the
        next build or patch that does. The tablet asks this after each of its inputs: the input's own
        announcement brings that snapshot a moment later, so asking does not build it a second time.

        If none has come within ``patience`` seconds (the announcement is late or lost), ``fallback``
        reads the patch that the announcement carries (``(patch, apply)``) and applies it as the
        announcement would have; without one, or when it gives none, the snapshot is built."""
        entry = self.keys.get(key)
        if entry is None:
            return None
        if entry.latest is not None and wants(entry.latest[0]):
            return entry.latest
        loop = asyncio.get_running_loop()
        waiter = loop.create_future()
        entry.patient.append((wants, waiter))

        def build():
            if waiter.done() or (wants, waiter) not in entry.patient:
                return
            entry.patient.remove((wants, waiter))
            entry.waiters.append((consumer, waiter))
            self.changed(key)

        async def read_patch():
            try:
                patch, apply = await fallback()
            except Exception:  # e.g. the hand is gone: the build says what stands
                patch = None
            if waiter.done():
                return
            if patch is None or self.keys.get(key) is not entry:
                build()
                return
            # Applied: the snapshot showing it is offered at once. Deferred behind a build, or not
            # following: the build's result (and the patch on top) is, a moment later.
            self.patched(key, None, patch, apply)
            if waiter.done():
                return
            if entry.task is None or entry.task.done():
                build()  # the last snapshot is newer but does not show it (another hand): built
            else:
                loop.call_later(PATIENCE if patience is None else patience, build)  # never waits forever

        def impatient():
            if waiter.done() or (wants, waiter) not in entry.patient:
                return
            if fallback is None:
                build()
            else:
                consumer_tasks = getattr(consumer, "pending_refreshes", None)
                task = asyncio.ensure_future(read_patch())
                if consumer_tasks is not None:  # cancelled with the socket
                    consumer_tasks.add(task)
                    task.add_done_callback(consumer_tasks.discard)

        loop.call_later(PATIENCE if patience is None else patience, impatient)
        return await waiter

    async def fresh(self, key: Hashable, consumer, version: int | None = None) -> tuple[dict, str] | None:
        """A snapshot built after this call, for ``consumer`` to send itself (it just connected, or
        asked for a refresh); the other subscribers get it as usual.

        ``version``: the stored version now. When the last build is of that version and nothing is
        being built, it is the state as it stands and is returned as it is: a tablet asks for a
        refresh after every input, and the input's own announcement has built it already."""
        entry = self.keys.get(key)
        if entry is None:
            return None
        idle = not entry.dirty and (entry.task is None or entry.task.done())
        if (
            version is not None
            and idle
            and entry.latest is not None
            and entry.latest[0]["version"] >= version
        ):
            return entry.latest
        waiter = asyncio.get_running_loop().create_future()
        entry.waiters.append((consumer, waiter))
        self.changed(key)
        return await waiter

    async def _run(self, key: Hashable, entry: _Key) -> None:
        while entry.dirty:
            entry.dirty = False
            waiters, entry.waiters = entry.waiters, []
            try:
                # Encoded on the build's thread too: a console's 190 KB must not hold up the loop.
                snapshot, text = await on_socket_thread(_built)(entry.build)
            except Exception as error:  # e.g. the table was deleted: every waiter and socket hears of it
                for _consumer, waiter in waiters:
                    if not waiter.done():
                        waiter.set_exception(error)
                waiting = {consumer for consumer, _waiter in waiters}
                for consumer in list(entry.subscribers - waiting):
                    await consumer.snapshot_failed(error)
                continue
            entry.latest = (snapshot, text)
            self._offer(entry, snapshot, text)
            for _consumer, waiter in waiters:
                if not waiter.done():
                    waiter.set_result((snapshot, text))
            waiting = {consumer for consumer, _waiter in waiters}
            for consumer in list(entry.subscribers - waiting):
                await consumer.deliver(snapshot, text)
            await self._apply_deferred(entry)
        if not entry.subscribers and self.keys.get(key) is entry:
            del self.keys[key]


def _built(build: Callable[[], dict]) -> tuple[dict, str]:
    """A snapshot and its text, made on the build's thread."""
    snapshot = build()
    return snapshot, json_text.dumps(snapshot)


def of_running_loop(kept: dict, make: Callable[[], object]):
    """The object ``make`` gave for the running event loop, kept in ``kept`` (daphne runs one loop per
    process; tests may run several, and a new loop may reuse a closed one's id)."""
    loop = asyncio.get_running_loop()
    found = kept.get(id(loop))
    if found is None or getattr(found, "loop", None) is not loop:
        found = kept[id(loop)] = make()
        found.loop = loop
    return found


_hubs: dict[int, SnapshotHub] = {}


def hub() -> SnapshotHub:
    """The hub of the running event loop."""
    return of_running_loop(_hubs, SnapshotHub)


class VersionedBuilds:
    """The same single-flight build for plain HTTP requests (threads, not an event loop): one build
    per key and version in this process, whatever the number of requests asking at once; the others
    wait for it and share the result. Only the newest versions are kept (``keep`` per process).

    The players' pages use it: ten thousand phones asking for version 41 of a tournament cost one
    build of version 41, then a dictionary lookup each."""

    def __init__(self, build: Callable[[Hashable, int], object], keep: int = 64):
        self.build = build
        self.keep = keep
        self.done: dict[tuple, object] = {}
        self.locks: dict[Hashable, threading.Lock] = {}
        self.guard = threading.Lock()
        self.builds = 0

    def get(self, key: Hashable, version: int):
        found = self.done.get((key, version))
        if found is not None:
            return found
        with self.guard:
            lock = self.locks.setdefault(key, threading.Lock())
        with lock:  # one build per key at a time: whoever waited finds it done
            found = self.done.get((key, version))
            if found is None:
                found = self.build(key, version)
                self.builds += 1
                with self.guard:
                    # A newer version makes the older ones of this key useless.
                    for old in [k for k in self.done if k[0] == key and k[1] < version]:
                        del self.done[old]
                    self.done[(key, version)] = found
                    while len(self.done) > self.keep:
                        del self.done[next(iter(self.done))]
        return found

    def clear(self) -> None:
        with self.guard:
            self.done.clear()
