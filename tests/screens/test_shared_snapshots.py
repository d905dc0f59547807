"""Event scale: a change is built once per snapshot and shared by every socket that shows it, and a
tablet hears only of what it shows (screens.snapshot_hub, config.live)."""

import pytest
from channels.db import database_sync_to_async

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
    assert update["kind"] == "table" and update["version"] > first["version"]
    await ws.disconnect()
