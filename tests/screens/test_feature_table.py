"""The feature table (issue 18) and the console's all-in panel: the audience sees only hands the
dealer has turned face up (R6.2), with each player's equity street by street over the live socket;
the floor releases a hand-for-hand run-out from the console (R8.6, TDA RP-8F)."""

import json
import re

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone

from config.asgi import application
from dealing import services
from dealing.models import Hand
from screens.snapshots import feature_snapshot, find_private_keys
from tests.factories import make_table

ORIGIN = (b"origin", b"http://testserver")


def all_in_called(**table_kwargs):
    """Seat 1 all-in, seat 2 calls, seat 3 folds: betting is closed, the hands not yet face up."""
    tournament, table = make_table(stacks=(100, 100, 1000), **table_kwargs)
    hand = services.start_next_hand(table)
    for action in ("all_in", "call", "fold"):
        view = services.public_view(hand)
        services.apply_input(
            hand,
            {"type": "action", "seat": view["to_act"], "action": action},
            expected_seq=services.last_seq(hand),
        )
    hand.refresh_from_db()
    return tournament, table, hand


def tap(hand, kind):
    services.apply_input(hand, {"type": kind}, expected_seq=services.last_seq(hand))
    hand.refresh_from_db()


def hole_cards(hand):
    return [card for p in services.full_view(hand)["players"] for card in p["cards"]]


def quoted(payload) -> str:
    return payload if isinstance(payload, str) else json.dumps(payload)


def leaked(cards, payload) -> list[str]:
    text = quoted(payload)
    return [card for card in cards if f'"{card}"' in text or f">{card}<" in text]


@pytest.mark.django_db
def test_the_feature_page_needs_no_login_and_carries_no_hidden_hole_card(client):
    _, table, hand = all_in_called()
    secret = hole_cards(hand)
    page = client.get(f"/feature/{table.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert f"/ws/feature/{table.pk}/" in html
    assert leaked(secret, html) == []
    snapshot = feature_snapshot(table.pk)
    assert leaked(secret, snapshot) == [] and find_private_keys(snapshot) == []
    players = snapshot["data"]["hand"]["players"]
    assert all(p["cards"] is None and p["equity"] is None for p in players)
    assert snapshot["data"]["hand"]["equity"] is None
    assert client.get("/feature/999999/").status_code == 404


@pytest.mark.django_db
def test_face_up_hands_and_their_equity_appear_then_follow_each_street_R6_2():
    _, table, hand = all_in_called()
    full = services.full_view(hand)
    folded = next(p["cards"] for p in full["players"] if p["folded"])
    tap(hand, "face_up")
    data = feature_snapshot(table.pk)["data"]["hand"]
    face_up = [p for p in data["players"] if p["face_up"]]
    assert [p["seat"] for p in face_up] == [1, 2]
    assert {p["seat"]: p["cards"] for p in face_up} == {
        p["seat"]: p["cards"] for p in full["players"] if not p["folded"]
    }
    assert sum(p["equity"]["share"] for p in face_up) == pytest.approx(1.0)
    assert leaked(folded, data) == []  # the folded hand stays face down
    tap(hand, "deal")
    flop = feature_snapshot(table.pk)["data"]["hand"]
    assert len(flop["board"]) == 3 and flop["street"] == "flop"
    assert [p["equity"] for p in flop["players"]] != [p["equity"] for p in data["players"]]
    tap(hand, "deal")
    tap(hand, "deal")
    over = feature_snapshot(table.pk)["data"]["hand"]
    assert over["status"] == "finished" and over["result"]["pots"]
    assert all(p["equity"] is None for p in over["players"])


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_feature_socket_is_public_and_sends_each_street_never_a_hidden_card():
    _, table, hand = await database_sync_to_async(all_in_called)()
    secret = await database_sync_to_async(hole_cards)(hand)
    ws = WebsocketCommunicator(application, f"/ws/feature/{table.pk}/", headers=[ORIGIN])
    connected, _ = await ws.connect()
    assert connected
    first = await ws.receive_json_from(timeout=2)
    assert first["kind"] == "feature" and leaked(secret, first) == []
    await database_sync_to_async(tap)(hand, "face_up")
    shown = await ws.receive_json_from(timeout=2)
    assert shown["version"] > first["version"]
    assert sum(1 for p in shown["data"]["hand"]["players"] if p["cards"]) == 2
    boards = []
    for _ in range(3):
        await database_sync_to_async(tap)(hand, "deal")
        snap = await ws.receive_json_from(timeout=2)
        boards.append(len(snap["data"]["hand"]["board"]))
        assert find_private_keys(snap) == []
    assert boards == [3, 4, 5]
    await ws.disconnect()


@pytest.mark.django_db
def test_the_console_shows_the_face_up_equity_and_the_floor_releases_a_held_run_out(floor, staff):
    tournament, _table, hand = all_in_called(other_tables=(2,))
    tournament.hand_for_hand = True
    tournament.hand_for_hand_round_started_at = timezone.now()
    tournament.paused_at = timezone.now()
    tournament.remaining_when_paused = 600.0
    tournament.save()
    director = Client()
    director.force_login(staff)
    page = director.get(f"/console/{tournament.pk}/").content.decode()
    assert 'data-live-panel="all-ins"' in page and "hands not yet face up" in page
    tap(hand, "face_up")
    page = director.get(f"/console/{tournament.pk}/").content.decode()
    assert "waiting for the floor" in page
    assert 'data-action="release"' not in page  # the director has no dealing.change_hand
    shown = [p for p in services.public_view(hand)["players"] if p["shown"]]
    for player in shown:
        assert " ".join(player["cards"]) in page
    assert page.count('data-role="share"') == 2 and " %" in page
    floor_client = Client()
    floor_client.force_login(floor)
    page = floor_client.get(f"/console/{tournament.pk}/").content.decode()
    assert 'data-action="release"' in page
    response = director.post(f"/console/{tournament.pk}/hands/{hand.pk}/release/", follow=True)
    assert "Only a floor person" in response.content.decode()
    assert services.runout_hold(Hand.objects.get(pk=hand.pk)) != ""
    response = floor_client.post(f"/console/{tournament.pk}/hands/{hand.pk}/release/", follow=True)
    assert response.status_code == 200
    assert "may deal its run-out" in response.content.decode()
    assert services.runout_hold(Hand.objects.get(pk=hand.pk)) == ""
    tap(hand, "deal")
    assert len(services.public_view(hand)["board"]) == 3


@pytest.mark.django_db
def test_the_feature_page_loads_nothing_from_another_host(client):
    _, table = make_table()
    response = client.get(f"/feature/{table.pk}/")
    policy = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy or "script-src 'self'" in policy
    html = response.content.decode()
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert sources and all(s.startswith("/") for s in sources), sources
