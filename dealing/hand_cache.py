"""Running hands kept in memory between inputs, so an input does not replay the whole hand.

The stored events stay the truth: a kept hand is used only when the log's last event is the one it was
kept at (any other writer, a correction or a void, moves the log on and the hand is rebuilt from the
events), it is kept only once its transaction has committed, and an input takes it out while it works,
so a failed input never leaves a half-changed hand behind. Each server process keeps its own; a miss
costs one replay, as before. A server that has just started keeps nothing: each tablet's socket, as
it connects, has its table's running hand kept (``dealing.services.keep_running_hand``).

A kept hand also knows the ``client_action_id`` of every input in its log, so an input on a kept
hand needs no read of the log at all: the hand's row (read under its lock) says which event is the
last, and whether the tablet's id is a retry's is known (``dealing.services.apply_input``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import NamedTuple

from django.db import transaction

from dealing.engine.hand import Hand as EngineHand
from dealing.models import Hand

# More than one running hand per table of the biggest event (1,250 tables), few megabytes in all.
CAPACITY = 2048


class Kept(NamedTuple):
    seq: int  # the log's last event when it was kept
    engine: EngineHand
    table_id: int
    action_ids: set[str]  # the client_action_id of every input in the log
    # The hand's row as it was read or written with this event (what a running hand's inputs do not
    # change: its number, seats, deal mode and commitment), or None: the input writes in one statement
    # only on a hand whose row it need not read (``dealing.kept_writes``).
    hand: Hand | None = None


_kept: OrderedDict[int, Kept] = OrderedDict()
_lock = threading.Lock()


def take(hand_id: int, seq: int) -> Kept | None:
    """The hand as kept at event ``seq``, now owned by the caller, or None (rebuild it from the log)."""
    with _lock:
        kept = _kept.pop(hand_id, None)
    if kept is None or kept.seq != seq:
        return None
    return kept


def take_current(hand_id: int, seq: int, client_action_id: str | None) -> Kept | None:
    """The hand as kept at event ``seq`` with its row, now owned by the caller, when an input that
    expects that event and carries ``client_action_id`` can go on from it (not a retry of one of its
    inputs); else None, and whatever is kept stays (the input's transaction looks again, under the
    hand's lock)."""
    with _lock:
        kept = _kept.get(hand_id)
        if kept is None or kept.seq != seq or kept.hand is None or client_action_id in kept.action_ids:
            return None
        del _kept[hand_id]
    return kept


def put_back(hand_id: int, kept: Kept) -> None:
    """Return a hand taken with ``take_current`` and left unchanged (unless another is kept by now)."""
    with _lock:
        _kept.setdefault(hand_id, kept)


def table_of(hand_id: int) -> int | None:
    """The table of a kept hand (a hand never changes table), or None: who may act on a hand is
    decided by its table, and a kept hand's needs no read."""
    kept = _kept.get(hand_id)
    return kept.table_id if kept is not None else None


def keep_after_commit(
    hand_id: int,
    seq: int,
    engine: EngineHand,
    table_id: int,
    action_ids: set[str],
    hand: Hand | None = None,
) -> None:
    """Keep the hand at event ``seq`` once this transaction commits (nothing is kept on a rollback;
    outside a transaction, at once). ``action_ids``: every client_action_id in its log, this
    transaction's included; ``hand``: its row as just read or written."""

    def keep():
        with _lock:
            _kept[hand_id] = Kept(seq, engine, table_id, action_ids, hand)
            _kept.move_to_end(hand_id)
            while len(_kept) > CAPACITY:
                _kept.popitem(last=False)

    transaction.on_commit(keep)


def keep_unless_kept(
    hand_id: int, seq: int, engine: EngineHand, table_id: int, action_ids: set[str], hand: Hand
) -> bool:
    """Keep the hand at event ``seq`` now, unless it is kept already (an input's keep, after its
    commit, is as new or newer). Outside any transaction: nothing here was written. True if kept."""
    with _lock:
        if hand_id in _kept:
            return True
        _kept[hand_id] = Kept(seq, engine, table_id, action_ids, hand)
        while len(_kept) > CAPACITY:
            _kept.popitem(last=False)
    return True


def forget(hand_id: int) -> None:
    with _lock:
        _kept.pop(hand_id, None)


def clear() -> None:
    with _lock:
        _kept.clear()
