"""Complete random six-player hands a second through the hand state machine (goal: at least 2,000), with
pokerkit 0.7.7 set up as Courchevel alongside for comparison. Prints figures; asserts no speed.

    .venv/bin/python tests/bench/bench_hands.py [--seconds 3] [--no-pokerkit]

Each hand: six players with random stacks (10 to 200 big blinds), a seeded deck, random legal actions
(fold, call/check, bet or raise anywhere from the minimum to the maximum, all-in) until the hand ends,
showdown and awards included. The same for every game; our figures cover all six.
"""

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from dealing.engine import Hand, HandConfig  # noqa: E402

GAMES = [(game, betting) for game in ("courchevel", "courchevel_hilo")
         for betting in ("fixed_limit", "pot_limit", "no_limit")]


def configs(rng: random.Random, game: str, betting: str, count: int) -> list[HandConfig]:
    out = []
    for _ in range(count):
        seats = [(seat, f"p{seat}", rng.randint(10, 200) * 10) for seat in range(1, 7)]
        out.append(HandConfig(game=game, betting=betting, seats=seats, button_seat=1, small_blind_seat=2,
                              big_blind_seat=3, small_blind=5, big_blind=10))
    return out


def play(hand: Hand, rng: random.Random) -> None:
    while not hand.done:
        options = hand.options()
        r = rng.random()
        if r < 0.15 and options.call:
            hand.act(options.seat, "fold")
        elif r < 0.35 and options.raise_kind:
            hand.act(options.seat, options.raise_kind, rng.randint(options.min_to, options.max_to))
        else:
            hand.act(options.seat, "call" if options.call else "check")


def bench_engine(seconds: float) -> dict:
    rng = random.Random(1)
    results = {}
    for game, betting in GAMES:
        pool = configs(rng, game, betting, 200)
        seeds = [rng.randbytes(32) for _ in range(200)]
        hands = showdowns = 0
        start = time.process_time()  # CPU time of this process: fair on a busy machine
        deadline = start + seconds / len(GAMES)
        while time.process_time() < deadline:
            for i in range(50):
                hand = Hand.start(pool[(hands + i) % 200], seed=seeds[(hands + i) % 200])
                play(hand, rng)
                showdowns += bool(hand.result()["hands"])
            hands += 50
        elapsed = time.process_time() - start
        results[(game, betting)] = (hands / elapsed, showdowns / hands)
    return results


def pokerkit_state(game: str, betting: str, stacks: list[int]):
    from pokerkit import (Automation, BettingStructure, Deck, OmahaEightOrBetterLowHand, OmahaHoldemHand,
                          Opening, State, Street)

    structure = {"fixed_limit": BettingStructure.FIXED_LIMIT, "pot_limit": BettingStructure.POT_LIMIT,
                 "no_limit": BettingStructure.NO_LIMIT}[betting]
    cap = 4 if betting == "fixed_limit" else None
    small, big = 10, 20
    hand_types = (OmahaHoldemHand,) if game == "courchevel" else (OmahaHoldemHand, OmahaEightOrBetterLowHand)
    return State(
        (Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
         Automation.CARD_BURNING, Automation.HOLE_DEALING, Automation.BOARD_DEALING,
         Automation.RUNOUT_COUNT_SELECTION, Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING,
         Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING),
        Deck.STANDARD,
        hand_types,
        (
            # Five hole cards, then the first flop card face up before the pre-flop betting.
            Street(True, (False,) * 5, 1, False, Opening.POSITION, small, cap),
            Street(True, (), 2, False, Opening.POSITION, small, cap),
            Street(True, (), 1, False, Opening.POSITION, big if betting == "fixed_limit" else small, cap),
            Street(True, (), 1, False, Opening.POSITION, big if betting == "fixed_limit" else small, cap),
        ),
        structure,
        True, 0, (5, 10), 0, stacks, len(stacks),
    )


def bench_pokerkit(seconds: float) -> dict:
    rng = random.Random(1)
    results = {}
    for game, betting in GAMES:
        hands = 0
        start = time.process_time()
        deadline = start + seconds / len(GAMES)
        while time.process_time() < deadline:
            state = pokerkit_state(game, betting, [rng.randint(10, 200) * 10 for _ in range(6)])
            while state.status:
                r = rng.random()
                if r < 0.15 and state.can_fold():
                    state.fold()
                elif r < 0.35 and state.can_complete_bet_or_raise_to():
                    low = state.min_completion_betting_or_raising_to_amount
                    high = state.max_completion_betting_or_raising_to_amount
                    state.complete_bet_or_raise_to(rng.randint(low, high))
                elif state.can_check_or_call():
                    state.check_or_call()
                else:
                    break
            hands += 1
        elapsed = time.process_time() - start
        results[(game, betting)] = hands / elapsed
    return results


def python_speed() -> float:
    """Microseconds of CPU for ``sum(range(1000))``: to compare figures between machines (a quiet
    recent desktop core takes about 10)."""
    start = time.process_time()
    for _ in range(20000):
        sum(range(1000))
    return (time.process_time() - start) / 20000 * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="total time for each engine")
    parser.add_argument("--no-pokerkit", action="store_true")
    args = parser.parse_args()
    speed = python_speed()
    ours = bench_engine(args.seconds)
    theirs = {} if args.no_pokerkit else bench_pokerkit(args.seconds)
    print("Complete random six-player hands a second of CPU time, one core (goal >= 2,000)")
    print(f"(this machine: sum(range(1000)) takes {speed:.1f} us of CPU; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    print(f"{'game':<34} {'ours':>10} {'showdowns':>10} {'pokerkit':>10}")
    for (game, betting), (rate, showdown_share) in ours.items():
        pk = theirs.get((game, betting))
        print(f"{game + ' ' + betting:<34} {rate:>10,.0f} {showdown_share:>10.0%} "
              f"{'-' if pk is None else format(pk, ',.0f'):>10}")
    mean = sum(rate for rate, _ in ours.values()) / len(ours)
    print(f"{'all six games (mean)':<34} {mean:>10,.0f}")
    if theirs:
        print(f"{'pokerkit (mean)':<34} {'':>10} {'':>10} {sum(theirs.values()) / len(theirs):>10,.0f}")


if __name__ == "__main__":
    main()
