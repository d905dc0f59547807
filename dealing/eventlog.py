"""Between the stored events and the engine: rebuild a hand from its rows, feed an input, split events.

The stored log is the engine's event list plus the floor's own events (``void``, ``correction``). A
correction retracts the event group of one input; replaying skips retracted groups, so the engine
sees exactly the events of the hand as it now stands. The seed is kept on the Hand row only (secret
until the hand is over), never inside the stored ``start`` event.
"""

from __future__ import annotations

from collections.abc import Iterable

from dealing.engine.hand import Hand as EngineHand

# Events written by the dealing service, not by the engine.
VOID = "void"
CORRECTION = "correction"
FLOOR_EVENTS = (VOID, CORRECTION)
# Inputs a tablet sends; everything else in the log follows from them.
INPUT_TYPES = ("action", "board", "show", "muck")


def retracted_seqs(rows: Iterable) -> set[int]:
    retracted: set[int] = set()
    for row in rows:
        if row.type == CORRECTION:
            retracted.update(row.payload.get("retracts", []))
    return retracted


def engine_events(rows: list, seed: bytes | None) -> list[dict]:
    """The engine's events of the hand as it stands, with the seed put back into the start event."""
    retracted = retracted_seqs(rows)
    events = []
    for row in rows:
        if row.type in FLOOR_EVENTS or row.seq in retracted:
            continue
        event = dict(row.payload)
        if event.get("type") == "start":
            event["seed"] = seed.hex() if seed is not None else None
        events.append(event)
    return events


def rebuild(rows: list, seed: bytes | None) -> EngineHand:
    """Replay the stored events through the engine (which checks that each derived event matches)."""
    return EngineHand.replay(engine_events(rows, seed))


def input_of(event: dict) -> dict:
    """The tablet input that produced a recorded input event (re-checking a hand, a correction's record)."""
    kind = event["type"]
    if kind == "action":
        action = event.get("action")
        amount = event.get("to") if action in ("bet", "raise") else None
        return {"type": "action", "seat": event.get("seat"), "action": action, "amount": amount}
    if kind in ("board", "show"):
        return {"type": kind, "seat": event.get("seat"), "cards": event.get("cards")}
    return {"type": "muck", "seat": event.get("seat")}


def stored_payload(event: dict) -> dict:
    """What is written to the database for an engine event: the start event without the seed."""
    if event.get("type") == "start":
        return {**event, "seed": None}
    return event


def snapshot(hand: EngineHand) -> dict:
    """The cached views: the full one (deck-prep role, finished hands) and the public one."""
    return {"full": hand.view(public=False), "public": hand.view(public=True)}
