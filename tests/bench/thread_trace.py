"""What a server's work threads did, from the trace its servers wrote (``config.thread_trace``).

    .venv/bin/python tests/bench/thread_trace.py FOLDER [--busiest 5]

``load_event.py --trace-threads`` sets ``SERVER_TRACE_DIR`` for its servers and prints this at the end.
For each server (a file ``threads-<pid>.log``): the calls, and the time each thread spent, by what it
ran; then its busiest seconds (by the input thread's time), each with what every thread did in it and
the longest any call waited in its queue. A thread busy close to 1,000 ms of a second is saturated:
what arrives then waits.
"""

from __future__ import annotations

import argparse
import collections
import time
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Second:
    busy: collections.Counter = field(default_factory=collections.Counter)  # pool -> seconds
    waited: collections.Counter = field(default_factory=collections.Counter)  # pool -> longest wait
    by_what: collections.Counter = field(default_factory=collections.Counter)  # what -> seconds
    calls: collections.Counter = field(default_factory=collections.Counter)  # what -> calls


@dataclass
class Trace:
    calls: collections.Counter = field(default_factory=collections.Counter)  # (pool, what) -> calls
    busy: collections.Counter = field(default_factory=collections.Counter)  # (pool, what) -> seconds
    seconds: dict[int, Second] = field(default_factory=lambda: collections.defaultdict(Second))


def read(path: Path) -> Trace:
    trace = Trace()
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if len(parts) < 5:
            continue  # a line cut short by the server's end
        try:
            queued, started, ended = (float(x) for x in parts[:3])
        except ValueError:
            continue
        pool, what = parts[3], " ".join(parts[4:])
        took = ended - started
        trace.calls[pool, what] += 1
        trace.busy[pool, what] += took
        second = trace.seconds[int(started)]
        second.busy[pool] += took
        second.waited[pool] = max(second.waited[pool], started - queued)
        second.by_what[what] += took
        second.calls[what] += 1
    return trace


def summary(trace: Trace, busiest: int = 5, pool: str = "input-db") -> list[str]:
    lines = []
    for (pool_name, what), seconds in trace.busy.most_common(8):
        calls = trace.calls[pool_name, what]
        lines.append(
            f"  {pool_name:9} {what:60} {calls:7} calls {seconds:7.1f} s ({seconds / calls * 1000:.1f} ms each)"
        )
    ranked = sorted(trace.seconds.items(), key=lambda item: item[1].busy[pool], reverse=True)[:busiest]
    if ranked:
        lines.append(f"  its busiest seconds by the {pool} thread's time:")
    for at, second in sorted(ranked):
        threads = ", ".join(
            f"{name} {second.busy[name] * 1000:.0f} ms (longest wait {second.waited[name] * 1000:.0f} ms)"
            for name in sorted(second.busy)
        )
        top = "; ".join(
            f"{what} {seconds * 1000:.0f} ms/{second.calls[what]}"
            for what, seconds in second.by_what.most_common(3)
        )
        lines.append(f"    {time.strftime('%H:%M:%S', time.gmtime(at))}  {threads}  [{top}]")
    return lines


def report(folder: Path, busiest: int = 5) -> list[str]:
    lines = []
    for path in sorted(folder.glob("threads-*.log")):
        lines.append(f"{path.name}:")
        lines.extend(summary(read(path), busiest))
    return lines or [f"no thread trace in {folder}"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--busiest", type=int, default=5)
    args = parser.parse_args()
    print("\n".join(report(args.folder, args.busiest)))


if __name__ == "__main__":
    main()
