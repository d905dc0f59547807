"""The engine's fast paths give the same answers as the plain ones they stand in for."""

import dataclasses
import hashlib
import hmac
import random

import pytest

from dealing.engine import ConfigError, HandConfig, shuffle
from dealing.engine.pots import Pot, build_pots, unmatched
from dealing.engine.shuffle import _blocks, _shuffle, _stream, shuffled_deck


def test_hmac_blocks_are_rfc_2104_hmac_sha256():
    """RULES section 7: the byte stream is HMAC-SHA256(key=seed, msg=k as 8 bytes big-endian)."""
    rng = random.Random(11)
    for _ in range(200):
        seed = rng.randbytes(32)
        expected = b"".join(
            hmac.new(seed, k.to_bytes(8, "big"), hashlib.sha256).digest() for k in range(3, 12)
        )
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


def _config(**changes):
    data = {
        "game": "courchevel",
        "betting": "pot_limit",
        "seats": [(1, "a", 100), (2, "b", 100), (3, "c", 100)],
        "button_seat": 1,
        "small_blind_seat": 2,
        "big_blind_seat": 3,
        "small_blind": 5,
        "big_blind": 10,
    }
    return HandConfig(**{**data, **changes})


def test_config_to_dict_holds_every_field_in_order_and_round_trips():
    config = _config(betting="fixed_limit", ante=5, ante_kind="per_player", smallest_chip=5)  # R5.7
    names = [f.name for f in dataclasses.fields(HandConfig)]
    # dealer_runout is written only when set, so the start events of older hands replay unchanged.
    assert list(config.to_dict()) == [name for name in names if name != "dealer_runout"]
    assert HandConfig.from_dict(config.to_dict()) == config
    stepped = _config(dealer_runout=True)
    assert list(stepped.to_dict()) == names
    assert HandConfig.from_dict(stepped.to_dict()) == stepped


@pytest.mark.parametrize(
    ("seat", "code"),
    [
        ((0, "x", 5), "bad_seat"),
        ((True, "x", 5), "bad_seat"),
        ((4, "", 5), "bad_player"),
        ((4, 7, 5), "bad_player"),
        ((4, "x", 0), "bad_amount"),
        ((4, "x", 5.0), "bad_amount"),
        ((4, "x", True), "bad_amount"),
        ((4, "x"), "bad_seat"),
    ],
)
def test_seat_tuples_are_checked_like_seat_dicts(seat, code):
    """R2.7 and the config contract: a bad (seat, player, stack) tuple is refused, naming the problem."""
    with pytest.raises(ConfigError) as error:
        _config(seats=[(1, "a", 100), (2, "b", 100), (3, "c", 100), seat])
    assert error.value.code == code


def test_seat_tuples_and_dicts_give_the_same_config():
    as_dicts = _config(
        seats=[
            {"seat": 3, "player": "c", "stack": 7},
            {"seat": 1, "player": "a", "stack": 9},
            {"seat": 2, "player": "b", "stack": 8},
        ]
    )
    assert as_dicts == _config(seats=[(3, "c", 7), (1, "a", 9), [2, "b", 8]])
    assert [s.seat for s in as_dicts.seats] == [1, 2, 3]


def pots_level_by_level(contributions, dead=0):
    """R6.1 the long way: a pot for every distinct amount put in, merging neighbours with the same
    players; chips only folded players reached go to the pot below (or the first one made). Chips
    above the largest amount of a player still in are in no pot: they go back (R6.1)."""
    top = max((amount for _, amount, live in contributions if live), default=0)
    levels = sorted({amount for _, amount, _ in contributions if 0 < amount <= top})
    pots, previous, carry = [], 0, 0
    for level in levels:
        amount = sum(min(put_in, level) - previous for _, put_in, _ in contributions if put_in > previous)
        eligible = [seat for seat, put_in, live in contributions if live and put_in >= level]
        previous = level
        if pots and (pots[-1][1] == eligible or not eligible):
            pots[-1][0] += amount
        elif not eligible:
            carry += amount
        else:
            pots.append([amount + carry, eligible])
            carry = 0
    if dead or carry:
        if pots:
            pots[0][0] += dead + carry
        else:
            pots.append([dead + carry, [seat for seat, _, live in contributions if live]])
    return [Pot(amount, tuple(eligible)) for amount, eligible in pots]


def test_pots_match_the_level_by_level_construction_R6_1():
    rng = random.Random(13)
    for _ in range(5000):
        players = rng.randint(2, 8)
        contributions = [
            (seat, rng.choice([0, 5, 10, 20, rng.randint(0, 300)]), rng.random() < 0.6)
            for seat in range(1, players + 1)
        ]
        if not any(live for _, _, live in contributions):
            contributions[0] = (1, contributions[0][1], True)
        dead = rng.choice([0, 0, 7])
        pots = build_pots(contributions, dead)
        assert pots == pots_level_by_level(contributions, dead)
        back = unmatched(contributions)
        top = max(amount for _, amount, live in contributions if live)
        assert back == [(seat, amount - top) for seat, amount, _ in contributions if amount > top]
        assert sum(pot.amount for pot in pots) + sum(chips for _, chips in back) == (
            sum(amount for _, amount, _ in contributions) + dead
        )
