"""Between the stored events and the engine: rebuild a hand from its rows, feed an input, split events.

The stored log is the engine's event list plus the floor's own events (``void``, ``correction``). A
correction retracts the event group of one input; replaying skips retracted groups, so the engine
sees exactly the events of the hand as it now stands.

The log holds no secret (``blank``): the start event is stored without its seed, a hole event
without its cards, a board event without its burn. The seed and the events as dealt are kept in
``HandSecret`` (``dealing.vault``) and put back here, by sequence number, to replay the hand.
"""

from __future__ import annotations

from collections.abc import Iterable

from dealing.engine.hand import Hand as EngineHand
from dealing.engine.hand import public_event

# Events written by the dealing service, not by the engine.
VOID = "void"
CORRECTION = "correction"
# Hand-for-hand (R8.6, TDA RP-8F): the floor lets an all-in's run-out be dealt.
RELEASE = "release"
FLOOR_EVENTS = (VOID, CORRECTION, RELEASE)
# Inputs a tablet sends; everything else in the log follows from them. (A seeded run-out's "deal"
# input is recorded as the board event it deals; "face_up" as its own event, then the shows.)
INPUT_TYPES = ("action", "board", "show", "muck", "face_up")


def retracted_seqs(rows: Iterable) -> set[int]:
    retracted: set[int] = set()
    for row in rows:
        if row.type == CORRECTION:
            retracted.update(row.payload.get("retracts", []))
    return retracted


def engine_events(rows: list, seed: bytes | None, dealt: dict | None = None) -> list[dict]:
    """The engine's events of the hand as it stands, with the seed put back into the start event and
    the secret parts of the dealt events (``dealt``: {"seq": event as dealt}) into theirs."""
    dealt = dealt or {}
    retracted = retracted_seqs(rows)
    events = []
    for row in rows:
        if row.type in FLOOR_EVENTS or row.seq in retracted:
            continue
        event = dict(dealt.get(str(row.seq), row.payload))
        if event.get("type") == "start":
            event["seed"] = seed.hex() if seed is not None else None
        events.append(event)
    return events


def rebuild(rows: list, seed: bytes | None, dealt: dict | None = None) -> EngineHand:
    """Replay the stored events through the engine (which checks that each derived event matches)."""
    return EngineHand.replay(engine_events(rows, seed, dealt))


def input_of(event: dict) -> dict:
    """The tablet input that produced a recorded input event (re-checking a hand, a correction's record)."""
    kind = event["type"]
    if kind == "action":
        action = event.get("action")
        amount = event.get("to") if action in ("bet", "raise") else None
        return {"type": "action", "seat": event.get("seat"), "action": action, "amount": amount}
    if kind in ("board", "show"):
        return {"type": kind, "seat": event.get("seat"), "cards": event.get("cards")}
    if kind == "face_up":
        return {"type": "face_up"}
    return {"type": "muck", "seat": event.get("seat")}


def released(rows: Iterable) -> bool:
    """Whether the floor has released this hand's run-out (hand-for-hand, R8.6). A release stops
    counting when a later correction takes back an input from before it (the all-in it released
    may be gone); taking back a street dealt after it keeps it."""
    rows = list(rows)
    for release in (row for row in rows if row.type == RELEASE):
        undone = any(
            seq < release.seq
            for row in rows
            if row.type == CORRECTION and row.seq > release.seq
            for seq in row.payload.get("retracts", [])
        )
        if not undone:
            return True
    return False


# Keys of an event that stay in the log when the whole event is secret (a hole event: who was dealt).
KEPT_WHEN_HIDDEN = ("type", "seat")


def blank(event: dict) -> tuple[dict, dict | None]:
    """(what the event log stores, the event as dealt when it holds a secret, else None).

    The start event is stored without its seed (the seed is kept apart, ``HandSecret.seed``); a hole
    event with its cards blanked; a board event without its burn: what ``public_event`` shows."""
    if event.get("type") == "start":
        return {**event, "seed": None}, None
    shown = public_event(event)
    if shown == event:
        return event, None
    if shown is None:
        shown = {key: (value if key in KEPT_WHEN_HIDDEN else None) for key, value in event.items()}
    return shown, event


def stored_payload(event: dict) -> dict:
    """What is written to the database for an engine event (``blank``)."""
    return blank(event)[0]


def snapshot(hand: EngineHand) -> dict:
    """The cached views: the full one (deck-prep role, finished hands) and the public one."""
    return {"full": hand.view(public=False), "public": hand.view(public=True)}
