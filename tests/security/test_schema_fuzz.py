"""The whole API against its own OpenAPI schema, fuzzed by schemathesis over a live daphne server.

Every operation of ``/api/schema/`` gets the schema's examples, its boundary and type-mutation cases
(the coverage phase) and random requests, valid and invalid, signed in as staff with every role.
It fails on any 5xx, on a status code, content type, header or body the schema does not document,
on a request the schema allows that is refused as malformed (400), and on a request the schema
forbids that is not refused as malformed (docs/api-errors.md). Bounded: ``schemathesis.toml`` beside
this file (examples per operation, seconds of generation), about a minute and a half.

Run alone: ``pytest tests/security/test_schema_fuzz.py -m schema_fuzz -p no:cacheprovider``.
"""

import json
import os
import select
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONFIG = Path(__file__).with_name("schemathesis.toml")
SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")

pytestmark = pytest.mark.schema_fuzz


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def live_api(tmp_path_factory):
    """``tests.security.live_api_server`` on a free loopback port over a fresh SQLite file."""
    folder = tmp_path_factory.mktemp("schema-fuzz")
    port = _free_port()
    log = open(folder / "server.log", "w")  # noqa: SIM115 - the server writes to it until it stops
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    server = subprocess.Popen(
        [sys.executable, "-m", "tests.security.live_api_server", str(folder / "db.sqlite3"), str(port)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=log,
        env=env,
        text=True,
    )
    try:
        ready, _, _ = select.select([server.stdout], [], [], 180)
        line = server.stdout.readline() if ready else ""
        if not line:
            raise RuntimeError(
                f"the fuzz server did not start: {(folder / 'server.log').read_text()[-3000:]}"
            )
        data = json.loads(line)
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("the fuzz server is not listening") from None
                time.sleep(0.2)
        yield f"http://127.0.0.1:{port}", data, folder
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


def test_every_operation_matches_its_schema_under_fuzzing(live_api):
    base, data, folder = live_api
    command = [
        str(SCHEMATHESIS),
        "--config-file",
        str(CONFIG),
        "--no-color",
        "run",
        f"{base}/api/schema/",
        "-H",
        f"Cookie: sessionid={data['session']}; csrftoken={data['csrf']}",
        "-H",
        f"X-CSRFToken: {data['csrf']}",
    ]
    started = time.monotonic()
    run = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=300)
    seconds = time.monotonic() - started
    output = run.stdout + run.stderr
    summary = output[output.rfind("SUMMARY") :] if "SUMMARY" in output else output[-3000:]
    assert run.returncode == 0, f"schemathesis found problems ({seconds:.0f} s):\n{output[-12000:]}"
    assert "passed" in summary and " generated" in summary, summary
    print(f"schemathesis: {seconds:.0f} s\n{summary}")
