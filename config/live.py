"""The one way services tell the live screens that something changed (a leaf: it imports no app).

A service calls ``changed(group, bump=...)`` inside its transaction, usually through its app's
``tournament_changed`` / ``table_changed``. For each group, once per transaction however many
services touch it:

- ``bump`` runs at once, in the transaction: it adds one to the version stored on the row the screen
  shows (``Tournament.version``, ``Table.version``), so a snapshot's version and its state commit
  together and a crash after the commit can never leave a new state under an old version;
- one message is sent after the commit (a rolled-back change is never announced).

Messages carry no state: the consumers build a versioned snapshot, so a dropped, duplicated or
reordered message never shows a wrong state (channels-redis drops messages past a channel's
capacity; clients ignore any version not newer than the one they show).

One exception saves the rebuild of a table after every dealer input: a change that touches only one
part of what a screen shows may carry that part as a ``patch``, with the version it produced. A
server applies it only on top of exactly the version before (the last snapshot it built or patched);
anything else (a lost message, another change in between) builds the snapshot as usual. A second
change of the same group in the same transaction drops the patch: it no longer says all that changed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import threading
from collections.abc import Callable, Iterator

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from config.on_commit import already_queued, once_after_commit, once_after_commit_for

logger = logging.getLogger(__name__)

STATE_CHANGED = {"type": "state.changed"}
DEVICE_REVOKED = {"type": "device.revoked"}


def tournament_group(tournament_id: int) -> str:
    """Clock screens and the director console of one tournament."""
    return f"tournament-{tournament_id}"


# Scope of a tournament-group message that only the director console shows (an all-in's run-out):
# the clock screens, which share the group, ignore it.
CONSOLE_ONLY = "console"


def tournament_tables_group(tournament_id: int) -> str:
    """Every tablet of one tournament: told only of what a tablet shows of the tournament (the clock,
    its level, hand-for-hand, the chips in play), not of every bust or registration."""
    return f"tournament-{tournament_id}-tables"


# Scopes of a tablets-group message: only the tournament's part of the tablet changed (one shared
# build per server), or each table's own part changed with it (hand-for-hand waits, a chip race).
TABLETS_TOURNAMENT = "tournament"
TABLETS_EVERY_TABLE = "tables"


def table_group(table_id: int) -> str:
    """The tablet (and any staff view) of one table."""
    return f"table-{table_id}"


def device_group(device_id: int) -> str:
    """Every socket of one paired device, so revoking it can close them all."""
    return f"device-{device_id}"


def _serving_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop of the ASGI server this thread works for (a request or a socket's database
    work, run by asgiref in a thread), or None (a Celery task, a command, a test's own thread)."""
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None  # never a parent process's loop after a fork
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if loop is None or loop.is_closed() or not loop.is_running():
        return None
    return loop


async def _send_all(layer, messages: list[tuple[str, dict]]) -> None:
    for group, message in messages:
        try:
            await layer.group_send(group, message)
        except Exception:  # one group's failure must not keep the others from hearing
            logger.exception("announcement to %s not sent", group)


_kept = threading.local()


@contextlib.contextmanager
def kept_announcements() -> Iterator[list[tuple[str, dict]]]:
    """A list of every ``(group, message)`` this thread sends meanwhile (after its commits), as
    well as sent: the server whose socket made a change can show it to that socket at once instead
    of waiting for the layer's copy, which every socket of the group still gets (and a server
    recognizes by its ``id`` once it has acted on it: ``screens.snapshot_hub``)."""
    outer = getattr(_kept, "messages", None)
    _kept.messages = messages = []
    try:
        yield messages
    finally:
        _kept.messages = outer
        if outer is not None:
            outer.extend(messages)


def send_many(messages: list[tuple[str, dict]]) -> None:
    """Send ``(group, message)`` pairs, in order.

    Under the ASGI server the sends are handed to its event loop and the request's thread goes on at
    once: it does not wait for the loop (busy with every socket of the server) while it holds its
    database connection, and the messages still go out from the loop that serves the sockets (the
    in-memory layer of the embedded run needs that). Anywhere else they are sent in one event loop
    and this waits for them. Either way the layer delivers at most once: the snapshots are versioned.
    """
    kept = getattr(_kept, "messages", None)
    if kept is not None:
        kept.extend(messages)
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    loop = _serving_loop()
    if loop is not None:
        try:
            asyncio.run_coroutine_threadsafe(_send_all(layer, messages), loop)
            return
        except RuntimeError:  # the loop closed meanwhile (the server is stopping)
            pass
    async_to_sync(_send_all)(layer, messages)


def send_now(group: str, message: dict) -> None:
    send_many([(group, message)])


def changed(
    group: str,
    *,
    bump: Callable[[], object] | None = None,
    scope: str = "",
    patch: Callable[[int], dict] | None = None,
) -> None:
    """``group``'s state changed in the current transaction: bump its version once, announce it once.

    Each announcement carries a random ``id``, the same for every socket of the group, so a server
    builds the snapshot once however many of its sockets receive it (``screens.snapshot_hub``).
    ``scope`` says what changed when a group's sockets show more than one thing (the tablets: what they
    show of the tournament, or each one's table too); one message per group and scope.

    ``patch``: this change is all that changes, and ``patch(version)`` (called after the commit with
    what ``bump`` returned, the new version) gives the part that changed (see the module's note)."""
    message = {**STATE_CHANGED, **({"scope": scope} if scope else {})}
    key = ("live", group, scope) if scope else ("live", group)
    patches = transaction.get_connection().__dict__.setdefault("live_patches", {})
    if already_queued(key):
        patches[key] = None  # a second change in this transaction: the first one's patch is not all
        return
    patches[key] = patch
    bumped: dict = {}

    def first():
        if bump is not None:
            bumped["version"] = bump()

    def send():
        detail = patches.pop(key, None)
        version = bumped.get("version")
        extra = {}
        if detail is not None and isinstance(version, int):
            try:
                extra = {"patch": detail(version)}
            except Exception:  # never lose the announcement: without a patch the screens rebuild
                logger.exception("patch for %s not built", group)
        send_now(group, {**message, "id": secrets.token_hex(8), **extra})

    once_after_commit(key, send, first=first)


def changed_in_this_transaction(group: str) -> bool:
    """Whether the current transaction has changed ``group``'s state already (its version is bumped
    and more changes may follow before the commit): what is kept per version must not be read then."""
    return already_queued(("live", group))


def changed_many(groups: list[str], *, bump: Callable[[list[str]], object] | None = None) -> None:
    """``changed`` for many groups at once (a seat draw touches every table): the groups not yet
    announced in this transaction are bumped together, with one call, and announced once each after
    the commit, all in one send."""
    fresh = [group for group in dict.fromkeys(groups) if not already_queued(("live", group))]
    if not fresh:
        return
    if bump is not None:
        bump(fresh)

    def send():
        send_many([(group, {**STATE_CHANGED, "id": secrets.token_hex(8)}) for group in fresh])

    once_after_commit_for([("live", group) for group in fresh], send)


def device_revoked(device_id: int) -> None:
    """Close every open socket of a device whose token was just revoked (after the commit)."""
    transaction.on_commit(lambda: send_now(device_group(device_id), DEVICE_REVOKED))
