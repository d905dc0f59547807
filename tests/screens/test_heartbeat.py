"""The screens' heartbeat (screens.heartbeat): a tablet shows a lost server within 3 s by its pings
(issue 15 item 7), and at a big event those pings are answered without waking the consumer (issue 11)."""

import asyncio
import json
import time

import pytest
from channels.db import database_sync_to_async

from screens.consumers import LiveConsumer
from screens.heartbeat import PingAnswering
from screens.models import DeviceKind
from tests.screens.test_sockets import connect, cookie_header, pair, setup

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_the_tablets_ping_is_answered_with_the_servers_clock_without_reaching_the_consumer(monkeypatch):
    seen = []
    original = LiveConsumer.receive_json

    async def recording(self, content, **kwargs):
        seen.append(content)
        return await original(self, content, **kwargs)

    monkeypatch.setattr(LiveConsumer, "receive_json", recording)
    tournament, tables = await setup()
    table = tables[0]
    device, token = await database_sync_to_async(pair)(tournament, DeviceKind.TABLET, table)
    ws = await connect(f"/ws/tables/{table.pk}/", cookie_header(device, token))
    first = await ws.receive_json_from(timeout=2)
    assert first["type"] == "snapshot"

    before = int(time.time() * 1000)
    await ws.send_to(text_data='{"type":"ping"}')  # exactly what live.js sends (JSON.stringify)
    pong = await ws.receive_json_from(timeout=2)
    assert pong["type"] == "pong" and before <= pong["server_time"] <= int(time.time() * 1000)
    assert seen == []  # answered before channels and the consumer

    # Spelled another way it still gets its pong, from the consumer.
    await ws.send_to(text_data=json.dumps({"type": "ping", "extra": 1}))
    assert (await ws.receive_json_from(timeout=2))["type"] == "pong"
    # Any other message goes on to the consumer as before: a refresh brings the snapshot.
    await ws.send_json_to({"type": "refresh"})
    again = await ws.receive_json_from(timeout=2)
    assert again["type"] == "snapshot" and again["version"] >= first["version"]
    assert [m["type"] for m in seen] == ["ping", "refresh"]
    await ws.disconnect()


async def _run(messages, app_sends):
    """PingAnswering around an app that sends ``app_sends`` first, then reads every message."""
    incoming = asyncio.Queue()
    for message in messages:
        incoming.put_nowait(message)
    sent, reached_app = [], []

    async def app(scope, receive, send):
        for message in app_sends:
            await send(message)
        while True:
            message = await receive()
            reached_app.append(message)
            if message["type"] == "websocket.disconnect":
                return

    async def send(message):
        sent.append(message)

    await asyncio.wait_for(PingAnswering(app)({"type": "websocket"}, incoming.get, send), 2)
    return sent, reached_app


PING = {"type": "websocket.receive", "text": '{"type":"ping"}'}
BYE = {"type": "websocket.disconnect", "code": 1000}


async def test_no_pong_is_sent_on_a_socket_the_server_has_not_accepted_or_has_closed():
    # Refused (closed without accept, as a stranger's socket is): the ping is the application's.
    sent, reached = await _run([PING, BYE], [{"type": "websocket.close", "code": 4001}])
    assert [m["type"] for m in sent] == ["websocket.close"]
    assert reached == [PING, BYE]
    # Accepted, then closed by the server (a revoked device): no pong after the close.
    sent, reached = await _run(
        [PING, BYE], [{"type": "websocket.accept"}, {"type": "websocket.close", "code": 4010}]
    )
    assert [m["type"] for m in sent] == ["websocket.accept", "websocket.close"]
    assert reached == [PING, BYE]
    # Accepted and open: answered here, never seen by the application.
    sent, reached = await _run([PING, PING, BYE], [{"type": "websocket.accept"}])
    assert [m["type"] for m in sent] == ["websocket.accept", "websocket.send", "websocket.send"]
    assert all(json.loads(m["text"])["type"] == "pong" for m in sent[1:])
    assert reached == [BYE]
