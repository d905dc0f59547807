"""The next hand's button and blinds, known before it is dealt (R3.5, R3.6): what the tablet shows
between hands is what the deal then uses; before the first hand without a drawn button, nothing."""

import pytest

from dealing import services
from tests.factories import make_table

pytestmark = pytest.mark.django_db


def test_the_positions_shown_are_the_positions_dealt(staff):
    _t, table = make_table(stacks=(1000, 1000, 1000, 1000), button=2, extra_entries=1)
    shown = services.next_hand_positions(table)
    hand = services.start_next_hand(table, actor=staff)
    config = hand.config
    assert shown == {
        "button": config["button_seat"],
        "small_blind": config["small_blind_seat"],
        "big_blind": config["big_blind_seat"],
    }


def test_no_positions_before_the_first_button_is_drawn():
    _t, table = make_table(stacks=(1000, 1000, 1000), button=None, extra_entries=1)
    assert services.next_hand_positions(table) is None
