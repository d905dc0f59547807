"""All-in equity speed (dealing.engine.equity), ours vs pokerkit 0.7.7, on one core.

    .venv/bin/python tests/bench/bench_equity.py [--pokerkit-samples 200] [--repeat 7]

An evaluation is one player's hand on one board, high and low together for Hi/Lo (what one
``hilo_strengths`` call gives; count high and low apart and the figures double). Times are the best
of ``--repeat`` runs in CPU time of this process, so that a shared machine's other work weighs less;
the load average is printed with them. Figures are printed, never asserted: goals live in the issue.

pokerkit's ``calculate_equities`` only samples, and slowly, so it gets ``--pokerkit-samples`` boards
per case; it is run as Courchevel high (its Omaha-style hands play two hole and three board cards, as
R2.3 does), and its boards per second are compared with ours on the same hands and board.
"""

import argparse
import importlib.metadata
import os
import random
import sys
import time
from math import comb, sqrt

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from dealing.engine.cards import CODES
from dealing.engine.evaluator import hilo_strengths, prepare_board

HIGH, HILO = "courchevel", "courchevel_hilo"


def cpu_best(repeat: int, function, *args, **kwargs) -> tuple[float, object]:
    """Best CPU time of ``repeat`` calls of ``function(*args, **kwargs)``, and its result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.process_time()
        result = function(*args, **kwargs)
        best = min(best, time.process_time() - start)
    return best, result


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg()) + f" ({os.cpu_count()} cores)"


def cases() -> list[tuple[str, list[list[str]], list[str], str]]:
    """(what, hands, board, goal) as the issue lists them."""
    ace_king, wheel = ["Ah", "Kd", "Qs", "Jc", "Th"], ["2c", "3d", "4h", "5s", "6c"]
    third = ["As", "Ad", "3c", "3h", "8s"]
    rng = random.Random(2026)
    deck = rng.sample([c for c in CODES if c != "7h"], 30)
    six = [deck[5 * i : 5 * i + 5] for i in range(6)]
    return [
        ("heads-up, exposed first flop card (4 to come)", [ace_king, wheel], ["7h"], "< 500 ms"),
        ("heads-up after the flop (2 to come)", [ace_king, wheel], ["7h", "9h", "2d"], "< 5 ms"),
        ("three-way after the flop (2 to come)", [ace_king, wheel, third], ["7h", "9h", "2d"], "< 10 ms"),
        ("six-way, exposed first flop card (4 to come)", six, ["7h"], "< 500 ms"),
        ("heads-up, no board yet (5 to come)", [ace_king, wheel], [], "-"),
    ]


def single_hand_rate(deals: int = 30_000) -> float:
    """The existing one-player-one-board fast path, boards prepared once per deal as a showdown does."""
    rng = random.Random(7)
    int_deals = []
    for _ in range(deals):
        cards = rng.sample(range(52), 10)
        int_deals.append((cards[:5], cards[5:]))

    def showdowns():
        for hole, board in int_deals:
            hilo_strengths(hole, prepare_board(board))

    best, _ = cpu_best(3, showdowns)
    return deals / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pokerkit-samples", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()

    print(f"All-in equity, Python {sys.version.split()[0]}, one core; {load()}")
    start = time.process_time()
    from dealing.engine import all_in_equity  # NumPy and the board tables load here

    first_hands, first_board = cases()[0][1], cases()[0][2]
    all_in_equity(first_hands, first_board, game=HILO)
    print(
        f"first call, with NumPy's import and the board tables: {(time.process_time() - start) * 1e3:.0f} ms"
    )
    single = single_hand_rate()
    print(f"single-hand fast path (hilo_strengths, board prepared per deal): {single:,.0f} evaluations/s")
    print()

    head = f"{'case':<46} {'game':<6} {'method':<7} {'boards':>9} {'ms':>8} {'evals/s':>12} {'vs 1-hand':>9}"
    print(head + f"  {'max s.e.':>8}  goal")
    print("-" * (len(head) + 16))
    rows = []
    for what, hands, board, goal in cases():
        for game in (HILO, HIGH):
            seconds, result = cpu_best(args.repeat, all_in_equity, hands, board, game=game, time_budget=None)
            rows.append((what, game, result, seconds, goal if game == HILO else ""))
        seconds, result = cpu_best(
            args.repeat, all_in_equity, hands, board, game=HILO, samples=20_000, seed=1
        )
        rows.append((what, HILO, result, seconds, "< 100 ms, s.e. < 0.5%"))
    for what, game, result, seconds, goal in rows:
        evals = result.boards * len(result.players) / seconds
        error = max(p.share_error for p in result.players)
        print(
            f"{what:<46} {'hi/lo' if game == HILO else 'high':<6} {result.method:<7} {result.boards:>9,} "
            f"{seconds * 1e3:>8.2f} {evals:>12,.0f} {evals / single:>8.0f}x  "
            f"{(f'{error:.2%}' if result.method == 'sampled' else '-'):>8}  {goal}"
        )
    print(f"\nsix-way after the exposed card: C(52 - 6*5 - 1, 4) = C(21, 4) = {comb(21, 4):,} boards")
    print(f"heads-up after the exposed card: C(52 - 2*5 - 1, 4) = C(41, 4) = {comb(41, 4):,} boards", end="")
    print(f" = {comb(41, 4) * 2 * 2:,} hand evaluations counting high and low apart")

    try:
        import pokerkit
    except ImportError:  # pragma: no cover - pokerkit is a test dependency
        return
    version = importlib.metadata.version("pokerkit")
    print(
        f"\npokerkit {version} calculate_equities, Courchevel high (OmahaHoldemHand), {args.pokerkit_samples} samples"
    )
    head = f"{'case':<46} {'pokerkit ms':>11} {'its boards/s':>12} {'our boards/s':>13} {'ratio':>7}"
    print(head + "  hand 1 share: ours exact / pokerkit ± s.e.")
    print("-" * (len(head) + 45))
    for what, hands, board, _goal in cases():
        seconds, ours = cpu_best(args.repeat, all_in_equity, hands, board, game=HIGH, time_budget=None)
        ours_rate = ours.boards / seconds
        random.seed(2026)  # pokerkit samples with the random module
        pk_start = time.process_time()
        theirs = pokerkit.calculate_equities(
            [[list(pokerkit.Card.parse("".join(h)))] for h in hands],
            list(pokerkit.Card.parse("".join(board))),
            5,
            5,
            pokerkit.Deck.STANDARD,
            (pokerkit.OmahaHoldemHand,),
            sample_count=args.pokerkit_samples,
        )
        pk_seconds = time.process_time() - pk_start
        pk_rate = args.pokerkit_samples / pk_seconds
        share = ours.players[0].share
        error = sqrt(max(share * (1 - share), 1e-12) / args.pokerkit_samples)
        print(
            f"{what:<46} {pk_seconds * 1e3:>11.0f} {pk_rate:>12,.0f} {ours_rate:>13,.0f} "
            f"{ours_rate / pk_rate:>6,.0f}x  {share:.4f} / {theirs[0]:.4f} ± {error:.4f}"
        )
    print(f"\n{load()}")


if __name__ == "__main__":
    main()
