"""Setting up a hand: the config, blinds and antes, the seeded deal (R2.2, R2.7, R3.2-R3.7, R4.1, R4.2,
R4.4), views that keep secrets, and replay from events."""

import json

import pytest

from dealing.engine import ConfigError, Hand, HandConfig, RuleError, shuffled_deck

from .handkit import call_or_check, config

SEED = bytes(32)


def seeded(stacks=(1000, 1000, 1000), **kwargs) -> Hand:
    return Hand.start(config(stacks, mode="seeded", **kwargs), seed=SEED)


def test_hole_cards_one_at_a_time_from_left_of_the_button_five_rounds_R4_1_R2_2():
    deck = shuffled_deck(SEED)
    hand = seeded()  # button 1: seat 2 gets the first card
    hole = {e["seat"]: e["cards"] for e in hand.events if e["type"] == "hole"}
    assert hole == {2: deck[0:15:3], 3: deck[1:15:3], 1: deck[2:15:3]}
    assert all(len(cards) == 5 for cards in hole.values())


def test_first_flop_card_is_burned_and_dealt_face_up_before_any_betting_R4_2():
    deck = shuffled_deck(SEED)
    hand = seeded()
    board = [e for e in hand.events if e["type"] == "board"]
    assert board == [{"type": "board", "street": "flop1", "cards": [deck[16]], "burn": deck[15]}]
    assert hand.awaiting == "action" and hand.street == 0
    assert not any(e["type"] == "action" for e in hand.events)


def test_flop_turn_and_river_each_burn_one_card_R4_4():
    deck = shuffled_deck(SEED)
    hand = seeded()
    while not hand.done:
        call_or_check(hand)
    boards = [(e["street"], e["burn"], e["cards"]) for e in hand.events if e["type"] == "board"]
    assert boards == [
        ("flop1", deck[15], [deck[16]]),
        ("flop", deck[17], deck[18:20]),
        ("turn", deck[20], [deck[21]]),
        ("river", deck[22], [deck[23]]),
    ]
    assert hand.board == [deck[16], *deck[18:20], deck[21], deck[23]]


def test_eight_players_fit_in_the_deck_nine_are_refused_R2_7():
    hand = seeded((100,) * 8)
    while not hand.done:
        call_or_check(hand)
    used = [c for e in hand.events if e["type"] == "hole" for c in e["cards"]] + hand.board + hand.burns
    assert len(used) == len(set(used)) == 49
    with pytest.raises(ConfigError) as error:
        config((100,) * 9)
    assert (error.value.code, error.value.rule, error.value.params["maximum"]) == (
        "too_many_players",
        "R2.7",
        8,
    )
    with pytest.raises(ConfigError) as error:
        HandConfig.from_dict(
            {**config((100, 100)).to_dict(), "seats": [{"seat": 1, "player": "a", "stack": 5}]}
        )
    assert error.value.code == "too_few_players"


def test_small_blind_need_not_be_half_and_cannot_exceed_the_big_blind_R3_2():
    hand = seeded(sb=10, bb=15, betting="fixed_limit", small_bet=15, big_bet=30)
    assert [e["amount"] for e in hand.events if e["type"] == "post"] == [10, 15]
    with pytest.raises(ConfigError) as error:
        config(sb=20, bb=10)
    assert error.value.code == "bad_blinds"


def test_fixed_limit_big_blind_is_the_small_bet_and_the_big_bet_twice_that_R3_3():
    cfg = config(sb=1, bb=2, betting="fixed_limit")
    assert (cfg.small_bet, cfg.big_bet) == (2, 4)
    with pytest.raises(ConfigError) as error:
        config(sb=1, bb=2, betting="fixed_limit", small_bet=3)
    assert (error.value.code, error.value.rule) == ("bad_small_bet", "R3.3")
    with pytest.raises(ConfigError) as error:
        config(sb=1, bb=2, betting="fixed_limit", big_bet=5)
    assert (error.value.code, error.value.rule) == ("bad_big_bet", "R3.3")


def test_blinds_posted_short_make_the_player_all_in_R3_7():
    hand = seeded((1000, 4, 7), sb=5, bb=10)
    posts = [(e["seat"], e["blind"], e["amount"], e["all_in"]) for e in hand.events if e["type"] == "post"]
    assert posts == [(2, "small_blind", 4, True), (3, "big_blind", 7, True)]


def test_antes_per_player_are_dead_money_R3_4():
    hand = seeded((1000, 1000, 1000), sb=5, bb=10, ante=2, ante_kind="per_player")
    posts = [(e["seat"], e["blind"], e["amount"]) for e in hand.events if e["type"] == "post"]
    assert posts == [
        (2, "ante", 2),
        (3, "ante", 2),
        (1, "ante", 2),
        (2, "small_blind", 5),
        (3, "big_blind", 10),
    ]
    options = hand.options()
    assert (options.call, options.min_to) == (10, 20)  # the antes are not part of anyone's bet
    assert hand.view()["pot_total"] == 21


def test_dead_small_blind_nobody_posts_it_R3_6():
    # Seat 2 is empty (last hand's big blind went out): nobody posts the small blind.
    hand = seeded((1000,) * 4, seat_numbers=(1, 3, 4, 5), small_blind_seat=None, big_blind_seat=3)
    assert [(e["seat"], e["blind"]) for e in hand.events if e["type"] == "post"] == [(3, "big_blind")]
    assert hand.to_act == 4


@pytest.mark.parametrize(
    "change, code",
    [
        ({"game": "holdem"}, "bad_game"),
        ({"betting": "spread"}, "bad_betting"),
        ({"deal_mode": "magic"}, "bad_deal_mode"),
        ({"big_blind": 10.0}, "bad_amount"),
        ({"small_blind": True}, "bad_amount"),
        ({"ante": -1, "ante_kind": "per_player"}, "bad_amount"),
        ({"ante": 5}, "bad_ante"),
        ({"ante_kind": "some"}, "bad_ante_kind"),
        (
            {"seats": [{"seat": 1, "player": "a", "stack": 0}, {"seat": 2, "player": "b", "stack": 5}]},
            "bad_amount",
        ),
        (
            {"seats": [{"seat": 1, "player": "a", "stack": 5.5}, {"seat": 2, "player": "b", "stack": 5}]},
            "bad_amount",
        ),
        (
            {"seats": [{"seat": 1, "player": "a", "stack": -5}, {"seat": 2, "player": "b", "stack": 5}]},
            "bad_amount",
        ),
        (
            {"seats": [{"seat": 1, "player": "a", "stack": True}, {"seat": 2, "player": "b", "stack": 5}]},
            "bad_amount",
        ),
        ({"seats": [(1, "a", 5.0), (2, "b", 5)]}, "bad_amount"),
        ({"big_blind": -10}, "bad_amount"),
        ({"ante": 2.5, "ante_kind": "per_player"}, "bad_amount"),
        ({"smallest_chip": True}, "bad_amount"),
        (
            {"seats": [{"seat": 1, "player": "a", "stack": 5}, {"seat": 1, "player": "b", "stack": 5}]},
            "duplicate_seat",
        ),
        (
            {"seats": [{"seat": 1, "player": "a", "stack": 5}, {"seat": 2, "player": "a", "stack": 5}]},
            "duplicate_player",
        ),
        (
            {"seats": [{"seat": 1, "player": "", "stack": 5}, {"seat": 2, "player": "a", "stack": 5}]},
            "bad_player",
        ),
        ({"seats": "1,2"}, "bad_seat"),
        ({"big_blind_seat": 7}, "blind_seat_empty"),
        ({"small_blind_seat": 3}, "blind_seats_same"),
        ({"button_seat": 2}, "button_on_blind"),
        ({"smallest_chip": 0}, "bad_amount"),
        ({"cap_raises": "yes"}, "bad_cap"),
        ({"colour": "red"}, "unknown_field"),
    ],
)
def test_bad_configs_are_refused_with_the_field_named(change, code):
    data = {**config((100, 100, 100)).to_dict(), **change}
    with pytest.raises(ConfigError) as error:
        HandConfig.from_dict(data)
    assert error.value.code == code
    assert str(error.value)


def test_heads_up_the_button_must_post_the_small_blind_R3_5():
    with pytest.raises(ConfigError) as error:
        config((100, 100), small_blind_seat=2, big_blind_seat=1)
    assert (error.value.code, error.value.rule) == ("heads_up_button", "R3.5")


def test_missing_field_is_named():
    data = config().to_dict()
    del data["big_blind"]
    with pytest.raises(ConfigError, match="big_blind"):
        HandConfig.from_dict(data)


def test_config_round_trips_through_json():
    cfg = config((100, 200), betting="fixed_limit", sb=1, bb=2, ante=1, ante_kind="big_blind")
    assert HandConfig.from_dict(json.loads(json.dumps(cfg.to_dict()))) == cfg


def test_seeds_random_hex_and_bad():
    hand = Hand.start(config(mode="seeded"))
    assert len(hand.seed) == 32
    again = Hand.start(config(mode="seeded"), seed=hand.seed.hex())
    assert again.events == hand.events
    with pytest.raises(ConfigError):
        Hand.start(config(mode="seeded"), seed=b"short")
    with pytest.raises(ConfigError):
        Hand.start(config(mode="entered"), seed=SEED)


def test_public_view_hides_hole_cards_seed_and_burns():
    hand = seeded()
    public = hand.view()
    assert all(p["cards"] is None for p in public["players"])
    assert "seed" not in public and "burns" not in public
    full = hand.view(public=False)
    assert full["seed"] == SEED.hex() and len(full["burns"]) == 1
    assert all(len(p["cards"]) == 5 for p in full["players"])
    events = hand.public_events()
    assert not any(e["type"] == "hole" for e in events)
    assert events[0]["seed"] is None and all(e.get("burn") is None for e in events if e["type"] == "board")
    text = json.dumps(public) + json.dumps(events)
    for p in full["players"]:
        for card in p["cards"]:
            assert f'"{card}"' not in text or card in hand.board


def test_events_are_json_and_replay_rebuilds_the_same_hand():
    hand = seeded((500, 300, 800, 100), ante=1, ante_kind="per_player")
    hand.act(4, "raise", 40)
    hand.act(1, "call")
    stored = json.loads(json.dumps(hand.events))
    middle = Hand.replay(stored)  # a hand in progress
    assert middle.view(public=False) == hand.view(public=False)
    while not hand.done:
        call_or_check(hand)
    final = Hand.replay(json.loads(json.dumps(hand.events)))
    assert final.events == hand.events and final.result() == hand.result()


def test_replay_refuses_altered_events():
    hand = seeded()
    hand.act(1, "raise", 40)
    events = json.loads(json.dumps(hand.events))
    events[-1]["to"] = 60  # the raise was to 40: the engine would record amount 40
    with pytest.raises(RuleError) as error:
        Hand.replay(events)
    assert error.value.code == "replay_mismatch"
    tampered = json.loads(json.dumps(hand.events))
    tampered[1]["amount"] = 1  # a post is made by the engine, not an input
    with pytest.raises(RuleError):
        Hand.replay(tampered)
    with pytest.raises(RuleError) as error:
        Hand.replay([])
    assert error.value.code == "replay_no_start"
    without_seed = json.loads(json.dumps(hand.events))
    without_seed[0]["seed"] = None
    with pytest.raises(RuleError) as error:
        Hand.replay(without_seed)
    assert error.value.code == "replay_no_seed"


def test_acting_after_the_hand_is_over_is_refused():
    hand = seeded()
    hand.act(1, "fold")
    hand.act(2, "fold")
    with pytest.raises(RuleError) as error:
        hand.act(3, "check")
    assert error.value.code == "hand_over"
