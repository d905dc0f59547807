"""The one module that reads and writes a hand's secrets (``HandSecret``): its seed, its full view and
the secret parts of its dealt events (hole cards, burns).

The event log (``HandEvent.payload``) stores each event as the public may see it while the hand
runs (``eventlog.blank``); the event as dealt is kept here under its sequence number and put back
(``dealt_payloads``) only where the secrets are needed: replaying the hand, verifying it, and the
views of the deck-prep role or of a finished hand. Callers decide who may see the result
(``dealing.permissions.can_view_deck``); this module only keeps the secrets apart. (On PostgreSQL a
new hand's secrets, made here by ``new_secret``, are written in the deal's one statement:
``dealing.deal_write``.)
"""

from __future__ import annotations

from collections.abc import Iterable

from .models import Hand, HandSecret


def create(
    hand: Hand,
    seed: bytes | None,
    *,
    dealt: dict[int, dict] | None = None,
    full_view: dict | None = None,
    seq: int = -1,
) -> HandSecret:
    """A new hand's secrets in one write: its seed, the dealt form of its first events (seq -> the
    event) and its full view after event ``seq``."""
    secret = new_secret(seed, dealt=dealt, full_view=full_view, seq=seq)
    # Its key, not hand=: that would cache the secret on the hand, a cycle the kept hand holds.
    secret.hand_id = hand.pk
    secret.save(force_insert=True)
    return secret


def new_secret(
    seed: bytes | None, *, dealt: dict[int, dict] | None = None, full_view: dict | None = None, seq: int = -1
) -> HandSecret:
    """A new hand's secrets, unsaved and without their hand (``create``, ``dealing.deal_write``)."""
    return HandSecret(
        seed=seed,
        events={str(s): event for s, event in (dealt or {}).items()},
        state=full_view,
        state_seq=seq if full_view is not None else -1,
    )


def secret_of(hand: Hand) -> HandSecret:
    """The hand's secrets (made empty for a hand that has none yet, e.g. one made by hand in a test)."""
    secret, _created = HandSecret.objects.get_or_create(hand_id=hand.pk)
    return secret


def seed_of(hand: Hand) -> bytes | None:
    seed = HandSecret.objects.filter(hand_id=hand.pk).values_list("seed", flat=True).first()
    return bytes(seed) if seed is not None else None


def seed_hex(hand: Hand) -> str | None:
    seed = seed_of(hand)
    return seed.hex() if seed is not None else None


def add_events(hand: Hand, dealt: dict[int, dict]) -> None:
    """Keep the dealt form of new events (their seq -> the event). Runs under the hand's lock."""
    if not dealt:
        return
    secret = secret_of(hand)
    secret.events = {**secret.events, **{str(seq): event for seq, event in dealt.items()}}
    secret.save(update_fields=["events"])


def dealt_events(hand: Hand) -> dict[str, dict]:
    events = HandSecret.objects.filter(hand_id=hand.pk).values_list("events", flat=True).first()
    return events or {}


def dealt_payload(row, dealt: dict[str, dict]) -> dict:
    """One stored event as it was dealt (its secret parts put back)."""
    return dealt.get(str(row.seq), row.payload)


def dealt_payloads(rows: Iterable, dealt: dict[str, dict]) -> list[tuple[object, dict]]:
    return [(row, dealt_payload(row, dealt)) for row in rows]


def full_view(hand: Hand, seq: int) -> dict | None:
    """The cached full view if it is the one after event ``seq``, else None."""
    row = HandSecret.objects.filter(hand_id=hand.pk).values_list("state", "state_seq").first()
    if row is None:
        return None
    state, state_seq = row
    return state if isinstance(state, dict) and state_seq == seq else None


def store_full_view(hand: Hand, state: dict, seq: int) -> None:
    updated = HandSecret.objects.filter(hand_id=hand.pk).update(state=state, state_seq=seq)
    if not updated:
        HandSecret.objects.create(hand_id=hand.pk, state=state, state_seq=seq)
