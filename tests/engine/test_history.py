"""Hand histories: PHH (TOML, private Courchevel variant codes, ``_`` user fields) and a text history."""

import tomllib

from dealing.engine import Hand, to_phh, to_text
from dealing.engine.history import PHH_VARIANTS

from .handkit import awards, call_or_check, check_down, config, show_all, start


def played_hilo_hand():
    hand = start((100, 300, 600, 600), game="courchevel_hilo", sb=5, bb=10, ante=1, ante_kind="per_player")
    hand.act(4, "all_in")
    hand.act(1, "call")
    hand.act(2, "call")
    hand.act(3, "call")
    show_all(
        hand,
        {
            1: ["As", "3c", "Jh", "Jd", "9c"],
            2: ["5c", "6c", "Js", "9h", "8c"],
            3: ["Kh", "Ks", "Th", "9s", "8d"],
            4: ["Qh", "Qs", "Jc", "Tc", "9d"],
        },
        [["Qc", "7h"], ["4s"], ["2d"]],
    )
    return hand


def test_phh_is_toml_with_a_private_variant_and_user_fields():
    hand = played_hilo_hand()
    phh = tomllib.loads(to_phh(hand, event="Courchevel Cup", hand=17))
    assert phh["variant"] == "_NCV/8" and phh["variant"].startswith("_")
    assert phh["players"] == ["p2", "p3", "p4", "p1"]  # p1 is the first seat left of the button
    assert phh["seats"] == [2, 3, 4, 1]
    assert phh["antes"] == [1, 1, 1, 1]
    assert phh["blinds_or_straddles"] == [5, 10, 0, 0]
    assert phh["min_bet"] == 10
    assert phh["starting_stacks"] == [300, 600, 600, 100]
    assert phh["finishing_stacks"] == [300, 1100, 0, 200]
    assert sum(phh["winnings"]) == sum(a[2] for a in awards(hand))
    actions = phh["actions"]
    assert actions[:4] == [f"d dh p{i} ??????????" for i in (1, 2, 3, 4)]  # entered mode: unseen
    assert actions[4] == "d db Kd"  # R4.2: the first flop card before any betting
    assert actions[5] == "p3 cbr 599"  # seat 4 all-in: 600 less the 1 ante
    assert "p2 sm KhKsTh9s8d" in actions  # seat 3 is PHH's p2
    assert phh["_game"] == "courchevel_hilo" and phh["_first_flop_card"] == "Kd"
    assert phh["_deal_mode"] == "entered" and "_seed" not in phh
    assert phh["event"] == "Courchevel Cup" and phh["hand"] == 17


def test_phh_seeded_hand_reveals_the_seed_only_when_over():
    hand = Hand.start(config(mode="seeded", betting="fixed_limit", sb=5, bb=10), seed=bytes(32))
    running = tomllib.loads(to_phh(hand))
    assert "_seed" not in running and "finishing_stacks" not in running
    assert [a for a in running["actions"] if " dh " in a] == [f"d dh p{i} ??????????" for i in (1, 2, 3)]
    assert running["variant"] == "_FCV" and running["small_bet"] == 10 and running["big_bet"] == 20
    while not hand.done:
        call_or_check(hand)
    done = tomllib.loads(to_phh(hand))
    assert done["_seed"] == bytes(32).hex() and len(done["_burns"]) == 4
    assert all(len(a.split()[-1]) == 10 for a in done["actions"] if " dh " in a)


def test_every_game_has_a_private_variant_code():
    assert len(set(PHH_VARIANTS.values())) == 6
    assert all(code.startswith("_") for code in PHH_VARIANTS.values())


def test_text_history_reads_like_a_cardroom():
    hand = start((1000,) * 3, sb=5, bb=10, board1="Kd")
    hand.act(1, "raise", 30)
    hand.act(2, "call")
    hand.act(3, "call")
    check_down(hand, [["Qc", "7h"], ["4s"], ["2d"]])
    hand.muck(2)  # shows in order: seat 2 is first left of the button
    hand.show(3, ["Kh", "Ks", "Th", "9s", "8d"])
    hand.muck(1)
    text = to_text(hand, title="Hand #7, table 2")
    lines = text.splitlines()
    assert lines[0] == "Hand #7, table 2"
    assert lines[1] == "Courchevel No Limit (5/10)"
    for expected in [
        "Seat 1 is the button",
        "Seat 1: p1 (1000 in chips)",
        "p2: posts small blind 5",
        "p3: posts big blind 10",
        "*** FIRST FLOP CARD *** [Kd]",
        "p1: raises 20 to 30",
        "p2: calls 25",
        "*** FLOP *** [Kd] [Qc 7h]",
        "*** RIVER *** [Kd Qc 7h 4s] [2d]",
        "*** SHOWDOWN ***",
        "p2: mucks",
        "p3: shows [Kh Ks Th 9s 8d]",
        "p3 collected 90 from the main pot with Three of a kind, kings",
        "*** SUMMARY ***",
        "Total pot 90",
        "Seat 3: p3 finishes with 1060 (+60)",
    ]:
        assert expected in lines, expected
    assert lines.index("*** FIRST FLOP CARD *** [Kd]") < lines.index("p1: raises 20 to 30")


def test_text_history_side_pots_and_returns():
    hand = played_hilo_hand()
    text = to_text(hand)
    assert "p3 collected 600 from side pot 2" in text
    assert "p1 collected 200 from the main pot (low) with 7-4-3-2-A low" in text
    assert "Total pot 1600 - Main pot 400 | Side pot 1 600 | Side pot 2 600" in text
    folded = start((1000,) * 3)
    folded.act(1, "raise", 30)
    folded.act(2, "fold")
    folded.act(3, "fold")
    assert "Uncalled bet (20) returned to p1" in to_text(folded)


def test_text_history_hides_hole_cards_until_the_hand_is_over():
    hand = Hand.start(config(mode="seeded"), seed=bytes(32))
    assert "Dealt to" not in to_text(hand)
    while not hand.done:
        call_or_check(hand)
    assert to_text(hand).count("Dealt to") == 3
