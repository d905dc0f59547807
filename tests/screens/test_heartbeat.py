"""The screens' heartbeat (screens.heartbeat): a tablet shows a lost server within 3 s (issue 15 item
7) because the server sends it something at least every 2 s, and at a big event that costs one frame
out, not a ping's round trip through the consumer (issue 11)."""

import asyncio
import json
import time

import pytest
from channels.db import database_sync_to_async

from screens.consumers import LiveConsumer
from screens.heartbeat import SWEEP_EVERY, Heartbeat, beat_seconds
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


async def _run(messages, app_sends, query_string=b""):
    """Heartbeat around an app that sends ``app_sends`` first, then reads every message."""
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

    scope = {"type": "websocket", "query_string": query_string}
    await asyncio.wait_for(Heartbeat(app)(scope, incoming.get, send), 2)
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


async def _tablet_socket(query: str = ""):
    """A paired tablet's socket, opened with ``query`` and past its first snapshot."""
    tournament, tables = await setup()
    table = tables[0]
    device, token = await database_sync_to_async(pair)(tournament, DeviceKind.TABLET, table)
    ws = await connect(f"/ws/tables/{table.pk}/{query}", cookie_header(device, token))
    assert (await ws.receive_json_from(timeout=2))["type"] == "snapshot"
    return ws


async def test_a_tablet_that_asks_for_a_heartbeat_hears_from_the_server_while_its_table_is_quiet():
    ws = await _tablet_socket("?beat=500")
    # Nothing happens at the table and the tablet sends nothing: the server's heartbeat comes anyway,
    # with its clock, every 0.5 s (the shortest it gives).
    started, beats = time.monotonic(), []
    while len(beats) < 3:
        message = await ws.receive_json_from(timeout=2)
        if message["type"] != "snapshot":  # the tournament's part may still come after the table's
            beats.append(message)
    took = time.monotonic() - started
    assert [b["type"] for b in beats] == ["pong"] * 3
    assert all(abs(b["server_time"] - time.time() * 1000) < 5000 for b in beats)
    assert 1.0 <= took < 4.0  # three beats 0.5 s apart, not a flood
    # Its pings are still answered at once (a tablet whose heartbeat is late asks).
    await ws.send_to(text_data='{"type":"ping"}')
    assert (await ws.receive_json_from(timeout=0.4))["type"] == "pong"
    await ws.disconnect()


async def test_a_screen_that_asks_for_no_heartbeat_gets_none():
    ws = await _tablet_socket()
    assert await ws.receive_nothing(timeout=1.2)
    await ws.disconnect()


async def test_the_heartbeat_counts_what_the_server_sent_and_stops_when_the_socket_closes():
    loop = asyncio.get_running_loop()
    sent = []

    async def send(message):
        sent.append((loop.time(), message))

    async def never():
        await asyncio.Event().wait()

    accept = {"type": "websocket.accept"}
    snapshot = {"type": "websocket.send", "text": '{"type":"snapshot"}'}
    close = {"type": "websocket.close", "code": 4010}

    # A snapshot every 0.2 s is heartbeat enough: no pong is added in 1.6 s at 1 s.
    async def busy(scope, receive, send_):
        await send_(accept)
        for _ in range(8):
            await asyncio.sleep(0.2)
            await send_(snapshot)

    await Heartbeat(busy)({"type": "websocket", "query_string": b"beat=1000"}, never, send)
    assert [m for _, m in sent] == [accept] + [snapshot] * 8

    # Quiet for 2.7 s at 1 s: two pongs, a second apart (each within a sweep of its time). Then closed
    # by the server (a revoked device): none after the close, not even while the application lingers.
    sent.clear()

    async def quiet_then_closed(scope, receive, send_):
        await send_(accept)
        await asyncio.sleep(2.7)
        await send_(close)
        await asyncio.sleep(1.2)

    await Heartbeat(quiet_then_closed)({"type": "websocket", "query_string": b"beat=1000"}, never, send)
    kinds = [json.loads(m["text"])["type"] if m["type"] == "websocket.send" else m["type"] for _, m in sent]
    assert kinds == ["websocket.accept", "pong", "pong", "websocket.close"]
    assert 0.95 <= sent[1][0] - sent[0][0] < 1.0 + 2 * SWEEP_EVERY
    assert 0.95 <= sent[2][0] - sent[1][0] < 1.0 + 2 * SWEEP_EVERY

    # Never accepted (a stranger's socket): no heartbeat at all.
    sent.clear()

    async def refused(scope, receive, send_):
        await send_({"type": "websocket.close", "code": 4001})
        await asyncio.sleep(1.2)

    await Heartbeat(refused)({"type": "websocket", "query_string": b"beat=500"}, never, send)
    assert [m["type"] for _, m in sent] == ["websocket.close"]


@pytest.mark.parametrize(
    "query, seconds",
    [
        (b"beat=2000", 2.0),
        (b"x=1&beat=2000", 2.0),
        (b"beat=1", 0.5),  # no faster than 0.5 s, whatever a page asks
        (b"beat=99999999", 60.0),
        (b"", None),
        (b"beat=", None),
        (b"beat=soon", None),
        (b"beat=2.5", None),
        (b"beat=%FF", None),
    ],
)
async def test_the_heartbeat_a_socket_asks_for_is_read_within_bounds(query, seconds):
    assert beat_seconds({"query_string": query}) == seconds
