"""The screens' heartbeat, answered where the socket's messages come in.

Every dealer tablet pings every 2 s, so that a lost server is shown within 3 s (``static/live/tablet.js``):
at a big event that is 625 pings a second, more messages than the dealers' inputs. Through the
consumer, each ping cost a server about a quarter of a millisecond (channels' dispatch loop, the JSON
decoder and encoder), so a tenth of a core went on pings alone. Here the exact ping that ``live.js``
sends is answered as it is received, before channels sees it; anything else, and a ping spelled
another way, goes on to the consumer, which answers the same (``LiveConsumer.receive_json``).
"""

from __future__ import annotations

from .snapshots import server_time_ms

# What live.js sends (JSON.stringify) and Python's json.dumps spelling of it.
PINGS = frozenset({'{"type":"ping"}', '{"type": "ping"}'})


def pong_text() -> str:
    # The server's clock, in ms: screens count the level's time left from it (live.js's offset).
    return f'{{"type":"pong","server_time":{server_time_ms()}}}'


class PingAnswering:
    """ASGI middleware for WebSocket connections: answers ``{"type":"ping"}`` with a pong while the
    socket is open (accepted and not yet closed by the application), without waking the consumer."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope.get("type") != "websocket":
            return await self.app(scope, receive, send)
        open_ = False

        async def sending(message):
            nonlocal open_
            kind = message.get("type")
            if kind == "websocket.accept":
                open_ = True
            elif kind == "websocket.close":
                open_ = False
            await send(message)

        async def receiving():
            nonlocal open_
            while True:
                message = await receive()
                if open_ and message.get("type") == "websocket.receive" and message.get("text") in PINGS:
                    await send({"type": "websocket.send", "text": pong_text()})
                    continue
                if message.get("type") == "websocket.disconnect":
                    open_ = False
                return message

        return await self.app(scope, receiving, sending)
