"""A paired tablet's dealer inputs over its own socket (screens.tablet_inputs): the dealing API's
checks, statuses and bodies, the same service, and the snapshot that shows the input right after
the answer. Bad input changes nothing, whichever way it comes."""

import json

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client

from dealing import services as dealing
from dealing.models import Hand, HandEvent
from screens.models import DeviceKind
from screens.pairing import revoke_device

from .test_sockets import connect, cookie_header, pair, setup

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def _tablet(players=12):
    tournament, tables = await setup(players=players)
    table = tables[0]
    device, token = await database_sync_to_async(pair)(tournament, DeviceKind.TABLET, table)
    ws = await connect(f"/ws/tables/{table.pk}/", cookie_header(device, token))
    first = await ws.receive_json_from(timeout=2)
    assert first["type"] == "snapshot"
    return tournament, tables, device, token, ws


async def _answer(ws, message, ref="r1"):
    await ws.send_json_to({**message, "ref": ref})
    answer = await ws.receive_json_from(timeout=5)
    assert answer["type"] == "answer" and answer["ref"] == ref, answer
    return answer


async def _snapshot(ws):
    message = await ws.receive_json_from(timeout=5)
    while message.get("kind") == "tablets":  # the tournament's part (a level, the clock): not this
        message = await ws.receive_json_from(timeout=5)
    assert message["type"] == "snapshot" and message["kind"] == "table", message
    return message


def _state(table_id):
    """Everything an input could change at a table: its hands, their events and views."""
    hands = list(Hand.objects.filter(table_id=table_id).order_by("pk").values("pk", "status", "state_seq"))
    events = list(HandEvent.objects.filter(hand__table_id=table_id).order_by("pk").values_list("pk", "seq"))
    return hands, events


def _hand_and_options(table_id):
    hand = Hand.objects.filter(table_id=table_id).order_by("-number").first()
    return hand, dealing.public_view(hand)["options"]


async def test_a_paired_tablet_deals_and_acts_over_its_socket_and_gets_each_inputs_snapshot():
    """The dealer taps Deal, then an action: each is answered on the socket (201, then 200, the HTTP
    API's statuses) and followed by the table's snapshot showing it; the events record the tablet.
    A retry of the same input (same client_action_id) is answered from the log and adds nothing."""
    _tournament, tables, device, _token, ws = await _tablet()
    table = tables[0]
    dealt = await _answer(ws, {"type": "deal", "input": {"table": table.pk, "client_action_id": "deal-1"}})
    assert dealt["status"] == 201
    hand_id = dealt["body"]["hand"]["id"]
    shown = await _snapshot(ws)
    assert (
        shown["data"]["hand"]["id"] == hand_id
        and shown["data"]["hand"]["seq"] == dealt["body"]["hand"]["seq"]
    )

    hand, options = await database_sync_to_async(_hand_and_options)(table.pk)
    action = "call" if "call" in options["actions"] else "check"
    body = {
        "type": "action",
        "seat": options["seat"],
        "action": action,
        "client_action_id": "act-1",
        "expected_seq": hand.state_seq,
    }
    acted = await _answer(ws, {"type": "input", "hand": hand_id, "input": body}, ref="r2")
    assert acted["status"] == 200 and acted["body"]["replayed"] is False
    assert acted["body"]["first_seq"] == hand.state_seq + 1
    update = await _snapshot(ws)
    assert update["version"] > shown["version"]
    assert update["data"]["hand"]["seq"] == acted["body"]["last_seq"]

    event = await database_sync_to_async(
        lambda: HandEvent.objects.get(hand_id=hand_id, client_action_id="act-1")
    )()
    assert event.device == device.label and event.payload.get("seat") == options["seat"]
    before = await database_sync_to_async(_state)(table.pk)
    again = await _answer(ws, {"type": "input", "hand": hand_id, "input": body}, ref="r3")
    assert again["status"] == 200 and again["body"]["replayed"] is True
    assert again["body"]["last_seq"] == acted["body"]["last_seq"]
    assert await database_sync_to_async(_state)(table.pk) == before
    redealt = await _answer(
        ws, {"type": "deal", "input": {"table": table.pk, "client_action_id": "deal-1"}}, "r4"
    )
    assert redealt["status"] == 200 and redealt["body"]["hand"]["id"] == hand_id  # not a second hand
    await ws.disconnect()


def _bad_inputs(hand, options, other_hand):
    """(name, message, status, code) for inputs that must be refused: every one the HTTP API
    refuses the same way (docs/api-errors.md)."""
    seat, seq = options["seat"], hand.state_seq
    good = {"type": "action", "seat": seat, "client_action_id": "bad-1", "expected_seq": seq}
    wrong_seat = next(s for s in (1, 2, 3, 4, 5, 6, 7, 8) if s != seat)
    return [
        ("unknown field", {**good, "action": "fold", "colour": "red"}, 400, "invalid"),
        ("amount as text", {**good, "action": "raise", "amount": "200"}, 400, "invalid"),
        ("a fold with an amount", {**good, "action": "fold", "amount": 100}, 400, "invalid"),
        ("a raise without one", {**good, "action": "raise"}, 400, "invalid"),
        (
            "no client_action_id",
            {"type": "action", "seat": seat, "action": "fold", "expected_seq": seq},
            400,
            "invalid",
        ),
        (
            "not a card",
            {"type": "board", "cards": ["Zz"], "client_action_id": "bad-2", "expected_seq": seq},
            400,
            "invalid",
        ),
        ("stale expected_seq", {**good, "action": "fold", "expected_seq": seq - 1}, 409, "stale"),
        ("out of turn", {**good, "seat": wrong_seat, "action": "fold"}, 409, None),
        (
            "raise below the minimum (R5)",
            {**good, "action": "raise", "amount": options["min_to"] - 1},
            422,
            None,
        ),
        ("another table's hand", {**good, "action": "fold"}, 403, None),
    ]


async def test_every_bad_input_gets_the_http_apis_status_and_body_and_changes_nothing():
    """Each malformed, stale, out-of-turn, rule-breaking or misdirected input is answered on the
    socket with exactly the status and body the HTTP API answers for it (400 names the field, 409
    the state, 422 the rule and the allowed range, 403 who may), and nothing changes either way."""
    _tournament, tables, _device, token, ws = await _tablet()
    table, other = tables[0], tables[1]

    def deal_both():
        dealing.start_next_hand(table)
        other_hand = dealing.start_next_hand(other)
        hand, options = _hand_and_options(table.pk)
        return hand, options, other_hand

    hand, options, other_hand = await database_sync_to_async(deal_both)()
    await _snapshot(ws)
    http = Client(HTTP_AUTHORIZATION=f"Device {token}")
    for n, (name, body, status, code) in enumerate(_bad_inputs(hand, options, other_hand)):
        target = other_hand if name == "another table's hand" else hand
        before = (
            await database_sync_to_async(_state)(table.pk),
            await database_sync_to_async(_state)(other.pk),
        )
        answer = await _answer(ws, {"type": "input", "hand": target.pk, "input": body}, ref=f"bad{n}")
        response = await database_sync_to_async(http.post)(
            f"/api/hands/{target.pk}/actions/", json.dumps(body), content_type="application/json"
        )
        assert answer["status"] == status == response.status_code, (name, answer, response.content)
        expected = response.json()
        expected.pop("hand", None)  # a stale HTTP answer carries the hand; the socket sends the snapshot
        assert answer["body"] == expected, name
        if code is not None:
            assert answer["body"]["code"] == code, name
        if status == 422:
            assert answer["body"]["rule"].startswith("R5") and answer["body"]["params"], name
        if name == "stale expected_seq":  # the tablet is sent the state to redraw from
            fresh = await _snapshot(ws)
            assert fresh["data"]["hand"]["seq"] == hand.state_seq
        after = await database_sync_to_async(_state)(table.pk), await database_sync_to_async(_state)(other.pk)
        assert after == before, name
    assert await ws.receive_nothing(timeout=0.2)
    await ws.disconnect()


async def test_a_malformed_input_message_is_400_and_an_unknown_hand_404_and_nothing_changes():
    _tournament, tables, _device, _token, ws = await _tablet()
    table = tables[0]
    await database_sync_to_async(dealing.start_next_hand)(table)
    await _snapshot(ws)
    before = await database_sync_to_async(_state)(table.pk)
    for hand in ("1", True, None, 0, 2**64):
        answer = await _answer(ws, {"type": "input", "hand": hand, "input": {}}, ref="m")
        assert answer["status"] == 400 and answer["body"]["code"] == "invalid"
        assert "hand" in answer["body"]["errors"]
    answer = await _answer(ws, {"type": "deal", "input": ["not", "an", "object"]}, ref="m2")
    assert answer["status"] == 400 and "input" in answer["body"]["errors"]
    answer = await _answer(ws, {"type": "input", "hand": 2**62, "input": {"type": "action"}}, ref="m3")
    assert answer["status"] == 404
    await ws.send_json_to({"type": "input", "ref": "x" * 65, "hand": 1, "input": {}})
    assert await ws.receive_json_from(timeout=2) == {"type": "error", "code": "bad_ref"}
    assert await database_sync_to_async(_state)(table.pk) == before
    await ws.disconnect()


async def test_a_device_revoked_while_its_socket_is_open_acts_no_more_even_if_the_message_was_lost(
    monkeypatch,
):
    """Revoking a tablet closes its sockets (a message through the layer); the layer may drop it, so
    each input reads the device again, as each HTTP request does: 401, nothing dealt."""
    from config import live

    _tournament, tables, device, _token, ws = await _tablet()
    monkeypatch.setattr(live, "send_now", lambda group, message: None)  # the revocation is lost
    staff = await database_sync_to_async(get_user_model().objects.create_user)("director-r", is_staff=True)
    await database_sync_to_async(revoke_device)(device, actor=staff)
    answer = await _answer(ws, {"type": "deal", "input": {"table": tables[0].pk}})
    assert answer["status"] == 401 and "revoked" in answer["body"]["detail"]
    assert await database_sync_to_async(_state)(tables[0].pk) == ([], [])
    await ws.disconnect()


async def test_staff_on_a_tablet_page_are_told_to_send_over_http_where_their_session_is_checked():
    _tournament, tables = await setup(players=12)
    staff = await database_sync_to_async(get_user_model().objects.create_user)("floor-s", is_staff=True)
    client = Client()
    await database_sync_to_async(client.force_login)(staff)
    session = client.cookies["sessionid"].value
    ws = await connect(f"/ws/tables/{tables[0].pk}/", (b"cookie", f"sessionid={session}".encode()))
    await ws.receive_json_from(timeout=2)
    answer = await _answer(ws, {"type": "deal", "input": {"table": tables[0].pk}})
    assert answer == {"type": "answer", "ref": "r1", "http": True}
    assert await database_sync_to_async(_state)(tables[0].pk) == ([], [])
    await ws.disconnect()


async def test_socket_inputs_are_held_to_the_devices_api_rate_with_retry_after(settings):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "device": "2/60"}
    _tournament, tables, _device, _token, ws = await _tablet()
    for n in range(2):  # a repeated deal: answered from the log, still counted
        answer = await _answer(
            ws, {"type": "deal", "input": {"table": tables[0].pk, "client_action_id": "d"}}, f"t{n}"
        )
        assert answer["status"] in (200, 201)
        await _snapshot(ws) if n == 0 else None
    before = await database_sync_to_async(_state)(tables[0].pk)
    answer = await _answer(
        ws, {"type": "deal", "input": {"table": tables[0].pk, "client_action_id": "e"}}, "t3"
    )
    assert answer["status"] == 429 and answer["body"]["code"] == "throttled"
    assert 1 <= answer["body"]["params"]["retry_after"] <= 60
    assert await database_sync_to_async(_state)(tables[0].pk) == before
    await ws.disconnect()


async def test_a_clock_screen_sends_no_inputs():
    tournament, tables = await setup(players=12)
    device, token = await database_sync_to_async(pair)(tournament, DeviceKind.CLOCK)
    ws = await connect(f"/ws/tournaments/{tournament.pk}/clock/", cookie_header(device, token))
    await ws.receive_json_from(timeout=2)
    await ws.send_json_to({"type": "deal", "ref": "c", "input": {"table": tables[0].pk}})
    assert await ws.receive_json_from(timeout=2) == {"type": "error", "code": "unknown_message"}
    assert await database_sync_to_async(_state)(tables[0].pk) == ([], [])
    await ws.disconnect()


async def test_the_tablet_shows_its_own_input_without_the_layers_copy_of_the_announcement(monkeypatch):
    """The server that applied a tablet's input shows it on that tablet at once, from what the input's
    transaction announced, not after the channel layer's round trip: with every layer message lost
    (and the hub's fallback read pushed far off), the deal and the action still reach the tablet,
    each as one snapshot with a newer version."""
    from config import live
    from screens import snapshot_hub

    _tournament, tables, _device, _token, ws = await _tablet()
    table = tables[0]

    async def lost(layer, messages):
        return None

    monkeypatch.setattr(live, "_send_all", lost)
    monkeypatch.setattr(snapshot_hub, "PATIENCE", 60.0)  # no read-back of the patch in this test
    dealt = await _answer(ws, {"type": "deal", "input": {"table": table.pk, "client_action_id": "deal-e"}})
    assert dealt["status"] == 201
    shown = await _snapshot(ws)
    assert shown["data"]["hand"]["id"] == dealt["body"]["hand"]["id"]

    hand, options = await database_sync_to_async(_hand_and_options)(table.pk)
    body = {
        "type": "action",
        "seat": options["seat"],
        "action": "call" if "call" in options["actions"] else "check",
        "client_action_id": "act-e",
        "expected_seq": hand.state_seq,
    }
    acted = await _answer(ws, {"type": "input", "hand": hand.pk, "input": body}, ref="r2")
    assert acted["status"] == 200
    update = await _snapshot(ws)
    assert update["version"] > shown["version"]
    assert update["data"]["hand"]["seq"] == acted["body"]["last_seq"]
    assert await ws.receive_nothing(timeout=0.3)  # one snapshot per input, nothing sent twice
    await ws.disconnect()


async def test_a_refused_input_announces_nothing_and_the_tablet_is_sent_no_snapshot_for_it():
    _tournament, tables, _device, _token, ws = await _tablet()
    answer = await _answer(ws, {"type": "input", "hand": 999999, "input": {"type": "action"}})
    assert answer["status"] in (400, 404)
    assert await ws.receive_nothing(timeout=0.3)
    assert await database_sync_to_async(_state)(tables[0].pk) == ([], [])
    await ws.disconnect()


async def test_a_tablets_input_is_applied_on_the_servers_input_thread(monkeypatch):
    """Not on the event loop (every socket waits then) and not behind the snapshot builds
    (config.threads): on the thread that applies only dealers' inputs."""
    import threading

    from screens import tablet_inputs

    seen = []
    apply = tablet_inputs.apply

    def recorded(*args):
        seen.append(threading.current_thread().name)
        return apply(*args)

    monkeypatch.setattr(tablet_inputs, "apply", recorded)
    _tournament, tables, _device, _token, ws = await _tablet()
    answer = await _answer(ws, {"type": "deal", "input": {"table": tables[0].pk}})
    assert answer["status"] == 201
    assert len(seen) == 1 and seen[0].startswith("input-db"), seen
    await ws.disconnect()
