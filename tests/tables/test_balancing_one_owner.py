"""One owner per rule: the seat draws use the RULES section 7 stream and Fisher-Yates of
``dealing.engine.shuffle``, and the positions of ``dealing.engine.positions`` (R3.6, R8.1, R8.3)."""

import ast
import random
from pathlib import Path

import pytest

from dealing.engine import UNSHUFFLED_DECK, positions, shuffle, shuffled_deck
from tables import balancing
from tables.balancing import TableState

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("seed", [bytes(32), bytes(range(32))])
def test_a_seat_draw_shuffles_exactly_as_the_deck_does(seed):
    """RULES section 7: a DrawRandom shuffling the 52 card codes deals the published deck."""
    cards = list(UNSHUFFLED_DECK)
    balancing.DrawRandom(seed).shuffle(cards)
    assert cards == shuffled_deck(seed)
    cards = list(UNSHUFFLED_DECK)
    balancing._shuffle(balancing.DrawRandom(seed), cards)
    assert cards == shuffled_deck(seed)


def test_draw_random_reads_the_section_7_stream_with_its_rejection_step():
    rng = random.Random(3)
    for _ in range(20):
        seed = rng.randbytes(32)
        sizes = [rng.randint(1, 2**32) for _ in range(40)]
        ints = shuffle.uint32_stream(seed)
        draw = balancing.DrawRandom(seed)
        assert [draw.randrange(n) for n in sizes] == [shuffle.randbelow(ints, n) for n in sizes]
    with pytest.raises(ValueError):
        balancing.DrawRandom(bytes(31))


def test_randbelow_rejects_ints_at_or_above_the_limit():
    n = 3 * 2**30  # limit 2**32 - 2**30: a quarter of all ints are read past
    assert shuffle.randbelow(iter([2**32 - 1, 2**32 - 2**30, 5]), n) == 5
    assert shuffle.randbelow(iter([2**32 - 2**30 - 1]), n) == (2**32 - 2**30 - 1) % n
    with pytest.raises(ValueError):
        shuffle.randbelow(iter([1]), 0)


def _swaps_in(path: Path) -> list[str]:
    """Functions with a swap ``a[x], a[y] = a[y], a[x]``: the step of a Fisher-Yates."""
    found = []
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for inner in ast.walk(node):
            if (
                isinstance(inner, ast.Assign)
                and isinstance(inner.value, ast.Tuple)
                and len(inner.targets) == 1
                and isinstance(inner.targets[0], ast.Tuple)
                and all(isinstance(e, ast.Subscript) for e in inner.targets[0].elts + inner.value.elts)
                and ast.unparse(inner.targets[0].elts[0]) == ast.unparse(inner.value.elts[1])
            ):
                found.append(f"{path.relative_to(ROOT)}:{node.name}")
    return found


def test_there_is_one_fisher_yates_in_the_product():
    swaps = []
    for app in ("config", "tournaments", "tables", "dealing"):
        for path in sorted((ROOT / app).rglob("*.py")):
            swaps += _swaps_in(path)
    assert swaps == ["dealing/engine/shuffle.py:fisher_yates"]
    source = (ROOT / "tables" / "balancing.py").read_text()
    assert "hmac" not in source and "hashlib" not in source and "struct" not in source


def random_table(rng: random.Random) -> TableState:
    size = rng.randint(2, 8)
    seats = rng.sample(range(1, size + 1), rng.randint(2, size))
    big_blind = rng.randint(1, size)
    button = rng.choice([None, rng.randint(1, size)])
    return TableState(
        number=1, size=size, seats={s: 100 + s for s in seats}, button=button, big_blind=big_blind
    )


def test_table_positions_are_the_engines_dead_button_positions_R3_6():
    """The player due for the big blind, the small blind seat and the seats that wait (R3.6, R8.1, R8.3)
    are those the engine deals by."""
    rng = random.Random(5)
    for _ in range(2000):
        t = random_table(rng)
        occupied = sorted(t.seats)
        assert t.next_big_blind_seat() == positions.next_seat(occupied, t.big_blind)
        assert t.next_small_blind_seat() == t.big_blind
        if len(occupied) > 2:
            small_blind = positions.previous_seat(occupied, t.big_blind)
            nxt = positions.next_hand(
                occupied,
                button=small_blind,
                small_blind=small_blind,
                big_blind=t.big_blind,
                table_size=t.size,
            )
            assert nxt.big_blind == t.next_big_blind_seat()
            assert nxt.small_blind == (t.big_blind if t.big_blind in t.seats else None)
        # The player moved for balance is the one due for the big blind (R8.3).
        seat, player = t.next_to_move()
        assert seat == t.next_big_blind_seat() and player == t.seats[seat]
        for seat in range(1, t.size + 1):
            assert t.between_small_blind_and_button(seat) == positions.between_small_blind_and_button(
                seat, button=t.button, big_blind=t.big_blind, table_size=t.size
            )


def test_between_small_blind_and_button_R8_1():
    """Last hand: button 1, big blind 5. Next hand the button goes to the old small blind (2..4) and seat
    5 posts the small blind: a newcomer in 2..5 would get the button or a blind before a big blind."""
    waits = [
        s
        for s in range(1, 9)
        if positions.between_small_blind_and_button(s, button=1, big_blind=5, table_size=8)
    ]
    assert waits == [2, 3, 4, 5]
    assert [
        s
        for s in range(1, 9)
        if positions.between_small_blind_and_button(s, button=None, big_blind=5, table_size=8)
    ] == [5]
    # Round the end of the table.
    waits = [
        s
        for s in range(1, 9)
        if positions.between_small_blind_and_button(s, button=7, big_blind=2, table_size=8)
    ]
    assert waits == [1, 2, 8]
    assert positions.clockwise_after(6, 8) == [7, 8, 1, 2, 3, 4, 5, 6]
    assert positions.next_big_blind([], 3) is None
