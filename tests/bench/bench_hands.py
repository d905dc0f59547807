"""Complete random six-player hands a second through the hand state machine (goal: at least 2,000), with
pokerkit 0.7.7 set up as Courchevel alongside for comparison. Prints figures; asserts no speed.

    .venv/bin/python tests/bench/bench_hands.py [--seconds 6] [--rounds 3] [--no-pokerkit] [--no-split]

What one hand costs here, all of it timed:
- its ``HandConfig``: six players with random stacks (10 to 200 big blinds), validated, as the dealing
  service builds one for every hand; a fresh 32-byte seed (so fresh decks and boards every hand);
- ``Hand.start``: the shuffle, blinds, hole cards, the first flop card;
- until the hand is over: the legal options of the player to act, and a random choice among them
  (fold when facing a bet 15%, a bet or raise anywhere from the minimum to the maximum 20%, which
  includes all-ins; else check or call), applied with ``act`` (every rule check, the chip count after
  each action, R6.7); the board, the showdown, the pots and awards; then ``result()``.

The clock is the CPU time of this process (``time.process_time``): other programs on a busy machine
do not count, though they still slow it (shared caches), so the figure is given for each round and as
the total over all rounds (hands / CPU seconds, not a mean of rates). The first 0.2 s of CPU only
warm up (imports, the evaluator's first tables) and are not counted. The split of a hand's time is
measured in a separate pass, with a timer call around each step (which adds a little).
"""

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from dealing.engine import Hand, HandConfig, evaluator

GAMES = [
    (game, betting)
    for game in ("courchevel", "courchevel_hilo")
    for betting in ("fixed_limit", "pot_limit", "no_limit")
]
clock = time.process_time


def new_config(rng: random.Random, game: str, betting: str) -> HandConfig:
    seats = [(seat, f"p{seat}", rng.randint(10, 200) * 10) for seat in range(1, 7)]
    return HandConfig(
        game=game,
        betting=betting,
        seats=seats,
        button_seat=1,
        small_blind_seat=2,
        big_blind_seat=3,
        small_blind=5,
        big_blind=10,
    )


def choose(options, rng: random.Random) -> tuple:
    """A random legal action for ``options``: (action, amount)."""
    r = rng.random()
    if r < 0.15 and options.call:
        return "fold", None
    if r < 0.35 and options.raise_kind:
        return options.raise_kind, rng.randint(options.min_to, options.max_to)
    return ("call" if options.call else "check"), None


def play(hand: Hand, rng: random.Random) -> None:
    while not hand.done:
        options = hand.options()
        action, amount = choose(options, rng)
        hand.act(options.seat, action, amount)


def one_hand(rng: random.Random, game: str, betting: str) -> dict:
    hand = Hand.start(new_config(rng, game, betting), seed=rng.randbytes(32))
    play(hand, rng)
    return hand.result()


def bench_engine(seconds: float, rounds: int) -> tuple[dict, list[float]]:
    """Per game: [hands, CPU seconds, showdowns]; and the overall rate of each round."""
    rng = random.Random(1)
    warm_until = clock() + 0.2
    while clock() < warm_until:
        for game, betting in GAMES:
            one_hand(rng, game, betting)
    totals = {key: [0, 0.0, 0] for key in GAMES}
    round_rates = []
    for _ in range(rounds):
        round_hands = round_time = 0
        for game, betting in GAMES:
            hands = showdowns = 0
            start = clock()
            deadline = start + seconds / rounds / len(GAMES)
            while clock() < deadline:
                for _ in range(20):
                    showdowns += bool(one_hand(rng, game, betting)["hands"])
                hands += 20
            elapsed = clock() - start
            total = totals[(game, betting)]
            total[0] += hands
            total[1] += elapsed
            total[2] += showdowns
            round_hands += hands
            round_time += elapsed
        round_rates.append(round_hands / round_time)
    return totals, round_rates


def bench_split(hands_per_game: int) -> tuple[dict, int]:
    """Microseconds of CPU per hand in each step, with a timer call around each step."""
    rng = random.Random(2)
    spent = dict.fromkeys(("config", "start", "options", "act", "last act", "choice", "result"), 0.0)
    actions = 0
    for game, betting in GAMES:
        for _ in range(hands_per_game):
            t0 = clock()
            config = new_config(rng, game, betting)
            seed = rng.randbytes(32)
            t1 = clock()
            hand = Hand.start(config, seed=seed)
            t2 = clock()
            spent["config"] += t1 - t0
            spent["start"] += t2 - t1
            while True:
                t0 = clock()
                options = hand.options()
                t1 = clock()
                action, amount = choose(options, rng)
                t2 = clock()
                hand.act(options.seat, action, amount)
                t3 = clock()
                spent["options"] += t1 - t0
                spent["choice"] += t2 - t1
                actions += 1
                if hand.done:
                    spent["last act"] += t3 - t2
                    break
                spent["act"] += t3 - t2
            t0 = clock()
            hand.result()
            spent["result"] += clock() - t0
    count = hands_per_game * len(GAMES)
    return {step: seconds / count * 1e6 for step, seconds in spent.items()}, actions / count


def pokerkit_state(game: str, betting: str, stacks: list[int]):
    from pokerkit import (
        Automation,
        BettingStructure,
        Deck,
        OmahaEightOrBetterLowHand,
        OmahaHoldemHand,
        Opening,
        State,
        Street,
    )

    structure = {
        "fixed_limit": BettingStructure.FIXED_LIMIT,
        "pot_limit": BettingStructure.POT_LIMIT,
        "no_limit": BettingStructure.NO_LIMIT,
    }[betting]
    cap = 4 if betting == "fixed_limit" else None
    small, big = 10, 20
    hand_types = (OmahaHoldemHand,) if game == "courchevel" else (OmahaHoldemHand, OmahaEightOrBetterLowHand)
    return State(
        (
            Automation.ANTE_POSTING,
            Automation.BET_COLLECTION,
            Automation.BLIND_OR_STRADDLE_POSTING,
            Automation.CARD_BURNING,
            Automation.HOLE_DEALING,
            Automation.BOARD_DEALING,
            Automation.RUNOUT_COUNT_SELECTION,
            Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
            Automation.HAND_KILLING,
            Automation.CHIPS_PUSHING,
            Automation.CHIPS_PULLING,
        ),
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
        True,
        0,
        (5, 10),
        0,
        stacks,
        len(stacks),
    )


def bench_pokerkit(seconds: float) -> dict:
    rng = random.Random(1)
    results = {}
    for game, betting in GAMES:
        hands = 0
        start = clock()
        deadline = start + seconds / len(GAMES)
        while clock() < deadline:
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
        elapsed = clock() - start
        results[(game, betting)] = hands / elapsed
    return results


def python_speed() -> float:
    """Microseconds of CPU for ``sum(range(1000))``: to compare figures between machines (a quiet
    recent desktop core takes about 10)."""
    best = None
    for _ in range(5):
        start = clock()
        for _ in range(2000):
            sum(range(1000))
        took = (clock() - start) / 2000 * 1e6
        best = took if best is None else min(best, took)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seconds", type=float, default=6.0, help="CPU seconds for our engine (and pokerkit's)"
    )
    parser.add_argument(
        "--rounds", type=int, default=3, help="the six games are played in turn this many times"
    )
    parser.add_argument("--no-pokerkit", action="store_true")
    parser.add_argument("--no-split", action="store_true", help="skip the split of a hand's time")
    args = parser.parse_args()
    speed = python_speed()
    rows_before = len(evaluator._BEST_WITH_PAIR)
    ours, round_rates = bench_engine(args.seconds, args.rounds)
    rows_built = len(evaluator._BEST_WITH_PAIR) - rows_before
    split = None if args.no_split else bench_split(100)
    theirs = {} if args.no_pokerkit else bench_pokerkit(args.seconds)
    print("Complete random six-player hands a second of CPU time, one core (goal >= 2,000)")
    print(
        f"(this machine: sum(range(1000)) takes {speed:.1f} us of CPU, about 10 on a quiet desktop core; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)"
    )
    print(f"{'game':<34} {'hands':>7} {'hands/s':>10} {'showdowns':>10} {'pokerkit':>10}")
    for (game, betting), (hands, seconds, showdowns) in ours.items():
        pk = theirs.get((game, betting))
        print(
            f"{game + ' ' + betting:<34} {hands:>7,} {hands / seconds:>10,.0f} {showdowns / hands:>10.0%} "
            f"{'-' if pk is None else format(pk, ',.0f'):>10}"
        )
    hands = sum(total[0] for total in ours.values())
    seconds = sum(total[1] for total in ours.values())
    print(
        f"{'all six games':<34} {hands:>7,} {hands / seconds:>10,.0f}"
        + (f" {'':>10} {len(theirs) / sum(1 / rate for rate in theirs.values()):>10,.0f}" if theirs else "")
    )
    rate = hands / seconds
    print(f"goal >= 2,000 hands/s: {'met' if rate >= 2000 else 'NOT MET'} ({rate / 2000:.2f} x the goal)")
    print(
        f"rounds: {', '.join(format(rate, ',.0f') for rate in round_rates)} hands/s "
        f"(median {statistics.median(round_rates):,.0f}); {1e6 * seconds / hands:,.0f} us of CPU per hand"
    )
    print(
        f"(the evaluator met {rows_built:,} board rank patterns for the first time and built their rows, of "
        f"6,175; a long-running server soon has them all)"
    )
    if split is not None:
        steps, actions = split
        total = sum(steps.values())
        print(
            f"\nOne hand's CPU time, {actions:.1f} actions a hand (separate pass, timer calls included: "
            f"{total:,.0f} us a hand)"
        )
        names = {
            "config": "HandConfig and seed",
            "start": "Hand.start (shuffle, blinds, deal)",
            "options": "options() of the player to act",
            "act": "act() but the last",
            "last act": "last act() (board, showdown, awards)",
            "choice": "the bench's random choice",
            "result": "result()",
        }
        for step, micros in steps.items():
            print(f"  {names[step]:<40} {micros:>8,.0f} us {micros / total:>6.0%}")


if __name__ == "__main__":
    main()
