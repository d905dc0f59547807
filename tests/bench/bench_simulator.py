"""How fast the structure simulator is: 1,000 runs of a 1,000-entry event (goal: under 10 s on one core).

    .venv/bin/python tests/bench/bench_simulator.py [--runs 1000] [--entries 1000] [--repeat 3]

The event is the shipped "Regular - No Limit" template (20-minute levels, 20,000 chips, tables of
eight) with late registration until level 6 and 10% re-entries, so every part of the model is
timed. Prints wall and CPU time of each repeat, the best, rounds simulated and the load average
(two cores are shared with other work: CPU time is the fairer figure on a busy machine).
"""

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tournaments import simulator, structures


def config(entries: int) -> simulator.SimulationConfig:
    levels = tuple(
        simulator.LevelSpec(
            minutes=level["duration_minutes"],
            small_blind=level["small_blind"],
            big_blind=level["big_blind"],
            ante=level["ante"],
            ante_kind=level["ante_kind"],
            is_break=level["is_break"],
        )
        for level in structures.template_levels("no_limit", "regular")
    )
    return simulator.SimulationConfig(
        game="courchevel",
        betting="no_limit",
        levels=levels,
        starting_stack=20000,
        entries=entries,
        reentries=entries // 10,
        late_registration_until_level=6,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--entries", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    event = config(args.entries)
    print(f"load average before: {os.getloadavg()}")
    simulator.simulate(event, 10, 0)  # warm up (imports, NumPy's first calls)
    walls, cpus = [], []
    for seed in range(args.repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        report = simulator.simulate(event, args.runs, seed)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        print(
            f"  seed {seed}: {walls[-1]:.2f} s wall, {cpus[-1]:.2f} s CPU; median length "
            f"{report.length.median / 3600:.2f} h (10%-90%: {report.length.p10 / 3600:.2f}-"
            f"{report.length.p90 / 3600:.2f} h), bubble {report.bubble.median / 3600:.2f} h, "
            f"final table {report.final_table.median / 3600:.2f} h, {report.entries.median:.0f} entries"
        )
    best = min(walls)
    verdict = "OK" if best < 10 else "TOO SLOW"
    print(
        f"{args.runs} runs of a {args.entries}-entry event: best {best:.2f} s wall "
        f"({min(cpus):.2f} s CPU), goal < 10 s: {verdict}; load average after: {os.getloadavg()}"
    )


if __name__ == "__main__":
    main()
