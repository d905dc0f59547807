"""Event-scale load benchmark: a whole tournament's tablets and clock screens against real servers.

    .venv/bin/python tests/bench/load_event.py                   # 1250 tables, 100 clocks, 2 daphne
    .venv/bin/python tests/bench/load_event.py --tables 500 --rates 100 --seconds 20
    .venv/bin/python tests/bench/load_event.py --small           # CI: 50 tables, fails on errors only
    .venv/bin/python tests/bench/load_event.py --embedded --tables 100 --rates 50

It starts throwaway PostgreSQL and Redis with ``.ci/services.sh`` (or uses DATABASE_URL and REDIS_URL
when both are set: it then creates and drops its own database on that server, and uses that Redis, so
point it at one you can spare), migrates, and builds the event through the product's services
(``load_build``). It starts S daphne servers, a Celery worker and beat (the integration suite's
``Processes``), or with ``--embedded`` one ``manage.py serve`` on SQLite and the in-memory channel layer.
By default the servers run with the production settings (``DJANGO_ENV=production``, DEBUG off,
the connection pool (``DATABASE_POOL``, on by default with PostgreSQL) as in docker/compose.yaml; HTTPS redirect off since this is plain HTTP on
loopback); ``--dev-settings`` keeps the development defaults.

Every socket is opened as the page would (the device cookie, an allowed Origin) and behaves as
``static/live/live.js`` and ``tablet.js`` do: a clock screen pings every 15 s; a tablet asks for the
server's heartbeat every 2 s (``?beat=2000``, ``screens.heartbeat``), pings when it is 0.5 s late and
would show the server lost after 3 s of silence (counted as "silent 3 s"); each dealer
input sent on the tablet's socket and answered there (``screens.tablet_inputs``; the "POST" columns are
then the socket's answer). ``--inputs http`` posts them to the dealing API instead, each followed by a
``{"type": "refresh", "hand": …, "seq": …}`` (``--no-refresh`` to leave that out). Each table is a dealer: one input
after another, the next one read from the legal options in the table's latest snapshot (deal when
no hand runs; all-in with probability ``--shove`` when a bet or raise is open; fold with probability
``--fold`` when there is a bet, else check or call), so the next input waits for the snapshot of the
last. The all-ins bust players about once a thousand inputs by default (a big event's Day 1: 10,000
down to 1,250 in ten hours, one bust every four seconds at 250 inputs a second), and the product
places them, frees their seats, balances and breaks tables as at the event: a tablet whose deal is
refused while its table waits for players (R8.3, R8.4) tries again a second later (an error after
two minutes: at this pace a hand lasts about one, and a move out of a table in a hand waits for its
end), and one whose table broke stops. After each rate the seating is checked whole (every player
still in has one seat, nobody out keeps one). Inputs are spread over the tables at each of ``--rates``
(inputs a second, deals included) for ``--seconds`` each. Then the director jumps the clock to the
next level through the API and every socket is timed until it shows the new level.

An input is *lost* when its table's tablet has not received a snapshot containing it (``data.hand``
at or past the seq the POST answered) within 10 s. With ``--small`` the exit status is 1 on any
error, socket close or lost update, never on a time. One asyncio process drives everything.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import itertools
import json
import logging
import multiprocessing
import os
import random
import re
import secrets
import shutil
import signal
import statistics
import string
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from config import gc_pauses  # noqa: E402
from tests.bench import thread_trace  # noqa: E402
from tests.bench.load_http import (  # noqa: E402
    HTTPError,
    HTTPPool,
    choose_action,
    load_average,
    median,
    ms,
    own_cpu_seconds,
    percentile,
    pss_mb,
    tree_cpu_seconds,
    tree_pss_mb,
)
from tests.integration.processes import Processes, free_port  # noqa: E402

LOST_AFTER = 10.0  # seconds: an input whose snapshot has not arrived by then is lost
# Seconds: a table whose deals are refused that long waits for a balance never made. At the pace of
# live play (0.2 inputs a second a table) a hand lasts about a minute, and a move out of a table in a
# hand waits for its end (R8.3): a short table may wait that long for its players. Two hands is stuck.
HALTED_FOR = 120.0
MEMORY_EVERY = 10.0  # seconds between two readings of every process's memory during a rate
# A long rate (at least this many seconds, as its timeline) has every process's CPU read each second of
# the wall clock, so that its slowest seconds say which process was busy then (about 5 ms of the load
# generator's CPU a reading, on a thread of its own).
CPU_TRACE_SHORTEST = 120.0
HAND_PATH = re.compile(r"^/api/hands/([0-9]+)/")
PING_EVERY = 15.0  # live.js: clock screens
TABLET_BEAT_MS = 2000  # tablet.js: the server's heartbeat it asks for
TABLET_ANSWER_MS = 1000  # tablet.js: a lost server is shown after beat + answer ms of silence
LEVEL_TIMEOUT = 60.0
CONSOLE_SETTLE = 2.0  # seconds after the sockets opened before the console's page is timed
CONSOLE_WARM = 5  # the console's page timed again after its first render
FINAL_CODES = {4001, 4003, 4004, 4010}  # live.js does not reconnect after these
MAX_RECONNECTS = 20
SMALL = {
    "tables": 50,
    "clocks": 10,
    "rates": "40",
    "seconds": 20.0,  # at 40/s, 16 inputs a table: all-ins, busts, moves and tables broken
    "probe": 12,
    "advance": 12,
    "shove": 0.3,
}
DEFAULTS = {
    # About one bust per 1,000 inputs (0.25 a second at 250 inputs a second): a big Day 1's rate,
    # 10,000 players down to 1,250 in ten hours (measured: 0.0025 gave 0.44-0.54 busts a second).
    "shove": 0.0012,
    "tables": 1250,
    "clocks": 100,
    "rates": "100,250,500",
    "seconds": 20.0,
    "probe": 40,
    "advance": 16,
}


def websockets_closed() -> type:
    import websockets

    return websockets.ConnectionClosed


def say(*parts) -> None:
    print(*parts, flush=True)


# --- PostgreSQL and Redis --------------------------------------------------------------------------


class Services:
    """``.ci/services.sh``'s throwaway servers, or the ones DATABASE_URL and REDIS_URL name."""

    def __init__(self, lock_waits_ms: float | None = None):
        self.directory = ""
        self.keep_logs_in: Path | None = None
        # PostgreSQL logs each lock wait longer than this (and breaks a deadlock after it: stricter
        # than production's deadlock_timeout of 1 s); ``lock_waits`` counts them.
        self.lock_waits_ms = lock_waits_ms
        self.pg_bin = ""
        self.database_url = os.environ.get("DATABASE_URL", "")
        self.redis_url = os.environ.get("REDIS_URL", "")
        self.bench_database = ""

    def start(self) -> None:
        if self.database_url.startswith("postgres") and self.redis_url:
            say(f"using the given PostgreSQL and Redis ({self.redis_url})")
        else:
            script = (
                "source .ci/services.sh && start_services >&2 && "
                'printf "%s\\n" "$SERVICES_DIR" "$PG_BIN" "$DATABASE_URL" "$REDIS_URL"'
            )
            env = dict(os.environ)
            if self.lock_waits_ms is not None:
                env["PG_EXTRA_OPTS"] = (
                    f"{env.get('PG_EXTRA_OPTS', '')} -c log_lock_waits=on "
                    f"-c deadlock_timeout={max(1, round(self.lock_waits_ms))}ms"
                )
            done = subprocess.run(
                ["bash", "-c", script],
                cwd=ROOT,
                capture_output=True,
                text=True,
                timeout=600,
                check=False,
                env=env,
            )
            if done.returncode != 0:
                raise SystemExit(f"start_services failed:\n{done.stderr}")
            self.directory, self.pg_bin, self.database_url, self.redis_url = done.stdout.split("\n")[:4]
            say(done.stderr.strip().splitlines()[-1])
        # A database of its own on that server, dropped at the end.
        import psycopg

        self.bench_database = f"load_bench_{os.getpid()}_{secrets.token_hex(3)}"
        with psycopg.connect(self.database_url, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{self.bench_database}"')
        parts = urllib.parse.urlsplit(self.database_url)
        self.database_url = urllib.parse.urlunsplit(parts._replace(path=f"/{self.bench_database}"))

    def pids(self) -> dict[str, int]:
        found = {}
        if self.directory:
            with contextlib.suppress(OSError, ValueError):
                found["postgres"] = int(Path(self.directory, "pg/data/postmaster.pid").read_text().split()[0])
            with contextlib.suppress(OSError, ValueError):
                found["redis"] = int(Path(self.directory, "redis.pid").read_text().split()[0])
        return found

    def lock_waits(self) -> list[str]:
        """What PostgreSQL logged of the lock waits (``lock_waits_ms``): one line each for a wait, a
        deadlock it broke, and the statement that waited (its first words)."""
        if self.lock_waits_ms is None or not self.directory:
            return []
        try:
            lines = Path(self.directory, "pg/server.log").read_text(errors="replace").splitlines()
        except OSError as error:
            return [f"PostgreSQL's log not read: {error}"]
        waits = deadlocks = 0
        statements: collections.Counter = collections.Counter()
        waiting = False
        for line in lines:
            if "still waiting for" in line:
                waits += 1
                waiting = True
            elif "deadlock detected" in line and "ERROR:" in line:
                deadlocks += 1
            elif waiting and "STATEMENT:" in line:
                statements[" ".join(line.split("STATEMENT:", 1)[1].split()[:6])] += 1
                waiting = False
        found = [
            f"lock waits over {self.lock_waits_ms:g} ms (PostgreSQL's log): {waits}; deadlocks it broke: {deadlocks}"
        ]
        found += [f"  {n} x {statement} ..." for statement, n in statements.most_common(8)]
        return found

    def stop(self) -> None:
        if self.bench_database and not self.directory:
            import psycopg

            parts = urllib.parse.urlsplit(self.database_url)
            admin_url = urllib.parse.urlunsplit(parts._replace(path="/postgres"))
            with contextlib.suppress(Exception), psycopg.connect(admin_url, autocommit=True) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{self.bench_database}" WITH (FORCE)')
        if self.directory:
            if self.keep_logs_in is not None:  # PostgreSQL's own log (deadlocks name their queries there)
                with contextlib.suppress(OSError):
                    shutil.copy(Path(self.directory, "pg/server.log"), self.keep_logs_in / "postgres.log")
            script = f"source .ci/services.sh && SERVICES_DIR='{self.directory}' PG_BIN='{self.pg_bin}' stop_services"
            subprocess.run(["bash", "-c", script], cwd=ROOT, timeout=120, check=False)
            self.directory = ""


# --- the load generator's model of the screens ------------------------------------------------------


def console_times(times: list[float]) -> str:
    """The console page's times: the server's first render, then the median and worst of the rest."""
    if not times:
        return "not timed"
    text = f"first {ms(times[0])} ms"
    if len(times) > 1:
        text += f", then p50 {ms(median(times[1:]))} / max {ms(max(times[1:]))} ms ({len(times) - 1} more)"
    return text


@dataclass
class Phase:
    """The figures of one rate (or of the sequential probe)."""

    name: str
    rate: float
    seconds: float
    started: float = 0.0
    started_at: float = 0.0  # the wall clock (time.time()) at its start, to read beside the logs
    elapsed: float = 0.0
    offered: int = 0
    sent: int = 0
    skipped: int = 0  # no idle table when an input was due
    # Deals refused because the table waits for the balancing (short, breaking: R8.3, R8.4); the
    # tablet tries again a second later, as a dealer would once the players are moved.
    halted: int = 0
    longest_halt: float = 0.0  # seconds: the longest a table's deals were refused in a row
    halt_reasons: collections.Counter = field(default_factory=collections.Counter)  # by the answer's text
    broken: int = 0  # tablets whose table was broken during the rate (they stop: nobody deals there)
    floor: dict[str, int] = field(default_factory=dict)  # busts, tables broken, moves made in the rate
    last_answer: float = 0.0
    post: dict[str, list[float]] = field(
        default_factory=lambda: {"action": [], "run_out": [], "deal": [], "end": []}
    )
    e2e: list[float] = field(default_factory=list)
    errors: collections.Counter = field(default_factory=collections.Counter)
    lost: int = 0
    closes: int = 0  # sockets closed by the server during the phase
    late_beats: int = 0  # a tablet's heartbeat 0.5 s late: it pinged
    silent: int = 0  # a tablet heard nothing for 3 s: it would show the server lost
    open: int = 0  # inputs sent whose snapshot is not in yet (or not lost yet)
    cpu: dict[str, float] = field(default_factory=dict)
    # How late the load generator's own loop woke (s): part of every time it measures, as it reads an
    # answer or a snapshot only when its loop comes round to it.
    own_lag: list[float] = field(default_factory=list)
    # (seconds into the rate when sent, answer time): the answers over time (a long rate: do they grow?)
    timeline: list[tuple[float, float]] = field(default_factory=list)
    # (wall clock, every process's CPU seconds so far), read at each second's start in a long rate.
    cpu_trace: list[tuple[float, dict[str, float]]] = field(default_factory=list)

    def ok(self) -> int:
        return sum(len(v) for v in self.post.values())


@dataclass
class Pending:
    phase: Phase
    sent: float
    hand_id: int = 0
    seq: int = 0
    answered: float | None = None
    deadline: float = 0.0
    fallback: dict | None = None  # the POST's answer, used if the snapshot never comes


class Screen:
    """One socket: a tablet (``table_id``) or a clock screen."""

    def __init__(self, kind: str, path: str, cookie: str, port: int, table_id: int | None = None):
        self.kind = kind
        self.path = path
        self.cookie = cookie
        self.port = port
        self.table_id = table_id
        self.ws = None
        self.opened_at = 0.0
        self.connected_at: float | None = None
        self.first_at: float | None = None
        self.version = -1
        self.level: int | None = None
        self.tablets_version = -1
        self.level_seen: float | None = None
        self.close_code: int | None = None
        self.last_message_at = 0.0
        self.pinged_at = 0.0
        self.silent_since: float | None = None  # counted once per silence
        self.snapshots = 0
        self.data: dict | None = None
        # tablets only
        self.hand: dict | None = None
        self.hand_at = 0.0
        self.pending: Pending | None = None
        self.answer: tuple[str, asyncio.Future] | None = (
            None  # an input sent on the socket: (ref, its answer)
        )
        self.failures = 0
        self.retired = ""
        self.broken = False  # retired because its table was broken (R8.4), not because it failed
        self.halted_since: float | None = None  # its deals refused since then (the table waits)
        self.token = ""
        self.attempt = 0
        self.reconnects = 0


class Driver:
    def start_profile(self, stage: str, *, with_self: bool = False) -> list[subprocess.Popen]:
        """py-spy on each server for one stage: where a server's CPU goes under load. ``with_self``:
        the load generator too (1,350 sockets on one core: is it the one that lags?)."""
        spies = []
        targets = dict(self.profile_targets)
        if with_self and targets:
            targets["load-generator"] = os.getpid()
        for name, pid in targets.items():
            out = self.profile_dir / f"pyspy-{name}-{stage.replace('/', '_')}.txt"
            spies.append(
                subprocess.Popen(
                    [
                        str(Path(sys.executable).with_name("py-spy")),
                        "record",
                        "--pid",
                        str(pid),
                        "--format",
                        "raw",
                        "--rate",
                        "100",
                        # Only the thread holding the GIL: Python's CPU, not the threads that wait.
                        "--gil",
                        "--nonblocking",
                        "-o",
                        str(out),
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
            say(f"  profiling {name} during {stage}: {out}")
        return spies

    def __init__(self, args, ports: list[int], event, rng: random.Random):
        self.args = args
        self.ports = ports
        self.event = event
        self.rng = rng
        self.pools = [HTTPPool("127.0.0.1", port, size=args.connections) for port in ports]
        self.next_pool = 0
        self.tablets: list[Screen] = []
        self.clocks: list[Screen] = []
        self.idle: collections.deque[Screen] = collections.deque()
        self.pending: set[Screen] = set()
        self.tasks: set[asyncio.Task] = set()
        self.level_target: int | None = None
        self.closes: collections.Counter = collections.Counter()
        self.stage = "opening sockets"
        self.closes_by_stage: collections.Counter = collections.Counter()
        self.socket_errors: collections.Counter = collections.Counter()
        self.phase: Phase | None = None
        self.sample_memory: Callable[[], dict[str, float]] = dict  # every process's memory (main sets it)
        self.closing = False
        self.late_beats = 0
        self.silences = 0
        self.profile_targets: dict[str, int] = {}
        self.profile_dir: Path | None = None
        for i, (table_id, _number) in enumerate(event.tables):
            port = ports[i % len(ports)]
            screen = Screen(
                "tablet",
                f"/ws/tables/{table_id}/?beat={TABLET_BEAT_MS}",
                f"dev_t{table_id}={event.tablet_tokens[table_id]}",
                port,
                table_id,
            )
            screen.token = event.tablet_tokens[table_id]
            self.tablets.append(screen)
        for i, token in enumerate(event.clock_tokens):
            port = ports[i % len(ports)]
            path = f"/ws/tournaments/{event.tournament_id}/clock/"
            self.clocks.append(Screen("clock", path, f"dev_c{event.tournament_id}={token}", port))

    @property
    def screens(self) -> list[Screen]:
        return self.tablets + self.clocks

    def spawn(self, coroutine) -> asyncio.Task:
        task = asyncio.ensure_future(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    def pool(self, path: str = "") -> HTTPPool:
        """The server a request goes to, as docker/haproxy.cfg routes it: a hand's own requests
        (``/api/hands/<id>/…``) by the hand, so its server keeps the hand in memory; the others spread
        over the servers (not pinned to the socket's)."""
        hand = HAND_PATH.match(path)
        if hand:
            return self.pools[int(hand.group(1)) % len(self.pools)]
        self.next_pool = (self.next_pool + 1) % len(self.pools)
        return self.pools[self.next_pool]

    # -- sockets

    async def open_screen(self, screen: Screen, limit: asyncio.Semaphore | None = None) -> None:
        import websockets

        async with limit or contextlib.nullcontext():
            opened = time.perf_counter()
            if not screen.opened_at:
                screen.opened_at = opened
            try:
                screen.ws = await websockets.connect(
                    f"ws://127.0.0.1:{screen.port}{screen.path}",
                    additional_headers={"Cookie": screen.cookie},
                    origin=f"http://127.0.0.1:{screen.port}",
                    open_timeout=60,
                    ping_interval=None,  # browsers send no protocol pings; live.js pings in JSON
                    max_size=2**24,
                )
            except Exception as error:  # every failure to connect is counted and reported
                self.socket_errors[f"connect {type(error).__name__}"] += 1
                screen.ws = None
                self.reconnect_later(screen)
                return
            screen.close_code = None
            screen.attempt = 0
            screen.last_message_at = time.perf_counter()
            if screen.connected_at is None:
                screen.connected_at = time.perf_counter()
        self.spawn(self.read(screen))

    def reconnect_later(self, screen: Screen) -> None:
        """live.js: reconnect after 0.5 s x 2^attempt (at most 30 s), +-25 % jitter, unless the close
        code says not to (4001, 4003, 4004, 4010)."""
        if self.closing or screen.close_code in FINAL_CODES or screen.attempt >= MAX_RECONNECTS:
            return
        delay = min(30.0, 0.5 * 2**screen.attempt) * (0.75 + self.rng.random() * 0.5)
        screen.attempt += 1
        screen.reconnects += 1
        asyncio.get_running_loop().call_later(delay, lambda: self.spawn(self.open_screen(screen)))

    async def read(self, screen: Screen) -> None:
        import websockets

        try:
            async for raw in screen.ws:
                screen.last_message_at = time.perf_counter()
                # orjson: 1,350 screens' messages are a good part of this one process's CPU.
                message = orjson.loads(raw)
                if message.get("type") == "answer":  # tablet.js: its input's answer, by its ref
                    waiting = screen.answer
                    if waiting is not None and message.get("ref") == waiting[0] and not waiting[1].done():
                        waiting[1].set_result(message)
                    continue
                if message.get("type") != "snapshot":
                    continue
                now = time.perf_counter()
                if screen.first_at is None:
                    screen.first_at = now
                screen.snapshots += 1
                if message.get("kind") == "tablets":
                    # The tablets' shared view of the tournament (its level): versioned on its own.
                    if message["version"] > screen.tablets_version:
                        screen.tablets_version = message["version"]
                        level = message["data"].get("level")
                        screen.level = level["index"] if level else None
                        if (
                            self.level_target is not None
                            and screen.level_seen is None
                            and screen.level == self.level_target
                        ):
                            screen.level_seen = now
                    continue
                if message["version"] < screen.version:
                    continue  # live.js ignores anything older than what it shows
                screen.version = message["version"]
                data = message["data"]
                screen.data = data
                if screen.kind == "clock":
                    screen.level = data["clock"]["level_index"]
                else:
                    embedded = data.get("tournament_version", -1)
                    if embedded >= screen.tablets_version:  # as tablet.js: the newer tournament part
                        screen.tablets_version = embedded
                        level = data.get("level")
                        screen.level = level["index"] if level else None
                    screen.hand = data.get("hand")
                    screen.hand_at = now
                    if screen.pending is not None and screen.pending.answered is not None:
                        self.check_arrived(screen)
                if (
                    self.level_target is not None
                    and screen.level_seen is None
                    and screen.level == self.level_target
                ):
                    screen.level_seen = now
            code = screen.ws.close_code or 1006
        except websockets.ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else 1006
        except Exception as error:  # a reader never dies silently
            code = -1
            self.socket_errors[f"read {type(error).__name__}: {error}"] += 1
        screen.ws = None
        screen.close_code = code
        if not self.closing:
            self.closes[code] += 1
            self.closes_by_stage[self.stage] += 1
            if self.phase is not None:
                self.phase.closes += 1
            self.reconnect_later(screen)

    async def pinger(self, kinds: tuple, every: float) -> None:
        """live.js: clock screens ping every 15 s (spread evenly here)."""
        screens = [screen for screen in self.screens if screen.kind in kinds]
        gap = every / max(1, len(screens))
        while not self.closing:
            for screen in screens:
                if self.closing:
                    return
                if screen.ws is not None and screen.close_code is None:
                    with contextlib.suppress(Exception):
                        await screen.ws.send('{"type":"ping"}')  # live.js: JSON.stringify
                await asyncio.sleep(gap)

    async def heartbeat_watch(self) -> None:
        """live.js's checkAlive for the tablets, every 250 ms: a ping when the server's heartbeat is
        half the answer time late, and a count when nothing came for beat + answer ms (where the tablet
        would show the server lost and reconnect; here it is only counted)."""
        late_after = (TABLET_BEAT_MS + TABLET_ANSWER_MS / 2) / 1000
        lost_after = (TABLET_BEAT_MS + TABLET_ANSWER_MS) / 1000
        while not self.closing:
            await asyncio.sleep(0.25)
            now = time.perf_counter()
            for screen in self.tablets:
                if screen.ws is None or screen.close_code is not None:
                    continue
                silent = now - screen.last_message_at
                if silent > lost_after:
                    if screen.silent_since != screen.last_message_at:
                        screen.silent_since = screen.last_message_at
                        self.silences += 1
                        if self.phase is not None:
                            self.phase.silent += 1
                elif silent > late_after and screen.pinged_at <= screen.last_message_at:
                    screen.pinged_at = now
                    self.late_beats += 1
                    if self.phase is not None:
                        self.phase.late_beats += 1
                    with contextlib.suppress(Exception):
                        await screen.ws.send('{"type":"ping"}')  # live.js: JSON.stringify

    # -- dealer inputs

    def check_arrived(self, screen: Screen) -> bool:
        pending, hand = screen.pending, screen.hand
        if pending is None or pending.answered is None or hand is None:
            return False
        if hand["id"] > pending.hand_id or (hand["id"] == pending.hand_id and hand["seq"] >= pending.seq):
            arrived = max(screen.hand_at, pending.sent)
            pending.phase.e2e.append(arrived - pending.sent)
            self.settle(screen)
            return True
        return False

    def settle(self, screen: Screen, delay: float = 0.0) -> None:
        if screen.pending is not None:
            screen.pending.phase.open -= 1
            screen.pending = None
        self.pending.discard(screen)
        if screen.retired:
            return
        if delay:
            asyncio.get_running_loop().call_later(delay, self.idle.append, screen)
        else:
            self.idle.append(screen)

    def next_input(self, screen: Screen) -> tuple[str, str, dict] | None:
        hand = screen.hand
        if hand is None or hand["status"] != "running":
            return "deal", "/api/hands/", {"table": screen.table_id, "client_action_id": str(uuid.uuid4())}
        state = hand["state"]
        url = f"/api/hands/{hand['id']}/actions/"
        if state.get("phase") == "face_up" or state.get("deal_next"):
            # An all-in: the dealer turns the hands face up (R6.2), then deals street by street.
            kind = "face_up" if state.get("phase") == "face_up" else "deal"
            body = {"type": kind, "client_action_id": str(uuid.uuid4()), "expected_seq": hand["seq"]}
            return "run_out", url, body
        options = state.get("options")
        if state.get("phase") != "action" or not options:
            return None
        action, amount = choose_action(options, self.rng, self.args.fold, self.args.bet, self.args.shove)
        body = {
            "type": "action",
            "seat": options["seat"],
            "action": action,
            "client_action_id": str(uuid.uuid4()),
            "expected_seq": hand["seq"],
        }
        if amount is not None:
            body["amount"] = amount
        return "action", f"/api/hands/{hand['id']}/actions/", body

    async def send_input(self, screen: Screen, phase: Phase) -> None:
        """One dealer input; the caller has counted it in ``phase.open``."""
        table = (screen.data or {}).get("table") or {}
        if table.get("status") == "broken" and not (screen.hand and screen.hand["status"] == "running"):
            # Its players were moved to other tables (R8.4): the dealer has no table left.
            screen.retired, screen.broken = "its table was broken", True
            phase.broken += 1
            phase.open -= 1
            return
        planned = self.next_input(screen)
        if planned is None:
            screen.retired = f"hand {screen.hand and screen.hand['id']} waits for something else"
            phase.errors["stuck table"] += 1
            phase.open -= 1
            return
        kind, path, body = planned
        pending = Pending(phase, time.perf_counter())
        screen.pending = pending
        self.pending.add(screen)
        over_socket = self.args.inputs == "socket" and screen.ws is not None and screen.close_code is None
        try:
            if over_socket:
                status, result = await self.send_over_socket(screen, path, body)
            else:
                status, _headers, content = await self.pool(path).request(
                    "POST", path, body=body, headers={"Authorization": f"Device {screen.token}"}
                )
                try:
                    result = json.loads(content) if content else {}
                except ValueError:
                    result = {}
        except Exception as error:  # no answer: a lost connection, a closed socket, a timeout
            if not isinstance(error, HTTPError | OSError | TimeoutError | websockets_closed()):
                raise
            phase.errors[f"no answer ({str(error).split(':')[0] or type(error).__name__})"] += 1
            self.fail(screen)
            return
        answered = time.perf_counter()
        phase.last_answer = answered
        if status == 409 and result.get("code") == "table_halted":
            # Short or breaking (R8.3, R8.4): the balancing moves players after a bust. A table that
            # waits longer than HALTED_FOR is a stuck field, and an error.
            phase.halted += 1
            phase.halt_reasons[result.get("detail", "")] += 1
            screen.halted_since = screen.halted_since or answered
            phase.longest_halt = max(phase.longest_halt, answered - screen.halted_since)
            if answered - screen.halted_since > HALTED_FOR:
                phase.errors[f"table halted {HALTED_FOR:.0f} s ({result.get('detail', '')})"] += 1
                screen.retired = f"halted for {HALTED_FOR:.0f} s: {result.get('detail', '')}"
            self.settle(screen, delay=1.0)
            return
        screen.halted_since = None
        if status not in (200, 201):
            phase.errors[
                f"{'socket' if over_socket else 'HTTP'} {status} {result.get('code', '')}".strip()
            ] += 1
            if isinstance(result.get("hand"), dict):
                screen.hand = result["hand"]
            self.fail(screen)
            return
        screen.failures = 0
        if kind == "deal":
            hand = result.get("hand", result)  # the socket's answer names the hand; HTTP's is the hand
            pending.hand_id, pending.seq = hand["id"], hand["seq"]
        else:
            pending.hand_id, pending.seq, hand = result["hand"]["id"], result["last_seq"], result["hand"]
            if hand["status"] != "running":
                kind = "end"
        phase.post[kind].append(answered - pending.sent)
        phase.timeline.append((pending.sent - phase.started, answered - pending.sent))
        # HTTP answers with the hand's state: the table goes on from it if the snapshot never comes.
        pending.fallback = hand if "state" in hand else None
        pending.answered = answered
        pending.deadline = answered + LOST_AFTER
        # Over the socket the server sends the snapshot after the answer unasked (tablet.js asks only
        # after an input sent over HTTP).
        if not over_socket and self.args.refresh and screen.ws is not None and screen.close_code is None:
            with contextlib.suppress(Exception):
                # tablet.js, after every accepted input: the snapshot that shows it.
                await screen.ws.send(
                    json.dumps({"type": "refresh", "hand": pending.hand_id, "seq": pending.seq})
                )
        self.check_arrived(screen)

    async def send_over_socket(self, screen: Screen, path: str, body: dict) -> tuple[int, dict]:
        """tablet.js: a hand's input (or the deal) on the tablet's own socket, answered there by ref."""
        hand = HAND_PATH.match(path)
        message = {"type": "input", "hand": int(hand.group(1))} if hand else {"type": "deal"}
        ref = uuid.uuid4().hex
        answer = asyncio.get_running_loop().create_future()
        screen.answer = (ref, answer)
        try:
            await screen.ws.send(json.dumps({**message, "ref": ref, "input": body}))
            reply = await asyncio.wait_for(answer, LOST_AFTER)
        finally:
            screen.answer = None
        if reply.get("http"):
            raise OSError("the socket sends this input over HTTP")
        return reply["status"], reply.get("body") or {}

    def fail(self, screen: Screen) -> None:
        screen.failures += 1
        if screen.failures >= 3:
            screen.retired = "three failures in a row"
        self.settle(screen, delay=0.5)

    async def sweeper(self) -> None:
        """Inputs whose snapshot did not come within LOST_AFTER are lost; the table goes on from the
        POST's answer."""
        while not self.closing:
            now = time.perf_counter()
            for screen in list(self.pending):
                pending = screen.pending
                if pending is not None and pending.answered is not None and now > pending.deadline:
                    pending.phase.lost += 1
                    if pending.fallback is not None:
                        screen.hand = pending.fallback
                    self.settle(screen)
            await asyncio.sleep(0.2)

    async def run_phase(self, phase: Phase, sample_cpu) -> None:
        phase.cpu = sample_cpu()
        self.phase = phase
        self.stage = phase.name
        total = max(1, round(phase.rate * phase.seconds))
        phase.offered = total
        phase.started_at = time.time()
        phase.started = start = time.perf_counter()
        for k in range(total):
            delay = start + k / phase.rate - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            if time.perf_counter() > start + phase.seconds + 1.0:
                break  # the generator fell behind: what was not sent is not sent
            if not self.idle:
                phase.skipped += 1
                continue
            phase.sent += 1
            phase.open += 1
            self.spawn(self.send_input(self.idle.popleft(), phase))
        phase.elapsed = time.perf_counter() - start
        # Drain: every input of the phase answered and its snapshot in, or lost.
        deadline = time.perf_counter() + LOST_AFTER + 40.0
        while phase.open > 0 and time.perf_counter() < deadline:
            await asyncio.sleep(0.05)
        after = sample_cpu()
        phase.cpu = {name: after[name] - phase.cpu.get(name, 0.0) for name in after}
        phase.cpu["_wall"] = time.perf_counter() - start
        self.phase = None
        self.stage = f"after {phase.name}"

    async def probe(self, count: int, sample_cpu) -> Phase:
        """Server time per kind of input with nothing else going on: one table, one input at a time."""
        phase = Phase("probe (1 table, sequential)", 0, 0)
        self.phase = phase
        self.stage = phase.name
        phase.cpu = sample_cpu()
        screen = self.tablets[0]
        if screen in self.idle:
            self.idle.remove(screen)
        phase.started = start = time.perf_counter()
        for _ in range(count):
            if screen.retired:
                break
            phase.open += 1
            await self.send_input(screen, phase)
            deadline = time.perf_counter() + LOST_AFTER + 1
            while screen.pending is not None and time.perf_counter() < deadline:
                await asyncio.sleep(0.002)
            if screen in self.idle:
                self.idle.remove(screen)
            await asyncio.sleep(0.05)
        phase.elapsed = time.perf_counter() - start
        phase.sent = phase.offered = count
        if not screen.retired and screen not in self.idle:
            self.idle.append(screen)
        after = sample_cpu()
        phase.cpu = {name: after[name] - phase.cpu.get(name, 0.0) for name in after}
        phase.cpu["_wall"] = phase.elapsed
        self.phase = None
        self.stage = f"after {phase.name}"
        return phase

    async def wait_quiet(self, timeout: float) -> None:
        deadline = time.perf_counter() + timeout
        while self.pending and time.perf_counter() < deadline:
            await asyncio.sleep(0.05)

    async def close(self) -> None:
        self.closing = True
        for screen in self.screens:
            if screen.ws is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(screen.ws.close(), 2)
        for pool in self.pools:
            pool.close()
        for task in list(self.tasks):
            task.cancel()


# --- running it --------------------------------------------------------------------------------------


def http_ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def wait_until(predicate, timeout: float, what: str, interval: float = 0.25) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out after {timeout:.0f}s waiting for {what}")
        time.sleep(interval)


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int)
    parser.add_argument("--seats", type=int, default=8)
    parser.add_argument("--clocks", type=int)
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--rates", help="inputs a second, comma-separated (default 100,250,500)")
    parser.add_argument("--seconds", type=float, help="seconds per rate (default 20)")
    parser.add_argument("--embedded", action="store_true", help="SQLite, in-memory layer, manage.py serve")
    parser.add_argument("--small", action="store_true", help="CI size; exit 1 on any error or lost update")
    parser.add_argument("--fold", type=float, default=0.6, help="chance of folding to a bet (0.6)")
    parser.add_argument("--bet", type=float, default=0.3, help="chance of betting when checked to (0.3)")
    parser.add_argument(
        "--shove",
        type=float,
        help="chance of going all-in when a player may bet or raise (default: about one bust per "
        "thousand inputs, a big event's Day 1; small: more, so that CI sees busts, balancing and a "
        "table broken; 0 for no all-in)",
    )
    parser.add_argument("--probe", type=int, help="sequential inputs at one table first (40; small 12)")
    parser.add_argument(
        "--advance",
        type=int,
        help="before the run, advance each table by 0..N inputs in-process (14; small 12), so hands end "
        "at a steady rate",
    )
    parser.add_argument(
        "--setup-workers", type=int, default=2, help="processes advancing the tables (2; SQLite 1)"
    )
    parser.add_argument(
        "--inputs",
        choices=("socket", "http"),
        default="socket",
        help="dealer inputs on the tablet's socket, as tablet.js sends them (default), or as HTTP POSTs",
    )
    parser.add_argument(
        "--no-refresh", dest="refresh", action="store_false", help="no refresh after inputs sent over HTTP"
    )
    parser.add_argument("--connections", type=int, default=32, help="HTTP connections per server (32)")
    parser.add_argument("--open-concurrency", type=int, default=20, help="sockets opening at once (20)")
    parser.add_argument("--dev-settings", action="store_true", help="servers with DEBUG on (development)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--profile",
        action="store_true",
        help="record py-spy on every daphne during the first rate (collapsed stacks in the log folder)",
    )
    parser.add_argument(
        "--trace-threads",
        action="store_true",
        help="the servers write down every call of their work threads (config.thread_trace); summed at the end",
    )
    parser.add_argument(
        "--lock-waits",
        type=float,
        metavar="MS",
        help="count the lock waits longer than MS in the PostgreSQL it starts (log_lock_waits; "
        "deadlock_timeout=MS, so a lock cycle is also broken after MS, not production's 1 s)",
    )
    parser.add_argument(
        "--redis-socket-timeout",
        type=float,
        help="add ?socket_timeout=N to REDIS_URL for every process (redis-py's default is 5 s)",
    )
    args = parser.parse_args(argv)
    if args.profile and not Path(sys.executable).with_name("py-spy").exists():
        # Said before the event is built (minutes), not when the first rate starts.
        parser.error(f"--profile needs py-spy beside {sys.executable}: pip install py-spy")
    base = SMALL if args.small else DEFAULTS
    for name, value in base.items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    args.rates = [float(r) for r in str(args.rates).split(",") if r.strip()]
    if args.embedded:
        args.servers = 1
    return args


def server_environment(args, database_url: str, redis_url: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DJANGO_ALLOW_ASYNC"))}
    for name in ("DATABASE_URL", "REDIS_URL", "DJANGO_ENV", "DJANGO_DEBUG"):
        env.pop(name, None)
    env.update(
        DATABASE_URL=database_url,
        DJANGO_SETTINGS_MODULE="config.settings",
        PYTHONPATH=str(ROOT),
        PYTHONUNBUFFERED="1",
        LOG_LEVEL="WARNING",
        DATABASE_CONN_MAX_AGE=os.environ.get("DATABASE_CONN_MAX_AGE", "0"),
    )
    if redis_url:
        if args.redis_socket_timeout:
            redis_url += f"{'&' if '?' in redis_url else '?'}socket_timeout={args.redis_socket_timeout:g}"
        env["REDIS_URL"] = redis_url
    if not args.dev_settings:
        env.update(
            DJANGO_ENV="production",
            DJANGO_SECRET_KEY=secrets.token_urlsafe(64),
            DJANGO_SECURE_SSL_REDIRECT="0",
            DJANGO_HSTS_SECONDS="0",
        )
    return env


def advance_chunk(table_ids: list[int], args, seed: int) -> dict:
    """One process's share of the advance (forked after Django is set up, connections closed)."""
    from django.db import connections

    from tests.bench import load_build

    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the parent's handler is not this process's
    try:
        return load_build.advance_hands(
            table_ids, most=args.advance, fold=args.fold, bet=args.bet, rng=random.Random(seed)
        )
    finally:
        connections.close_all()


def close_database_pools() -> None:
    """Close every connection and every connection pool of this process (before a fork, the children
    open their own: a psycopg pool's sockets and threads do not survive being shared)."""
    from django.db import connections

    connections.close_all()
    for connection in connections.all(initialized_only=True):
        if hasattr(connection, "close_pool"):  # PostgreSQL with DATABASES' "pool" option
            connection.close_pool()


def table_of_figures(rows: list[tuple], header: tuple) -> str:
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows)]
    lines = ["  ".join(str(c).rjust(w) for c, w in zip(r, widths)) for r in (header, *rows)]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def main(argv=None) -> int:
    args = parse_args(argv)
    rng = random.Random(args.seed)
    log_dir = Path(tempfile.mkdtemp(prefix="courchevel-load-"))
    services = Services(lock_waits_ms=args.lock_waits)
    services.keep_logs_in = log_dir
    processes: Processes | None = None
    failures: list[str] = []
    mode = "embedded (SQLite, in-memory layer, manage.py serve)" if args.embedded else "PostgreSQL + Redis"
    say(
        f"load_event: {args.tables} tables x {args.seats} seats, {args.clocks} clocks, "
        f"{args.servers} server(s), {mode}, rates {args.rates} x {args.seconds:g}s; {load_average()}"
    )
    say(f"logs in {log_dir}")
    speed_before = machine_speed()

    def stop(signum, _frame):
        raise KeyboardInterrupt(f"signal {signum}")

    signal.signal(signal.SIGTERM, stop)
    try:
        if args.embedded:
            database_url, redis_url = f"sqlite:///{log_dir}/bench.sqlite3", ""
        else:
            services.start()
            database_url, redis_url = services.database_url, services.redis_url
        env = server_environment(args, database_url, redis_url)
        os.environ.update(env)
        if not redis_url:
            os.environ.pop("REDIS_URL", None)
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connections

        import tournaments
        from tests.bench import load_build

        say(f"code under test: {Path(tournaments.__file__).parent.parent}")
        started = time.perf_counter()
        call_command("migrate", interactive=False, verbosity=0)
        say(f"migrate: {time.perf_counter() - started:.1f}s")

        session = load_build.staff_session("load-director")
        started = time.perf_counter()
        reference = load_build.build_event(name="Reference 10", tables=10, seats=args.seats, clocks=0)
        load_build.play_one_hand(reference.tables[0][0])  # a table between hands, its last hand over
        load_build.deal_one_hand(reference.tables[1][0])
        say(f"reference tournament of 10 tables: {time.perf_counter() - started:.1f}s")
        event = load_build.build_event(
            name="Load event", tables=args.tables, seats=args.seats, clocks=args.clocks, progress=say
        )
        players = args.tables * args.seats
        t = event.timings
        say(
            f"set-up: create {t['create']:.2f}s, register {players} players {t['register']:.1f}s "
            f"({t['register'] / players * 1000:.1f} ms each), seat draw of {players} {t['draw']:.2f}s, "
            f"start {t['start']:.2f}s, pairing sheet of {len(event.tables)} tables {t['pairing_sheet']:.2f}s, "
            f"{len(event.tables)} tablets redeem their cards {t['redeem_tablets']:.1f}s, "
            f"pair {args.clocks} clocks {t['pair_clocks']:.1f}s; {load_average()}"
        )
        if args.advance:
            close_database_pools()  # a forked child must not share the parent's pooled connections
            table_ids = [table_id for table_id, _number in event.tables]
            workers = 1 if args.embedded else max(1, args.setup_workers)
            chunks = [(table_ids[i::workers], args, args.seed + i) for i in range(workers)]
            started = time.perf_counter()
            if workers == 1:
                results = [advance_chunk(*chunks[0])]
            else:
                with multiprocessing.get_context("fork").Pool(workers) as pool:
                    results = pool.starmap(advance_chunk, chunks)
            inputs = sum(r["inputs"] for r in results)
            seconds = time.perf_counter() - started
            say(
                f"tables advanced to random points of their hands: {inputs} inputs in {seconds:.1f}s "
                f"({workers} process(es), in-process services), {sum(r['ends'] for r in results)} hands "
                f"ended; {load_average()}"
            )
            failed: collections.Counter = collections.Counter()
            for r in results:
                failed.update(r["failures"])
            if failed:
                say(
                    f"  the product failed {sum(failed.values())} of those inputs "
                    f"({sum(r['retried'] for r in results)} retried, {sum(r['given_up'] for r in results)} "
                    f"tables left): {dict(failed)}"
                )
        connections.close_all()

        # The servers.
        if args.trace_threads:
            env["SERVER_TRACE_DIR"] = str(log_dir / "threads")
        processes = Processes(env, log_dir)
        ports = [free_port() for _ in range(args.servers)]
        pids: dict[str, int] = {}
        if args.embedded:
            serve = processes.start(
                "serve", sys.executable, str(ROOT / "manage.py"), "serve", "--port", str(ports[0])
            )
            pids["serve"] = serve.pid
            checks = "database,channel_layer"
        else:
            for i, port in enumerate(ports):
                pids[f"daphne-{i}"] = processes.daphne(f"daphne-{i}", port).pid
            pids["worker"] = processes.worker().pid
            pids["beat"] = processes.beat().pid
            checks = "database,channel_layer,redis"
        started = time.perf_counter()
        for port in ports:
            wait_until(
                lambda port=port: http_ok(f"http://127.0.0.1:{port}/healthz?check={checks}"),
                timeout=120,
                what=f"the server on port {port}",
            )
        say(f"servers up: {time.perf_counter() - started:.1f}s ({', '.join(pids)})")
        pids.update(services.pids())

        def sample_cpu() -> dict[str, float]:
            sample = {name: tree_cpu_seconds(pid) for name, pid in pids.items()}
            sample["load generator"] = own_cpu_seconds()
            return sample

        def sample_memory() -> dict[str, float]:
            sample = {name: tree_pss_mb(pid) for name, pid in pids.items()}
            sample["load generator"] = pss_mb(os.getpid())  # the servers are its children: itself only
            return sample

        driver = Driver(args, ports, event, rng)
        driver.sample_memory = sample_memory
        if args.profile:
            driver.profile_targets = {
                name: pid for name, pid in pids.items() if name.startswith(("daphne", "serve"))
            }
            driver.profile_dir = log_dir
        result = asyncio.run(drive(args, driver, event, session, ports, sample_cpu, failures))
        result.machine = (speed_before, machine_speed())

        # In-process snapshot cost, servers idle; the small and the big event's builds alternate.
        # A table between hands reads whether it may deal (the halt check); one in a hand does not.
        small_idle, small_busy = load_build.idle_and_busy_tables(reference.tournament_id)
        big_idle, big_busy = load_build.idle_and_busy_tables(event.tournament_id)
        costs = {}
        pairs = (
            ("table between hands", "tables", small_idle, big_idle, load_build.table_snapshot_costs),
            ("table in a hand", "tables", small_busy, big_busy, load_build.table_snapshot_costs),
            (
                "clock",
                "players",
                reference.tournament_id,
                event.tournament_id,
                load_build.clock_snapshot_costs,
            ),
            (
                "director console",
                "tables",
                reference.tournament_id,
                event.tournament_id,
                load_build.director_snapshot_costs,
            ),
        )
        for name, unit, small, big, measure in pairs:
            if small is None or big is None:
                continue
            sizes = (10, len(event.tables)) if unit == "tables" else (80, players)
            for size, cost in zip(sizes, measure(small, big)):
                costs[f"{name}, {size} {unit}"] = cost
        report(args, event, driver, result, costs, failures)
        if args.lock_waits is not None:
            say("")
            say(
                "\n".join(services.lock_waits() or ["lock waits: not counted (a PostgreSQL of its own only)"])
            )
        if args.trace_threads:
            processes.stop_all()  # their last lines flushed
            say("")
            say(f"the servers' work threads (tests/bench/thread_trace.py {log_dir / 'threads'}):")
            say("\n".join(thread_trace.report(log_dir / "threads")))
    except KeyboardInterrupt as stopped:
        failures.append(f"interrupted ({stopped})")
        say("interrupted")
    except Exception as error:  # reported, logs printed, servers stopped
        failures.append(f"{type(error).__name__}: {error}")
        say(f"FAILED: {type(error).__name__}: {error}")
        if processes is not None:
            say(processes.logs())
        raise
    finally:
        if processes is not None:
            processes.stop_all()
        with contextlib.suppress(Exception):
            from django.db import connections

            connections.close_all()
        services.stop()
    if failures:
        say("FAILURES:\n  " + "\n  ".join(failures))
    return 1 if (failures and args.small) else 0


@dataclass
class Result:
    machine: tuple[float, float] = (0.0, 0.0)  # machine_speed() before the run and after its rates
    open_all: float = 0.0
    connect_first: list[float] = field(default_factory=list)
    console: list[float] = field(default_factory=list)
    console_bytes: int = 0
    phases: list[Phase] = field(default_factory=list)
    open_cpu: dict[str, float] = field(default_factory=dict)
    level_target: int | None = None
    level_post: float | None = None
    level_status: int | None = None
    level_times: list[float] = field(default_factory=list)
    level_missing: int = 0
    level_cpu: dict[str, float] = field(default_factory=dict)
    level_settle: float = 0.0
    loadavg: dict[str, str] = field(default_factory=dict)
    # Every process's memory (PSS, MB) at the end of each stage, and every MEMORY_EVERY s of each rate.
    memory: list[tuple[str, dict[str, float]]] = field(default_factory=list)
    memory_trace: dict[str, list[tuple[float, dict[str, float]]]] = field(default_factory=dict)


async def servers_settle(sample_cpu, *, idle_share: float = 0.25, longest: float = 60.0) -> float:
    """Wait until every server uses less than ``idle_share`` of a core over a second (at most
    ``longest`` seconds; the tablets' heartbeats alone keep a server near a tenth of a core at 1,250
    tablets); returns how long it took."""
    started = time.perf_counter()
    before = sample_cpu()
    while time.perf_counter() - started < longest:
        await asyncio.sleep(1.0)
        after = sample_cpu()
        busy = [after[k] - before[k] for k in after if k.startswith(("daphne", "serve"))]
        before = after
        if busy and max(busy) < idle_share:
            break
    return time.perf_counter() - started


async def watch_own_lag(driver: Driver, every: float = 0.005) -> None:
    """The load generator's loop lag during each rate: a sleep of ``every`` s, how much later it woke."""
    while True:
        started = time.perf_counter()
        await asyncio.sleep(every)
        phase = driver.phase
        if phase is not None:
            phase.own_lag.append(time.perf_counter() - started - every)


async def trace_memory(driver: Driver, result: Result) -> None:
    """Every process's memory every MEMORY_EVERY s while a rate runs (does it grow with the hands?)."""
    while True:
        phase = driver.phase
        if phase is not None and phase.started:
            sample = await asyncio.to_thread(driver.sample_memory)
            result.memory_trace.setdefault(phase.name, []).append(
                (time.perf_counter() - phase.started, sample)
            )
        await asyncio.sleep(MEMORY_EVERY)


async def trace_cpu(driver: Driver, sample_cpu) -> None:
    """Every process's CPU at the start of each wall-clock second of a long rate."""
    while True:
        await asyncio.sleep(1.0 - time.time() % 1.0)
        phase = driver.phase
        if phase is not None and phase.started and phase.seconds >= CPU_TRACE_SHORTEST:
            at = time.time()
            phase.cpu_trace.append((at, await asyncio.to_thread(lambda: {**sample_cpu(), **machine_cpu()})))


def machine_cpu() -> dict[str, float]:
    """The whole machine's CPU seconds so far (``/proc/stat``): busy in any process, ours or not, and
    stolen by the host from this virtual machine."""
    try:
        with open("/proc/stat") as stat:
            fields = [int(x) for x in stat.readline().split()[1:9]]
    except (OSError, ValueError):
        return {}
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields
    tick = os.sysconf("SC_CLK_TCK")
    return {"machine": (user + nice + system + irq + softirq) / tick, "stolen": steal / tick}


async def drive(args, driver: Driver, event, session: str, ports, sample_cpu, failures) -> Result:
    result = Result()
    # The load generator stands for 1,350 devices and times them: its own collector's pauses would be
    # counted in every time it prints (a full collection of what it built of the event paused its
    # loop up to 143 ms in five minutes at 250/s). It keeps its objects out of the collector as a
    # server does (config.gc_pauses); its slow collections are counted, not logged, and printed.
    logging.getLogger(gc_pauses.__name__).setLevel(logging.ERROR)
    gc_pauses.settle()
    gc_pauses.watch()  # from here: the settling's one full collection is not the run's
    gc_pauses.keep_settling()
    result.memory.append(("servers up", driver.sample_memory()))
    # Open every socket; each must bring its first snapshot.
    limit = asyncio.Semaphore(args.open_concurrency)
    spies = driver.start_profile("open")
    if spies:
        await asyncio.sleep(1.0)  # py-spy attached before the first socket
    before = sample_cpu()
    started = time.perf_counter()
    await asyncio.gather(*(driver.open_screen(s, limit) for s in driver.screens))
    deadline = time.perf_counter() + 120
    while time.perf_counter() < deadline and any(
        s.first_at is None and s.close_code not in FINAL_CODES for s in driver.screens
    ):
        await asyncio.sleep(0.05)
    result.open_all = time.perf_counter() - started
    for spy in spies:
        spy.send_signal(signal.SIGINT)
        spy.wait(timeout=60)
    after = sample_cpu()
    result.open_cpu = {k: after[k] - before[k] for k in after}
    result.open_cpu["_wall"] = result.open_all
    result.loadavg["open"] = load_average()
    result.memory.append(("open sockets", driver.sample_memory()))
    result.connect_first = [s.first_at - s.opened_at for s in driver.screens if s.first_at is not None]
    missing = sum(1 for s in driver.screens if s.first_at is None)
    if missing:
        failures.append(f"{missing} sockets never got their first snapshot")
    say(
        f"opened {len(driver.screens)} sockets with their first snapshot in {result.open_all:.1f}s "
        f"(connect->first snapshot p50 {ms(median(result.connect_first))} ms, "
        f"p99 {ms(percentile(result.connect_first, 99))} ms); {load_average()}"
    )
    for screen in driver.tablets:
        if screen.first_at is not None:
            driver.idle.append(screen)
    driver.spawn(driver.pinger(("clock",), PING_EVERY))
    driver.spawn(driver.heartbeat_watch())
    driver.spawn(driver.sweeper())
    driver.spawn(trace_memory(driver, result))
    driver.spawn(trace_cpu(driver, sample_cpu))
    driver.spawn(watch_own_lag(driver))

    # The director console's page (staff session), idle: once the sockets' opening has settled (the
    # servers answer their first snapshots' acknowledgements for a second or two after). The first
    # is the server's first render of the page (templates compiled, translations loaded).
    driver.stage = "console page"
    await asyncio.sleep(CONSOLE_SETTLE)
    cookie = {"Cookie": f"sessionid={session}"}
    for _ in range(1 + CONSOLE_WARM):
        started = time.perf_counter()
        try:
            status, _h, content = await driver.pools[0].request(
                "GET", f"/console/{event.tournament_id}/", headers=cookie
            )
        except HTTPError as error:
            failures.append(f"console page: {error}")
            break
        result.console.append(time.perf_counter() - started)
        result.console_bytes = len(content)
        if status != 200:
            failures.append(f"console page: HTTP {status}")
            break
    say(f"console page: {console_times(result.console)}, {result.console_bytes} bytes")

    if args.probe:
        phase = await driver.probe(args.probe, sample_cpu)
        result.phases.append(phase)
        result.loadavg[phase.name] = load_average()
        say_phase(phase)
    floor = await count_floor(event.tournament_id, failures, "before the rates")
    for number, rate in enumerate(args.rates):
        phase = Phase(f"{rate:g}/s", rate, args.seconds)
        spies = driver.start_profile(phase.name) if number == 0 else []
        await driver.run_phase(phase, sample_cpu)
        counted = await count_floor(event.tournament_id, failures, f"after {phase.name}")
        phase.floor = {name: counted[name] - floor.get(name, 0) for name in counted}
        phase.floor.update({name: counted[name] for name in counted if name not in FLOOR_COUNTS})
        floor = counted
        for spy in spies:
            spy.send_signal(signal.SIGINT)
            spy.wait(timeout=60)
        result.phases.append(phase)
        result.loadavg[phase.name] = load_average()
        result.memory.append((phase.name, driver.sample_memory()))
        say_phase(phase)

    # The level change: the director jumps to the next level of play through the API. Measured on
    # servers that have worked off the last rate's backlog (its queued builds would delay it).
    await driver.wait_quiet(LOST_AFTER + 5)
    result.level_settle = await servers_settle(sample_cpu)
    driver.phase = None
    driver.stage = "level change"
    clock = next((s for s in driver.clocks if s.data), None) or next(s for s in driver.tablets if s.data)
    data = clock.data
    current = data["clock"]["level_index"] if clock.kind == "clock" else data["level"]["index"]
    schedule = data["schedule"] if clock.kind == "clock" else None
    target = current + 1
    while schedule and target < len(schedule) - 1 and schedule[target]["is_break"]:
        target += 1
    result.level_target = driver.level_target = target
    for screen in driver.screens:
        screen.level_seen = None
    spies = driver.start_profile("level change", with_self=True)
    if spies:
        await asyncio.sleep(1.0)  # py-spy attached before the change
    before = sample_cpu()
    csrf = "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(32))
    started = time.perf_counter()
    try:
        status, _h, content = await driver.pools[0].request(
            "POST",
            f"/api/tournaments/{event.tournament_id}/clock/jump/",
            body={"level_index": target},
            headers={
                "Cookie": f"sessionid={session}; csrftoken={csrf}",
                "X-CSRFToken": csrf,
                "Origin": f"http://127.0.0.1:{ports[0]}",
            },
        )
    except HTTPError as error:
        status, content = None, str(error).encode()
    result.level_post = time.perf_counter() - started
    result.level_status = status
    if status != 200:
        failures.append(f"level jump: HTTP {status} {content[:200]!r}")
    else:
        alive = [s for s in driver.screens if s.close_code not in FINAL_CODES]
        deadline = started + LEVEL_TIMEOUT
        while time.perf_counter() < deadline and any(s.level_seen is None for s in alive):
            await asyncio.sleep(0.01)
        result.level_times = sorted(s.level_seen - started for s in alive if s.level_seen is not None)
        result.level_missing = len(driver.screens) - len(result.level_times)
        if result.level_missing:
            failures.append(f"{result.level_missing} sockets never showed the new level")
    after = sample_cpu()
    result.level_cpu = {k: after[k] - before[k] for k in after}
    for spy in spies:
        spy.send_signal(signal.SIGINT)
        spy.wait(timeout=60)
    result.level_cpu["_wall"] = time.perf_counter() - started
    result.loadavg["level"] = load_average()
    result.memory.append(("level change", driver.sample_memory()))
    await driver.close()
    await count_floor(event.tournament_id, failures, "at the end")
    return result


def growth_per_hour(trace: list[tuple[float, dict[str, float]]], name: str) -> float | None:
    """MB an hour by least squares over the second half of a rate's readings (the first half warms up:
    hands kept, snapshots built, pools filled); None for fewer than four readings there."""
    half = trace[len(trace) // 2 :]
    if len(half) < 4:
        return None
    xs = [t / 3600 for t, _sample in half]
    ys = [sample.get(name, 0.0) for _t, sample in half]
    mean_x, mean_y = statistics.fmean(xs), statistics.fmean(ys)
    spread = sum((x - mean_x) ** 2 for x in xs)
    return sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / spread if spread else None


def report_timeline(result: Result, windows: int = 10, shortest: float = 120.0) -> None:
    """A long rate's answers in ``windows`` slices of its time: steady, or growing with the hands
    played (the database's tables, the servers' memory)?"""
    for p in result.phases:
        if p.seconds < shortest or not p.timeline:
            continue
        width = p.seconds / windows
        slices: list[list[float]] = [[] for _ in range(windows)]
        for at, took in p.timeline:
            slices[min(windows - 1, max(0, int(at / width)))].append(took)
        say("")
        began = time.strftime("%H:%M:%S UTC", time.gmtime(p.started_at))
        say(
            f"{p.name} over time (from {began}, to read beside the logs): answer p50 / p99 (ms) each {width:.0f} s"
        )
        say(
            "  "
            + "; ".join(
                f"{i * width:.0f}-{(i + 1) * width:.0f} s {ms(median(v))} / {ms(percentile(v, 99))}"
                for i, v in enumerate(slices)
                if v
            )
        )
        # The worst seconds, by their slowest answer: a pause (a collection, a checkpoint) is a second
        # or two, lost in a 30-s slice's p99.
        # By the wall clock's own seconds, so that each is named as the logs name it.
        seconds: dict[int, list[float]] = collections.defaultdict(list)
        for at, took in p.timeline:
            seconds[int(p.started_at + at)].append(took)
        worst = sorted(seconds.items(), key=lambda item: max(item[1]), reverse=True)[:5]
        say(
            "  the slowest seconds (slowest answer, answers that took 30 ms or more): "
            + "; ".join(
                f"{time.strftime('%H:%M:%S', time.gmtime(second))} "
                f"{ms(max(v))} ms, {sum(t >= 0.030 for t in v)}/{len(v)}"
                for second, v in sorted(worst)
            )
        )
        report_busy_seconds(p, [second for second, _v in worst])


def cores_each_second(trace: list[tuple[float, dict[str, float]]]) -> dict[int, dict[str, float]]:
    """Cores busy per process in each wall-clock second between two readings of ``trace``."""
    seconds = {}
    for (at, before), (later, after) in itertools.pairwise(trace):
        if later - at > 0.2:
            seconds[round(at)] = {
                name: (after[name] - before.get(name, 0.0)) / (later - at) for name in after
            }
    return seconds


def report_busy_seconds(phase: Phase, slowest: list[int]) -> None:
    """What each process did in the slowest seconds, beside the rate's own average: a server, the
    worker's balancing, the database or another tenant of the machine (nothing of ours busier)."""
    seconds = cores_each_second(phase.cpu_trace)
    if not seconds:
        return
    whole = ("machine", "stolen")  # the whole machine's, not a process's: shown apart, after "ours"
    names = sorted({name for cores in seconds.values() for name in cores} - set(whole))

    def row(label: str, cores: dict[str, float]) -> tuple:
        ours = sum(cores.get(n, 0.0) for n in names)
        return (
            label,
            *(f"{cores.get(n, 0.0):.2f}" for n in names),
            f"{ours:.2f}",
            *(f"{cores[n]:.2f}" if n in cores else "-" for n in whole),
        )

    average = {
        name: statistics.fmean(c.get(name, 0.0) for c in seconds.values()) for name in (*names, *whole)
    }
    rows = [row("the rate's average", average)]
    for second in sorted(slowest):
        if second in seconds:
            rows.append(row(time.strftime("%H:%M:%S", time.gmtime(second)), seconds[second]))
    busiest = sorted(seconds.items(), key=lambda item: sum(item[1].get(n, 0.0) for n in names), reverse=True)[
        :3
    ]
    for second, cores in sorted(busiest):
        rows.append(row(f"busiest {time.strftime('%H:%M:%S', time.gmtime(second))}", cores))
    say("  cores busy in those seconds (and in the three busiest of ours), by process; the machine's")
    say("  own count (every process, ours or not) and the time the host stole from it last:")
    say(table_of_figures(rows, ("second", *names, "ours", *whole)))


def report_memory(result: Result) -> None:
    if not result.memory:
        return
    names = list(result.memory[0][1])
    say("memory (PSS MB, shared pages counted in part) at the end of each stage")
    rows = [(stage, *(f"{sample.get(n, 0):.0f}" for n in names)) for stage, sample in result.memory]
    say(table_of_figures(rows, ("stage", *names)))
    rows = []
    for phase, trace in result.memory_trace.items():
        rows.append(
            (
                f"{phase} ({len(trace)} readings over {trace[-1][0]:.0f} s)",
                *(
                    f"{trace[0][1].get(n, 0):.0f} -> {trace[-1][1].get(n, 0):.0f}, "
                    + (f"{g:+.0f}/h" if (g := growth_per_hour(trace, n)) is not None else "-")
                    for n in names
                ),
            )
        )
    if rows:
        say("")
        say(
            f"memory during each rate (PSS MB, every {MEMORY_EVERY:g} s): first -> last reading, and the "
            "growth an hour fitted over the second half (a long rate tells: --seconds 900)"
        )
        say(table_of_figures(rows, ("rate", *names)))


def say_phase(phase: Phase) -> None:
    errors = sum(phase.errors.values())
    say(
        f"  {phase.name}: sent {phase.sent}, ok {phase.ok()}, errors {errors}, lost {phase.lost}, "
        f"socket closes {phase.closes}, late heartbeats {phase.late_beats}, silent 3 s {phase.silent}, "
        f"input->tablet p50 {ms(median(phase.e2e))} ms p99 {ms(percentile(phase.e2e, 99))} ms; "
        f"{load_average()}"
    )
    if phase.floor:
        say(f"    floor: {floor_line(phase)}")


FLOOR_COUNTS = ("busts", "tables broken", "moves")
SEATING_FAULTS = ("active not seated", "busted seated", "seated twice")


def halt_reasons(phase: Phase) -> str:
    """Why the deals were refused, as the tablet was told, most often first."""
    if not phase.halt_reasons:
        return ""
    return "; " + ", ".join(f"{count}x {reason!r}" for reason, count in phase.halt_reasons.most_common())


def floor_line(phase: Phase) -> str:
    seconds = max(phase.elapsed, 1e-9)
    return (
        f"{phase.floor.get('busts', 0)} busts ({phase.floor.get('busts', 0) / seconds:.2f}/s), "
        f"{phase.floor.get('tables broken', 0)} tables broken, {phase.floor.get('moves', 0)} moves made, "
        f"{phase.halted} deals refused while a table waited for players (R8.3, R8.4; the longest wait "
        f"{phase.longest_halt:.0f} s{halt_reasons(phase)}), "
        f"{phase.broken} tablets stopped with their table broken; after it "
        f"{phase.floor.get('seated', 0)} players seated at {phase.floor.get('tables playing', 0)} tables, "
        f"{phase.floor.get('moves waiting', 0)} moves waiting"
    )


async def count_floor(tournament_id: int, failures: list[str], when: str) -> dict[str, int]:
    """The field's counts (``load_build.field_counts``); a seating fault is a failure."""
    from tests.bench import load_build

    counts = await asyncio.to_thread(load_build.field_counts, tournament_id)
    faults = {name: counts[name] for name in SEATING_FAULTS if counts[name]}
    if faults:
        failures.append(f"seating {when}: {faults}")
    return counts


def cpu_per_input(phases: list[Phase], names: list[str]) -> list[tuple]:
    """Rows of CPU ms per answered input by process, for each rate, and the marginal cost between
    successive rates (cores busy over inputs a second: what the servers spend anyway drops out)."""
    rows = []
    rates = [p for p in phases if p.ok() and not p.name.startswith("probe")]

    def per_input(label: str, cores: dict, inputs_per_second: float) -> tuple:
        # ms of CPU per input = cores busy / inputs a second * 1000
        each = [cores[n] * 1000 / inputs_per_second for n in names]
        return (label, f"{sum(each):.2f}", *(f"{x:.2f}" for x in each))

    def cores_of(p) -> dict:
        wall = p.cpu.get("_wall", 0) or 1e-9
        return {n: p.cpu.get(n, 0) / wall for n in names}

    for i, p in enumerate(rates):
        wall = p.cpu.get("_wall", 0) or 1e-9
        rows.append(per_input(p.name, cores_of(p), p.ok() / wall))
        if i:
            before = rates[i - 1]
            extra_rate = p.ok() / wall - before.ok() / (before.cpu.get("_wall", 0) or 1e-9)
            if extra_rate > 1:
                now, then = cores_of(p), cores_of(before)
                rows.append(
                    per_input(
                        f"marginal {before.name} -> {p.name}",
                        {n: now[n] - then[n] for n in names},
                        extra_rate,
                    )
                )
    return rows


def machine_speed() -> float:
    """Seconds a fixed pure-Python loop takes in a process of its own: how fast this machine is right
    now. Two runs of the same code on a shared host (a virtual machine's neighbours) differed by half
    in this and by five times in their p99; a run's figures are read beside it."""
    loop = "import time; t = time.perf_counter(); sum(i * i for i in range(10**7)); print(time.perf_counter() - t)"
    try:
        done = subprocess.run(
            [sys.executable, "-c", loop], capture_output=True, text=True, timeout=60, check=True
        )
        return float(done.stdout)
    except (subprocess.SubprocessError, ValueError):
        return float("nan")


def report(args, event, driver: Driver, result: Result, costs: dict, failures: list[str]) -> None:
    say("")
    say("=" * 100)
    say(
        f"RESULTS  {len(event.tables)} tables, {args.clocks} clocks, {args.servers} server(s), "
        f"{'embedded' if args.embedded else 'PostgreSQL + Redis'}, "
        f"{'production' if not args.dev_settings else 'development'} settings, "
        f"inputs over {'the tablet socket' if args.inputs == 'socket' else 'HTTP'}"
        f"{'' if args.inputs == 'socket' else ', refresh after input ' + ('on' if args.refresh else 'off')}, "
        f"fold {args.fold:g}, bet {args.bet:g}, shove {args.shove:g}"
    )
    before, after = result.machine
    say(
        f"machine: a fixed Python loop took {before:.2f} s before the run and {after:.2f} s after its rates "
        "(both idle; on a shared host this moves by half from one run to the next, and the times below with it)"
    )
    players = len(event.tables) * args.seats
    t = event.timings
    say(
        f"set-up: seat draw of {players} players {t['draw']:.2f}s; registering them {t['register']:.1f}s; "
        f"pairing sheet of {len(event.tables)} tables {t['pairing_sheet']:.2f}s, the tablets redeem their cards "
        f"{t['redeem_tablets']:.1f}s ({t['redeem_tablets'] / len(event.tables) * 1000:.1f} ms each), "
        f"{args.clocks} clocks {t['pair_clocks']:.1f}s"
    )
    say(
        f"sockets: all {len(driver.screens)} open with a first snapshot in {result.open_all:.1f}s; "
        f"connect->first snapshot p50 {ms(median(result.connect_first))} ms, "
        f"p99 {ms(percentile(result.connect_first, 99))} ms ({result.loadavg.get('open')})"
    )
    say(f"console page (idle): {console_times(result.console)}, {result.console_bytes // 1024} KiB")
    rows = []
    for p in result.phases:
        wall = max(p.elapsed, 1e-9)
        answered = (p.last_answer - p.started) if p.last_answer else wall
        everything = [x for v in p.post.values() for x in v]
        errors = ", ".join(f"{k}: {v}" for k, v in sorted(p.errors.items())) or "0"
        rows.append(
            (
                p.name,
                f"{p.sent / wall:.1f}",
                f"{p.ok() / max(answered, 1e-9):.1f}",
                ms(median(everything)),
                ms(percentile(everything, 99)),
                ms(median(p.post["action"])),
                ms(median(p.post["deal"])),
                ms(median(p.post["end"])),
                f"{len(p.post['deal'])}/{len(p.post['end'])}",
                ms(median(p.e2e)),
                ms(percentile(p.e2e, 99)),
                p.lost,
                p.closes,
                errors,
                p.skipped,
                result.loadavg.get(p.name, ""),
            )
        )
    header = (
        "rate",
        "sent/s",
        "ok/s",
        "POST p50",
        "p99",
        "act p50",
        "deal p50",
        "end p50",
        "deals/ends",
        "in->tab p50",
        "p99",
        "lost",
        "closes",
        "errors",
        "skip",
        "load",
    )
    say("")
    say("per rate (times in ms; act/deal/end: POST p50 of an ordinary input, a deal, a hand-ending input)")
    say(table_of_figures(rows, header))
    for p in result.phases:
        if p.floor:
            say(f"floor during {p.name}: {floor_line(p)}")
    lags = [
        f"{p.name} p50 {ms(median(p.own_lag))} / p99 {ms(percentile(p.own_lag, 99))} / max "
        f"{ms(max(p.own_lag, default=None))}"
        for p in result.phases
        if p.own_lag
    ]
    if lags:
        collector = gc_pauses.stats
        say(
            "the load generator's own loop lag (ms; part of every time above, read when its loop comes "
            "round): " + "; ".join(lags) + f"; its garbage collections: {collector['collections']}, "
            f"{collector['slow']} of {gc_pauses.SLOW_MS:.0f} ms or more, the longest "
            f"{collector['longest_ms']:.0f} ms"
        )
    closes = ", ".join(f"{code}: {n}" for code, n in sorted(driver.closes.items())) or "none"
    closes += f" ({sum(s.reconnects for s in driver.screens)} reconnects, as live.js does)"
    if driver.closes_by_stage:
        closes += "; by stage: " + ", ".join(f"{k}: {v}" for k, v in driver.closes_by_stage.items())
    socket_errors = ", ".join(f"{k}: {v}" for k, v in driver.socket_errors.items()) or "none"
    say(f"socket closes: {closes}; socket errors: {socket_errors}")
    say(
        f"tablet heartbeats: {driver.late_beats} late by 0.5 s (the tablet pinged), "
        f"{driver.silences} silences of 3 s (the tablet would have shown the server lost)"
    )
    if driver.closes:
        failures.append(f"sockets closed: {closes}")
    for p in result.phases:
        if p.errors:
            failures.append(f"{p.name}: errors {dict(p.errors)}")
        if p.lost:
            failures.append(f"{p.name}: {p.lost} lost updates")
    if args.small and args.shove and not any(p.floor.get("busts") for p in result.phases):
        failures.append("no player busted: the run did not exercise the floor's balancing")
    retired = [s for s in driver.tablets if s.retired and not s.broken]
    if retired:
        failures.append(f"{len(retired)} tables stopped ({retired[0].retired})")
    say("")
    times = result.level_times
    say(
        f"level change to index {result.level_target}: POST {ms(result.level_post)} ms (HTTP {result.level_status}); "
        f"sockets with the new level: first {ms(times[0] if times else None)}, "
        f"median {ms(median(times))}, p99 {ms(percentile(times, 99))}, last {ms(times[-1] if times else None)} ms "
        f"after the POST was sent; {len(times)}/{len(driver.screens)} got it; {result.loadavg.get('level')}; "
        f"sent once the servers were idle ({result.level_settle:.0f} s after the last rate's inputs)"
    )
    say("")
    say("one snapshot built in-process (median of 15): ms, queries, bytes")
    for name, (seconds, queries, size) in costs.items():
        say(f"  {name:<22} {seconds * 1000:7.1f} ms  {queries:4d} queries  {size:7d} bytes")
    say("")
    say("CPU seconds (and cores busy) per stage")
    stages = [("open sockets", result.open_cpu)]
    stages += [(p.name, p.cpu) for p in result.phases]
    stages.append(("level change", result.level_cpu))
    names = [n for n in result.open_cpu if n != "_wall"]
    rows = []
    for stage, cpu in stages:
        wall = cpu.get("_wall", 0) or 1e-9
        rows.append(
            (stage, f"{wall:.1f}", *(f"{cpu.get(n, 0):.1f} ({cpu.get(n, 0) / wall:.2f})" for n in names))
        )
    say(table_of_figures(rows, ("stage", "wall s", *names)))
    say("")
    say(
        "CPU ms per answered input, by process (where the limit is); 'marginal': the extra CPU of each "
        "extra input from one rate to the next, without what the servers spend anyway (pings, idle sockets)"
    )
    rows = cpu_per_input(result.phases, names)
    say(table_of_figures(rows, ("rate", "all", *names)))
    say("")
    report_timeline(result)
    report_memory(result)
    say("")
    say("POST p99 by kind of input (ms)")
    say(
        table_of_figures(
            [
                (p.name, *(ms(percentile(p.post[kind], 99)) for kind in ("action", "deal", "end")))
                for p in result.phases
            ],
            ("rate", "act p99", "deal p99", "end p99"),
        )
    )
    say("=" * 100)


if __name__ == "__main__":
    sys.exit(main())
