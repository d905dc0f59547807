"""The pots as a dealer builds them (issue 15 item 3, R6.1): during a betting round the pots collected
from the rounds before stand apart from the bets in front of the players, so a bet not yet called is
never shown as a side pot; when the round ends an uncalled bet goes back to its player."""

from .handkit import call_or_check, start


def test_bets_of_the_round_are_not_in_the_collected_pots_R6_1():
    h = start((1000, 1000, 1000))
    call_or_check(h, 3)  # pre-flop: a call, the small blind completes, the big blind checks
    h.enter_board(["Qc", "7h"])
    flop = h.view()
    assert flop["street"] == "flop"
    assert sum(p["amount"] for p in flop["collected_pots"]) == flop["pot_total"] == 30
    h.act(h.to_act, "bet", 20)
    betting = h.view()
    assert sum(p["amount"] for p in betting["collected_pots"]) == 30  # the bet is in front, not in
    assert sum(p["bet"] for p in betting["players"]) == 20
    assert sum(p["amount"] for p in betting["pots"]) == 50


def test_a_raise_over_a_short_all_in_is_no_side_pot_while_the_round_runs_and_goes_back_after_R6_1():
    h = start((5000, 800, 5000))  # button 1, the short stack in the small blind (seat 2)
    h.act(1, "raise", 3000)
    h.act(2, "all_in")
    running = h.view()
    # Nothing collected yet (every chip is a bet of this round): no pot for the raise alone.
    assert running["collected_pots"] == []
    assert [p["eligible"] for p in running["pots"]][-1] == [1]  # what "pots" would have shown
    h.act(3, "fold")
    over = h.view()
    seat1 = next(p for p in over["players"] if p["seat"] == 1)
    assert seat1["put_in"] == 800 and seat1["stack"] == 5000 - 800  # the uncalled 2,200 went back
    assert over["pots"] == [{"amount": 800 * 2 + 10, "eligible": [1, 2]}]


def test_a_finished_hand_has_no_pots_left_to_build():
    h = start((1000, 1000))
    h.act(h.to_act, "fold")
    assert h.view()["collected_pots"] == []
