"""The event-scale load benchmark at CI size (``tests/bench/load_event.py --small``: 50 tables,
10 clock screens, two daphne servers, a worker and beat) against this suite's PostgreSQL and Redis.

It fails on any HTTP error, socket closed by a server or lost update (an input whose snapshot never
reached its tablet), never on a time: the figures are printed for the log (``pytest -s``)."""

import os
import subprocess
import sys

from .conftest import ROOT


def test_a_small_event_under_load_has_no_errors_and_loses_no_update():
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DJANGO_ALLOW_ASYNC"))}
    done = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "bench" / "load_event.py"), "--small"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    print(done.stdout)
    assert done.returncode == 0, done.stdout.rpartition("=" * 100)[2][-4000:] + done.stderr[-4000:]
