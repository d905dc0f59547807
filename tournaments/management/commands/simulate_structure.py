"""manage.py simulate_structure TOURNAMENT_ID [--entries N] [--reentries N] [--runs N] [--seed N]
[--fit-hours H]: how long the tournament as configured will run (tournaments.simulator).

Reads the tournament's game, betting, structure, starting stack, table size, late registration and
payouts from the database, simulates the event and prints a report a director can read: length,
late registration, the money bubble, the final table and the field at every level, each as a
median with the 10th to 90th percentiles. ``--fit-hours`` adds the level length that fits the event
in that many hours and the shipped template that fits best.
"""

from django.core.management.base import BaseCommand, CommandError
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from tournaments import simulation, simulator
from tournaments.models import BlindStructure, Tournament

FIT_RUNS = simulation.FIT_RUNS  # runs for each trial of --fit-hours


def level_specs(structure: BlindStructure) -> tuple[simulator.LevelSpec, ...]:
    return simulation.structure_levels(structure)


def config_of(tournament: Tournament, entries: int, reentries: int) -> simulator.SimulationConfig:
    return simulation.config_of(tournament, entries, reentries)


error_message = simulation.error_message


def duration(seconds: float) -> str:
    if seconds != seconds:  # NaN: no run got there
        return "-"
    minutes = round(seconds / 60)
    return _("%(hours)d h %(minutes)02d min") % {"hours": minutes // 60, "minutes": minutes % 60}


def clock(seconds: float) -> str:
    minutes = round(seconds / 60)
    return f"{minutes // 60}:{minutes % 60:02d}"


def count(value: float) -> str:
    if value != value:
        return "-"
    return number_format(round(value), force_grouping=True)


def spread(value: simulator.Spread, show=duration) -> str:
    return _("%(median)s  (10%%: %(p10)s, 90%%: %(p90)s)") % {
        "median": show(value.median),
        "p10": show(value.p10),
        "p90": show(value.p90),
    }


class Command(BaseCommand):
    help = _("Simulate a tournament's structure many times: length, bubble, final table, field by level.")

    def add_arguments(self, parser):
        parser.add_argument("tournament_id", type=int)
        parser.add_argument("--entries", type=int, help=_("expected entries (default: entries so far)"))
        parser.add_argument(
            "--reentries", type=int, help=_("expected re-entries (default: re-entries so far)")
        )
        parser.add_argument("--runs", type=int, default=1000, help=_("simulated runs (default 1000)"))
        parser.add_argument("--seed", type=int, default=0, help=_("random seed (default 0)"))
        parser.add_argument("--fit-hours", type=float, help=_("fit the event in this many hours"))

    def handle(self, *args, tournament_id, entries=None, reentries=None, runs=1000, seed=0, **options):
        tournament = Tournament.objects.select_related("structure").filter(pk=tournament_id).first()
        if tournament is None:
            raise CommandError(_("No tournament with id %(id)s.") % {"id": tournament_id})
        if entries is None:
            entries = tournament.entries.filter(number=1).count()
            if entries < 2:
                raise CommandError(_("The tournament has fewer than 2 entries: give --entries."))
        if reentries is None:
            reentries = tournament.entries.filter(number__gt=1).count()
        if reentries and reentries > entries * tournament.max_reentries:
            raise CommandError(
                _(
                    "%(reentries)s re-entries expected, but %(entries)s players may re-enter %(allowed)s times each."
                )
                % {"reentries": reentries, "entries": entries, "allowed": tournament.max_reentries}
            )
        config = config_of(tournament, entries, reentries)
        try:
            report = simulator.simulate(config, runs, seed)
            self.write_report(tournament, config, report)
            if options.get("fit_hours") is not None:
                self.write_fit(tournament, config, options["fit_hours"], seed)
        except simulator.SimulationError as exc:
            raise CommandError(error_message(exc)) from exc

    def write_report(self, tournament, config, report: simulator.SimulationReport) -> None:
        out = self.stdout.write
        out(
            _("%(name)s: %(game)s, %(betting)s")
            % {
                "name": tournament.name,
                "game": tournament.get_game_display(),
                "betting": tournament.get_betting_display(),
            }
        )
        out(
            _(
                "%(entries)s entries and %(reentries)s re-entries expected, starting stack %(stack)s, "
                "tables of %(seats)s."
            )
            % {
                "entries": count(config.entries),
                "reentries": count(config.reentries),
                "stack": count(config.starting_stack),
                "seats": config.seats_per_table,
            }
        )
        out(
            _("%(runs)s simulated runs (seed %(seed)s), %(hands)s hands an hour at a full table of eight.")
            % {"runs": count(report.runs), "seed": report.seed, "hands": count(report.hands_per_hour)}
        )
        out(_("Median, with the 10th and 90th percentiles of the runs:"))
        out("  " + _("Length, breaks included: %(value)s") % {"value": spread(report.length)})
        if config.late_registration_until_level:
            out(
                "  "
                + _(
                    "Late registration closes at %(time)s (end of level %(level)s): %(entries)s entries, "
                    "%(players)s players left."
                )
                % {
                    "time": duration(report.late_registration_closes_at),
                    "level": config.late_registration_until_level,
                    "entries": count(report.entries.median),
                    "players": count(report.players_at_close.median),
                }
            )
        out(
            "  "
            + _("In the money (%(paid)s places paid): %(value)s")
            % {"paid": count(report.places_paid.median), "value": spread(report.bubble)}
        )
        out("  " + _("Final table: %(value)s") % {"value": spread(report.final_table)})
        out(
            "  "
            + _("Ends in level: %(value)s")
            % {"value": spread(report.end_level, lambda v: count(v) if v == v else "-")}
        )
        if report.runs_out_of_levels > 0:
            out(
                self.style.WARNING(
                    _("%(share)s%% of the runs reach the last level, which then never ends: add levels.")
                    % {"share": round(100 * report.runs_out_of_levels)}
                )
            )
        out("")
        out(
            _("Level")
            + "  "
            + _("Blinds").ljust(15)
            + _("Ante").ljust(8)
            + _("Starts").ljust(8)
            + _("Players left (10%-90%)").ljust(26)
            + _("Average stack in big blinds (10%-90%)")
        )
        for level in report.levels:
            blinds = f"{count(level.small_blind)}/{count(level.big_blind)}"
            left = f"{count(level.players_left.median)} ({count(level.players_left.p10)}-{count(level.players_left.p90)})"
            depth = level.average_stack_bb
            stack = f"{depth.median:.0f} ({depth.p10:.0f}-{depth.p90:.0f})"
            if level.still_running < 1:
                stack += "  " + _("%(share)s%% of runs still going") % {
                    "share": int(100 * level.still_running)
                }
            out(
                str(level.number).rjust(5)
                + "  "
                + blinds.ljust(15)
                + (count(level.ante) if level.ante else "-").ljust(8)
                + clock(level.starts_at).ljust(8)
                + left.ljust(26)
                + stack
            )

    def write_fit(self, tournament, config, hours: float, seed: int) -> None:
        out = self.stdout.write
        out("")
        shown = int(hours) if float(hours).is_integer() else hours
        out(_("Fitting the event in %(hours)s hours:") % {"hours": number_format(shown)})
        fit = simulator.fit_level_minutes(config, hours, runs=FIT_RUNS, seed=seed)
        if fit.fits:
            out(
                "  "
                + _("Levels of %(minutes)s minutes (breaks unchanged): median length %(length)s.")
                % {"minutes": fit.level_minutes, "length": duration(fit.report.length.median)}
            )
        else:
            out(
                "  "
                + _("Even levels of %(minutes)s minutes run longer: median length %(length)s.")
                % {"minutes": fit.level_minutes, "length": duration(fit.report.length.median)}
            )
        candidates = {}
        for template in BlindStructure.objects.filter(is_template=True, betting=tournament.betting).order_by(
            "name"
        ):
            levels = level_specs(template)
            play_levels = sum(1 for level in levels if not level.is_break)
            candidates[template.name] = simulator.SimulationConfig(
                **{
                    **config.__dict__,
                    "levels": levels,
                    "starting_stack": template.starting_stack or config.starting_stack,
                    "late_registration_until_level": min(
                        config.late_registration_until_level, play_levels - 1
                    ),
                }
            )
        if not candidates:
            return
        choice = simulator.pick_structure(candidates, hours, runs=FIT_RUNS, seed=seed)
        for name, median in choice.median_seconds.items():
            out(
                "  "
                + _("Template %(name)s: median length %(length)s.")
                % {"name": name, "length": duration(median)}
            )
        if choice.fits:
            out("  " + _("Best fit among the templates: %(name)s.") % {"name": choice.name})
        else:
            out("  " + _("No template fits; the shortest is %(name)s.") % {"name": choice.name})
