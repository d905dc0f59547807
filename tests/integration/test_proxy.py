"""HAProxy with docker/haproxy.cfg in front of two daphne servers: HTTPS and the redirect to it,
WebSockets through the proxy, and a web server that dies is routed around."""

import asyncio
import json
import os
import re
import shutil
import ssl
import subprocess
import urllib.error
import urllib.request

import pytest
import websockets
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from .processes import ROOT, free_port, wait_for
from .test_celery_clock import running_tournament
from .test_daphne_redis import PASSWORD, http_ok, next_snapshot

# .ci/run installs haproxy and openssl, so in CI their absence is a failure, not a skip.
pytestmark = pytest.mark.skipif(
    not os.environ.get("CI") and not (shutil.which("haproxy") and shutil.which("openssl")),
    reason="needs Debian's haproxy and openssl",
)

NO_VERIFY = ssl.create_default_context()
NO_VERIFY.check_hostname = False
NO_VERIFY.verify_mode = ssl.CERT_NONE


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def fetch(url: str, method: str = "GET", body: dict | None = None, headers: dict | None = None):
    opener = urllib.request.build_opener(NoRedirect, urllib.request.HTTPSHandler(context=NO_VERIFY))
    request = urllib.request.Request(
        url,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    try:
        with opener.open(request, timeout=10) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def proxy_config(tmp_path, http_port: int, https_port: int, web_ports: list[int]) -> str:
    """docker/haproxy.cfg with loopback ports and the two local web servers instead of Docker's DNS
    (in both backends: every request, and a hand's inputs hashed by the hand)."""
    pem = tmp_path / "site.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=localhost",
            "-keyout",
            str(tmp_path / "key.pem"),
            "-out",
            str(tmp_path / "cert.pem"),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    pem.write_bytes((tmp_path / "cert.pem").read_bytes() + (tmp_path / "key.pem").read_bytes())
    config = (ROOT / "docker" / "haproxy.cfg").read_text()
    config, n_http = re.subn(r"(?m)^    bind :80$", f"    bind 127.0.0.1:{http_port}", config)
    config, n_https = re.subn(
        r"(?m)^    bind :443 ssl crt \S+", f"    bind 127.0.0.1:{https_port} ssl crt {pem}", config
    )
    servers = "\n".join(f"    server web{i} 127.0.0.1:{port}" for i, port in enumerate(web_ports))
    config, n_servers = re.subn(r"(?m)^    server-template web \d+ web:8000$", servers, config)
    config = config.replace(" resolvers docker init-addr none", " inter 1s fall 2 rise 1")
    # The container gets a high open-files limit (compose.yaml); a test machine may not.
    config = re.sub(r"(?m)^    maxconn \d+$", "    maxconn 2000", config)
    assert (n_http, n_https, n_servers) == (1, 1, 2), "docker/haproxy.cfg changed shape: update this test"
    path = tmp_path / "haproxy.cfg"
    path.write_text(config)
    return str(path)


def test_proxy_serves_https_websockets_and_routes_around_a_dead_server(processes, tmp_path):
    staff = get_user_model().objects.create_user("director", password=PASSWORD, is_staff=True)
    tournament = running_tournament(seconds_left=50)
    browser = Client()
    browser.force_login(staff)
    session = browser.cookies["sessionid"].value

    web_ports = [free_port(), free_port()]
    daphnes = [processes.daphne(f"daphne-{i}", port) for i, port in enumerate(web_ports)]
    for port in web_ports:
        wait_for(
            lambda port=port: http_ok(f"http://127.0.0.1:{port}/healthz?check=database,channel_layer,redis"),
            timeout=60,
            interval=0.2,
            what=f"daphne on port {port}",
        )
    http_port, https_port = free_port(), free_port()
    config = proxy_config(tmp_path, http_port, https_port, web_ports)
    processes.start("haproxy", "haproxy", "-db", "-f", config)
    wait_for(
        lambda: fetch(f"http://127.0.0.1:{http_port}/proxy-health")[0] == 200 if _up(http_port) else False,
        timeout=30,
        interval=0.2,
        what="the proxy",
    )

    # Plain HTTP is redirected to HTTPS; HTTPS reaches a web server that sees the original scheme.
    status, headers, _ = fetch(f"http://127.0.0.1:{http_port}/healthz")
    assert status == 301 and headers["Location"].startswith("https://")
    base = f"https://127.0.0.1:{https_port}"
    status, _, body = fetch(f"{base}/healthz?check=database,channel_layer,redis")
    assert status == 200, body
    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"].rsplit(".", 1)[1]  # the servers' settings too
    assert layer in ("RedisChannelLayer", "RedisPubSubChannelLayer")
    assert json.loads(body)["checks"]["channel_layer"]["backend"] == layer

    async def websocket_through_proxy():
        async with websockets.connect(
            f"wss://127.0.0.1:{https_port}/ws/tournaments/{tournament.pk}/clock/",
            ssl=NO_VERIFY,
            additional_headers={"Cookie": f"sessionid={session}"},
            origin=f"https://127.0.0.1:{https_port}",
            open_timeout=10,
        ) as socket:
            first = await next_snapshot(socket, newer_than=-1)
            status, _, body = await asyncio.to_thread(
                fetch,
                f"{base}/api/tournaments/{tournament.pk}/",
                "PATCH",
                {"name": "Through the proxy"},
                {"Authorization": "Basic " + _basic(staff.username), "Referer": base},
            )
            assert status == 200, body
            return await next_snapshot(socket, newer_than=first["version"])

    update = asyncio.run(websocket_through_proxy())
    assert update["data"]["tournament"]["name"] == "Through the proxy"

    # One web server dies: every request still gets an answer from the other.
    processes.kill(daphnes[0])
    answers = [fetch(f"{base}/healthz?check=database")[0] for _ in range(10)]
    assert answers == [200] * 10


def _up(port: int) -> bool:
    import socket

    with socket.socket() as sock:
        sock.settimeout(0.2)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def _basic(username: str) -> str:
    import base64

    return base64.b64encode(f"{username}:{PASSWORD}".encode()).decode()
