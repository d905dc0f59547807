"""The Independent Chip Model (Malmuth-Harville) as a pure function (no Django).

A player's chance to finish first is their share of the chips; given who finished above, the chance
to finish next is their share of the chips still in play. A player's equity is the sum over places
of the chance to finish there times that place's prize. Exact, by dynamic programming over the
subsets of players still in: 2^n states, so it is limited to ``MAX_PLAYERS``.
"""

from __future__ import annotations

from dealing.engine.errors import RuleError

MAX_PLAYERS = 14


class ICMError(RuleError):
    """An ICM question that cannot be answered."""


def finish_probabilities(stacks: list[int]) -> list[list[float]]:
    """``p[i][k]``: the chance that player i finishes in place k+1."""
    n = len(stacks)
    if n == 0:
        raise ICMError("no_players", "Give at least one stack.")
    if n > MAX_PLAYERS:
        raise ICMError("too_many", f"ICM is limited to {MAX_PLAYERS} players.", params={"max": MAX_PLAYERS})
    if any(isinstance(s, bool) or not isinstance(s, int) or s <= 0 for s in stacks):
        raise ICMError("bad_stack", "Every stack must be a whole number of chips above 0.")
    full = (1 << n) - 1
    probabilities = [[0.0] * n for _ in range(n)]

    # reach[mask]: the chance that the players in ``mask`` are exactly those already placed, in
    # some order, so the next place goes to someone outside it. Walk masks by size.
    reach = {0: 1.0}
    masks_by_size: list[list[int]] = [[] for _ in range(n + 1)]
    for mask in range(full + 1):
        masks_by_size[bin(mask).count("1")].append(mask)
    for size in range(n):
        for mask in masks_by_size[size]:
            chance = reach.get(mask)
            if not chance:
                continue
            left = sum(stacks[i] for i in range(n) if not mask >> i & 1)
            for i in range(n):
                if mask >> i & 1:
                    continue
                p = chance * stacks[i] / left
                probabilities[i][size] += p
                reach[mask | 1 << i] = reach.get(mask | 1 << i, 0.0) + p
    return probabilities


def equities(stacks: list[int], payouts: list[int | float]) -> list[float]:
    """Each player's prize equity for chip ``stacks`` and prizes by place (``payouts[0]`` is first)."""
    if not payouts:
        raise ICMError("no_payouts", "Give at least one prize.")
    if any(isinstance(p, bool) or not isinstance(p, (int, float)) or p < 0 for p in payouts):
        raise ICMError("bad_payout", "Every prize must be a number of at least 0.")
    probabilities = finish_probabilities(stacks)
    places = min(len(payouts), len(stacks))
    return [sum(row[k] * payouts[k] for k in range(places)) for row in probabilities]


__all__ = ["MAX_PLAYERS", "ICMError", "equities", "finish_probabilities"]
