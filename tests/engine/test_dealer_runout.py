"""All-in as the rules say (R4.6, R6.2; TDA rule 16): when betting closes with an all-in and cards are
still to come, the dealer turns every hand still in face up, then deals the board street by street.

``dealer_runout`` hands (what the dealing service deals) wait for a ``face_up`` input and one
``deal`` per street; hands without it (stored before) still run out at once and replay unchanged.
"""

import pytest

from dealing.engine import Hand
from dealing.engine.errors import RuleError

from .handkit import config

SEED = bytes(range(32))


def heads_up(dealer_runout=True, mode="seeded", stacks=(100, 100)):
    cfg = config(stacks, mode=mode, dealer_runout=dealer_runout)
    return Hand.start(cfg, SEED if mode == "seeded" else None)


def all_in_and_call(hand):
    # Heads-up the button (seat 1) posts the small blind and acts first pre-flop (R3.5).
    hand.act(hand.to_act, "all_in")
    hand.act(hand.to_act, "call")


def test_an_all_in_called_waits_for_the_dealer_to_turn_the_hands_face_up_R6_2():
    hand = heads_up()
    all_in_and_call(hand)
    assert hand.awaiting == "face_up"
    assert hand.runout is True
    assert hand.board == hand.view()["board"] and len(hand.board) == 1  # only the exposed flop card (R4.2)
    public = hand.view(public=True)
    assert [p["cards"] for p in public["players"]] == [None, None]
    assert not any(e["type"] in ("show", "hole") for e in hand.public_events())
    assert public["phase"] == "face_up"


def test_face_up_shows_every_hand_then_each_street_waits_for_a_tap_R6_2_R4_4():
    hand = heads_up()
    all_in_and_call(hand)
    before = len(hand.events)
    event = hand.face_up()
    assert event == {"type": "face_up", "seats": [1, 2]}  # R6.2: the last aggressor (seat 1) first
    shows = hand.events[before + 1 :]
    assert [e["type"] for e in shows] == ["show", "show"]
    public = hand.view(public=True)
    assert all(len(p["cards"]) == 5 and p["shown"] for p in public["players"])
    # Nothing dealt yet: the flop waits for the dealer's tap.
    assert hand.awaiting == "board" and hand.deal_next == "flop" and len(hand.board) == 1
    hand.deal()
    assert len(hand.board) == 3 and hand.deal_next == "turn"
    hand.deal()
    assert len(hand.board) == 4 and hand.deal_next == "river"
    hand.deal()
    assert hand.done and len(hand.board) == 5
    assert hand.result()["board"] == hand.board


def test_the_seeded_deck_deals_the_same_cards_and_result_as_the_run_out_at_once_R7():
    stepped = heads_up()
    all_in_and_call(stepped)
    stepped.face_up()
    for _ in range(3):
        stepped.deal()
    at_once = heads_up(dealer_runout=False)
    all_in_and_call(at_once)
    assert at_once.done  # without dealer_runout the board runs out at once, as before
    assert stepped.board == at_once.board
    assert stepped.burns == at_once.burns
    assert stepped.result() == at_once.result()
    assert stepped.stacks() == at_once.stacks()


def test_a_stepped_run_out_replays_from_its_events_and_refuses_other_cards():
    hand = heads_up()
    all_in_and_call(hand)
    hand.face_up()
    hand.deal()
    hand.deal()
    hand.deal()
    again = Hand.replay(hand.events)
    assert again.events == hand.events and again.result() == hand.result()
    tampered = [dict(e) for e in hand.events]
    river = max(i for i, e in enumerate(tampered) if e["type"] == "board")
    used = set(hand.board) | {c for p in hand.view(False)["players"] for c in p["cards"]} | set(hand.burns)
    other = next(c for c in ("2c", "3d", "4h", "5s", "6c", "7d", "8h", "9s") if c not in used)
    tampered[river] = {**tampered[river], "cards": [other]}
    with pytest.raises(RuleError) as error:
        Hand.replay(tampered)
    assert error.value.code in ("not_the_deck", "replay_mismatch")


def test_inputs_out_of_order_are_refused_and_change_nothing():
    hand = heads_up()
    all_in_and_call(hand)
    events = list(hand.events)
    with pytest.raises(RuleError) as error:
        hand.deal()
    assert error.value.code == "not_waiting"
    assert "face up" in str(error.value)
    with pytest.raises(RuleError):
        hand.act(1, "check")
    assert hand.events == events
    hand.face_up()
    with pytest.raises(RuleError) as error:
        hand.face_up()
    assert error.value.code == "not_waiting" and "deal the flop" in str(error.value)
    with pytest.raises(RuleError) as error:
        hand.apply_input({"type": "board", "cards": ["2c", "3c"]})
    assert error.value.code in ("not_the_deck", "card_used")


def test_the_tablet_inputs_face_up_and_deal():
    hand = heads_up()
    all_in_and_call(hand)
    hand.apply_input({"type": "face_up"})
    for street in ("flop", "turn", "river"):
        assert hand.view()["deal_next"] == street
        hand.apply_input({"type": "deal"})
    assert hand.done


def test_no_face_up_step_when_the_all_in_comes_on_the_river_R6_2():
    hand = heads_up(stacks=(100, 100))
    hand.act(hand.to_act, "call")
    hand.act(hand.to_act, "check")
    for _ in range(2):  # flop and turn checked through
        hand.act(hand.to_act, "check")
        hand.act(hand.to_act, "check")
    assert len(hand.board) == 5
    hand.act(hand.to_act, "all_in")
    hand.act(hand.to_act, "call")
    assert hand.done  # the showdown: nothing left to deal, every hand shown (R6.2)
    assert not any(e["type"] == "face_up" for e in hand.events)


def test_a_fold_to_the_all_in_ends_the_hand_with_no_run_out():
    hand = heads_up()
    hand.act(hand.to_act, "all_in")
    hand.act(hand.to_act, "fold")
    assert hand.done and not hand.runout
    assert not any(e["type"] in ("face_up", "show") for e in hand.events)


def test_three_players_one_all_in_two_still_betting_play_on_until_betting_closes():
    cfg = config((50, 1000, 1000), mode="seeded", dealer_runout=True)
    hand = Hand.start(cfg, SEED)
    # Seat 1 (button, first to act pre-flop with three players) all-in; the blinds call.
    hand.act(hand.to_act, "all_in")
    hand.act(hand.to_act, "call")
    hand.act(hand.to_act, "call")
    # Two players can still bet: no face-up yet (R4.6).
    assert hand.awaiting == "action" and not hand.runout
    assert not any(e["type"] == "show" for e in hand.events)
    bettor = hand.to_act  # the first player left of the button (R4.4)
    hand.act(bettor, "bet", 100)
    hand.act(hand.to_act, "fold")
    # The bettor's uncalled bet goes back; the all-in and the bettor are face up for the rest.
    assert hand.awaiting == "face_up"
    hand.face_up()
    assert {e["seat"] for e in hand.events if e["type"] == "show"} == {1, bettor}
    hand.deal()
    hand.deal()
    assert hand.done


def test_entered_cards_ask_for_each_hand_then_each_street_R6_2():
    hand = heads_up(mode="entered")
    hand.enter_board(["Kd"])
    all_in_and_call(hand)
    assert hand.awaiting == "show" and hand.must_show and hand.to_show == 1
    hand.show(1, ["As", "Ah", "2c", "3c", "4c"])
    assert hand.to_show == 2
    hand.show(2, ["Ks", "Kh", "5d", "6d", "7d"])
    assert hand.awaiting == "board" and hand.board_needed == 2 and hand.deal_next is None
    hand.enter_board(["Qc", "7h"])
    hand.enter_board(["4s"])
    hand.enter_board(["2d"])
    assert hand.done
