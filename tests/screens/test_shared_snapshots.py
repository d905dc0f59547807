"""Event scale: a change is built once per snapshot and shared by every socket that shows it, and a
tablet hears only of what it shows (screens.snapshot_hub, config.live)."""

import pytest
from channels.db import database_sync_to_async
from django.db.models import F

from screens import snapshots
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
