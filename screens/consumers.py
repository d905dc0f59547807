"""WebSocket consumers: the clock screens, the director console and the dealer tablets.

On connect a client gets a full snapshot with a version; after that, every "state.changed" message
of its groups (sent by ``config.live`` after the commit) makes the consumer rebuild the snapshot and
send it if its version is newer than the last one sent. Bursts of changes are coalesced into one
rebuild, and clients ignore any version not newer than what they show, so duplicated or reordered
messages never show a wrong state.

Close codes: 4001 not signed in or not paired, 4003 not allowed here, 4004 no such thing,
4010 the device was revoked. Clients stop reconnecting on these.
"""

from __future__ import annotations

import asyncio
import logging

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.core.exceptions import ObjectDoesNotExist

from config import live
from config.limits import WebSocketMessageError, websocket_json
from config.permissions import is_staff
from config.prepared import PreparedQuery
from config.threads import on_input_thread, on_socket_thread
from config.throttling import LocalRate
from dealing.services import keep_running_hand
from tables.models import Table
from tournaments.models import Tournament

from . import heartbeat, snapshots, tablet_inputs
from .group_feeds import feeds
from .models import DeviceKind
from .pairing import device_from_cookies
from .snapshot_hub import hub, of_running_loop

logger = logging.getLogger(__name__)

CLOSE_UNAUTHENTICATED = 4001
CLOSE_FORBIDDEN = 4003
CLOSE_NOT_FOUND = 4004
CLOSE_REVOKED = 4010
COALESCE_SECONDS = 0.05


# Read by every tablet's socket as it connects (1,250 of them after a restart): SQL built once.
_table_of_tablet = PreparedQuery(
    lambda pk: Table.objects.only("pk", "tournament_id").filter(pk=pk).order_by()[:1]
)


class LiveConsumer(AsyncJsonWebsocketConsumer):
    """Sends versioned snapshots of one thing to one screen. Subclasses say who may see what and
    which snapshot they show (``snapshot_key``); the build is shared by every socket of this server
    that shows the same thing (``screens.snapshot_hub``)."""

    groups_joined: list[str]
    # Groups that many sockets of a server listen to: joined once per server (screens.group_feeds).
    groups_shared: list[str]
    snapshot_key: tuple
    # Other shared snapshots this socket is sent when they change (their own kinds and versions); its
    # own snapshot holds what they hold, so a connect or a refresh sends that one alone.
    extra_keys: dict

    async def dispatch(self, message):
        """channels' own dispatch without its hop to the database thread before every message (to
        close stale connections): every database read here goes through ``config.threads.on_socket_thread``,
        which closes them itself. The hop queued every ping and every announcement of every socket
        behind each other on that one thread (1,350 of them per level change at a big event)."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self):
        self.pending_refreshes: set[asyncio.Task] = set()
        self.groups_joined = []
        self.groups_shared = []
        self.extra_keys = {}
        self.last_version = -1
        self.last_versions: dict[str, int] = {}
        self.subscribed = False
        await self.accept()
        try:
            # On the socket thread, like the builds: after a restart 1,350 screens connect at once, and
            # their checks must hold up neither the HTTP requests nor the dealers' inputs.
            decision = await on_socket_thread(self.authorize)()
        except ObjectDoesNotExist:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        if decision is not None:
            await self.close(code=decision)
            return
        hub().subscribe(self.snapshot_key, self, self.build_snapshot)
        for key, build in self.extra_keys.items():
            hub().subscribe(key, self, build)
        self.subscribed = True
        # The groups joined concurrently: their round trips to the channel layer overlap.
        await asyncio.gather(
            *(self.channel_layer.group_add(g, self.channel_name) for g in self.groups_joined),
            *(feeds().join(g, self) for g in self.groups_shared),
        )
        await self.send_fresh()

    async def disconnect(self, code):
        for task in getattr(self, "pending_refreshes", ()):
            task.cancel()
        if getattr(self, "subscribed", False):
            hub().unsubscribe(self.snapshot_key, self)
            for key in self.extra_keys:
                hub().unsubscribe(key, self)
            self.subscribed = False
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)
        for group in getattr(self, "groups_shared", []):
            await feeds().leave(group, self)

    def authorize(self) -> int | None:
        """Set ``self.groups_joined`` (and ``self.groups_shared``) and ``self.snapshot_key`` and return
        None, or return a close code."""
        raise NotImplementedError

    def build_snapshot(self) -> dict:
        raise NotImplementedError

    def current_version(self) -> int | None:
        """The stored version of what this socket shows (one small read), or None to always rebuild."""
        return None

    def refresh_wants(self, content: dict):
        """What a refresh says it waits for (a predicate on a snapshot), or None: a plain refresh."""
        return None

    def refresh_fallback(self, content: dict):
        """An async callable giving ``(patch, apply)``, the change a late announcement would bring, read
        from the database (``SnapshotHub.awaited``); None: the snapshot is built instead."""
        return None

    async def send_awaited(self, wants, fallback=None) -> None:
        """The snapshot showing what this screen waits for, unless it was sent already."""
        try:
            found = await hub().awaited(self.snapshot_key, self, wants, fallback=fallback)
        except ObjectDoesNotExist:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        if found is not None and found[0]["version"] > self.last_version:
            self.last_version = found[0]["version"]
            await self.send(text_data=found[1])

    async def send_fresh(self, *, reuse: bool = False):
        """A snapshot of the state as it stands, sent whatever its version (on connect and on the
        client's refresh). ``reuse``: the last shared build will do if the stored version has not moved."""
        try:
            version = await on_socket_thread(self.current_version)() if reuse else None
            found = await hub().fresh(self.snapshot_key, self, version)
        except ObjectDoesNotExist:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        if found is not None:
            snapshot, text = found
            self.last_version = max(self.last_version, snapshot["version"])
            await self.send(text_data=text)

    async def deliver(self, snapshot: dict, text: str):
        """A shared build finished: send it unless this socket already showed that version (versions
        are compared within one kind of snapshot)."""
        if snapshot.get("kind") in self.extra_kinds():
            kind = snapshot["kind"]
            if snapshot["version"] > self.last_versions.get(kind, -1):
                self.last_versions[kind] = snapshot["version"]
                await self.send(text_data=text)
            return
        if snapshot["version"] > self.last_version:
            self.last_version = snapshot["version"]
            await self.send(text_data=text)

    def extra_kinds(self) -> set:
        return {key[0] for key in self.extra_keys}

    async def snapshot_failed(self, error: Exception):
        if isinstance(error, ObjectDoesNotExist):
            await self.close(code=CLOSE_NOT_FOUND)

    async def state_changed(self, message):
        # Returns at once: one build per snapshot key, shared, covers every change so far.
        hub().changed(self.snapshot_key, message.get("id"))

    async def device_revoked(self, message):
        await self.send_json({"type": "revoked"})
        await self.close(code=CLOSE_REVOKED)

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        """A screen sends small JSON messages only: a bigger, deeper, binary or broken one closes the
        socket (1009 too big, 1007 invalid) instead of reaching the decoder (config.limits)."""
        try:
            content = websocket_json(text_data, bytes_data)
        except WebSocketMessageError as error:
            await self.close(code=error.close_code)
            return
        await self.receive_json(content, **kwargs)

    async def receive_json(self, content, **kwargs):
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "refresh":
            wants = self.refresh_wants(content)
            if wants is not None and len(self.pending_refreshes) < 4:  # after its own input: what shows it
                self.send_awaited_later(wants, self.refresh_fallback(content))
            else:  # the client saw a gap (woke from sleep, missed messages): the state as it stands now
                await self.send_fresh(reuse=True)
        elif kind == "ping":
            await self.send(text_data=heartbeat.pong_text())  # a ping spelled otherwise (screens.heartbeat)
        else:
            # Screens only read; a dealer tablet's inputs are its own consumer's (TableConsumer).
            await self.send_json({"type": "error", "code": "unknown_message"})

    def send_awaited_later(self, wants, fallback=None) -> None:
        """``send_awaited`` in a task: this consumer must go on receiving (the announcement that
        brings that snapshot is one of its messages)."""
        task = asyncio.ensure_future(self.send_awaited(wants, fallback))
        self.pending_refreshes.add(task)
        task.add_done_callback(self.pending_refreshes.discard)


class ClockConsumer(LiveConsumer):
    """A clock screen (paired clock device or staff): read only."""

    def authorize(self):
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        self.groups_shared = [live.tournament_group(self.tournament_id)]
        if not is_staff(self.scope.get("user")):
            # Checked first, so a stranger learns nothing about which tournaments exist.
            device = device_from_cookies(self.scope.get("cookies", {}), DeviceKind.CLOCK, self.tournament_id)
            if device is None:
                return CLOSE_UNAUTHENTICATED
            self.groups_joined.append(live.device_group(device.pk))
        else:  # a paired clock's tournament exists (the device cascades with it)
            Tournament.objects.only("pk").get(pk=self.tournament_id)
        self.snapshot_key = ("clock", self.tournament_id)
        return None

    def build_snapshot(self):
        return snapshots.clock_snapshot(self.tournament_id)

    def current_version(self):
        return snapshots.tournament_version(self.tournament_id)

    async def state_changed(self, message):
        if message.get("scope") == live.CONSOLE_ONLY:  # the console's all-ins: nothing on a clock screen
            return
        await super().state_changed(message)


class DirectorConsumer(LiveConsumer):
    """The director console: staff only."""

    def authorize(self):
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            return CLOSE_UNAUTHENTICATED
        if not user.is_staff:
            return CLOSE_FORBIDDEN
        Tournament.objects.only("pk").get(pk=self.tournament_id)
        self.groups_shared = [live.tournament_group(self.tournament_id)]
        self.snapshot_key = ("director", self.tournament_id)
        return None

    def build_snapshot(self):
        return snapshots.director_snapshot(self.tournament_id)

    def current_version(self):
        return snapshots.director_version(self.tournament_id)


class TableConsumer(LiveConsumer):
    """A dealer tablet (its paired device or staff): one table's snapshot. It listens to its table's
    group and to its tournament's tables group (a level, the clock, hand-for-hand or a color-up
    change what the tablet shows; a bust at another table does not). The paired tablet sends its
    dealer inputs on this socket (``screens.tablet_inputs``: the dealing API's checks and answers)."""

    def authorize(self):
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        device = None
        if not is_staff(self.scope.get("user")):
            # Checked first, so a stranger learns nothing about which tables exist.
            device = device_from_cookies(self.scope.get("cookies", {}), DeviceKind.TABLET, self.table_id)
            if device is None:
                return CLOSE_UNAUTHENTICATED
        if device is not None:
            # Paired to this table (its row cascades with the table's), in the table's tournament: the
            # device says where the table is, without a read of its own for each of 1,250 tablets.
            self.tournament_id = device.tournament_id
        else:
            table = _table_of_tablet.first(self.table_id)
            if table is None:
                raise Table.DoesNotExist(f"table {self.table_id}")
            self.tournament_id = table.tournament_id
        self.groups_joined = [live.table_group(self.table_id)]
        self.groups_shared = [live.tournament_tables_group(self.tournament_id)]
        self.snapshot_key = ("table", self.table_id)
        # The paired tablet sends its inputs on this socket (screens.tablet_inputs); staff on a tablet
        # page send theirs over HTTP, where their session is checked at each request.
        self.takes_inputs = device is not None
        self.hand_warmed = False
        self.socket_device = tablet_inputs.SocketDevice()  # read at the first input, then each minute
        # The HTTP API's per-device rate, counted per socket: a socket is one tablet.
        self.input_rate = LocalRate("device")
        self.answer_language = tablet_inputs.browser_language(self.scope)
        # Shared by every tablet of the tournament on this server: a level change is one build.
        self.extra_keys = {("tablets", self.tournament_id): self.build_tablets_snapshot}
        if device is not None:
            self.groups_joined.append(live.device_group(device.pk))
        return None

    def build_snapshot(self):
        return snapshots.table_snapshot(self.table_id)

    async def send_fresh(self, *, reuse: bool = False):
        await super().send_fresh(reuse=reuse)
        if self.takes_inputs and not self.hand_warmed:
            # After the first snapshot: this table's running hand kept in memory for its next input.
            self.hand_warmed = True
            of_running_loop(_hand_keepers, _HandKeeper).add(self.table_id)

    def current_version(self):
        return snapshots.table_version(self.table_id)

    def build_tablets_snapshot(self):
        return snapshots.tablets_snapshot(self.tournament_id)

    def refresh_wants(self, content):
        """``{"type": "refresh", "hand": id, "seq": n}`` after an input sent over HTTP (tablet.js): a
        snapshot that shows that hand at event ``n`` or later, or a later hand."""
        hand_id, seq = content.get("hand"), content.get("seq")
        if not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 2**63 for v in (hand_id, seq)):
            return None
        return _shows(hand_id, seq)

    def refresh_fallback(self, content):
        """The input's patch read back (its hand and the table's version): one query, not a build."""
        if self.refresh_wants(content) is None:
            return None
        return self.read_patch(content["hand"])

    def read_patch(self, hand_id: int):
        """Reads a hand's patch of this table's snapshot, for when its announcement is late."""

        async def read_patch():
            patch = await on_socket_thread(snapshots.table_hand_patch)(self.table_id, hand_id)
            return patch, snapshots.patched_table_snapshot

        return read_patch

    async def receive_json(self, content, **kwargs):
        kind = content.get("type") if isinstance(content, dict) else None
        if kind in tablet_inputs.KINDS:
            await self.take_input(content)
        else:
            await super().receive_json(content, **kwargs)

    async def take_input(self, content: dict) -> None:
        """A dealer input (``screens.tablet_inputs``): applied in one transaction off the event loop,
        answered with the HTTP API's status and body, then followed by the snapshot that shows it (or,
        for a stale input, the state as it stands). One at a time: the next message of this socket
        waits for the answer, as a dealer's next tap waits for the last."""
        ref = content.get("ref")
        if not (isinstance(ref, str) and 0 < len(ref) <= tablet_inputs.MAX_REF):
            await self.send_json({"type": "error", "code": "bad_ref"})
            return
        if not self.takes_inputs:
            await self.send_json({"type": "answer", "ref": ref, "http": True})
            return
        wait = self.input_rate.take()
        if wait is not None:
            answer = tablet_inputs.throttled(wait)
        else:
            answer = await on_input_thread(tablet_inputs.apply)(
                self.scope.get("cookies", {}), self.table_id, content, self.socket_device
            )
        await self.send(text_data=tablet_inputs.encode(ref, answer, self.answer_language))
        for message in answer.announced:  # shown now, not after the layer's round trip
            await self.state_changed(message)
        if answer.ok and answer.hand_id is not None and len(self.pending_refreshes) < 4:
            self.send_awaited_later(_shows(answer.hand_id, answer.seq), self.read_patch(answer.hand_id))
        elif answer.stale:
            await self.send_fresh(reuse=True)

    async def state_changed(self, message):
        scope = message.get("scope")
        if not scope:  # this table's group
            if isinstance(message.get("patch"), dict):  # an input in the middle of the hand
                hub().patched(
                    self.snapshot_key, message.get("id"), message["patch"], snapshots.patched_table_snapshot
                )
            else:
                hub().changed(self.snapshot_key, message.get("id"))
            return
        hub().changed(("tablets", self.tournament_id), message.get("id"))
        if scope == live.TABLETS_EVERY_TABLE:
            hub().changed(self.snapshot_key, message.get("id"))


class _HandKeeper:
    """Keeps the running hands of the tables whose tablets connected (``dealing.services.
    keep_running_hand``), one at a time on the socket thread: after a restart 1,250 tablets reconnect
    at once, and their first snapshots must not queue behind 1,250 rebuilds (one at most)."""

    def __init__(self):
        self.waiting: dict[int, None] = {}  # table ids, in the order their sockets connected
        self.task: asyncio.Task | None = None

    def add(self, table_id: int) -> None:
        self.waiting[table_id] = None
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self._keep_all())

    async def _keep_all(self) -> None:
        while self.waiting:
            table_id = next(iter(self.waiting))
            del self.waiting[table_id]
            try:
                await on_socket_thread(keep_running_hand)(table_id)
            except Exception:  # only a head start: the table's next input rebuilds the hand as before
                logger.warning("could not keep the running hand of table %s", table_id, exc_info=True)


_hand_keepers: dict[int, _HandKeeper] = {}  # one per event loop


def _shows(hand_id: int, seq: int):
    """A predicate on a table snapshot: it shows hand ``hand_id`` at event ``seq`` or later, or a
    later hand."""

    def shows_it(snapshot: dict) -> bool:
        hand = (snapshot.get("data") or {}).get("hand") or {}
        return hand.get("id", -1) > hand_id or (hand.get("id") == hand_id and hand.get("seq", -1) >= seq)

    return shows_it


class FeatureConsumer(LiveConsumer):
    """A feature table for an audience (a stream, the room's screens): no sign-in, public payload
    only (``snapshots.feature_data``: face-up hands, never a hidden one)."""

    def authorize(self):
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        Table.objects.only("pk").get(pk=self.table_id)
        self.groups_joined = [live.table_group(self.table_id)]
        self.snapshot_key = ("feature", self.table_id)
        return None

    def build_snapshot(self):
        return snapshots.feature_snapshot(self.table_id)


class NotFoundConsumer(AsyncJsonWebsocketConsumer):
    """Any other WebSocket path (an unknown route, an id beyond 64 bits): closed as not found, the way
    an unknown page is a 404, instead of an error in the router."""

    async def connect(self):
        await self.accept()
        await self.close(code=CLOSE_NOT_FOUND)
