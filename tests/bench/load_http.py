"""Small pieces for ``load_event.py`` that need no Django: a keep-alive HTTP/1.1 client for asyncio
(the venv has no aiohttp or httpx, and the benchmark adds no package), CPU seconds of a process tree
from /proc, and percentiles."""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import time

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


class HTTPError(Exception):
    """The connection failed or the answer could not be read (no HTTP status)."""


class _Connection:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.reader = reader
        self.writer = writer

    def close(self) -> None:
        self.writer.close()


class HTTPPool:
    """Up to ``size`` persistent connections to one server; requests wait for a free one."""

    def __init__(self, host: str, port: int, size: int = 32, timeout: float = 30.0):
        self.host = host
        self.port = port
        self.timeout = timeout
        self.idle: list[_Connection] = []
        self.slots = asyncio.Semaphore(size)
        self.opened = 0

    async def _connection(self) -> _Connection:
        if self.idle:
            return self.idle.pop()
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(self.host, self.port), timeout=self.timeout
        )
        self.opened += 1
        return _Connection(reader, writer)

    async def request(
        self, method: str, path: str, *, body: dict | None = None, headers: dict | None = None
    ) -> tuple[int, dict, bytes]:
        """(status, lower-case headers, body). Raises HTTPError when there is no answer."""
        data = b"" if body is None else json.dumps(body).encode()
        lines = [
            f"{method} {path} HTTP/1.1",
            f"Host: {self.host}:{self.port}",
            "Accept: application/json",
            f"Content-Length: {len(data)}",
        ]
        if body is not None:
            lines.append("Content-Type: application/json")
        lines.extend(f"{k}: {v}" for k, v in (headers or {}).items())
        raw = ("\r\n".join(lines) + "\r\n\r\n").encode() + data
        async with self.slots:
            for attempt in (1, 2):
                connection, reused = None, bool(self.idle)
                try:
                    connection = await self._connection()
                    connection.writer.write(raw)
                    answer = await asyncio.wait_for(self._read(connection), timeout=self.timeout)
                    break
                except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError) as error:
                    if connection is not None:
                        connection.close()
                    # A kept-alive connection the server closed while idle: nothing was read, so the
                    # request never reached it; sent once more on a new connection, as browsers do.
                    closed_idle = isinstance(error, asyncio.IncompleteReadError) and not error.partial
                    if attempt == 1 and reused and closed_idle:
                        # The server closed its idle connections together (its keep-alive timeout):
                        # the others kept here are closed too, so the retry opens a new one.
                        while self.idle:
                            self.idle.pop().close()
                        continue
                    raise HTTPError(f"{type(error).__name__}: {error}") from None
            status, response_headers, content, keep = answer
            if keep:
                self.idle.append(connection)
            else:
                connection.close()
            return status, response_headers, content

    async def _read(self, connection: _Connection):
        reader = connection.reader
        status_line = await reader.readuntil(b"\r\n")
        parts = status_line.decode("latin-1").split(" ", 2)
        status = int(parts[1])
        headers: dict[str, str] = {}
        cookies: list[str] = []
        while True:
            line = await reader.readuntil(b"\r\n")
            if line == b"\r\n":
                break
            name, _, value = line.decode("latin-1").partition(":")
            name = name.strip().lower()
            if name == "set-cookie":
                cookies.append(value.strip())
            headers[name] = value.strip()
        if cookies:
            headers["set-cookie"] = "\n".join(cookies)
        if headers.get("transfer-encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
                if size == 0:
                    await reader.readuntil(b"\r\n")
                    break
                chunks.append(await reader.readexactly(size))
                await reader.readexactly(2)
            content = b"".join(chunks)
        elif "content-length" in headers:
            content = await reader.readexactly(int(headers["content-length"]))
        else:  # no length: the body runs to the end of the connection
            content = await reader.read()
            return status, headers, content, False
        keep = headers.get("connection", "").lower() != "close"
        return status, headers, content, keep

    def close(self) -> None:
        for connection in self.idle:
            connection.close()
        self.idle.clear()


# --- the dealer's choice ----------------------------------------------------------------------------


def choose_action(options: dict, rng, fold: float, bet: float, shove: float = 0.0) -> tuple[str, int | None]:
    """A legal (action, amount) from the engine's options: with probability ``shove``, when the
    player may bet or raise, all-in (the largest total, ``max_to``); otherwise, with nothing to call,
    bet the minimum with probability ``bet`` else check; facing a bet, fold with probability ``fold``
    else call. Without ``shove``, never a raise: no betting war and no all-in."""
    actions = options["actions"]
    kind = options.get("raise_kind")
    if shove and kind in actions and options.get("max_to") and rng.random() < shove:
        return kind, options["max_to"]
    if options["call"]:
        if "fold" in actions and rng.random() < fold:
            return "fold", None
        return ("call", None) if "call" in actions else ("fold", None)
    if "bet" in actions and options.get("min_to") and rng.random() < bet:
        return "bet", options["min_to"]
    return ("check", None) if "check" in actions else ("fold", None)


# --- CPU seconds from /proc ------------------------------------------------------------------------


def _stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, CPU seconds of the process and of its children it has waited for)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            text = handle.read()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    ticks = int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])
    return int(fields[1]), ticks / CLOCK_TICKS


def tree_cpu_seconds(root: int) -> float:
    """CPU seconds used so far by ``root`` and every live descendant (dead ones that were waited for
    are in their parent's counters)."""
    stats = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            stat = _stat(int(name))
            if stat is not None:
                stats[int(name)] = stat
    if root not in stats:
        return 0.0
    children: dict[int, list[int]] = {}
    for pid, (ppid, _seconds) in stats.items():
        children.setdefault(ppid, []).append(pid)
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        total += stats[pid][1]
        todo.extend(children.get(pid, []))
    return total


def _children(root: int) -> list[int]:
    """``root`` and every live descendant."""
    parents = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            stat = _stat(int(name))
            if stat is not None:
                parents[int(name)] = stat[0]
    children: dict[int, list[int]] = {}
    for pid, ppid in parents.items():
        children.setdefault(ppid, []).append(pid)
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def pss_mb(pid: int) -> float:
    """The memory of one process in MB, its pages shared with others counted in part (PSS: what the
    machine would get back if it ended), 0 if it is gone."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as handle:
            for line in handle:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return 0.0


def tree_pss_mb(root: int) -> float:
    """``pss_mb`` of ``root`` and every live descendant (PostgreSQL's backends share its buffers)."""
    return sum(pss_mb(pid) for pid in _children(root))


def own_cpu_seconds() -> float:
    times = os.times()
    return times.user + times.system


# --- figures ----------------------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float | None:
    """The q-th percentile (0-100), nearest rank; None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def ms(value: float | None) -> str:
    return "-" if value is None else f"{value * 1000:.0f}"


def load_average() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load {one:.2f} {five:.2f} {fifteen:.2f}"


class Stopwatch:
    def __init__(self):
        self.started = time.perf_counter()

    def __call__(self) -> float:
        return time.perf_counter() - self.started
