"""RULES section 7: the verifiable shuffle. The published test vectors are the contract."""

import pytest

from dealing.engine import UNSHUFFLED_DECK, hand_seed, seed_commitment, shuffled_deck


def test_unshuffled_deck_is_rank_major_with_suits_cdhs():
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
    seed = hand_seed(bytes(range(32)), 3, 17)
    assert seed.hex() == "edae037e289b6e084823d7967dddda50ef6b12a450bd08ccbeeb650c6269b4ae"
    assert shuffled_deck(seed)[:10] == "Kh Kd 4c 2h Th 9c Jc 8d 5h 8c".split()


def test_commitment_is_sha256_of_seed():
    assert seed_commitment(bytes(32)) == "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"


@pytest.mark.parametrize("bad", [b"", bytes(31), bytes(33), "00" * 32])
def test_seed_must_be_32_bytes(bad):
    with pytest.raises((TypeError, ValueError)):
        shuffled_deck(bad)
