"""RULES section 7: the verifiable shuffle. The published test vectors are the contract."""

import hashlib
import hmac
import random
import struct

import pytest

from dealing.engine import UNSHUFFLED_DECK, hand_seed, seed_commitment, shuffled_deck
from dealing.engine.shuffle import _shuffle


def test_unshuffled_deck_is_rank_major_with_suits_cdhs():
    """Section 7, step 1."""
    assert UNSHUFFLED_DECK[:5] == ("2c", "2d", "2h", "2s", "3c")
    assert UNSHUFFLED_DECK[-1] == "As"
    assert len(set(UNSHUFFLED_DECK)) == 52


@pytest.mark.parametrize(
    "seed, first_ten",
    [
        (bytes(32), "8c 6h Tc 3c 5s 4d 9c 6c Kh 8h"),
        (bytes(range(32)), "Qs Ah Ks 4d Td 9s Jh 2h Ad Jc"),
    ],
)
def test_published_vectors(seed, first_ten):
    deck = shuffled_deck(seed)
    assert deck[:10] == first_ten.split()
    assert sorted(deck) == sorted(UNSHUFFLED_DECK)


def test_master_seed_vector_table_3_hand_17():
    """Section 7, step 5: hand seeds derived from a master seed."""
    seed = hand_seed(bytes(range(32)), 3, 17)
    assert seed.hex() == "edae037e289b6e084823d7967dddda50ef6b12a450bd08ccbeeb650c6269b4ae"
    assert shuffled_deck(seed)[:10] == ["Kh", "Kd", "4c", "2h", "Th", "9c", "Jc", "8d", "5h", "8c"]


def straight_from_the_rules(seed: bytes) -> list[str]:
    """Section 7 steps 1-4 written out again as plainly as a player auditing a hand would."""
    deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    stream, k = [], 0
    for i in range(51, 0, -1):
        n = i + 1
        limit = 2**32 - (2**32 % n)
        while True:
            if not stream:
                block = hmac.new(seed, k.to_bytes(8, "big"), hashlib.sha256).digest()
                stream = list(struct.unpack(">8I", block))
                k += 1
            x = stream.pop(0)
            if x < limit:
                break
        deck[i], deck[x % n] = deck[x % n], deck[i]
    return deck


def test_the_deck_is_what_anyone_recomputes_from_the_seed():
    rng = random.Random(7)
    for _ in range(50):
        seed = rng.randbytes(32)
        assert shuffled_deck(seed) == straight_from_the_rules(seed)
    assert shuffled_deck(bytearray(32)) == shuffled_deck(bytes(32))


def test_rejection_sampling_skips_ints_at_or_above_the_limit():
    """Section 7, step 3: an int >= 2**32 - (2**32 % n) is read past, not reduced modulo n."""
    limit_52 = 2**32 - (2**32 % 52)  # 2**32 - 48
    plain = _shuffle(iter([0] * 51))
    with_rejects = _shuffle(iter([2**32 - 1, limit_52] + [0] * 51))
    assert with_rejects == plain
    # Reduced modulo 52 instead, 2**32 - 1 would have swapped position 51 with position 47.
    assert (2**32 - 1) % 52 == 47
    assert _shuffle(iter([47] + [0] * 50)) != plain
    # The first int below the limit is used as is.
    assert _shuffle(iter([limit_52 - 1] + [0] * 50)) == _shuffle(iter([51] + [0] * 50))


def test_hand_seeds_differ_by_table_and_hand():
    master = bytes(range(32))
    seeds = {hand_seed(master, table, hand) for table in range(1, 6) for hand in range(1, 40)}
    assert len(seeds) == 5 * 39
    assert all(len(seed) == 32 for seed in seeds)
    # "table:1:hand:12" and "table:11:hand:2" must not collide: the separators are in the message.
    assert hand_seed(master, 1, 12) != hand_seed(master, 11, 2)


def test_commitment_is_sha256_of_seed():
    """Section 7, step 6: the commitment shown before the hand is SHA-256 of its seed."""
    assert seed_commitment(bytes(32)) == "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
    seed = hand_seed(bytes(range(32)), 3, 17)
    assert seed_commitment(seed) == hashlib.sha256(seed).hexdigest()
    assert seed_commitment(seed) != seed_commitment(hand_seed(bytes(range(32)), 3, 18))


@pytest.mark.parametrize("bad", [b"", bytes(31), bytes(33), "00" * 32, None, 0])
def test_seed_must_be_32_bytes(bad):
    with pytest.raises((TypeError, ValueError), match="seed must be"):
        shuffled_deck(bad)
    with pytest.raises((TypeError, ValueError), match="seed must be"):
        seed_commitment(bad)
    with pytest.raises((TypeError, ValueError), match="master seed must be"):
        hand_seed(bad, 1, 1)


@pytest.mark.parametrize("table, hand", [(-1, 1), (1, -1), (True, 1), (1, 2.0), ("1", 1), (1, None)])
def test_table_and_hand_numbers_must_be_non_negative_ints(table, hand):
    with pytest.raises(ValueError, match="must be a non-negative integer"):
        hand_seed(bytes(32), table, hand)
