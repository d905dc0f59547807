"""Helpers for the hand tests: build configs and drive hands to exact situations."""

from dealing.engine import Hand, HandConfig


def config(
    stacks=(1000, 1000, 1000),
    *,
    button=1,
    game="courchevel",
    betting="no_limit",
    sb=5,
    bb=10,
    small_blind_seat="auto",
    big_blind_seat="auto",
    mode="entered",
    seat_numbers=None,
    **extra,
) -> HandConfig:
    """Seats 1..n with the given stacks; by default the blinds sit left of the button. With
    ``seat_numbers`` the players sit there instead (then name the blind seats)."""
    numbers = seat_numbers or range(1, len(stacks) + 1)
    seats = [(number, f"p{number}", stack) for number, stack in zip(numbers, stacks)]
    n = len(seats)
    if small_blind_seat == "auto":
        small_blind_seat = button if n == 2 else button % n + 1
    if big_blind_seat == "auto":
        big_blind_seat = button % n + 1 if n == 2 else (button + 1) % n + 1
    return HandConfig(
        game=game,
        betting=betting,
        seats=seats,
        button_seat=button,
        small_blind_seat=small_blind_seat,
        big_blind_seat=big_blind_seat,
        small_blind=sb,
        big_blind=bb,
        deal_mode=mode,
        **extra,
    )


def start(*args, board1="Kd", **kwargs) -> Hand:
    """An entered-mode hand with the first flop card already entered (unless board1 is None)."""
    hand = Hand.start(config(*args, **kwargs))
    if board1 is not None and hand.config.deal_mode == "entered":
        hand.enter_board([board1])
    return hand


def call_or_check(hand: Hand, times: int = 1) -> None:
    for _ in range(times):
        options = hand.options()
        hand.act(options.seat, "call" if options.call else "check")


def check_down(hand: Hand, boards=(["Qc", "7h"], ["4s"], ["2d"])) -> None:
    """Call/check everything; enter the remaining boards when asked (entered mode)."""
    boards = list(boards)
    while hand.awaiting in ("action", "board"):
        if hand.awaiting == "board":
            hand.enter_board(boards.pop(0))
        else:
            call_or_check(hand)


def chips(hand: Hand) -> int:
    return sum(p["stack"] for p in hand.view(False)["players"]) + hand.view(False)["pot_total"]


def show_all(hand: Hand, cards: dict, boards=()) -> list[int]:
    """Entered mode: show each hand when asked (in showdown order) and enter any boards still to come.
    Returns the seats in the order they showed."""
    boards = list(boards)
    order = []
    while hand.awaiting in ("show", "board"):
        if hand.awaiting == "board":
            hand.enter_board(boards.pop(0))
        else:
            seat = hand.to_show
            order.append(seat)
            hand.show(seat, cards[seat])
    return order


def awards(hand: Hand) -> list[tuple]:
    """(pot, seat, amount, share) of every award."""
    return [(e["pot"], e["seat"], e["amount"], e["share"]) for e in hand.events if e["type"] == "award"]


def final_stacks(hand: Hand) -> dict:
    return {s["seat"]: s["stack"] for s in hand.result()["stacks"]}


def money(hand: Hand) -> tuple[dict, int, dict]:
    """Worked out from the events alone: each seat's chips put in (posts and actions less what came
    back), the dead money (a big-blind ante, R3.4) and each seat's awards."""
    put_in = {p["seat"]: 0 for p in hand.view(False)["players"]}
    won = dict.fromkeys(put_in, 0)
    dead = 0
    for event in hand.events:
        kind = event["type"]
        if kind == "post" and event["blind"] == "big_blind_ante":
            dead += event["amount"]
        elif kind in ("post", "action"):
            put_in[event["seat"]] += event["amount"]
        elif kind == "return":
            put_in[event["seat"]] -= event["amount"]
        elif kind == "award":
            won[event["seat"]] += event["amount"]
    return put_in, dead, won


def check_winnings_R6_1(hand: Hand) -> None:
    """R6.1 on a finished hand, from its events: a player all-in wins at most, from each opponent, what
    they put in themselves (plus dead money, which anyone in the main pot can win); and no player
    loses to the others more than the largest amount put in by a player who did not fold."""
    put_in, dead, won = money(hand)
    starts = {p["seat"]: p["start"] for p in hand.view(False)["players"]}
    folded = {e["seat"] for e in hand.events if e["type"] == "action" and e["action"] == "fold"}
    dead_paid = {e["seat"]: e["amount"] for e in hand.events if e.get("blind") == "big_blind_ante"}
    for seat, chips in put_in.items():
        assert chips >= 0, (seat, chips)
        if chips + dead_paid.get(seat, 0) == starts[seat]:  # all-in: every chip went in
            limit = sum(min(other, chips) for other in put_in.values()) + dead
            assert won[seat] <= limit, (seat, won[seat], limit, put_in)
        others = [put_in[s] for s in put_in if s != seat and s not in folded]
        lost = chips - won[seat]
        assert lost <= max(others, default=0), (seat, lost, others, put_in)
