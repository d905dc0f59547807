"""The structure simulator (``tournaments.simulator``, pure) read for a stored tournament or structure:
the simulator's input built from the database, its report as plain data for the API and the console
preview, its errors as translated messages, and the "fit to my schedule" proposal (docs/simulator.md).

Reads only; every figure comes from ``simulator.simulate`` (one place decides the model).
"""

from __future__ import annotations

import math
from dataclasses import replace

from django.utils.translation import gettext as _

from . import simulator
from .models import BlindStructure, Level, Tournament

FIT_RUNS = 300  # runs for each trial of a fit
MAX_RUNS = 2000  # the API and the console: enough for stable percentiles, a fraction of a second


def level_specs(levels) -> tuple[simulator.LevelSpec, ...]:
    """The simulator's levels from stored ``Level`` rows (or dicts with the same fields)."""

    def get(level, name, default=0):
        return level.get(name, default) if isinstance(level, dict) else getattr(level, name, default)

    return tuple(
        simulator.LevelSpec(
            minutes=get(level, "duration_minutes"),
            small_blind=get(level, "small_blind"),
            big_blind=get(level, "big_blind"),
            ante=get(level, "ante"),
            ante_kind=get(level, "ante_kind", "none") or "none",
            small_bet=get(level, "small_bet"),
            big_bet=get(level, "big_bet"),
            is_break=bool(get(level, "is_break", False)),
        )
        for level in levels
    )


def structure_levels(structure: BlindStructure) -> tuple[simulator.LevelSpec, ...]:
    return level_specs(Level.objects.filter(structure=structure).order_by("order"))


def expected_field(tournament: Tournament) -> tuple[int, int]:
    """First entries and re-entries so far: the default forecast for a tournament."""
    entries = tournament.entries.filter(number=1).count()
    reentries = tournament.entries.filter(number__gt=1).count()
    return entries, reentries


def config_of(
    tournament: Tournament, entries: int, reentries: int, **overrides
) -> simulator.SimulationConfig:
    """The tournament as configured (game, betting, its own structure, stack, tables, late
    registration, payouts) with the field expected."""
    config = simulator.SimulationConfig(
        game=tournament.game,
        betting=tournament.betting,
        levels=structure_levels(tournament.structure),
        starting_stack=tournament.starting_stack,
        entries=entries,
        seats_per_table=tournament.seats_per_table,
        reentries=reentries,
        late_registration_until_level=tournament.late_registration_until_level,
        places_paid=len(tournament.payout_percentages) or None,
        percent_paid=tournament.percent_paid,
    )
    return replace(config, **overrides) if overrides else config


def error_message(exc: simulator.SimulationError) -> str:
    """A simulator refusal in the reader's language."""
    params = exc.params
    number = params.get("index", 0) + 1 if isinstance(params.get("index"), int) else ""
    messages = {
        "no_levels": _("The structure has no levels of play."),
        "ends_with_break": _("The structure ends with a break: add a level after it."),
        "bad_minutes": _("Period %(number)s of the structure must last 1 to 600 minutes.")
        % {"number": number},
        "bad_blinds": _("Period %(number)s of the structure has blinds that cannot be played.")
        % {"number": number},
        "bad_ante": _(
            "Period %(number)s of the structure has an ante without a kind, or a kind without an ante."
        )
        % {"number": number},
        "bad_fixed_limit": _(
            "Period %(number)s: in fixed limit the big blind is the small bet and the big bet twice it (R3.3)."
        )
        % {"number": number},
        "late_registration_beyond_structure": _(
            "Late registration until level %(level)s never closes: the structure has %(levels)s levels."
        )
        % {"level": params.get("level"), "levels": params.get("levels")},
        "reentries_without_late_registration": _(
            "Re-entries need late registration: this tournament closes registration at the start."
        ),
        "bad_entries": _("Give from 2 to 100,000 expected entries."),
        "bad_reentries": _("Give from 0 to 100,000 expected re-entries."),
        "bad_runs": _("Give from 1 to 100,000 runs."),
        "bad_seed": _("The seed is a whole number, 0 or more."),
        "bad_hours": _("The schedule is more than 0 and at most 72 hours."),
        "does_not_finish": _("The event never finishes: the blinds never get high enough. Add levels."),
    }
    return messages.get(exc.code) or _("The simulation cannot run: %(reason)s") % {"reason": exc.message}


def _number(value: float) -> float | None:
    return None if value is None or (isinstance(value, float) and math.isnan(value)) else round(value, 2)


def _spread(spread: simulator.Spread) -> dict:
    return {"median": _number(spread.median), "p10": _number(spread.p10), "p90": _number(spread.p90)}


def report_data(report: simulator.SimulationReport) -> dict:
    """The report as JSON-ready data: times in seconds from the start (breaks included), None where no
    run got there."""
    return {
        "runs": report.runs,
        "seed": report.seed,
        "hands_per_hour": round(report.hands_per_hour, 2),
        "entries": _spread(report.entries),
        "places_paid": _spread(report.places_paid),
        "late_registration_closes_at": _number(report.late_registration_closes_at),
        "players_at_close": _spread(report.players_at_close),
        "length": _spread(report.length),
        "bubble": _spread(report.bubble),
        "final_table": _spread(report.final_table),
        "end_level": _spread(report.end_level),
        "runs_out_of_levels": round(report.runs_out_of_levels, 4),
        "levels": [
            {
                "number": level.number,
                "index": level.index,
                "starts_at": _number(level.starts_at),
                "small_blind": level.small_blind,
                "big_blind": level.big_blind,
                "ante": level.ante,
                "players_left": _spread(level.players_left),
                "average_stack_bb": _spread(level.average_stack_bb),
                "still_running": round(level.still_running, 4),
            }
            for level in report.levels
        ],
    }


def fit_proposal(config: simulator.SimulationConfig, hours: float, *, seed: int = 0) -> dict:
    """Fit the event in ``hours``: the level length that fits (breaks unchanged), and the shipped
    template of the same betting that fits best (with its suggested starting stack)."""
    fit = simulator.fit_level_minutes(config, hours, runs=FIT_RUNS, seed=seed)
    candidates = {}
    for template in BlindStructure.objects.filter(is_template=True, betting=config.betting).order_by("name"):
        levels = structure_levels(template)
        play_levels = sum(1 for level in levels if not level.is_break)
        candidates[template.name] = replace(
            config,
            levels=levels,
            starting_stack=template.starting_stack or config.starting_stack,
            late_registration_until_level=min(config.late_registration_until_level, play_levels - 1),
        )
    proposal = {
        "hours": hours,
        "level_minutes": fit.level_minutes,
        "level_minutes_fit": fit.fits,
        "length_with_those_levels": _spread(fit.report.length),
        "templates": [],
        "best_template": None,
        "best_template_fits": False,
    }
    if candidates:
        choice = simulator.pick_structure(candidates, hours, runs=FIT_RUNS, seed=seed)
        proposal["templates"] = [
            {"name": name, "median_length": _number(median)} for name, median in choice.median_seconds.items()
        ]
        proposal["best_template"] = choice.name
        proposal["best_template_fits"] = choice.fits
    return proposal


def simulate(config: simulator.SimulationConfig, *, runs: int, seed: int, hours: float | None = None) -> dict:
    """The report, and the schedule proposal when ``hours`` is given. ``SimulationError`` as the
    simulator raises it (the callers turn it into a 422 or a message with ``error_message``)."""
    data = report_data(simulator.simulate(config, runs, seed))
    data["config"] = {
        "game": config.game,
        "betting": config.betting,
        "starting_stack": config.starting_stack,
        "entries": config.entries,
        "reentries": config.reentries,
        "seats_per_table": config.seats_per_table,
        "late_registration_until_level": config.late_registration_until_level,
    }
    data["fit"] = fit_proposal(config, hours, seed=seed) if hours is not None else None
    return data
