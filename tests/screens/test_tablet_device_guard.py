"""A tablet socket's device between its inputs (screens.tablet_inputs.SocketDevice): read at the first
input and again each minute (its "last seen" touched then), and in between checked where each action
is written (screens.pairing.tablet_guard), so a revoked tablet acts no more from its next input even
when the message that closes its socket is lost, and an ordinary action costs no read of the device."""

import datetime
import time

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from dealing import kept_writes
from screens import tablet_inputs
from screens.models import Device, DeviceKind
from screens.pairing import revoke_device
from tests.dealing.replay import next_input

from .test_sockets import pair, setup
from .test_tablet_socket_inputs import _hand_and_options, _snapshot, _state, _tablet

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def _answer(ws, message, ref):
    """The answer to ``message``, past the snapshots that may come before it (the tournament's part)."""
    await ws.send_json_to({**message, "ref": ref})
    answer = await ws.receive_json_from(timeout=5)
    while answer["type"] == "snapshot":
        answer = await ws.receive_json_from(timeout=5)
    assert answer["type"] == "answer" and answer["ref"] == ref, answer
    return answer


async def test_a_tablet_revoked_between_two_actions_acts_no_more_even_if_the_message_was_lost(monkeypatch):
    """Its device was read at the deal and kept by the socket; the revocation's message is lost: the
    next action is answered 401 and nothing is written."""
    from config import live

    _tournament, tables, device, _token, ws = await _tablet()
    table = tables[0]
    dealt = await _answer(ws, {"type": "deal", "input": {"table": table.pk}}, "d")
    assert dealt["status"] == 201
    await _snapshot(ws)
    first = await _answer(ws, await database_sync_to_async(_action)(table.pk, "a1"), "a1")
    assert first["status"] == 200
    await _snapshot(ws)
    monkeypatch.setattr(live, "send_now", lambda group, message: None)  # the revocation is lost
    staff = await database_sync_to_async(get_user_model().objects.create_user)("director-g", is_staff=True)
    await database_sync_to_async(revoke_device)(device, actor=staff)
    before = await database_sync_to_async(_state)(table.pk)
    refused = await _answer(ws, await database_sync_to_async(_action)(table.pk, "a2"), "a2")
    assert refused["status"] == 401 and "revoked" in refused["body"]["detail"]
    assert await database_sync_to_async(_state)(table.pk) == before
    await ws.disconnect()


def _dealt_tablet(tournament, tables):
    table = tables[0]
    device, token = pair(tournament, DeviceKind.TABLET, table)
    cookies = {device.cookie_name: token}
    known = tablet_inputs.SocketDevice()
    answer = tablet_inputs.apply(cookies, table.pk, {"type": "deal", "input": {"table": table.pk}}, known)
    assert answer.status == 201
    return table, device, cookies, known


def _action(table_id, ref):
    hand, _options = _hand_and_options(table_id)
    body = {**next_input(hand), "expected_seq": hand.state_seq, "client_action_id": ref}
    return {"type": "input", "hand": hand.pk, "input": body}


def _device_reads(queries) -> int:
    """Reads of the device row itself (not the guard's EXISTS inside an input's write)."""
    return sum(1 for q in queries if Device._meta.db_table in q["sql"] and "EXISTS" not in q["sql"])


async def test_an_ordinary_action_reads_no_device_and_a_minute_later_the_device_is_read_and_seen():
    tournament, tables = await setup()
    await database_sync_to_async(_no_read_then_read_after_a_minute)(tournament, tables)


def _no_read_then_read_after_a_minute(tournament, tables):
    table, device, cookies, known = _dealt_tablet(tournament, tables)
    assert known.device is not None and known.device.pk == device.pk  # read by the deal
    with CaptureQueriesContext(connection) as captured:
        answer = tablet_inputs.apply(cookies, table.pk, _action(table.pk, "act-1"), known)
    assert answer.status == 200
    assert _device_reads(captured.captured_queries) == 0
    if kept_writes.usable():  # PostgreSQL: the action is its one statement, the device checked in it
        writes = [q["sql"] for q in captured.captured_queries if q["sql"].startswith("WITH")]
        assert len(writes) == 1 and "EXISTS" in writes[0]

    # A minute on: read again (a label edited meanwhile is recorded from now on), "last seen" touched.
    long_ago = timezone.now() - datetime.timedelta(minutes=5)
    Device.objects.filter(pk=device.pk).update(last_seen_at=long_ago, label="Table 1 (new tablet)")
    known.read_at -= tablet_inputs.DEVICE_READ_EVERY
    with CaptureQueriesContext(connection) as captured:
        answer = tablet_inputs.apply(cookies, table.pk, _action(table.pk, "act-2"), known)
    assert answer.status == 200
    assert _device_reads(captured.captured_queries) >= 1
    device.refresh_from_db()
    assert device.last_seen_at > long_ago
    assert known.device.label == "Table 1 (new tablet)"


async def test_a_revoked_tablets_refused_input_is_answered_401_first_as_over_http():
    """Revoked while its socket holds its device: a message the API would refuse anyway (400, 404) is
    answered 401, as the HTTP path answers a revoked device before looking at the request."""
    tournament, tables = await setup()
    await database_sync_to_async(_refused_after_revocation)(tournament, tables)


def _refused_after_revocation(tournament, tables):
    table, device, cookies, known = _dealt_tablet(tournament, tables)
    staff = get_user_model().objects.create_user("director-h", is_staff=True)
    revoke_device(device, actor=staff)
    hand_id, held = _action(table.pk, "x")["hand"], (known.device, known.guard)
    for message in (
        {"type": "input", "hand": hand_id, "input": {"type": "action", "seat": "one"}},  # 400 otherwise
        {"type": "input", "hand": 2**62, "input": {"type": "action"}},  # 404 otherwise
        _action(table.pk, "a1"),  # refused by the check in its write
    ):
        known.device, known.guard = held  # as the socket held them before the revocation
        known.read_at = time.monotonic()
        assert tablet_inputs.apply(cookies, table.pk, message, known).status == 401


async def test_a_deal_reads_no_device_and_a_tablet_revoked_between_hands_deals_no_more():
    """The socket's device is checked in the read that locks the table (a deal costs no read of the
    device); revoked between two hands with the message that closes its socket lost, the tablet's
    next deal is answered 401 and no hand is dealt."""
    tournament, tables = await setup()
    await database_sync_to_async(_deals_on_the_kept_device)(tournament, tables)


def _deals_on_the_kept_device(tournament, tables):
    from dealing import services
    from dealing.models import Hand

    table, device, cookies, known = _dealt_tablet(tournament, tables)
    staff = get_user_model().objects.create_user("director-d", is_staff=True)
    deal = {"type": "deal", "input": {"table": table.pk}}
    services.void_hand(Hand.objects.get(table=table, status="running"), actor=staff, reason="misdeal")
    with CaptureQueriesContext(connection) as captured:
        answer = tablet_inputs.apply(cookies, table.pk, deal, known)
    assert answer.status == 201
    assert _device_reads(captured.captured_queries) == 0
    services.void_hand(Hand.objects.get(table=table, status="running"), actor=staff, reason="misdeal")
    revoke_device(device, actor=staff)
    hands = Hand.objects.filter(table=table).count()
    answer = tablet_inputs.apply(cookies, table.pk, deal, known)
    assert answer.status == 401 and "revoked" in answer.body["detail"]
    assert Hand.objects.filter(table=table).count() == hands
    assert not Hand.objects.filter(table=table, status="running").exists()
