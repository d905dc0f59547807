"""The equity API (issue 18): the calculator anyone may call, and a live hand's equity of its
face-up players only (R6.2), never from a card the table has not shown."""

import json

import pytest
import yaml

from dealing import services
from dealing.models import Hand
from tests.factories import make_table

from .tablet import Tablet

pytestmark = pytest.mark.django_db

AK = ["Ah", "Kd", "Qs", "Jc", "Th"]
LOW = ["2c", "3d", "4h", "5s", "6c"]


def test_exact_hilo_equity_gives_every_chance_and_shares_that_add_up(anon):
    response = anon.post(
        "/api/equity/", {"hands": [AK, LOW], "board": ["7h"], "game": "courchevel_hilo"}, format="json"
    )
    assert response.status_code == 200, response.json()
    data = response.json()
    assert data["method"] == "exact" and data["boards"] == data["total_boards"] == 101270
    assert [p["cards"] for p in data["players"]] == [AK, LOW]
    assert sum(p["share"] for p in data["players"]) == pytest.approx(1.0)
    for player in data["players"]:
        assert player["share_error"] == 0
        for name in ("high_win", "high_tie", "low_win", "low_tie", "scoop", "split"):
            assert 0 <= player[name] <= 1
    assert 0 < data["no_low"] < 1
    # The low hand is the only one that can make a low (R2.5): it never loses the low half.
    assert data["players"][0]["low_win"] == 0


def test_sampled_equity_has_a_standard_error_and_repeats_with_its_seed(anon):
    body = {"hands": [AK, LOW], "board": [], "game": "courchevel", "samples": 4000, "seed": 7}
    first = anon.post("/api/equity/", body, format="json").json()
    again = anon.post("/api/equity/", body, format="json").json()
    assert first["method"] == "sampled" and first["boards"] == 4000 and first["seed"] == 7
    assert all(0 < p["share_error"] < 0.02 for p in first["players"])
    assert first == again
    assert first["players"][0]["low_win"] is None  # a high-only game


@pytest.mark.parametrize(
    "body, field, words",
    [
        ({"hands": [AK, ["Zz", "3d", "4h", "5s", "6c"]]}, "hands", "Not a card code"),
        ({"hands": [AK, LOW], "board": ["7x"]}, "board", "Not a card code"),
        ({"hands": [AK, LOW[:4]]}, "hands", "exactly five hole cards"),
        ({"hands": [AK]}, "hands", "at least 2 hands"),
        ({"hands": [AK, LOW], "game": "omaha"}, "game", "omaha"),
        ({"hands": [AK, LOW], "samples": 0}, "samples", "1"),
    ],
)
def test_bad_card_codes_and_counts_are_400_naming_the_field(anon, body, field, words):
    response = anon.post("/api/equity/", body, format="json")
    assert response.status_code == 400, response.json()
    data = response.json()
    assert field in data["errors"], data
    assert words in data["detail"], data


@pytest.mark.parametrize(
    "body, field, words",
    [
        ({"hands": [AK, ["Ah", "3d", "4h", "5s", "6c"]]}, "hands", "Ah appears twice (hand 1 and hand 2)"),
        ({"hands": [AK, LOW], "board": ["Ah"]}, "board", "Ah appears twice"),
        ({"hands": [AK, LOW], "dead": ["2c"]}, "dead", "2c appears twice"),
    ],
)
def test_a_card_given_twice_is_422_naming_it_R2_1(anon, body, field, words):
    """Every code is a card (the schema holds) but one deck has each card once: a broken rule, 422
    (docs/api-errors.md), not a malformed request."""
    response = anon.post("/api/equity/", body, format="json")
    assert response.status_code == 422, response.json()
    data = response.json()
    assert data["code"] == "duplicate_card" and data["field"] == field, data
    assert words in data["detail"], data


def test_the_equity_endpoints_are_in_the_openapi_schema(anon):
    schema = yaml.safe_load(anon.get("/api/schema/").content)
    post = schema["paths"]["/api/equity/"]["post"]
    assert set(post["responses"]) >= {"200", "400"}
    assert "/api/hands/{pk}/equity/" in schema["paths"] or any(
        path.startswith("/api/hands/{") and path.endswith("/equity/") for path in schema["paths"]
    )


def test_a_live_hands_equity_has_only_the_face_up_players_and_follows_the_streets_R6_2(api, anon):
    _, table = make_table(stacks=(100, 100, 1000))
    hand_id = api.post("/api/hands/", {"table": table.pk}, format="json").json()["id"]
    tablet = Tablet(api, hand_id)
    # Seat 1 (button) all-in, seat 2 calls, seat 3 (big blind) folds.
    tablet.act(tablet.state()["to_act"], "all_in")
    tablet.act(tablet.state()["to_act"], "call")
    tablet.act(tablet.state()["to_act"], "fold")
    url = f"/api/hands/{hand_id}/equity/"
    assert anon.get(url).json()["equity"] is None  # not face up yet: nothing to show
    tablet.send({"type": "face_up"})
    data = anon.get(url).json()["equity"]
    state = tablet.state()
    shown = {p["seat"]: p["cards"] for p in state["players"] if p["shown"]}
    assert {p["seat"]: p["cards"] for p in data["players"]} == shown and len(shown) == 2
    assert data["board"] == state["board"] and len(data["board"]) == 1
    assert sum(p["share"] for p in data["players"]) == pytest.approx(1.0)
    full = services.full_view(Hand.objects.get(pk=hand_id))
    secret = next(p["cards"] for p in full["players"] if p["folded"])  # the folded big blind's
    text = json.dumps(data)
    assert not any(f'"{card}"' in text for card in secret)
    tablet.send({"type": "deal"})
    flop = anon.get(url).json()["equity"]
    assert len(flop["board"]) == 3 and flop["players"] != data["players"]
    tablet.send({"type": "deal"})
    tablet.send({"type": "deal"})
    assert anon.get(url).json()["equity"] is None  # over: the result says who won
