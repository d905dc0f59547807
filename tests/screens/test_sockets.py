"""WebSocket consumers: snapshots, versions, who may connect, origin checks and revocation."""

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from config.asgi import application
from screens.models import DeviceKind
from screens.pairing import create_pairing_code, redeem_pairing_code, revoke_device
from screens.snapshots import find_private_keys
from tests.screens.live import live_tournament
from tournaments.models import tournament_changed

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

ORIGIN = (b"origin", b"http://testserver")


def pair(tournament, kind, table=None):
    new = create_pairing_code(tournament=tournament, kind=kind, table=table)
    return redeem_pairing_code(new.code)


def cookie_header(device, token):
    return (b"cookie", f"{device.cookie_name}={token}".encode())


async def connect(path, *headers):
    communicator = WebsocketCommunicator(application, path, headers=[ORIGIN, *headers])
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def expect_closed(communicator, code):
    message = await communicator.receive_output(timeout=2)
    while message["type"] == "websocket.send":
        message = await communicator.receive_output(timeout=2)
    assert message == {"type": "websocket.close", "code": code}


@database_sync_to_async
def setup(**kwargs):
    tournament = live_tournament(**kwargs)
    tables = list(tournament.tables.order_by("number"))
    return tournament, tables


async def test_paired_clock_gets_a_versioned_public_snapshot_on_connect():
    tournament, _ = await setup(master_seed=True)
    device, token = await database_sync_to_async(pair)(tournament, DeviceKind.CLOCK)
    ws = await connect(f"/ws/tournaments/{tournament.pk}/clock/", cookie_header(device, token))
    snap = await ws.receive_json_from(timeout=2)
    assert snap["type"] == "snapshot" and snap["kind"] == "clock"
    assert snap["version"] > 0
    data = snap["data"]
    assert data["clock"]["running"] is True and data["clock"]["level_ends_at"] > snap["server_time"]
    assert [row["is_break"] for row in data["schedule"]] == [False, False, True, False, False]
    assert data["schedule"][3]["number"] == 3  # breaks are not counted as levels
    assert data["field"]["players_left"] == 6 and data["field"]["prize_pool"] == 600
    assert data["tournament"]["seed_commitment"] == tournament.master_seed_commitment
    assert find_private_keys(snap) == []
    assert tournament.master_seed.hex() not in str(snap)
    await ws.disconnect()


async def test_a_change_after_commit_sends_a_newer_version_and_duplicates_send_nothing():
    from tournaments import services

    tournament, _ = await setup()
    device, token = await database_sync_to_async(pair)(tournament, DeviceKind.CLOCK)
    ws = await connect(f"/ws/tournaments/{tournament.pk}/clock/", cookie_header(device, token))
    first = await ws.receive_json_from(timeout=2)
    await database_sync_to_async(services.pause_clock)(tournament)
    update = await ws.receive_json_from(timeout=2)
    assert update["version"] > first["version"]
    assert update["data"]["clock"]["paused"] is True and update["data"]["clock"]["level_ends_at"] is None
    # A duplicated notification with nothing new committed: the consumer sends nothing.
    from channels.layers import get_channel_layer

    await get_channel_layer().group_send(f"tournament-{tournament.pk}", {"type": "state.changed"})
    assert await ws.receive_nothing(timeout=0.3)
    # Asking for a refresh (a client that saw a gap) gets the same version again, in full.
    await ws.send_json_to({"type": "refresh"})
    again = await ws.receive_json_from(timeout=2)
    assert again["version"] == update["version"] and again["data"] == update["data"]
    await ws.disconnect()


async def test_a_rolled_back_change_is_never_sent():
    from django.db import transaction

    from tournaments import services

    tournament, _ = await setup()
    device, token = await database_sync_to_async(pair)(tournament, DeviceKind.CLOCK)
    ws = await connect(f"/ws/tournaments/{tournament.pk}/clock/", cookie_header(device, token))
    await ws.receive_json_from(timeout=2)

    def pause_then_fail():
        with pytest.raises(RuntimeError), transaction.atomic():
            services.pause_clock(tournament)
            raise RuntimeError("boom")

    await database_sync_to_async(pause_then_fail)()
    assert await ws.receive_nothing(timeout=0.3)
    await ws.disconnect()


async def test_unpaired_screens_and_wrong_devices_are_turned_away():
    tournament, tables = await setup(players=10)
    other, _ = await setup(players=0, start=False, name="Other")
    ws = await connect(f"/ws/tournaments/{tournament.pk}/clock/")
    await expect_closed(ws, 4001)
    # A clock device of another tournament.
    device, token = await database_sync_to_async(pair)(other, DeviceKind.CLOCK)
    ws = await connect(f"/ws/tournaments/{tournament.pk}/clock/", cookie_header(device, token))
    await expect_closed(ws, 4001)
    # A tablet for table 1 on table 2's socket: its cookie does not name table 2.
    tablet, tablet_token = await database_sync_to_async(pair)(tournament, DeviceKind.TABLET, tables[0])
    header = (b"cookie", f"dev_t{tables[1].pk}={tablet_token}".encode())
    ws = await connect(f"/ws/tables/{tables[1].pk}/", header)
    await expect_closed(ws, 4001)
    # A clock device's token presented as a tablet.
    _clock, clock_token = await database_sync_to_async(pair)(tournament, DeviceKind.CLOCK)
    ws = await connect(
        f"/ws/tables/{tables[0].pk}/", (b"cookie", f"dev_t{tables[0].pk}={clock_token}".encode())
    )
    await expect_closed(ws, 4001)
    # The right tablet on its own table gets the table snapshot.
    ws = await connect(f"/ws/tables/{tables[0].pk}/", cookie_header(tablet, tablet_token))
    snap = await ws.receive_json_from(timeout=2)
    assert snap["kind"] == "table" and snap["data"]["table"]["number"] == 1
    assert find_private_keys(snap) == []
    await ws.disconnect()


async def test_a_foreign_origin_is_refused():
    tournament, _ = await setup()
    device, token = await database_sync_to_async(pair)(tournament, DeviceKind.CLOCK)
    communicator = WebsocketCommunicator(
        application,
        f"/ws/tournaments/{tournament.pk}/clock/",
        headers=[(b"origin", b"http://evil.example"), cookie_header(device, token)],
    )
    connected, _ = await communicator.connect()
    assert not connected


async def test_every_socket_checks_the_origin_even_for_staff():
    """A page on another site (or a client sending no Origin) cannot open any socket, not even with a
    staff session cookie; the same session from our own origin can."""
    from django.contrib.auth import get_user_model

    tournament, tables = await setup()
    user = await database_sync_to_async(get_user_model().objects.create_user)("origin-staff", is_staff=True)
    client = Client()
    await database_sync_to_async(client.force_login)(user)
    session = (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())
    paths = [
        f"/ws/tournaments/{tournament.pk}/clock/",
        f"/ws/tournaments/{tournament.pk}/director/",
        f"/ws/tables/{tables[0].pk}/",
    ]
    for path in paths:
        for headers in ([(b"origin", b"https://evil.example"), session], [session]):
            communicator = WebsocketCommunicator(application, path, headers=headers)
            connected, _ = await communicator.connect()
            assert not connected, (path, headers[0])
        ws = await connect(path, session)
        assert (await ws.receive_json_from(timeout=2))["type"] == "snapshot"
        await ws.disconnect()


async def test_revoking_a_device_closes_its_open_sockets():
    tournament, tables = await setup()
    device, token = await database_sync_to_async(pair)(tournament, DeviceKind.TABLET, tables[0])
    ws = await connect(f"/ws/tables/{tables[0].pk}/", cookie_header(device, token))
    await ws.receive_json_from(timeout=2)
    await database_sync_to_async(revoke_device)(device)
    assert await ws.receive_json_from(timeout=2) == {"type": "revoked"}
    await expect_closed(ws, 4010)
    # And it cannot come back.
    ws = await connect(f"/ws/tables/{tables[0].pk}/", cookie_header(device, token))
    await expect_closed(ws, 4001)


async def test_director_socket_is_for_staff_only():
    from django.contrib.auth import get_user_model

    tournament, _ = await setup()

    def session_cookie(is_staff):
        user = get_user_model().objects.create_user(f"u{is_staff}", password="x-pw-123456", is_staff=is_staff)
        client = Client()
        client.force_login(user)
        return (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())

    ws = await connect(f"/ws/tournaments/{tournament.pk}/director/")
    await expect_closed(ws, 4001)
    player = await database_sync_to_async(session_cookie)(False)
    ws = await connect(f"/ws/tournaments/{tournament.pk}/director/", player)
    await expect_closed(ws, 4003)
    director = await database_sync_to_async(session_cookie)(True)
    ws = await connect(f"/ws/tournaments/{tournament.pk}/director/", director)
    snap = await ws.receive_json_from(timeout=2)
    assert snap["kind"] == "director"
    assert [t["number"] for t in snap["data"]["tables"]] == [1]
    assert find_private_keys(snap) == []
    # Staff may also watch any clock and any table without pairing.
    ws2 = await connect(f"/ws/tournaments/{tournament.pk}/clock/", director)
    assert (await ws2.receive_json_from(timeout=2))["kind"] == "clock"
    await ws.disconnect()
    await ws2.disconnect()


async def test_unknown_tournament_or_table_is_not_found_for_staff_and_unauthorised_for_strangers():
    from django.contrib.auth import get_user_model

    def staff_cookie():
        user = get_user_model().objects.create_user("floor", password="x-pw-123456", is_staff=True)
        client = Client()
        client.force_login(user)
        return (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())

    ws = await connect("/ws/tournaments/999999/clock/")
    await expect_closed(ws, 4001)
    ws = await connect("/ws/tables/999999/")
    await expect_closed(ws, 4001)
    staff = await database_sync_to_async(staff_cookie)()
    ws = await connect("/ws/tournaments/999999/clock/", staff)
    await expect_closed(ws, 4004)
    ws = await connect("/ws/tables/999999/", staff)
    await expect_closed(ws, 4004)


async def test_tablet_follows_its_hand_action_by_action_with_growing_versions():
    """R4.2: the exposed flop card is in the table snapshot before any betting; options come from the engine."""
    from dealing import services as dealing

    tournament, tables = await setup(players=3)
    table = tables[0]
    device, token = await database_sync_to_async(pair)(tournament, DeviceKind.TABLET, table)
    ws = await connect(f"/ws/tables/{table.pk}/", cookie_header(device, token))
    empty = await ws.receive_json_from(timeout=2)
    assert empty["data"]["hand"] is None and len(empty["data"]["seats"]) == 8
    hand = await database_sync_to_async(dealing.start_next_hand)(table)
    dealt = await ws.receive_json_from(timeout=2)
    assert dealt["version"] > empty["version"]
    state = dealt["data"]["hand"]["state"]
    assert len(state["board"]) == 1 and state["street"] == "preflop"
    options = state["options"]
    assert options["call"] == 20 and "fold" in options["actions"]
    await database_sync_to_async(dealing.apply_input)(
        hand,
        {"type": "action", "seat": options["seat"], "action": "call"},
        expected_seq=dealt["data"]["hand"]["seq"],
        client_action_id="tablet-1",
    )
    after = await ws.receive_json_from(timeout=2)
    assert after["version"] > dealt["version"]
    assert after["data"]["hand"]["seq"] > dealt["data"]["hand"]["seq"]
    assert after["data"]["hand"]["state"]["to_act"] != options["seat"]
    assert find_private_keys(after) == []
    await ws.disconnect()


async def test_a_seat_move_waits_for_done_on_the_tablet_it_leaves_and_the_arrival_is_seated():
    """Issue 15 item 8: the tablet of the table the player leaves lists the move until its dealer taps
    Done; the tablet of the table they join shows them in the seat map at once, with no notice left."""
    from tables import services as tables_services
    from tables.models import Move

    tournament, tables = await setup(players=12)
    first, second = tables

    def move_one():
        seat = first.seat_set.filter(entry__isnull=False).order_by("number").first()
        empty = second.seat_set.filter(entry__isnull=True).order_by("number").first()
        return tables_services.move_entry(seat.entry, second, empty.number, reason="balance by hand")

    sockets = []
    for table in (first, second):
        device, token = await database_sync_to_async(pair)(tournament, DeviceKind.TABLET, table)
        ws = await connect(f"/ws/tables/{table.pk}/", cookie_header(device, token))
        await ws.receive_json_from(timeout=2)
        sockets.append(ws)
    leaving, joining = sockets
    move = await database_sync_to_async(move_one)()
    snap = await leaving.receive_json_from(timeout=2)
    assert [(m["id"], m["status"], m["outgoing"], m["to_table"]) for m in snap["data"]["moves"]] == [
        (move.pk, "done", True, 2)
    ]
    arrived = await joining.receive_json_from(timeout=2)
    assert arrived["data"]["moves"] == []
    assert any(s["entry_id"] == move.entry_id for s in arrived["data"]["seats"])
    await database_sync_to_async(tables_services.acknowledge_move)(move)
    cleared = await leaving.receive_json_from(timeout=2)
    assert cleared["data"]["moves"] == []
    assert (await database_sync_to_async(Move.objects.get)(pk=move.pk)).status == "acknowledged"
    for ws in sockets:
        await ws.disconnect()


async def test_a_burst_of_changes_is_sent_as_one_snapshot_of_the_latest_version(monkeypatch):
    import threading

    from screens import snapshots

    tournament, _ = await setup()
    device, token = await database_sync_to_async(pair)(tournament, DeviceKind.CLOCK)
    ws = await connect(f"/ws/tournaments/{tournament.pk}/clock/", cookie_header(device, token))
    first = await ws.receive_json_from(timeout=2)
    # The burst comes faster than a build, as on a busy server: the build the first change starts is
    # still running when the other seven arrive (held until the burst is over, so a quick machine
    # cannot finish it in between and make this depend on timing).
    burst_over = threading.Event()
    build, builds = snapshots.clock_snapshot, []

    def slow_build(tournament_id):
        builds.append(tournament_id)
        burst_over.wait(5)
        return build(tournament_id)

    monkeypatch.setattr(snapshots, "clock_snapshot", slow_build)

    def burst():
        for _ in range(8):
            tournament_changed(tournament.pk)  # each in its own (autocommit) transaction
        burst_over.set()

    await database_sync_to_async(burst)()
    received = [await ws.receive_json_from(timeout=2)]
    while not await ws.receive_nothing(timeout=0.3):
        received.append(await ws.receive_json_from(timeout=2))
    assert len(builds) <= 2  # coalesced: the running build, then one more for what came meanwhile
    assert len(received) <= 2  # not one per change
    assert received[-1]["version"] == first["version"] + 8
    assert [m["version"] for m in received] == sorted({m["version"] for m in received})
    await ws.disconnect()


async def test_a_ping_is_answered_while_the_database_thread_is_busy():
    """A tablet's ping (every 2 s, the "connected" light) and a screen's messages never wait for the one
    thread that runs the sockets' database work: at 1,350 sockets, channels' own hop to that thread
    before every message queued each ping behind every snapshot build (issue 11)."""
    import asyncio
    import time

    from asgiref.sync import sync_to_async

    tournament, _ = await setup()
    device, token = await database_sync_to_async(pair)(tournament, DeviceKind.CLOCK)
    ws = await connect(f"/ws/tournaments/{tournament.pk}/clock/", cookie_header(device, token))
    await ws.receive_json_from(timeout=2)
    # The shared database thread is held for 3 s (a long snapshot build, say).
    busy = asyncio.ensure_future(sync_to_async(time.sleep)(3))
    await asyncio.sleep(0.2)
    started = time.monotonic()
    await ws.send_json_to({"type": "ping"})
    pong = await ws.receive_json_from(timeout=2)
    assert pong["type"] == "pong" and time.monotonic() - started < 2
    assert not busy.done()  # answered while the thread was still held
    await busy
    await ws.disconnect()


async def test_a_screen_connects_and_gets_its_snapshot_while_the_database_thread_is_busy():
    """After a restart every screen of the room connects at once: a screen's check (its cookie, its
    groups) and its first snapshot do not queue on the server's one thread for synchronous work."""
    import asyncio
    import time

    from asgiref.sync import sync_to_async

    tournament, _ = await setup()
    device, token = await database_sync_to_async(pair)(tournament, DeviceKind.CLOCK)
    busy = asyncio.ensure_future(sync_to_async(time.sleep)(3))
    await asyncio.sleep(0.2)
    started = time.monotonic()
    ws = await connect(f"/ws/tournaments/{tournament.pk}/clock/", cookie_header(device, token))
    snap = await ws.receive_json_from(timeout=2)
    assert snap["type"] == "snapshot" and snap["kind"] == "clock"
    assert time.monotonic() - started < 2 and not busy.done()
    await busy
    await ws.disconnect()


async def test_the_tablets_of_a_server_share_one_channel_in_their_tournaments_group_and_each_hears_a_level_change():
    """Issue 11: a level change at 1,250 tables woke each tablet's own channel; now the server's one
    channel in the tablets group hands the announcement to every tablet here (screens.group_feeds),
    each still gets its newer snapshot, and the channel leaves the group with the last tablet."""
    from channels.layers import get_channel_layer

    from config import live
    from tournaments.services.clock_control import jump_to_level

    tournament, tables = await setup(players=16)
    sockets = []
    for table in tables[:2]:
        device, token = await database_sync_to_async(pair)(tournament, DeviceKind.TABLET, table)
        ws = await connect(f"/ws/tables/{table.pk}/", cookie_header(device, token))
        sockets.append((ws, await ws.receive_json_from(timeout=2)))
    layer = get_channel_layer()
    group = live.tournament_tables_group(tournament.pk)
    members = layer.groups.get(group, {})
    assert len(members) == 1  # one channel of this server, not one a tablet
    level = sockets[0][1]["data"]["level"]["index"]
    await database_sync_to_async(jump_to_level)(tournament, level + 1)
    for ws, first in sockets:
        update = await ws.receive_json_from(timeout=2)
        assert update["version"] > first["version"]
        assert update["data"]["level"]["index"] == level + 1
    for ws, _first in sockets:
        await ws.disconnect()
    assert not layer.groups.get(group)  # the last tablet gone, the server's channel left the group
