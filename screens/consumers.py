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

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.core.exceptions import ObjectDoesNotExist

from config import live
from config.permissions import is_staff
from tables.models import Table
from tournaments.models import Tournament

from . import snapshots
from .models import DeviceKind
from .pairing import device_from_cookies

CLOSE_UNAUTHENTICATED = 4001
CLOSE_FORBIDDEN = 4003
CLOSE_NOT_FOUND = 4004
CLOSE_REVOKED = 4010
COALESCE_SECONDS = 0.05
MAX_MESSAGE_CHARS = 1024  # a ping or a refresh is a few dozen


class LiveConsumer(AsyncJsonWebsocketConsumer):
    """Sends versioned snapshots of one thing to one screen. Subclasses say who may see what."""

    groups_joined: list[str]

    async def connect(self):
        self.groups_joined = []
        self.last_version = -1
        self.dirty = False
        self.rebuild_task = None
        await self.accept()
        try:
            decision = await database_sync_to_async(self.authorize)()
        except ObjectDoesNotExist:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        if decision is not None:
            await self.close(code=decision)
            return
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.send_snapshot(force=True)

    async def disconnect(self, code):
        if getattr(self, "rebuild_task", None) is not None:
            self.rebuild_task.cancel()
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    def authorize(self) -> int | None:
        """Set ``self.groups_joined`` and return None, or return a close code."""
        raise NotImplementedError

    def build_snapshot(self) -> dict:
        raise NotImplementedError

    async def send_snapshot(self, force: bool = False):
        try:
            snapshot = await database_sync_to_async(self.build_snapshot)()
        except ObjectDoesNotExist:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        if force or snapshot["version"] > self.last_version:
            self.last_version = max(self.last_version, snapshot["version"])
            await self.send_json(snapshot)

    async def state_changed(self, message):
        # Coalesce a burst (a hand's end touches the table, the seats and the tournament at once):
        # the handler returns at once and one rebuild, a moment later, covers every change so far.
        self.dirty = True
        if self.rebuild_task is None or self.rebuild_task.done():
            self.rebuild_task = asyncio.ensure_future(self.rebuild())

    async def rebuild(self):
        while self.dirty:
            await asyncio.sleep(COALESCE_SECONDS)
            self.dirty = False
            await self.send_snapshot()

    async def device_revoked(self, message):
        if self.rebuild_task is not None:
            self.rebuild_task.cancel()
        await self.send_json({"type": "revoked"})
        await self.close(code=CLOSE_REVOKED)

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        """Screens only ever send a small JSON object: anything else is answered with an error
        message and changes nothing (the socket stays open)."""
        if text_data is None or len(text_data) > MAX_MESSAGE_CHARS:
            await self.send_json({"type": "error", "code": "bad_message"})
            return
        try:
            content = await self.decode_json(text_data)
        except ValueError:
            await self.send_json({"type": "error", "code": "bad_message"})
            return
        await self.receive_json(content, **kwargs)

    async def receive_json(self, content, **kwargs):
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "refresh":
            # The client saw a gap (woke from sleep, missed messages): a fresh full snapshot.
            await self.send_snapshot(force=True)
        elif kind == "ping":
            await self.send_json({"type": "pong", "server_time": snapshots.server_time_ms()})
        else:
            # Sockets only read: actions go through the HTTP API (with its checks and statuses).
            await self.send_json({"type": "error", "code": "unknown_message"})


class ClockConsumer(LiveConsumer):
    """A clock screen (paired clock device or staff): read only."""

    def authorize(self):
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        self.groups_joined = [live.tournament_group(self.tournament_id)]
        if not is_staff(self.scope.get("user")):
            # Checked first, so a stranger learns nothing about which tournaments exist.
            device = device_from_cookies(self.scope.get("cookies", {}), DeviceKind.CLOCK, self.tournament_id)
            if device is None:
                return CLOSE_UNAUTHENTICATED
            self.groups_joined.append(live.device_group(device.pk))
        Tournament.objects.only("pk").get(pk=self.tournament_id)
        return None

    def build_snapshot(self):
        return snapshots.clock_snapshot(self.tournament_id)


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
        self.groups_joined = [live.tournament_group(self.tournament_id)]
        return None

    def build_snapshot(self):
        return snapshots.director_snapshot(self.tournament_id)


class TableConsumer(LiveConsumer):
    """A dealer tablet (its paired device or staff): one table's snapshot. It listens to its table's
    group and its tournament's (a level change or hand-for-hand changes what the tablet shows);
    actions go through the dealing HTTP API, not this socket."""

    def authorize(self):
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        device = None
        if not is_staff(self.scope.get("user")):
            # Checked first, so a stranger learns nothing about which tables exist.
            device = device_from_cookies(self.scope.get("cookies", {}), DeviceKind.TABLET, self.table_id)
            if device is None:
                return CLOSE_UNAUTHENTICATED
        table = Table.objects.only("pk", "tournament_id").get(pk=self.table_id)
        self.groups_joined = [live.table_group(table.pk), live.tournament_group(table.tournament_id)]
        if device is not None:
            self.groups_joined.append(live.device_group(device.pk))
        return None

    def build_snapshot(self):
        return snapshots.table_snapshot(self.table_id)
