"""manage.py equity: the all-in equity table a floor person reads, and refusals worded for them."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation

from dealing.management.commands.equity import Command


def run(command_line: str) -> str:
    """What ``manage.py equity COMMAND_LINE`` prints, in English."""
    out = StringIO()
    with translation.override("en"):
        call_command("equity", *command_line.split(), stdout=out)
    return out.getvalue()


def test_hilo_after_the_exposed_card_counts_every_board_and_shows_low_columns_R6_4():
    out = run("Ah Kd Qs Jc Th vs 2c 3d 4h 5s 6c --board 7h --game courchevel_hilo")
    lines = out.splitlines()
    assert lines[0] == "Courchevel Hi/Lo, board 7h"
    assert lines[1] == "Exact: every one of the 101,270 remaining boards."
    assert lines[3].split() == [
        "Hand",
        "Share",
        "High",
        "win",
        "High",
        "tie",
        "Low",
        "win",
        "Low",
        "tie",
        "Scoop",
        "Split",
    ]
    # The two shares are a whole pot, printed to the hundredth of a percent.
    shares = [float(line.split()[5].rstrip("%")) for line in lines[4:6]]
    assert lines[4].startswith("Ah Kd Qs Jc Th") and lines[5].startswith("2c 3d 4h 5s 6c")
    assert sum(shares) == pytest.approx(100.0, abs=0.011)
    assert lines[-1].startswith("No qualifying low: ")


def test_a_made_hand_against_a_draw_with_the_river_to_come_R6_3():
    """Board Kh 7h 2c 3s: the set of kings wins 31 rivers of 38, the heart draw 7 (see the engine test)."""
    out = run("Kd Ks 8c 8d Tc vs Ah 9h Jc Jd Qc --board Kh 7h 2c 3s")
    rows = {line[:14]: line.split()[5:] for line in out.splitlines() if line[:2] in ("Kd", "Ah")}
    assert rows["Kd Ks 8c 8d Tc"][0] == f"{31 / 38:.2%}" and rows["Ah 9h Jc Jd Qc"][0] == f"{7 / 38:.2%}"
    assert "Low win" not in out  # high only: no low columns


def test_sampling_states_its_boards_seed_and_standard_error():
    args = "Ah Kd Qs Jc Th vs 2c 3d 4h 5s 6c --board 7h --dead Kc 9s --samples 2000 --seed 5"
    out = run(args)
    assert "Dead cards: Kc 9s" in out
    assert "Sampled: 2,000 of the 82,251 remaining boards, seed 5; ± is one standard error." in out
    assert out.count(" ± ") == 3  # the legend and one per hand
    assert run(args) == out  # the seed repeats the answer


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ("Ah Kd Qs Jc Th vs 2c 3d 4h 5s Ah", "Ah appears twice (hand 1 and hand 2): there is one 52-card deck. (R2.1)"),
        ("Ah Kd Qs Jc vs 2c 3d 4h 5s 6c", "hand 1 must be exactly 5 cards, not 4. (R2.2)"),
        ("Ah Kd Qs Jc Th", "Give at least 2 hands, separated by vs."),
        ("Ah Kd Qs Jc Th vs 2c 3d 4h 5s 6c --board 10h", "10h is not a card code"),
        ("Ah Kd Qs Jc Th vs 2c 3d 4h 5s 6c --board 7h 8h 9h Tc Jd Qd", "The board has at most 5 cards, not 6. (R2.2)"),
        ("Ah Kd Qs Jc Th vs 2c 3d 4h 5s 6c --samples 0", "--samples must be a whole number of boards, at least 1."),
    ],
)  # fmt: skip
def test_refusals_name_the_fault_and_the_rule_R2_1_R2_2(args, message):
    with pytest.raises(CommandError) as raised:
        run(args)
    assert message in str(raised.value)


def test_help_tells_how_to_write_the_hands():
    parser = Command().create_parser("manage.py", "equity")
    with translation.override("en"):
        text = parser.format_help()
    assert "separated by vs" in text and "--samples" in text and "courchevel_hilo" in text
