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
    **extra,
) -> HandConfig:
    """Seats 1..n with the given stacks; by default the blinds sit left of the button."""
    seats = [(i + 1, f"p{i + 1}", stack) for i, stack in enumerate(stacks)]
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
