"""After a server restarts, a dealer tablet's socket that reconnects has its table's running hand kept
for its next input (dealing.services.keep_running_hand, after the first snapshot, on the socket
thread): the input does not rebuild the hand from its log, and a clock screen or staff's tablet page
keeps nothing."""

import asyncio

import pytest
from channels.db import database_sync_to_async

from dealing import hand_cache
from dealing import services as dealing
from dealing.models import Hand
from screens.models import DeviceKind
from tests.dealing.replay import next_input

from .test_sockets import connect, cookie_header, pair, setup

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _hand_in_play(table):
    hand = dealing.start_next_hand(table)
    call = next_input(Hand.objects.get(pk=hand.pk))
    hand_cache.clear()  # the server restarted
    return Hand.objects.get(pk=hand.pk), call


async def _kept(hand_id, timeout=5.0):
    waited = 0.0
    while hand_cache.table_of(hand_id) is None and waited < timeout:
        await asyncio.sleep(0.02)
        waited += 0.02
    return hand_cache.table_of(hand_id)


async def test_a_reconnected_tablets_next_action_does_not_rebuild_the_hand(monkeypatch):
    tournament, tables = await setup()
    table = tables[0]
    device, token = await database_sync_to_async(pair)(tournament, DeviceKind.TABLET, table)
    hand, call = await database_sync_to_async(_hand_in_play)(table)
    ws = await connect(f"/ws/tables/{table.pk}/", cookie_header(device, token))
    first = await ws.receive_json_from(timeout=2)
    assert first["type"] == "snapshot" and first["data"]["hand"]["id"] == hand.pk
    assert await _kept(hand.pk) == table.pk

    rebuilds, real = [], dealing.engine_hand
    monkeypatch.setattr(dealing, "engine_hand", lambda *a, **k: rebuilds.append(1) or real(*a, **k))
    body = {**call, "expected_seq": hand.state_seq, "client_action_id": "after-restart"}
    await ws.send_json_to({"type": "input", "ref": "r1", "hand": hand.pk, "input": body})
    answer = await ws.receive_json_from(timeout=5)
    while answer["type"] == "snapshot":
        answer = await ws.receive_json_from(timeout=5)
    assert answer["status"] == 200, answer
    assert rebuilds == []
    await ws.disconnect()


async def test_a_screen_that_sends_no_inputs_keeps_no_hand():
    tournament, tables = await setup()
    table = tables[0]
    hand, _call = await database_sync_to_async(_hand_in_play)(table)
    clock, token = await database_sync_to_async(pair)(tournament, DeviceKind.CLOCK)
    ws = await connect(f"/ws/tournaments/{tournament.pk}/clock/", cookie_header(clock, token))
    assert (await ws.receive_json_from(timeout=2))["type"] == "snapshot"
    assert await _kept(hand.pk, timeout=0.3) is None
    await ws.disconnect()
