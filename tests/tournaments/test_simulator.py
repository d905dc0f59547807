"""The structure simulator (issue 17): what a director would notice, and the management command."""

import io
import itertools
import math
from dataclasses import replace

import pytest
from django.core.management import CommandError, call_command

from tournaments import simulator, structures
from tournaments.models import Player
from tournaments.simulator import LevelSpec, SimulationConfig, SimulationError, simulate

RUNS = 200


def template(betting: str = "pot_limit", speed: str = "regular") -> tuple[LevelSpec, ...]:
    return tuple(
        LevelSpec(
            minutes=level["duration_minutes"],
            small_blind=level["small_blind"],
            big_blind=level["big_blind"],
            ante=level["ante"],
            ante_kind=level["ante_kind"],
            small_bet=level["small_bet"],
            big_bet=level["big_bet"],
            is_break=level["is_break"],
        )
        for level in structures.template_levels(betting, speed)
    )


def event(**fields) -> SimulationConfig:
    defaults = {
        "game": "courchevel_hilo",
        "betting": "pot_limit",
        "levels": template(),
        "starting_stack": 20000,
        "entries": 100,
    }
    return SimulationConfig(**{**defaults, **fields})


def median_length(config: SimulationConfig, seed: int = 1) -> float:
    return simulate(config, RUNS, seed).length.median


# -- what a director notices --------------------------------------------------------------------------


def test_more_entries_make_a_longer_event():
    lengths = [median_length(event(entries=n)) for n in (20, 100, 500)]
    assert lengths[0] < lengths[1] < lengths[2]


def test_longer_levels_make_a_longer_event():
    base = event()
    lengths = [median_length(simulator.with_level_minutes(base, m)) for m in (10, 20, 40)]
    assert lengths[0] < lengths[1] < lengths[2]
    # Less than in proportion: twice the hands at each level also bust more players at it.
    assert 1.3 < lengths[2] / lengths[1] < 2.0


def test_deeper_stacks_make_a_longer_event():
    lengths = [median_length(event(starting_stack=s)) for s in (5000, 20000, 80000)]
    assert lengths[0] < lengths[1] < lengths[2]


@pytest.mark.parametrize("betting", ["fixed_limit", "pot_limit", "no_limit"])
def test_every_betting_structure_and_game_runs(betting):
    for game in simulator.GAMES:
        report = simulate(event(game=game, betting=betting, levels=template(betting)), 50, 3)
        assert 2 * 3600 < report.length.median < 20 * 3600


def test_late_registration_closes_at_the_end_of_the_configured_level():
    # Regular template: 20-minute levels and a 15-minute break after every fourth level.
    config = event(late_registration_until_level=6, reentries=20)
    report = simulate(config, RUNS, 1)
    assert report.late_registration_closes_at == (6 * 20 + 15) * 60
    # Until level 4: the break right after it is still registration time (services.registration_open).
    assert simulator.late_registration_closes_at(replace(config, late_registration_until_level=4)) == 95 * 60
    assert simulator.late_registration_closes_at(event()) == 0
    # The field is still growing until then, and nobody's bubble or final table comes before it.
    assert report.entries.p10 > 100
    assert report.bubble.p10 >= report.late_registration_closes_at
    assert report.levels[3].players_left.median > report.levels[0].players_left.median


def test_late_entries_and_reentries_bring_chips_and_time():
    closed = simulate(event(entries=120), RUNS, 1)
    late = simulate(event(entries=120, late_registration_until_level=6, reentries=30), RUNS, 1)
    assert closed.entries.median == 120
    # A re-entry needs a bust-out before it: at most the 30 expected, fewer if few bust early.
    assert 120 < late.entries.p10 <= late.entries.p90 <= 150
    assert late.length.median > closed.length.median
    paid = simulator.places_paid(int(late.entries.median), 15)  # as tournaments.payouts pays
    assert late.places_paid.median == paid


def test_the_bubble_comes_before_the_final_table_and_the_end():
    report = simulate(event(entries=300), RUNS, 1)
    assert report.places_paid.median == 45
    for p in ("p10", "median", "p90"):
        assert getattr(report.bubble, p) < getattr(report.final_table, p) < getattr(report.length, p)


def test_places_paid_can_be_given():
    few = simulate(event(entries=300, places_paid=9), RUNS, 1)
    many = simulate(event(entries=300, places_paid=90), RUNS, 1)
    assert few.places_paid.median == 9
    assert many.bubble.median < few.bubble.median


def test_percentiles_are_ordered():
    report = simulate(event(entries=200, late_registration_until_level=4, reentries=10), RUNS, 2)
    spreads = [
        report.entries,
        report.places_paid,
        report.players_at_close,
        report.length,
        report.bubble,
        report.final_table,
        report.end_level,
    ]
    for level in report.levels:
        spreads += [level.players_left, level.average_stack_bb]
    for spread in spreads:
        assert spread.p10 <= spread.median <= spread.p90
    assert report.length.p10 < report.length.p90  # there is a spread at all


def test_the_field_by_level():
    report = simulate(event(entries=100), RUNS, 1)
    first = report.levels[0]
    assert (first.number, first.starts_at, first.big_blind) == (1, 0, 100)
    assert first.players_left.median == 100
    assert first.average_stack_bb.median == 200  # 20,000 chips over a 100 big blind
    numbers = [level.number for level in report.levels]
    assert numbers == list(range(1, len(numbers) + 1))  # breaks are not levels
    players = [level.players_left.median for level in report.levels]
    assert all(a >= b for a, b in itertools.pairwise(players))
    assert report.levels[4].starts_at == (4 * 20 + 15) * 60  # after the first break
    assert report.end_level.p10 <= report.levels[-1].number
    assert 0 < report.levels[-1].still_running <= 1


def test_the_same_seed_gives_the_same_report():
    config = event(entries=150, late_registration_until_level=5, reentries=15)
    assert simulate(config, RUNS, 7) == simulate(config, RUNS, 7)
    assert simulate(config, RUNS, 7).length != simulate(config, RUNS, 8).length


def test_a_structure_that_runs_out_of_levels_says_so():
    short = template()[:6]  # four levels, a break, a fifth level that never ends
    report = simulate(event(levels=short), 50, 1)
    assert report.runs_out_of_levels == 1.0
    assert report.end_level.median == 5


def test_fit_level_minutes_fits_the_schedule():
    config = event(entries=120)
    fit = simulator.fit_level_minutes(config, 6, runs=100, seed=1)
    assert fit.fits
    assert fit.report.length.median <= 6 * 3600
    longer = simulate(simulator.with_level_minutes(config, fit.level_minutes + 1), 100, 1)
    assert longer.length.median > 6 * 3600
    assert all(level.minutes == fit.level_minutes for level in fit.config.levels if not level.is_break)
    assert [lv.minutes for lv in fit.config.levels if lv.is_break] == [
        lv.minutes for lv in config.levels if lv.is_break
    ]
    impossible = simulator.fit_level_minutes(config, 0.5, runs=50, seed=1)
    assert not impossible.fits and impossible.level_minutes == 5


def test_pick_structure_takes_the_deepest_that_fits():
    candidates = {
        speed: event(levels=template(speed=speed), starting_stack=structures.SPEEDS[speed][5], entries=80)
        for speed in structures.SPEEDS
    }
    medians = {name: median_length(config) for name, config in candidates.items()}
    assert medians["turbo"] < medians["regular"] < medians["deep"]
    between = (medians["regular"] + medians["deep"]) / 2 / 3600
    choice = simulator.pick_structure(candidates, between, runs=RUNS, seed=1)
    assert (choice.name, choice.fits) == ("regular", True)
    choice = simulator.pick_structure(candidates, 0.5, runs=50, seed=1)
    assert (choice.name, choice.fits) == ("turbo", False)


def test_the_bust_model_busts_more_when_stacks_are_short():
    rates = simulator.bust_rate("courchevel", "no_limit", [100, 30, 10, 3], 8)
    assert all(a < b for a, b in itertools.pairwise(rates))
    assert simulator.seconds_per_hand(2, 25) < simulator.seconds_per_hand(8, 25) == 3600 / 25


# -- validation ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fields, code",
    [
        ({"game": "holdem"}, "bad_game"),
        ({"betting": "spread_limit"}, "bad_betting"),
        ({"levels": (LevelSpec.pause(10),)}, "no_levels"),
        ({"levels": (*template()[:4], LevelSpec.pause(10))}, "ends_with_break"),
        ({"levels": (LevelSpec(minutes=0, small_blind=1, big_blind=2),)}, "bad_minutes"),
        ({"levels": (LevelSpec(minutes=20, small_blind=3, big_blind=2),)}, "bad_blinds"),
        ({"levels": (LevelSpec(minutes=20, small_blind=1, big_blind=0),)}, "bad_blinds"),
        ({"levels": (LevelSpec(minutes=20, small_blind=1, big_blind=2, ante=2),)}, "bad_ante"),
        (
            {
                "betting": "fixed_limit",
                "levels": (LevelSpec(minutes=20, small_blind=1, big_blind=2, small_bet=4),),
            },
            "bad_fixed_limit",
        ),
        ({"starting_stack": 0}, "bad_starting_stack"),
        ({"seats_per_table": 9}, "bad_seats_per_table"),
        ({"entries": 1}, "bad_entries"),
        ({"entries": 10.5}, "bad_entries"),
        ({"reentries": -1}, "bad_reentries"),
        ({"reentries": 5}, "reentries_without_late_registration"),
        ({"late_registration_until_level": 24}, "late_registration_beyond_structure"),
        ({"late_entry_share": 0.5}, "late_entries_without_late_registration"),
        ({"late_registration_until_level": 3, "late_entry_share": 1.5}, "bad_late_entry_share"),
        ({"places_paid": 0}, "bad_places_paid"),
        ({"percent_paid": 0}, "bad_percent_paid"),
        ({"hands_per_hour": 0}, "bad_hands_per_hour"),
    ],
)
def test_validation_errors_have_a_code_and_a_message(fields, code):
    with pytest.raises(SimulationError) as caught:
        simulate(event(**fields), 10, 0)
    assert caught.value.code == code
    assert caught.value.message and caught.value.to_dict()["code"] == code


@pytest.mark.parametrize(
    "runs, seed, code", [(0, 0, "bad_runs"), (10, -1, "bad_seed"), (True, 0, "bad_runs")]
)
def test_runs_and_seed_are_checked(runs, seed, code):
    with pytest.raises(SimulationError) as caught:
        simulate(event(), runs, seed)
    assert caught.value.code == code


def test_a_schedule_must_be_a_number_of_hours():
    with pytest.raises(SimulationError) as caught:
        simulator.fit_level_minutes(event(), 0)
    assert caught.value.code == "bad_hours"


# -- manage.py simulate_structure ---------------------------------------------------------------------


def run_command(*args) -> str:
    out = io.StringIO()
    call_command("simulate_structure", *map(str, args), stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_the_command_reports_the_tournament_as_configured(planned):
    tournament = planned(late_registration_until_level=6, max_reentries=1)
    text = run_command(tournament.pk, "--entries", 90, "--reentries", 10, "--runs", 100)
    assert "Winter Cup: Courchevel Hi/Lo, Pot Limit" in text
    assert "90 entries and 10 re-entries expected" in text
    for heading in (
        "Length, breaks included:",
        "In the money (15 places paid):",
        "Final table:",
        "Ends in level:",
    ):
        assert heading in text
    assert "Late registration closes at 2 h 15 min (end of level 6): 100 entries" in text
    assert "Players left" in text
    first_level = next(line for line in text.splitlines() if line.strip().startswith("1  "))
    assert "50/100" in first_level and "0:00" in first_level


@pytest.mark.django_db
def test_the_command_uses_the_entries_so_far_and_fits_a_schedule(planned):
    from tournaments import services

    tournament = planned()
    services.open_registration(tournament)
    for i in range(12):
        services.register(tournament, Player.objects.create(name=f"Player {i + 1}"))
    text = run_command(tournament.pk, "--runs", 50, "--fit-hours", 4)
    assert "12 entries and 0 re-entries expected" in text
    assert "Fitting the event in 4 hours:" in text
    assert "Levels of " in text and "minutes (breaks unchanged)" in text
    assert "Template Regular - Pot Limit: median length" in text
    assert "Best fit among the templates:" in text or "No template fits" in text


@pytest.mark.django_db
def test_the_command_refuses_what_it_cannot_simulate(planned):
    with pytest.raises(CommandError, match="No tournament with id 999999"):
        run_command(999999)
    tournament = planned()
    with pytest.raises(CommandError, match="fewer than 2 entries"):
        run_command(tournament.pk)
    with pytest.raises(CommandError, match="re-enter 0 times"):
        run_command(tournament.pk, "--entries", 50, "--reentries", 5)
    with pytest.raises(CommandError, match="Give from 1 to 100,000 runs"):
        run_command(tournament.pk, "--entries", 50, "--runs", 0)


def test_nan_free_spreads_compare_equal():
    assert simulator.Spread.of([1, 2, 3]) == simulator.Spread.of([3, 2, 1])
    assert math.isnan(simulator.Spread.of([]).median)
