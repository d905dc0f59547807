"""The deterministic, verifiable shuffle of RULES section 7. This is a public contract: anyone with a
hand's seed can recompute its deck with a few lines in any language.
"""

import hashlib
import hmac
import struct
from collections.abc import Iterable, Iterator
from operator import ge, mod

from .cards import CODES

UNSHUFFLED_DECK: tuple[str, ...] = tuple(CODES)
SEED_BYTES = 32


def _check_seed(seed: object, what: str = "seed") -> bytes:
    if not isinstance(seed, (bytes, bytearray)):
        raise TypeError(f"{what} must be bytes, not {type(seed).__name__}")
    if len(seed) != SEED_BYTES:
        raise ValueError(f"{what} must be exactly {SEED_BYTES} bytes, got {len(seed)}")
    return bytes(seed)


# HMAC-SHA256 (RFC 2104) with the key's inner and outer hashes started once per seed: the same bytes
# as ``hmac.digest(seed, msg, "sha256")``, several times cheaper than setting up HMAC for each block.
_IPAD = bytes(x ^ 0x36 for x in range(256))
_OPAD = bytes(x ^ 0x5C for x in range(256))
_KEY_PAD = bytes(64 - SEED_BYTES)


def _blocks(seed: bytes, start: int, count: int) -> bytes:
    """HMAC-SHA256(key=seed, msg=k as 8 bytes big-endian) for k = start .. start + count - 1, joined."""
    key = seed + _KEY_PAD
    inner = hashlib.sha256(key.translate(_IPAD))
    outer = hashlib.sha256(key.translate(_OPAD))
    out = []
    for k in range(start, start + count):
        block = inner.copy()
        block.update(k.to_bytes(8, "big"))
        mac = outer.copy()
        mac.update(block.digest())
        out.append(mac.digest())
    return b"".join(out)


def _stream(seed: bytes) -> Iterator[int]:
    """Big-endian uint32s from HMAC-SHA256(key=seed, msg=k as 8 bytes big-endian), k = 0, 1, 2, …

    A deck needs 51 ints; the first seven blocks (56 ints) are made in one go, and more only in the
    rare case rejections (step 3) use them up."""
    yield from struct.unpack(">56I", _blocks(seed, 0, 7))
    k = 7
    while True:
        yield from struct.unpack(">8I", _blocks(seed, k, 1))
        k += 1


def uint32_stream(seed: bytes) -> Iterator[int]:
    """Section 7, step 2: the endless stream of big-endian uint32s of one 32-byte seed."""
    return _stream(_check_seed(seed))


def randbelow(ints: Iterator[int], n: int) -> int:
    """Section 7, step 3's draw of a number in 0 .. n-1, each equally likely: read ints until one is
    below ``2**32 - (2**32 % n)``, then take it modulo n."""
    if n < 1 or n > 2**32:
        raise ValueError(f"randbelow needs 1 <= n <= 2**32, got {n}")
    limit = 2**32 - (2**32 % n)
    x = next(ints)
    while x >= limit:  # rejection sampling keeps every outcome equally likely
        x = next(ints)
    return x % n


def fisher_yates(items: list, picks: Iterable[int]) -> list:
    """Section 7, step 3's shuffle, in place, of any list: for i from the last index down to 1, swap
    positions i and the next pick (a number in 0 .. i). Returns ``items``.

    The one Fisher-Yates of the product: the deck, and the seat draws of ``tables.balancing``, shuffle
    with it. ``picks`` is read lazily, one pick per step (``map(rng.randrange, range(len(items), 1, -1))``
    draws each pick from ``rng`` when its step comes)."""
    for i, j in zip(range(len(items) - 1, 0, -1), picks):
        items[i], items[j] = items[j], items[i]
    return items


class SeededRandom:
    """Random choices from one seed's section 7 stream, so anyone with the seed can replay them.

    ``randrange(n)`` is step 3's draw; ``shuffle(items)`` is step 3's shuffle of any list. The seat
    draws of ``tables.balancing`` use it with a seed stored beside the draw (R8.1, R8.4, R8.5)."""

    def __init__(self, seed: bytes):
        self.seed = _check_seed(seed)
        self._ints = _stream(self.seed)

    def randrange(self, n: int) -> int:
        return randbelow(self._ints, n)

    def shuffle(self, items: list) -> None:
        fisher_yates(items, map(self.randrange, range(len(items), 1, -1)))


# The sizes n = i + 1 of the steps of section 7, step 3 for a 52-card deck (i = 51 down to 1), and the
# limit below which an int is used as it is at each step.
_SIZES = list(range(52, 1, -1))
_LIMITS = [2**32 - (2**32 % n) for n in _SIZES]


def _shuffle(ints: Iterator[int]) -> list[str]:
    """The deck from a stream of ints, step by step (rejections included)."""
    return fisher_yates(list(UNSHUFFLED_DECK), (randbelow(ints, n) for n in _SIZES))


def shuffled_deck(seed: bytes) -> list[str]:
    """The 52 card codes in dealing order (index 0 is the top of the deck)."""
    seed = _check_seed(seed)
    ints = struct.unpack(">56I", _blocks(seed, 0, 7))
    if any(map(ge, ints, _LIMITS)):
        # An int to reject (about one deck in three million): the step-by-step shuffle.
        return _shuffle(_stream(seed))
    # The common case: the first 51 ints are used in order, one per step, none rejected.
    return fisher_yates(list(UNSHUFFLED_DECK), map(mod, ints, _SIZES))


def hand_seed(master_seed: bytes, table_number: int, hand_number: int) -> bytes:
    """A hand's seed derived from a tournament's master seed (rehearsals, simulations, tests)."""
    master_seed = _check_seed(master_seed, "master seed")
    for name, value in (("table_number", table_number), ("hand_number", hand_number)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
    message = f"table:{table_number}:hand:{hand_number}".encode()
    return hmac.new(master_seed, message, hashlib.sha256).digest()


def seed_commitment(seed: bytes) -> str:
    """SHA-256 of the seed, as lowercase hex: shown before the hand, checked after it (RULES section 7, step 6).

    The same function commits to a tournament's master seed before its first hand."""
    return hashlib.sha256(_check_seed(seed)).hexdigest()
