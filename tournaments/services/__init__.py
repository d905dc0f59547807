"""Every write of the tournaments app: plain functions, each in one transaction, split by concept.

Views, tasks and other apps call these; nothing else changes a tournament, an entry or a clock.
Errors are ``TournamentError`` subclasses with a translated message, a ``code`` and the field or
rule concerned; the API turns ``StateError`` into 409, ``RuleError`` into 422 and Django's
``ValidationError`` into 400.

The modules, by concept (HackSoft's ``services/`` package): ``structures``, ``lifecycle``,
``clock_control``, ``entries``, ``prizes``, ``deals``, ``color_up`` and ``alternates``; shared reads are in
``tournaments.selectors``. Everything public is re-exported here, so ``from tournaments import
services`` keeps working for every caller.
"""

from tables.services import seated_count

from ..selectors import (
    clock_of,
    clock_state,
    level_for_next_hand,
    master_seed_hex,
    payout_shares,
    payout_table,
    periods_of,
    prize_pool,
    registration_open,
)
from .alternates import add_alternate, seat_next_alternate, waiting_alternates, withdraw_alternate
from .clock_control import (
    add_time,
    advance_clock,
    change_clock,
    expect_clock_version,
    hand_for_hand_round_finished,
    jump_to_level,
    pause_clock,
    resume_clock,
    set_hand_for_hand,
)
from .color_up import color_up
from .common import MAX_CHIPS, MAX_STACK
from .deals import end_deal_talk, players_left, prizes_left, propose_deal, record_deal, start_deal_talk
from .entries import (
    TableCount,
    addon,
    bust_entries,
    check_room,
    count_table,
    place_late_registration_busts,
    player_named,
    players_in,
    rebuy,
    register,
    remove_entry,
    set_chips,
    undo_bust,
    void_entry,
)
from .floor_pin import floor_pin_matches, set_floor_pin
from .lifecycle import (
    EDITABLE_WHILE_RUNNING,
    create_tournament,
    finish_tournament,
    open_registration,
    start_tournament,
    update_tournament,
)
from .prizes import recompute_prizes, set_payout_table
from .structures import (
    add_level,
    copy_structure,
    create_structure,
    delete_level,
    update_level,
    validate_level,
)

__all__ = [
    "EDITABLE_WHILE_RUNNING",
    "MAX_CHIPS",
    "MAX_STACK",
    "TableCount",
    "add_alternate",
    "add_level",
    "add_time",
    "addon",
    "advance_clock",
    "bust_entries",
    "change_clock",
    "check_room",
    "clock_of",
    "clock_state",
    "color_up",
    "copy_structure",
    "count_table",
    "create_structure",
    "create_tournament",
    "delete_level",
    "end_deal_talk",
    "expect_clock_version",
    "finish_tournament",
    "floor_pin_matches",
    "hand_for_hand_round_finished",
    "jump_to_level",
    "level_for_next_hand",
    "master_seed_hex",
    "open_registration",
    "pause_clock",
    "payout_shares",
    "payout_table",
    "periods_of",
    "place_late_registration_busts",
    "player_named",
    "players_in",
    "players_left",
    "prize_pool",
    "prizes_left",
    "propose_deal",
    "rebuy",
    "recompute_prizes",
    "record_deal",
    "register",
    "registration_open",
    "remove_entry",
    "resume_clock",
    "seat_next_alternate",
    "seated_count",
    "set_chips",
    "set_floor_pin",
    "set_hand_for_hand",
    "set_payout_table",
    "start_deal_talk",
    "start_tournament",
    "undo_bust",
    "update_level",
    "update_tournament",
    "validate_level",
    "void_entry",
    "waiting_alternates",
    "withdraw_alternate",
]
