"""Event scale: a change is built once per snapshot and shared by every socket that shows it, and a
tablet hears only of what it shows (screens.snapshot_hub, config.live)."""

import asyncio

import pytest
from channels.db import database_sync_to_async
from django.db.models import F

from screens import snapshot_hub, snapshots
from screens.models import DeviceKind
from tournaments import services
from tournaments.models import Entry, tournament_changed

from .test_sockets import connect, cookie_header, pair, setup

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_a_change_seen_by_many_clock_screens_is_built_once_and_reaches_them_all(monkeypatch):
    tournament, _ = await setup()
    paired = [await database_sync_to_async(pair)(tournament, DeviceKind.CLOCK) for _i in range(5)]
    screens = []
    for device, token in paired:
        ws = await connect(f"/ws/tournaments/{tournament.pk}/clock/", cookie_header(device, token))
        screens.append((ws, await ws.receive_json_from(timeout=2)))
    builds = []
    real = snapshots.clock_snapshot
    monkeypatch.setattr(snapshots, "clock_snapshot", lambda pk: builds.append(pk) or real(pk))
    await database_sync_to_async(services.pause_clock)(tournament)
    updates = [await ws.receive_json_from(timeout=2) for ws, _first in screens]
    assert len(builds) == 1  # one build for five screens
    assert len({u["version"] for u in updates}) == 1
    assert all(
        u["version"] > first["version"] and u["data"]["clock"]["paused"]
        for u, (_ws, first) in zip(updates, screens)
    )
    for ws, _first in screens:
        assert await ws.receive_nothing(timeout=0.2)  # and each screen gets it once
        await ws.disconnect()


async def test_a_tablet_hears_of_the_clock_but_not_of_a_bust_at_another_table():
    tournament, tables = await setup(players=12)
    device, token = await database_sync_to_async(pair)(tournament, DeviceKind.TABLET, tables[0])
    ws = await connect(f"/ws/tables/{tables[0].pk}/", cookie_header(device, token))
    first = await ws.receive_json_from(timeout=2)

    def registration_elsewhere():
        # Entries and payouts change (the clock screens show them); nothing a tablet shows does.
        Entry.objects.filter(tournament=tournament).update(rebuys=1)
        tournament_changed(tournament.pk)

    await database_sync_to_async(registration_elsewhere)()
    assert await ws.receive_nothing(timeout=0.3)
    await database_sync_to_async(services.pause_clock)(tournament)
    update = await ws.receive_json_from(timeout=2)
    # The tablets' shared view of their tournament, newer than the one inside the first snapshot.
    assert update["kind"] == "tablets" and update["version"] > first["data"]["tournament_version"]
    assert update["data"]["level"] == first["data"]["level"] and "seats" not in update["data"]
    assert await ws.receive_nothing(timeout=0.3)  # the table itself did not change: not rebuilt
    await ws.disconnect()


async def test_a_level_change_is_one_build_for_every_tablet_and_hand_for_hand_rebuilds_each_table(
    monkeypatch,
):
    """A level change at a big event reaches every tablet from one shared build of the tournament's
    part (not one table snapshot per tablet); hand-for-hand changes each table's own wait (R8.6), so
    then each tablet gets its table rebuilt."""
    tournament, tables = await setup(players=24)
    sockets = []
    for table in tables:
        device, token = await database_sync_to_async(pair)(tournament, DeviceKind.TABLET, table)
        ws = await connect(f"/ws/tables/{table.pk}/", cookie_header(device, token))
        sockets.append((ws, await ws.receive_json_from(timeout=2)))
    assert len(sockets) >= 3
    tablet_builds, table_builds = [], []
    real_tablets, real_table = snapshots.tablets_snapshot, snapshots.table_snapshot
    monkeypatch.setattr(
        snapshots, "tablets_snapshot", lambda pk: tablet_builds.append(pk) or real_tablets(pk)
    )
    monkeypatch.setattr(snapshots, "table_snapshot", lambda pk: table_builds.append(pk) or real_table(pk))

    await database_sync_to_async(services.jump_to_level)(tournament, 1)
    updates = [await ws.receive_json_from(timeout=2) for ws, _first in sockets]
    assert len(tablet_builds) == 1 and table_builds == []
    assert all(u["kind"] == "tablets" for u in updates)
    assert all(
        u["data"]["level"]["index"] > first["data"]["level"]["index"]
        for u, (_ws, first) in zip(updates, sockets)
    )

    await database_sync_to_async(services.set_hand_for_hand)(tournament, True)
    kinds = [set() for _s in sockets]
    for (ws, _first), seen in zip(sockets, kinds):
        for _i in range(2):
            seen.add((await ws.receive_json_from(timeout=2))["kind"])
    assert all(seen == {"tablets", "table"} for seen in kinds)
    assert sorted(table_builds) == sorted(t.pk for t in tables)
    for ws, _first in sockets:
        await ws.disconnect()


async def test_a_refresh_sends_the_last_build_while_the_version_stands_and_rebuilds_when_it_moved(
    monkeypatch,
):
    """The tablet asks for a refresh after every input: the input's own announcement built the
    snapshot already, so the refresh costs one version read; a change whose message was lost (the
    version moved, nothing was built) is built for the refresh, so the tablet still converges."""
    tournament, tables = await setup(players=12)
    device, token = await database_sync_to_async(pair)(tournament, DeviceKind.TABLET, tables[0])
    ws = await connect(f"/ws/tables/{tables[0].pk}/", cookie_header(device, token))
    first = await ws.receive_json_from(timeout=2)
    builds = []
    real = snapshots.table_snapshot
    monkeypatch.setattr(snapshots, "table_snapshot", lambda pk: builds.append(pk) or real(pk))
    await ws.send_json_to({"type": "refresh"})
    again = await ws.receive_json_from(timeout=2)
    assert again["version"] == first["version"] and builds == []

    def lost_change():  # the version moves but its message never arrives (a full channel drops it)
        from tables.models import Table

        Table.objects.filter(pk=tables[0].pk).update(version=F("version") + 1)

    await database_sync_to_async(lost_change)()
    await ws.send_json_to({"type": "refresh"})
    newer = await ws.receive_json_from(timeout=2)
    assert newer["version"] == first["version"] + 1 and builds == [tables[0].pk]
    await ws.disconnect()


async def _tablet_in_a_hand():
    """A table's paired tablet connected, with a hand dealt and both snapshots received (the second,
    the deal's, is returned last)."""
    tournament, tables = await setup(players=12)
    table = tables[0]
    device, token = await database_sync_to_async(pair)(tournament, DeviceKind.TABLET, table)
    ws = await connect(f"/ws/tables/{table.pk}/", cookie_header(device, token))
    await ws.receive_json_from(timeout=2)
    hand, options = await database_sync_to_async(_deal_and_options)(table)
    dealt = await ws.receive_json_from(timeout=2)
    return table, ws, hand, options, dealt


def _deal_and_options(table):
    from dealing import services as dealing

    hand = dealing.start_next_hand(table)
    return hand, dealing.public_view(hand)["options"]


def _void(hand):
    """A misdeal called by the floor: the hand is over (voided)."""
    from django.contrib.auth import get_user_model

    from dealing import services as dealing

    floor = get_user_model().objects.create_user("floor-void", is_staff=True)
    dealing.void_hand(hand, actor=floor, reason="misdeal")
    return dealing.last_seq(hand)


def _act(hand, options):
    """The player to act calls (or checks): an input in the middle of the hand."""
    from dealing import services as dealing

    hand.refresh_from_db()
    action = "call" if "call" in options["actions"] else "check"
    dealing.apply_input(
        hand, {"type": "action", "seat": options["seat"], "action": action}, expected_seq=hand.state_seq
    )
    hand.refresh_from_db()
    return hand, dealing.public_view(hand)["options"]


def _same_but_time(a: dict, b: dict) -> bool:
    return {**a, "server_time": 0} == {**b, "server_time": 0}


async def test_an_input_in_the_middle_of_a_hand_reaches_the_tablet_as_a_patch_equal_to_a_full_build(
    monkeypatch,
):
    """Event scale: after each dealer input only the hand changed, so the tablet's server applies the
    hand that the announcement carries to its last snapshot instead of rebuilding the table (its
    seats, moves, level, floor calls: eight reads) — and what the tablet gets is exactly what a full
    build gives."""
    table, ws, hand, options, dealt = await _tablet_in_a_hand()
    # The deal itself: a full build (seats, positions).
    assert dealt["data"]["hand"]["id"] == hand.pk
    builds = []
    real = snapshots.table_snapshot
    monkeypatch.setattr(snapshots, "table_snapshot", lambda pk: builds.append(pk) or real(pk))
    seen = dealt
    for _ in range(3):
        hand, options = await database_sync_to_async(_act)(hand, options)
        update = await ws.receive_json_from(timeout=2)
        assert update["version"] == seen["version"] + 1
        assert update["data"]["hand"]["seq"] == hand.state_seq
        full = await database_sync_to_async(real)(table.pk)
        assert _same_but_time(update, full)
        seen = update
    assert builds == []  # three inputs, no rebuild
    await ws.disconnect()


async def test_a_patch_that_does_not_follow_the_last_snapshot_rebuilds_the_table(monkeypatch):
    """A lost announcement (the layer drops messages past a channel's capacity) leaves a gap in the
    versions: the next input's patch does not follow the last snapshot, so the table is built again
    and the tablet still shows the hand as it stands."""
    table, ws, hand, options, _dealt = await _tablet_in_a_hand()
    from config import live

    real_send = live.send_now
    monkeypatch.setattr(live, "send_now", lambda group, message: None)  # this input's message is lost
    hand, options = await database_sync_to_async(_act)(hand, options)
    assert await ws.receive_nothing(timeout=0.3)
    monkeypatch.setattr(live, "send_now", real_send)
    builds = []
    real = snapshots.table_snapshot
    monkeypatch.setattr(snapshots, "table_snapshot", lambda pk: builds.append(pk) or real(pk))
    hand, options = await database_sync_to_async(_act)(hand, options)
    update = await ws.receive_json_from(timeout=2)
    assert builds == [table.pk]
    assert update["data"]["hand"]["seq"] == hand.state_seq
    assert _same_but_time(update, await database_sync_to_async(real)(table.pk))
    await ws.disconnect()


async def test_a_patch_applies_only_on_top_of_the_version_just_before_and_the_same_hand():
    base = snapshots.envelope(
        "table", 15, {"table_version": 10, "tournament_version": 5, "hand": {"id": 3, "seq": 7}, "seats": []}
    )
    patched = snapshots.patched_table_snapshot(base, {"table_version": 11, "hand": {"id": 3, "seq": 8}})
    assert patched["version"] == 16 and patched["data"]["hand"]["seq"] == 8
    assert patched["data"]["seats"] == [] and patched["data"]["table_version"] == 11
    assert snapshots.patched_table_snapshot(base, {"table_version": 12, "hand": {"id": 3}}) is None  # a gap
    assert (
        snapshots.patched_table_snapshot(base, {"table_version": 11, "hand": {"id": 4}}) is None
    )  # new hand
    no_hand = snapshots.envelope("table", 15, {"table_version": 10, "tournament_version": 5, "hand": None})
    assert snapshots.patched_table_snapshot(no_hand, {"table_version": 11, "hand": {"id": 3}}) is None


async def test_the_refresh_after_an_input_waits_for_the_inputs_own_snapshot_instead_of_building_it(
    monkeypatch,
):
    """tablet.js asks, after each accepted input, for the snapshot that shows it: when the refresh
    reaches the server before the input's announcement, it waits for it rather than building the
    table a second time; once the snapshot came, asking again answers at once with nothing to send."""
    _table, ws, hand, options, _dealt = await _tablet_in_a_hand()
    from config import live

    monkeypatch.setattr(snapshot_hub, "PATIENCE", 10.0)  # however slow this machine is today
    held = []
    real_send = live.send_now
    monkeypatch.setattr(live, "send_now", lambda group, message: held.append((group, message)))
    hand, options = await database_sync_to_async(_act)(hand, options)
    builds = []
    real = snapshots.table_snapshot
    monkeypatch.setattr(snapshots, "table_snapshot", lambda pk: builds.append(pk) or real(pk))
    await ws.send_json_to({"type": "refresh", "hand": hand.pk, "seq": hand.state_seq})
    assert await ws.receive_nothing(timeout=0.1)  # it waits for the announcement
    for group, message in held:  # the announcement arrives now
        await database_sync_to_async(real_send)(group, message)
    update = await ws.receive_json_from(timeout=2)
    assert update["data"]["hand"]["seq"] == hand.state_seq and builds == []
    await ws.send_json_to({"type": "refresh", "hand": hand.pk, "seq": hand.state_seq})
    assert await ws.receive_nothing(timeout=0.3)  # shown already: nothing more to send
    assert builds == []
    await ws.disconnect()


async def test_a_refresh_whose_announcement_was_lost_reads_the_inputs_patch_back_instead_of_building(
    monkeypatch,
):
    """The input's announcement never comes: after the hub's patience the tablet's server reads the
    patch it carried back from the database (one query) and applies it; the tablet gets the same
    snapshot a full build would give, and no table is built."""
    table, ws, hand, options, _dealt = await _tablet_in_a_hand()
    from config import live

    monkeypatch.setattr(live, "send_now", lambda group, message: None)  # lost
    monkeypatch.setattr(snapshot_hub, "PATIENCE", 0.3)
    builds = []
    real = snapshots.table_snapshot
    monkeypatch.setattr(snapshots, "table_snapshot", lambda pk: builds.append(pk) or real(pk))
    hand, options = await database_sync_to_async(_act)(hand, options)
    await ws.send_json_to({"type": "refresh", "hand": hand.pk, "seq": hand.state_seq})
    assert await ws.receive_nothing(timeout=0.1)  # it waits for the announcement first
    update = await ws.receive_json_from(timeout=3)
    assert update["data"]["hand"]["seq"] == hand.state_seq
    assert builds == []
    assert _same_but_time(update, await database_sync_to_async(real)(table.pk))
    await ws.disconnect()


async def test_a_refresh_for_a_hand_that_is_over_builds_the_table(monkeypatch):
    """The read-back patch is only for a running hand: when the hand has ended meanwhile (its
    announcement lost too), the table is built, so the tablet shows the hand's end and the next deal."""
    _table, ws, hand, _options, _dealt = await _tablet_in_a_hand()
    from config import live

    monkeypatch.setattr(live, "send_now", lambda group, message: None)  # lost
    monkeypatch.setattr(snapshot_hub, "PATIENCE", 0.2)
    seq = await database_sync_to_async(_void)(hand)
    await ws.send_json_to({"type": "refresh", "hand": hand.pk, "seq": seq})
    update = await ws.receive_json_from(timeout=3)
    assert update["data"]["table"]["hand_in_progress"] is False
    assert update["data"]["hand"]["status"] != "running"
    await ws.disconnect()


class _Screen:
    def __init__(self):
        self.sent = []
        self.pending_refreshes = set()

    async def deliver(self, snapshot, text):
        self.sent.append(snapshot["version"])

    async def snapshot_failed(self, error):
        raise error


def _table_like(version: int, hand_seq: int) -> dict:
    return {
        "kind": "table",
        "version": version,
        "data": {"table_version": version, "tournament_version": 0, "hand": {"id": 1, "seq": hand_seq}},
    }


def _patch(version: int, hand_seq: int) -> dict:
    return {"table_version": version, "hand": {"id": 1, "seq": hand_seq}}


async def test_a_patch_that_comes_during_a_build_is_applied_on_top_of_it_not_built_again():
    """Under load the next input's patch often comes while the table is being built: it waits for that
    build and goes out on top of it (one build, then the patch), instead of a second build."""
    import threading

    release, builds = threading.Event(), []

    def build():
        builds.append(1)
        if len(builds) == 2:  # the second build is slow
            release.wait(5)
        return _table_like(3 + len(builds), 10)

    hub, screen = snapshot_hub.SnapshotHub(), _Screen()
    hub.subscribe(("table", 1), screen, build)
    hub.changed(("table", 1))
    for _ in range(100):
        if screen.sent:
            break
        await asyncio.sleep(0.02)
    hub.changed(("table", 1))  # e.g. a move at the table: built again
    await asyncio.sleep(0.05)  # the build runs
    hub.patched(("table", 1), "a", _patch(6, 11), snapshots.patched_table_snapshot)
    release.set()
    for _ in range(100):
        if screen.sent == [4, 5, 6]:
            break
        await asyncio.sleep(0.02)
    assert screen.sent == [4, 5, 6] and builds == [1, 1]
    assert hub.keys[("table", 1)].latest[0]["data"]["hand"]["seq"] == 11


async def test_a_patch_the_snapshot_already_shows_sends_and_builds_nothing():
    """A late announcement (the refresh read its patch back first, or a build read the input): nothing
    is built again and nothing is sent twice."""
    builds = []
    hub, screen = snapshot_hub.SnapshotHub(), _Screen()
    hub.subscribe(("table", 1), screen, lambda: builds.append(1) or _table_like(6, 11))
    hub.changed(("table", 1))
    for _ in range(100):
        if screen.sent:
            break
        await asyncio.sleep(0.02)
    hub.patched(("table", 1), "late", _patch(6, 11), snapshots.patched_table_snapshot)
    hub.patched(("table", 1), "older", _patch(5, 10), snapshots.patched_table_snapshot)
    await asyncio.sleep(0.1)
    assert screen.sent == [6] and builds == [1]


def _staff_session():
    from django.contrib.auth import get_user_model
    from django.test import Client

    user = get_user_model().objects.create_user("console-runout", password="x-pw-123456", is_staff=True)
    client = Client()
    client.force_login(user)
    return (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())


def _all_in_called_and_flop(table):
    """Both players all-in before the flop (a run-out, R6.2), then the dealer turns the hands up and
    deals the flop: each step moves what the console's all-ins panel shows."""
    from dealing import services as dealing
    from tests.dealing.tablet import act_in_turn

    hand = dealing.start_next_hand(table)
    act_in_turn(hand, "all_in", "call")
    for step in ({"type": "face_up"}, {"type": "deal"}):
        hand.refresh_from_db()
        dealing.apply_input(hand, step, expected_seq=hand.state_seq)
    hand.refresh_from_db()
    return hand


async def test_an_all_in_run_out_reaches_the_console_and_leaves_the_clock_screens_alone(monkeypatch):
    """A run-out moves only the console's all-ins panel. At a big event all-ins are called about once a
    second; when each street bumped the tournament's version, every server rebuilt its clock screens'
    snapshot each time (58 ms each under load, the slowest seconds of a run) for nothing they show."""
    tournament, tables = await setup(players=2, betting="no_limit")
    device, token = await database_sync_to_async(pair)(tournament, DeviceKind.CLOCK)
    clock = await connect(f"/ws/tournaments/{tournament.pk}/clock/", cookie_header(device, token))
    first_clock = await clock.receive_json_from(timeout=2)
    console = await connect(
        f"/ws/tournaments/{tournament.pk}/director/", await database_sync_to_async(_staff_session)()
    )
    first_console = await console.receive_json_from(timeout=2)
    assert first_console["data"]["console"]["all_ins"] == []
    builds = []
    real = snapshots.clock_snapshot
    monkeypatch.setattr(snapshots, "clock_snapshot", lambda pk: builds.append(pk) or real(pk))

    hand = await database_sync_to_async(_all_in_called_and_flop)(tables[0])

    latest = first_console
    while not await console.receive_nothing(timeout=0.5):  # the last snapshot shows the flop dealt
        latest = await console.receive_json_from(timeout=2)
        assert latest["kind"] == "director"
    assert latest["version"] > first_console["version"]
    assert latest["data"]["console"]["all_ins"] == [[hand.pk, hand.state_seq]]
    assert await clock.receive_nothing(timeout=0.3) and builds == []
    # The clock screens' version (the players' pages and the halt checks follow it too) did not move.
    assert (await database_sync_to_async(snapshots.clock_snapshot)(tournament.pk))["version"] == first_clock[
        "version"
    ]
    # A console that reconnects gets the same version as the live one: the page's and the socket's agree.
    assert (await database_sync_to_async(snapshots.director_snapshot)(tournament.pk))["version"] == latest[
        "version"
    ]

    # A change the clock screens show still reaches both, each newer than anything it had.
    await database_sync_to_async(services.pause_clock)(tournament)
    paused = await clock.receive_json_from(timeout=2)
    assert paused["version"] > first_clock["version"] and paused["data"]["clock"]["paused"]
    assert (await console.receive_json_from(timeout=2))["version"] > latest["version"]
    await clock.disconnect()
    await console.disconnect()
