"""All-in equity (dealing.engine.equity): chances and expected pot shares of known hands.

The calculator is checked against a brute-force reference written here from the plain engine: every
remaining board scored by ``evaluate_hand`` (R2.3-R2.6) and its pot paid by ``pots.award`` (R6.3, R6.4),
on seeded random deals of 2 to 8 players with 1 to 5 cards to come. Hand-worked cases pin the rules
down in numbers a floor person can check; sampling is checked against the exact answers it estimates,
and pokerkit (whose Omaha-style hands play two hole and three board cards, like ours) agrees.
"""

import doctest
import math
import random
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from itertools import chain, combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dealing.engine.equity as equity_module
from dealing.engine import CardError, Equity, EquityError, PlayerEquity, all_in_equity
from dealing.engine.cards import CODES, parse_cards
from dealing.engine.equity import DEFAULT_SAMPLES
from dealing.engine.evaluator import evaluate_hand, hilo_strengths, prepare_board
from dealing.engine.pots import Pot, award, best
from dealing.engine.runouts import Runouts, all_runouts

HIGH, HILO = "courchevel", "courchevel_hilo"
# A pot of this many chips splits into halves and then among up to 8 players without an odd chip, so
# the reference's chip counts are exact shares and R6.5 never comes into it.
POT_CHIPS = 2 * math.lcm(*range(1, 9))
ROOT = Path(__file__).resolve().parents[2]


def hand(text: str) -> list[str]:
    return text.split()


# --- the reference ------------------------------------------------------------------------------


def reference(hands, board, dead=()):
    """Both games' figures from one pass over every remaining board: per game, per player, the chips
    won of a POT_CHIPS pot and the boards where they won or tied each half, scooped or split."""
    used = {*board, *dead, *chain(*hands)}
    deck = [c for c in CODES if c not in used]
    seats = list(range(1, len(hands) + 1))
    pot = Pot(POT_CHIPS, tuple(seats))
    figures = {game: {s: Counter() for s in seats} for game in (HIGH, HILO)}
    boards = no_low = 0
    for extra in combinations(deck, 5 - len(board)):
        full = [*board, *extra]
        boards += 1
        values = [evaluate_hand(h, full) for h in hands]
        highs = {s: v[0] for s, v in zip(seats, values)}
        lows = {s: v[1] for s, v in zip(seats, values) if v[1] is not None}
        no_low += not lows
        high_winners, low_winners = best(highs, seats), best(lows, seats)
        for game, game_lows in ((HIGH, None), (HILO, lows)):
            chips = Counter()
            for seat, amount, _share in award(pot, seats, highs, game_lows, 1):
                chips[seat] += amount
            for s in seats:
                f = figures[game][s]
                f["chips"] += chips[s]
                f["high_win"] += high_winners == [s]
                f["high_tie"] += s in high_winners and len(high_winners) > 1
                f["low_win"] += low_winners == [s]
                f["low_tie"] += s in low_winners and len(low_winners) > 1
                f["scoop"] += chips[s] == POT_CHIPS
                f["split"] += 0 < chips[s] < POT_CHIPS
    return boards, no_low, figures


def assert_matches_reference(hands, board, dead=()):
    boards, no_low, figures = reference(hands, board, dead)
    for game in (HIGH, HILO):
        result = all_in_equity(hands, board, dead=dead, game=game, time_budget=None)
        assert (result.method, result.boards, result.total_boards) == ("exact", boards, boards)
        assert result.no_low == (no_low / boards if game == HILO else None)
        for player, want in zip(result.players, figures[game].values()):
            assert player.share_exact == Fraction(want["chips"], POT_CHIPS * boards), (game, hands, board)
            assert player.share == want["chips"] / (POT_CHIPS * boards)
            assert player.share_error == 0.0
            assert player.high_win == want["high_win"] / boards
            assert player.high_tie == want["high_tie"] / boards
            if game == HILO:
                assert player.low_win == want["low_win"] / boards
                assert player.low_tie == want["low_tie"] / boards
            else:
                assert player.low_win is None and player.low_tie is None
            assert player.scoop == want["scoop"] / boards
            assert player.split == want["split"] / boards
        assert sum(p.share_exact for p in result.players) == 1


def random_deal(rng: random.Random, players: int, board: int, dead: int, flushy: bool = False):
    """Hands, board and dead cards from a shuffled deck; ``flushy`` gives every hand two cards and
    the board two cards of one suit, so that flushes (and flush against flush) come often."""
    deck = rng.sample(CODES, 52)
    if flushy:
        suit = rng.choice("cdhs")
        suited = [c for c in deck if c[1] == suit]
        rest = [c for c in deck if c[1] != suit]
        hands = [suited[2 * i : 2 * i + 2] + rest[3 * i : 3 * i + 3] for i in range(players)]
        known = (
            suited[2 * players : 2 * players + min(board, 2)] + rest[3 * players : 3 * players + board - 2]
        )
        left = [c for c in deck if c not in {*known, *chain(*hands)}]
        return hands, known, left[:dead]
    hands = [deck[5 * i : 5 * i + 5] for i in range(players)]
    return (
        hands,
        deck[5 * players : 5 * players + board],
        deck[5 * players + board : 5 * players + board + dead],
    )


# --- against the reference ------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(14))
def test_one_or_two_cards_to_come_match_the_brute_force_reference_R6_3_R6_4(seed):
    rng = random.Random(seed)
    players = rng.randint(2, 8)
    board = rng.choice([3, 4])
    assert_matches_reference(*random_deal(rng, players, board, dead=rng.randint(0, 3)))


@pytest.mark.parametrize("seed", range(6))
def test_flush_heavy_deals_match_the_brute_force_reference_R2_3_R2_4(seed):
    rng = random.Random(100 + seed)
    assert_matches_reference(*random_deal(rng, rng.randint(2, 4), 3, dead=rng.randint(0, 2), flushy=True))


@pytest.mark.parametrize(
    ("players", "board", "dead"),
    [(8, 0, 0), (8, 0, 2), (7, 1, 0), (8, 1, 1), (6, 2, 0), (7, 2, 1), (4, 3, 0), (3, 5, 0), (2, 5, 4)],
)
def test_every_number_of_cards_to_come_matches_the_reference_R2_2_R6_4(players, board, dead):
    """From no board at all (five to come) to a full board (nothing to come), with dead cards."""
    rng = random.Random(players * 100 + board * 10 + dead)
    assert_matches_reference(*random_deal(rng, players, board, dead))


@settings(max_examples=40, deadline=None)
@given(
    deck=st.permutations(CODES),
    players=st.integers(2, 8),
    board=st.integers(0, 5),
    two_suits=st.booleans(),
)
def test_runout_strengths_are_the_single_hand_fast_path_R2_3_R2_6(deck, players, board, two_suits):
    """The batch strengths equal ``hilo_strengths`` board by board (flush-rich deals when the hands
    and the board come from two suits)."""
    if two_suits:
        deck = [c for c in deck if c[1] in "hs"] + [c for c in deck if c[1] not in "hs"]
    cards = parse_cards(deck[: 5 * players + board])
    holes = [cards[5 * i : 5 * i + 5] for i in range(players)]
    known = cards[5 * players :]
    rest = [c for c in range(52) if c not in set(cards)]
    runouts = all_runouts(len(rest), 5 - board)[:: max(1, math.comb(len(rest), 5 - board) // 150)]
    high, low = Runouts(holes, known, rest).strengths(runouts)
    for column, positions in enumerate(runouts):
        prepared = prepare_board(known + [rest[i] for i in positions])
        for p, hole in enumerate(holes):
            assert (high[p, column], low[p, column]) == hilo_strengths(hole, prepared)


# --- hand-worked cases ----------------------------------------------------------------------------


def test_made_set_against_a_flush_draw_with_one_card_to_come_R6_3():
    """Board Kh 7h 2c 3s, river to come, 38 cards left. Kings (set) against A-9 of hearts: the nine
    hearts left give the flush except 2h and 3h, which pair the board and fill the kings up (and Kc
    makes four kings). So the draw wins 7 rivers of 38 and nothing splits."""
    kings, hearts = hand("Kd Ks 8c 8d Tc"), hand("Ah 9h Jc Jd Qc")
    result = all_in_equity([kings, hearts], hand("Kh 7h 2c 3s"), game=HIGH)
    assert (result.method, result.boards) == ("exact", 38)
    set_, draw = result.players
    assert draw.share_exact == Fraction(7, 38) and set_.share_exact == Fraction(31, 38)
    assert (draw.high_win, draw.high_tie, draw.scoop, draw.split) == (7 / 38, 0.0, 7 / 38, 0.0)
    assert set_.scoop == 31 / 38 and set_.low_win is None


def test_hilo_board_with_no_low_possible_gives_the_whole_pot_to_the_high_R6_4():
    """Board Kh Qd 9s Tc: one card to come can bring at most one low card, and a low needs three on
    the board (R2.3, R2.5), so no low qualifies and the high takes every pot whole: the wheel draw
    A-2-3-4-5 earns nothing for its low."""
    wheel, broadway = hand("Ac 2c 3d 4h 5s"), hand("As Kd Jh 8c 7c")
    hilo = all_in_equity([wheel, broadway], hand("Kh Qd 9s Tc"), game=HILO)
    high_only = all_in_equity([wheel, broadway], hand("Kh Qd 9s Tc"), game=HIGH)
    assert hilo.no_low == 1.0
    assert [p.share_exact for p in hilo.players] == [p.share_exact for p in high_only.players]
    assert all(p.low_win == 0.0 and p.low_tie == 0.0 for p in hilo.players)
    # Broadway's A-J with K-Q-T is the nuts straight: the wheel hand never wins a chip.
    assert hilo.players[1].share_exact == 1 and hilo.players[1].scoop == 1.0


def test_a_quartered_pot_R6_4():
    """Board 3h 4s 5d Kh Ks. Two players hold A-2 for the same 5-4-3-2-A low (and the same wheel
    straight); four kings take the high half. The low half is split: each A-2 gets a quarter."""
    quads = hand("Kd Kc 9c 9d Tc")
    a2_clubs, a2_diamonds = hand("Ac 2c Jh Jd Qs"), hand("Ad 2d Js Qh Qc")
    result = all_in_equity([quads, a2_clubs, a2_diamonds], hand("3h 4s 5d Kh Ks"), game=HILO)
    assert result.boards == 1
    assert [p.share_exact for p in result.players] == [Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)]
    q, c, d = result.players
    assert (q.high_win, q.low_win, q.split) == (1.0, 0.0, 1.0)
    assert (c.low_tie, d.low_tie, c.high_win, c.split) == (1.0, 1.0, 0.0, 1.0)


def test_high_alone_and_a_tied_low_pay_three_quarters_R6_4_R2_6():
    """Board 3h 4s 5d Kh 9s. A-2-6 makes a six-high straight with 6-2 and the wheel low with A-2
    (different pairs, R2.6); the other A-2 ties that low with only a five-high straight for the high.
    Half for the high alone plus a quarter for the shared low: 0.75 against 0.25."""
    six_high, wheel = hand("Ac 2c 6h Tc Td"), hand("Ad 2d Qc Qh Jd")
    result = all_in_equity([six_high, wheel], hand("3h 4s 5d Kh 9s"), game=HILO)
    assert [p.share_exact for p in result.players] == [Fraction(3, 4), Fraction(1, 4)]
    assert (result.players[0].high_win, result.players[0].low_tie) == (1.0, 1.0)
    assert result.players[0].scoop == 0.0 and result.players[0].split == 1.0


def test_a_scoop_takes_both_halves_R6_4():
    """Board 3h 4s 5d Kh 9s: the six-high straight with the wheel low against queens with no low."""
    six_high, queens = hand("Ac 2c 6h Tc Td"), hand("Qc Qh Jd Jc Ts")
    result = all_in_equity([six_high, queens], hand("3h 4s 5d Kh 9s"), game=HILO)
    winner, loser = result.players
    assert (winner.share_exact, winner.scoop, winner.high_win, winner.low_win) == (1, 1.0, 1.0, 1.0)
    assert (loser.share, loser.scoop, loser.split) == (0.0, 0.0, 0.0)


def test_the_hands_of_the_issue_add_up_R6_4():
    """The command's example: heads-up after the exposed first flop card (R4.2), 4 cards to come
    from 41: C(41, 4) = 101,270 boards, exact, and the two shares make one pot."""
    result = all_in_equity([hand("Ah Kd Qs Jc Th"), hand("2c 3d 4h 5s 6c")], ["7h"], game=HILO)
    assert (result.method, result.boards, result.total_boards) == ("exact", 101_270, math.comb(41, 4))
    assert sum(p.share_exact for p in result.players) == 1
    # The low draw 2-3-4-5-6 makes a qualifying low far more often than not.
    assert result.players[1].low_win > 0.5 > result.no_low


def test_six_way_after_the_exposed_card_counts_5985_boards_R4_2():
    rng = random.Random(6)
    hands, board, _ = random_deal(rng, 6, 1, 0)
    result = all_in_equity(hands, board, game=HILO)
    assert (result.method, result.boards) == ("exact", 5985)  # C(52 - 30 - 1, 4) = C(21, 4)


# --- sampling -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "board", "game"),
    [(2, 1, HILO), (2, 0, HIGH), (3, 3, HILO), (6, 1, HILO), (8, 0, HIGH)],
)
def test_sampled_shares_lie_within_four_standard_errors_of_exact(players, board, game):
    rng = random.Random(players * 10 + board)
    hands, known, _ = random_deal(rng, players, board, 0)
    exact = all_in_equity(hands, known, game=game, time_budget=None)
    sampled = all_in_equity(hands, known, game=game, samples=DEFAULT_SAMPLES, seed=players + board)
    assert (sampled.method, sampled.boards, sampled.total_boards) == ("sampled", 20_000, exact.boards)
    for s, e in zip(sampled.players, exact.players):
        assert 0 < s.share_error < 0.005 or s.share in (0.0, 1.0)
        assert abs(s.share - e.share) <= 4 * s.share_error + 1e-12
        assert s.share_exact is None
        # The other chances are sample proportions: within four binomial standard errors too.
        for name in ("high_win", "scoop", "split"):
            p = getattr(e, name)
            assert abs(getattr(s, name) - p) <= 4 * math.sqrt(p * (1 - p) / sampled.boards) + 1e-12, name
    assert sum(p.share for p in sampled.players) == pytest.approx(1.0, abs=1e-12)


def test_sampling_is_reproducible_with_a_seed():
    hands = [hand("Ah Kd Qs Jc Th"), hand("2c 3d 4h 5s 6c"), hand("9h 9d 8s 8c 7d")]
    first = all_in_equity(hands, game=HILO, samples=3000, seed=42)
    assert all_in_equity(hands, game=HILO, samples=3000, seed=42) == first
    assert all_in_equity(hands, game=HILO, samples=3000, seed=43) != first
    fresh = all_in_equity(hands, game=HILO, samples=3000)
    assert isinstance(fresh.seed, int)
    assert all_in_equity(hands, game=HILO, samples=3000, seed=fresh.seed) == fresh


def test_exact_when_it_fits_the_time_budget_else_sampled():
    hands = [hand("Ah Kd Qs Jc Th"), hand("2c 3d 4h 5s 6c")]
    assert all_in_equity(hands, ["7h"]).method == "exact"
    tight = all_in_equity(hands, ["7h"], time_budget=0.001)
    assert (tight.method, tight.boards, tight.total_boards) == ("sampled", DEFAULT_SAMPLES, 101_270)
    # Heads-up with no board at all is the largest question there is: exact without a budget.
    assert all_in_equity(hands, time_budget=None).boards == math.comb(42, 5)
    forced = all_in_equity(hands, ["7h", "8h", "9d"], samples=500, seed=1)
    assert (forced.method, forced.boards, forced.total_boards) == ("sampled", 500, 741)


# --- errors -------------------------------------------------------------------------------------


FIVE = [hand("Ah Kd Qs Jc Th"), hand("2c 3d 4h 5s 6c")]
# Every card but two out of play: too few left for the four board cards to come after 7h.
ALL_BUT_TWO = [c for c in CODES if c not in {"7h", *FIVE[0], *FIVE[1]}][2:]


@pytest.mark.parametrize(
    ("kwargs", "error", "code", "rule", "params"),
    [
        ({"hands": [hand("Ah Kd Qs Jc Th"), hand("Ah 3d 4h 5s 6c")]}, CardError, "duplicate_card", "R2.1",
         {"card": "Ah", "what": "hand 1 and hand 2"}),
        ({"hands": [hand("Ah Kd Qs Jc Jc"), FIVE[1]]}, CardError, "duplicate_card", "R2.1",
         {"card": "Jc", "what": "hand 1"}),
        ({"board": ["6c"]}, CardError, "duplicate_card", "R2.1", {"card": "6c", "what": "hand 2 and board"}),
        ({"board": ["7h"], "dead": ["7h"]}, CardError, "duplicate_card", "R2.1",
         {"card": "7h", "what": "board and dead cards"}),
        ({"hands": [hand("Ah Kd Qs Jc"), FIVE[1]]}, CardError, "wrong_card_count", "R2.2",
         {"what": "hand 1", "count": 5, "got": 4}),
        ({"hands": [FIVE[0], hand("2c 3d 4h 5s 6c 7c")]}, CardError, "wrong_card_count", "R2.2",
         {"what": "hand 2", "count": 5, "got": 6}),
        ({"hands": [FIVE[0]]}, EquityError, "too_few_players", "", {"minimum": 2, "got": 1}),
        ({"hands": []}, EquityError, "too_few_players", "", {"minimum": 2, "got": 0}),
        ({"hands": [CODES[5 * i : 5 * i + 5] for i in range(9)]}, EquityError, "too_many_players", "R2.7",
         {"maximum": 8, "got": 9}),
        ({"board": hand("7h 8h 9d Ts Js Qs")}, CardError, "too_many_board_cards", "R2.2",
         {"what": "board", "count": 5, "got": 6}),
        ({"board": ["10h"]}, CardError, "invalid_card", "R2.1", {"card": "10h"}),
        ({"hands": [hand("AH Kd Qs Jc Th"), FIVE[1]]}, CardError, "invalid_card", "R2.1", {"card": "AH"}),
        ({"dead": [7]}, CardError, "card_not_string", "R2.1", {"card": "7"}),
        ({"hands": "Ah Kd Qs Jc Th vs 2c 3d 4h 5s 6c"}, CardError, "cards_not_list", "", None),
        ({"game": "omaha"}, EquityError, "bad_game", "", {"game": "'omaha'"}),
        ({"samples": 0}, EquityError, "bad_samples", "", {"samples": "0"}),
        ({"samples": 2.5}, EquityError, "bad_samples", "", {"samples": "2.5"}),
        ({"seed": -1}, EquityError, "bad_seed", "", {"seed": "-1"}),
        ({"time_budget": 0}, EquityError, "bad_time_budget", "", {"time_budget": "0"}),
        ({"board": ["7h"], "dead": ALL_BUT_TWO}, EquityError, "not_enough_cards", "R2.7",
         {"left": 2, "needed": 4}),
    ],
)  # fmt: skip
def test_bad_questions_are_refused_with_code_rule_and_params_R2_1_R2_2_R2_7(
    kwargs, error, code, rule, params
):
    arguments = {"hands": FIVE, "board": (), "dead": (), **kwargs}
    hands = arguments.pop("hands")
    board = arguments.pop("board")
    with pytest.raises(error) as raised:
        all_in_equity(hands, board, **arguments)
    assert (raised.value.code, raised.value.rule) == (code, rule)
    if params is not None:
        assert raised.value.params == params
    assert str(raised.value).endswith(f"({rule})") or not rule


# --- pokerkit -------------------------------------------------------------------------------------


def pokerkit_shares(hands, board, game):
    """Exact shares by pokerkit's own Omaha-style hands (two of the hole cards, three of the board)
    on every remaining board, split as pokerkit's equity function splits: each hand type's share
    among its best hands, a type with no qualifying hand dropped (R6.4's no-low rule)."""
    pk = pytest.importorskip("pokerkit")
    types = [pk.OmahaHoldemHand] + ([pk.OmahaEightOrBetterLowHand] if game == HILO else [])
    used = {*board, *chain(*hands)}
    deck = [c for c in CODES if c not in used]
    shares = [Fraction(0)] * len(hands)
    boards = 0
    for extra in combinations(deck, 5 - len(board)):
        boards += 1
        full = "".join([*board, *extra])
        halves = []
        for kind in types:
            values = [kind.from_game_or_none("".join(h), full) for h in hands]
            top = max((v for v in values if v is not None), default=None)
            if top is not None:
                halves.append([v is not None and v == top for v in values])
        for winners in halves:
            for i, won in enumerate(winners):
                if won:
                    shares[i] += Fraction(1, len(halves) * sum(winners))
    return [s / boards for s in shares]


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("game", [HIGH, HILO])
def test_pokerkit_agrees_on_every_river_R6_3_R6_4(seed, game):
    rng = random.Random(300 + seed)
    hands, board, _ = random_deal(rng, rng.randint(2, 4), 4, 0)
    ours = all_in_equity(hands, board, game=game)
    assert [p.share_exact for p in ours.players] == pokerkit_shares(hands, board, game)


def test_pokerkit_equity_function_agrees_within_its_sampling_error_R6_3():
    """pokerkit.calculate_equities samples (slowly): 300 boards, seeded, against our exact answer."""
    pk = pytest.importorskip("pokerkit")
    hands, board = [hand("Kd Ks 8c 8d Tc"), hand("Ah 9h Jc Jd Qc")], hand("Kh 7h 2c")
    ours = all_in_equity(hands, board, game=HIGH)
    state = random.getstate()
    random.seed(2026)
    try:
        theirs = pk.calculate_equities(
            [[list(pk.Card.parse("".join(h)))] for h in hands],
            list(pk.Card.parse("".join(board))),
            5,
            5,
            pk.Deck.STANDARD,
            (pk.OmahaHoldemHand,),
            sample_count=300,
        )
    finally:
        random.setstate(state)
    for mine, their in zip(ours.players, theirs):
        assert abs(mine.share - their) <= 4 * math.sqrt(mine.share * (1 - mine.share) / 300)


# --- the package --------------------------------------------------------------------------------


def test_module_example_runs():
    assert doctest.testmod(equity_module).failed == 0


def test_result_types_and_plain_json():
    result = all_in_equity(FIVE, hand("7h 8h 9d"), game=HILO)
    assert isinstance(result, Equity) and all(isinstance(p, PlayerEquity) for p in result.players)
    data = result.to_dict()
    assert data["method"] == "exact" and data["boards"] == 741 and data["board"] == ["7h", "8h", "9d"]
    assert [p["hole"] for p in data["players"]] == FIVE
    assert sum(p["share"] for p in data["players"]) == pytest.approx(1.0, abs=1e-12)


def test_dealing_a_hand_does_not_load_numpy_until_equity_is_asked():
    """The engine runs at every table; NumPy is loaded only by the equity calculator."""
    code = (
        "import sys, dealing.engine as e; assert 'numpy' not in sys.modules; "
        "e.all_in_equity; assert 'numpy' in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_docs_example_runs_as_written(capsys):
    """The equity example in docs/engine.md runs and prints what it says."""
    text = (ROOT / "docs" / "engine.md").read_text()
    section = text[text.index("## All-in equity") :]
    code = section[
        section.index("```python\n") + 10 : section.index("```", section.index("```python\n") + 10)
    ]
    exec(compile(code, "docs/engine.md", "exec"), {})
    assert capsys.readouterr().out == "0.5719 0.7088 0.2912\n"
