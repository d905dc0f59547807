"""The screens' heartbeat, kept where the socket's messages come in and go out.

A dealer tablet must show a lost server within 3 s (``static/live/tablet.js``, issue 15 item 7), so it
must hear from the server at least every 2 s. It used to ping every 2 s: at a big event that is 625
pings a second, more messages than the dealers' inputs, and a ping's round trip (a frame in, a frame
out) cost the servers and the tablets about a fifth of two cores at 1,250 tables (issue 11). Now a
socket that asks for it (``?beat=2000`` on its URL) is sent the server's heartbeat instead: a pong
whenever the server has sent it nothing for that long, so a busy table's snapshots and answers are its
heartbeat and a quiet one gets a pong every 2 s; one frame out, nothing in.

Pings are still answered, as they are received and before channels sees them: a clock screen pings
every 15 s, and a tablet pings when the server's heartbeat is late (a server from before this, during a
rolling upgrade). A ping spelled another way goes on to the consumer, which answers the same
(``LiveConsumer.receive_json``).
"""

from __future__ import annotations

import asyncio
import weakref
from urllib.parse import parse_qs

from .snapshots import server_time_ms

# What live.js sends (JSON.stringify) and Python's json.dumps spelling of it.
PINGS = frozenset({'{"type":"ping"}', '{"type": "ping"}'})
# The heartbeat a socket may ask for, in ms: faster would be a flood, slower is what pings are for.
BEAT_MS = (500, 60_000)


def pong_text() -> str:
    # The server's clock, in ms: screens count the level's time left from it (live.js's offset).
    return f'{{"type":"pong","server_time":{server_time_ms()}}}'


def beat_seconds(scope) -> float | None:
    """The heartbeat the socket asked for (``?beat=<ms>``), in seconds, within ``BEAT_MS``; None when
    it asked for none or for something that is not a whole number of ms."""
    try:
        asked = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("beat")
        ms = int(asked[0]) if asked else None
    except (ValueError, UnicodeDecodeError):
        return None
    if ms is None:
        return None
    return min(max(ms, BEAT_MS[0]), BEAT_MS[1]) / 1000


SWEEP_EVERY = 0.2  # seconds: a heartbeat is at most this late


class _Beating:
    """One socket that asked for a heartbeat: how often, and when the server last sent it anything."""

    __slots__ = ("every", "last_sent", "send")

    def __init__(self, every: float, send, now: float):
        self.every = every
        self.last_sent = now
        self.send = send


class _Beats:
    """The sockets of one event loop that asked for a heartbeat, swept by one task every
    ``SWEEP_EVERY``. A timer of its own for each socket cost a server as much again as the beats'
    sends (the loop's timer heap, a future and a task step per beat: py-spy at 1,250 tables)."""

    def __init__(self):
        self.sockets: set[_Beating] = set()
        self.task: asyncio.Task | None = None

    def add(self, beating: _Beating) -> None:
        self.sockets.add(beating)
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self.sweep())

    async def sweep(self) -> None:
        loop = asyncio.get_running_loop()
        while self.sockets:
            await asyncio.sleep(SWEEP_EVERY)
            now, text = loop.time(), None
            for beating in list(self.sockets):
                if beating in self.sockets and now - beating.last_sent >= beating.every:
                    beating.last_sent = now
                    text = text or pong_text()
                    try:
                        await beating.send({"type": "websocket.send", "text": text})
                    except Exception:  # a socket going away as it is swept: its own close ends it
                        self.sockets.discard(beating)


_beats_by_loop: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _beats() -> _Beats:
    loop = asyncio.get_running_loop()
    beats = _beats_by_loop.get(loop)
    if beats is None:
        beats = _beats_by_loop[loop] = _Beats()
    return beats


class Heartbeat:
    """ASGI middleware for WebSocket connections. While the socket is open (accepted and not yet
    closed by the application) it answers ``{"type":"ping"}`` with a pong without waking the
    consumer, and, if the socket asked for a heartbeat, sends a pong whenever nothing else was sent
    for that long."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope.get("type") != "websocket":
            return await self.app(scope, receive, send)
        every = beat_seconds(scope)
        loop = asyncio.get_running_loop()
        open_ = False
        beating = _Beating(every, send, loop.time()) if every is not None else None
        beats = _beats() if beating is not None else None

        def stop_beating():
            nonlocal open_
            open_ = False
            if beats is not None:
                beats.sockets.discard(beating)

        async def sending(message):
            nonlocal open_
            kind = message.get("type")
            if kind == "websocket.accept":
                open_ = True
                if beats is not None:
                    beats.add(beating)
            elif kind == "websocket.close":
                stop_beating()
            await send(message)
            if beating is not None:
                beating.last_sent = loop.time()  # anything the server sends tells the screen it is alive

        async def receiving():
            while True:
                message = await receive()
                if open_ and message.get("type") == "websocket.receive" and message.get("text") in PINGS:
                    await send({"type": "websocket.send", "text": pong_text()})
                    if beating is not None:
                        beating.last_sent = loop.time()
                    continue
                if message.get("type") == "websocket.disconnect":
                    stop_beating()
                return message

        try:
            return await self.app(scope, receiving, sending)
        finally:
            stop_beating()
