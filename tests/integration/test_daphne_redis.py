"""Two daphne servers sharing Redis (channels-redis): a change made through one server reaches the
live screens whose WebSockets are held by the other, and by itself."""

import asyncio
import base64
import json
import urllib.request

import websockets
from django.contrib.auth import get_user_model
from django.test import Client

from .processes import free_port, wait_for
from .test_celery_clock import running_tournament

PASSWORD = "integration-password-123"


def http_ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def patch(url: str, username: str, body: dict) -> tuple[int, dict]:
    token = base64.b64encode(f"{username}:{PASSWORD}".encode()).decode()
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="PATCH",
        headers={
            "Authorization": f"Basic {token}",
            "Content-Type": "application/json",
            "Host": "127.0.0.1",
        },
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, json.loads(response.read())


async def next_snapshot(socket, newer_than: int, timeout: float = 10.0) -> dict:
    """The next snapshot with a version above ``newer_than`` (pongs and repeats are skipped)."""

    async def receive():
        while True:
            message = json.loads(await socket.recv())
            if message.get("type") == "snapshot" and message["version"] > newer_than:
                return message

    return await asyncio.wait_for(receive(), timeout)


def test_a_change_made_on_one_server_reaches_sockets_on_the_other(processes):
    staff = get_user_model().objects.create_user("director", password=PASSWORD, is_staff=True)
    tournament = running_tournament(seconds_left=50)
    browser = Client()
    browser.force_login(staff)
    session = browser.cookies["sessionid"].value

    port_a, port_b = free_port(), free_port()
    processes.daphne("daphne-a", port_a)
    processes.daphne("daphne-b", port_b)
    for port in (port_a, port_b):
        wait_for(
            lambda port=port: http_ok(f"http://127.0.0.1:{port}/healthz?check=database,channel_layer,redis"),
            timeout=60,
            interval=0.2,
            what=f"daphne on port {port}",
        )

    def socket_to(port: int):
        return websockets.connect(
            f"ws://127.0.0.1:{port}/ws/tournaments/{tournament.pk}/clock/",
            additional_headers={"Cookie": f"sessionid={session}"},
            origin=f"http://127.0.0.1:{port}",
            open_timeout=10,
        )

    async def scenario():
        async with socket_to(port_a) as on_a, socket_to(port_b) as on_b:
            first_a = await next_snapshot(on_a, newer_than=-1)
            first_b = await next_snapshot(on_b, newer_than=-1)
            assert first_a["data"]["tournament"]["name"] == "Integration"
            # The director renames the tournament through server B's API.
            status, body = await asyncio.to_thread(
                patch,
                f"http://127.0.0.1:{port_b}/api/tournaments/{tournament.pk}/",
                staff.username,
                {"name": "Main Event, Day 2"},
            )
            assert status == 200, body
            seen_on_a = await next_snapshot(on_a, newer_than=first_a["version"])
            seen_on_b = await next_snapshot(on_b, newer_than=first_b["version"])
            return seen_on_a, seen_on_b

    seen_on_a, seen_on_b = asyncio.run(scenario())
    assert seen_on_a["data"]["tournament"]["name"] == "Main Event, Day 2"
    assert seen_on_b["data"]["tournament"]["name"] == "Main Event, Day 2"
    assert seen_on_a["version"] == seen_on_b["version"]
