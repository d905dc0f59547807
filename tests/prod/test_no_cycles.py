"""What a server keeps between a tablet's inputs leaves no reference cycle when it goes: a server freezes
what exists every half second (config.gc_pauses), so a cycle that lives past a freeze and dies later is freed
only at the hourly thaw, whose full collection then pauses the server for every such object (1.1-2.0 s
for 250,000-300,000 of them at 1,250 tables after 20 minutes, before these were broken). The socket's
device (kept a minute, screens.tablet_inputs) and the hand kept between inputs (dealing.hand_cache)
are checked here: dropped, nothing is left for the collector."""

import gc

import pytest
from django.db.models import Model

from dealing import hand_cache, services
from screens.models import DeviceKind
from screens.pairing import create_pairing_code, device_for_token, redeem_pairing_code
from tests.factories import make_table

pytestmark = pytest.mark.django_db(transaction=True)  # hands are kept only after a commit


def _rows_in_cycles_left_by(make) -> list[str]:
    """The model instances (rows) that only the collector would free after ``make()``'s result is
    dropped: kept in a reference cycle. (Django leaves a small cycle of its own each time it compiles
    some querysets, a closure and its cell: no row, freed by the next young collection.)"""
    make()  # once first: whatever it builds once per process (compiled SQL) is not counted
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        made = make()
        del made
        gc.collect()
        return sorted(type(obj).__name__ for obj in gc.garbage if isinstance(obj, Model))
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


def test_a_tablets_device_read_with_its_account_leaves_no_cycle():
    tournament, table = make_table(stacks=(1000, 1000))
    device, token = redeem_pairing_code(
        create_pairing_code(tournament=tournament, kind=DeviceKind.TABLET, table=table).code
    )

    def read():
        found = device_for_token(token)
        assert found.pk == device.pk and found.user.is_active
        return found

    assert _rows_in_cycles_left_by(read) == []


def test_a_dealt_hand_kept_between_inputs_leaves_no_cycle_when_it_goes(floor):
    _, table = make_table(stacks=(1000, 1000, 1000), extra_entries=1)

    def deal_and_drop():
        hand = services.start_next_hand(table, actor=floor)
        assert hand_cache.table_of(hand.pk) == table.pk  # kept by this server
        services.void_hand(hand, actor=floor, reason="misdeal")  # so that the next one can be dealt
        hand_cache.clear()  # what the server kept of it goes, as when the hand ends
        return hand

    assert _rows_in_cycles_left_by(deal_and_drop) == []


def test_a_hand_kept_as_its_tablet_reconnects_leaves_no_cycle_when_it_goes(floor):
    """After a restart each tablet's socket has its table's running hand kept (rebuilt from the log:
    its events, each pointing at the hand)."""
    _, table = make_table(stacks=(1000, 1000, 1000), extra_entries=1)
    hand = services.start_next_hand(table, actor=floor)

    def keep_and_drop():
        hand_cache.clear()  # the server restarted
        assert services.keep_running_hand(table.pk)
        assert hand_cache.table_of(hand.pk) == table.pk
        hand_cache.clear()  # what the server kept of it goes, as when the hand ends
        return hand.pk

    assert _rows_in_cycles_left_by(keep_and_drop) == []
