"""The engine's fast paths give the same answers as the plain ones they stand in for."""

import hashlib
import hmac
import random

from dealing.engine import shuffle
from dealing.engine.shuffle import _blocks, _shuffle, _stream, shuffled_deck


def test_hmac_blocks_are_rfc_2104_hmac_sha256():
    """RULES section 7: the byte stream is HMAC-SHA256(key=seed, msg=k as 8 bytes big-endian)."""
    rng = random.Random(11)
    for _ in range(200):
        seed = rng.randbytes(32)
        expected = b"".join(hmac.new(seed, k.to_bytes(8, "big"), hashlib.sha256).digest() for k in range(3, 12))
        assert _blocks(seed, 3, 9) == expected


def test_deck_with_a_rejected_int_takes_the_step_by_step_shuffle(monkeypatch):
    """Section 7, step 3: when an int must be rejected the deck comes from the full stream. Forcing
    the rare path for ordinary seeds must give the same deck as the fast one."""
    rng = random.Random(12)
    seeds = [rng.randbytes(32) for _ in range(20)]
    fast = [shuffled_deck(seed) for seed in seeds]
    calls = []
    monkeypatch.setattr(shuffle, "_LIMITS", [0] * 51)  # every int looks like one to reject
    monkeypatch.setattr(shuffle, "_shuffle", lambda ints: calls.append(1) or _shuffle(ints))
    assert [shuffled_deck(seed) for seed in seeds] == fast
    assert len(calls) == len(seeds)
    assert fast == [_shuffle(_stream(seed)) for seed in seeds]
