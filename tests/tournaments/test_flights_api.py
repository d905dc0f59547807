"""The API of multi-day events and of the structure simulator (docs/festivals.md, docs/simulator.md)."""

import random
import time

import pytest

from tests import factories
from tests.tournaments.test_flights import LEVELS, bust_down_to, fill, flight, make_event, play_flight, start
from tournaments.models import Bag, BlindStructure, Event
from tournaments.services import flights

pytestmark = pytest.mark.django_db


def create_body(structure, **fields):
    return {
        "name": "Spring Millions",
        "structure": structure.pk,
        "flights": ["Day 1A", "Day 1B", "Day 1C"],
        "game": "courchevel",
        "starting_stack": 1000,
        "buy_in": 200,
        "fee": 20,
        "stop_at_players": 3,
        **fields,
    }


def test_the_director_creates_an_event_and_anyone_reads_its_totals(api, anon):
    structure = factories.make_structure(levels=LEVELS)
    response = api.post("/api/events/", create_body(structure), format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert [f["label"] for f in body["flights"]] == ["Day 1A", "Day 1B", "Day 1C", "Day 2"]
    assert [f["registration_open"] for f in body["flights"]] == [True, True, True, False]
    assert body["prize_pool"] == 0 and body["entries"] == 0
    assert anon.get(f"/api/events/{body['event']}/").status_code == 200
    assert anon.post("/api/events/", create_body(structure), format="json").status_code == 403


def test_bad_event_input_is_400_and_a_broken_rule_422_never_500(api):
    structure = factories.make_structure(levels=LEVELS)
    response = api.post("/api/events/", create_body(structure, flights="Day 1A"), format="json")
    assert response.status_code == 400 and "flights" in response.json()["errors"]
    response = api.post("/api/events/", create_body(structure, stop_at_players=0), format="json")
    assert response.status_code == 422
    assert "where a flight's play stops" in response.json()["detail"]
    response = api.post("/api/events/", create_body(structure, bogus=1), format="json")
    assert response.status_code == 400 and "Unknown field" in response.json()["detail"]
    assert not Event.objects.exists()


def test_registering_a_player_into_a_second_flight_at_once_is_409_with_a_clear_message(api):
    event = make_event()
    a, b = flight(event, "Day 1A").tournament, flight(event, "Day 1B").tournament
    assert (
        api.post(f"/api/tournaments/{a.pk}/entries/", {"name": "Ana Lima"}, format="json").status_code == 201
    )
    response = api.post(f"/api/tournaments/{b.pk}/entries/", {"name": "ana lima"}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "playing_another_flight"
    assert (
        "Ana Lima is still playing Day 1A: a player cannot play two flights at once"
        in response.json()["detail"]
    )


def test_stop_eliminate_and_bag_through_the_api(api, anon):
    event = make_event()
    a = flight(event, "Day 1A").tournament
    entries = fill(a, [f"P{i}" for i in range(5)])
    start(a)
    assert api.post(f"/api/flights/{a.pk}/stop/").status_code == 409
    response = api.post(
        f"/api/flights/{a.pk}/eliminate/", {"entry": entries[4].pk, "by": entries[0].pk}, format="json"
    )
    assert response.status_code == 200 and response.json() == {
        "entry": entries[4].pk,
        "status": "busted",
        "place": 5,
    }
    other = make_event(name="Other")
    stranger = fill(flight(other, "Day 1A").tournament, ["Zed"])[0]
    response = api.post(
        f"/api/flights/{a.pk}/eliminate/", {"entry": stranger.pk, "by": entries[0].pk}, format="json"
    )
    assert response.status_code == 404 and response.json()["field"] == "entry"
    bust_down_to(a, 3)
    response = api.post(f"/api/flights/{a.pk}/stop/")
    assert response.status_code == 200 and response.json()["stop"]["stopped"]
    table = a.tables.get()
    seated = list(table.seat_set.filter(entry__status="active").select_related("entry"))
    bags = [{"entry": s.entry_id, "chips": s.entry.chips, "bag": f"A-{i + 1}"} for i, s in enumerate(seated)]
    short = [dict(b) for b in bags]
    short[0]["chips"] -= 25
    response = api.post(f"/api/flights/{a.pk}/bag/", {"table": table.number, "bags": short}, format="json")
    assert response.status_code == 422
    assert response.json()["rule"] == "R6.7" and response.json()["params"]["difference"] == -25
    response = api.post(f"/api/flights/{a.pk}/bag/", {"table": 99, "bags": bags}, format="json")
    assert response.status_code == 422 and "No table 99" in response.json()["detail"]
    response = api.post(f"/api/flights/{a.pk}/bag/", {"table": table.number, "bags": bags}, format="json")
    assert response.status_code == 201
    assert sorted(r["bag_number"] for r in response.json()) == ["A-1", "A-2", "A-3"]
    sheet = anon.get(f"/api/flights/{a.pk}/bags/").json()
    assert sum(r["chips"] for r in sheet) == 5000 and {r["table_number"] for r in sheet} == {table.number}
    snapshot = anon.get(f"/api/flights/{a.pk}/").json()
    assert snapshot["label"] == "Day 1A" and snapshot["event"]["flights"][0]["closed"]


def test_next_day_and_results_through_the_api(api, anon):
    event = make_event(payout_percentages=[60, 40])
    response = api.post(f"/api/events/{event.pk}/next-day/")
    assert response.status_code == 409 and "has not bagged yet" in response.json()["detail"]
    for label in ("Day 1A", "Day 1B", "Day 1C"):
        play_flight(event, label, [f"{label[-1]}{i}" for i in range(6)])
    response = api.post(f"/api/events/{event.pk}/next-day/")
    assert response.status_code == 200, response.content
    day = response.json()
    assert day["label"] == "Day 2" and day["players"] == 9 and day["tables"] == 2
    assert api.post(f"/api/events/{event.pk}/next-day/").status_code == 409  # every day is drawn
    t2 = flight(event, "Day 2").tournament
    api.post(f"/api/tournaments/{t2.pk}/start/")
    bust_down_to(t2, 1)
    results = anon.get(f"/api/events/{event.pk}/results/").json()
    assert results["prize_pool"] == 18 * 100 and results["payouts"] == [
        {"place": 1, "amount": 1080},
        {"place": 2, "amount": 720},
    ]
    assert [r["place"] for r in results["results"]] == list(range(1, 10))
    assert results["results"][0]["prize"] == 1080 and results["results"][2]["prize"] == 0
    assert Bag.objects.count() == 9


# ---------------------------------------------------------------- the simulator


def test_simulating_an_existing_tournament_forecasts_each_level_and_fits_a_schedule(api):
    template = BlindStructure.objects.get(name="Regular - No Limit", is_template=True)
    tournament = factories.make_tournament(
        structure=template,
        stage="planned",
        starting_stack=20000,
        late_registration_until_level=6,
        max_reentries=1,
    )
    started = time.perf_counter()
    response = api.get(
        f"/api/tournaments/{tournament.pk}/simulation/?entries=120&reentries=12&runs=500&hours=6"
    )
    elapsed = time.perf_counter() - started
    assert response.status_code == 200, response.content
    body = response.json()
    length = body["length"]
    assert length["p10"] <= length["median"] <= length["p90"] and 2 * 3600 < length["median"] < 20 * 3600
    assert body["late_registration_closes_at"] > 0 and body["bubble"]["median"] < length["median"]
    assert body["final_table"]["median"] < length["median"]
    first = body["levels"][0]
    assert (
        first["number"] == 1
        and first["players_left"]["median"] >= 90
        and first["average_stack_bb"]["median"] > 50
    )
    assert body["end_level"]["median"] >= 1
    fit = body["fit"]
    assert fit["hours"] == 6 and 5 <= fit["level_minutes"] <= 120 and fit["best_template"]
    if fit["level_minutes_fit"]:
        assert fit["length_with_those_levels"]["median"] <= 6 * 3600
    assert elapsed < 20  # the whole request, fit included, on a shared two-core machine


def test_simulating_a_posted_structure_and_bad_input(api, anon):
    body = {
        "game": "courchevel_hilo",
        "betting": "pot_limit",
        "levels": [
            {"minutes": 20, "small_blind": 25, "big_blind": 50},
            {"minutes": 20, "small_blind": 50, "big_blind": 100},
            {"minutes": 10, "is_break": True},
            {"minutes": 20, "small_blind": 100, "big_blind": 200},
            {"minutes": 20, "small_blind": 200, "big_blind": 400},
            {"minutes": 20, "small_blind": 400, "big_blind": 800},
            {"minutes": 20, "small_blind": 1000, "big_blind": 2000},
        ],
        "starting_stack": 10000,
        "entries": 40,
        "runs": 200,
    }
    response = api.post("/api/simulations/", body, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["runs"] == 200 and response.json()["fit"] is None
    assert anon.post("/api/simulations/", body, format="json").status_code == 403
    ends_with_break = {**body, "levels": [*body["levels"], {"minutes": 10, "is_break": True}]}
    response = api.post("/api/simulations/", ends_with_break, format="json")
    assert response.status_code == 422 and response.json()["code"] == "ends_with_break"
    assert "ends with a break" in response.json()["detail"]
    assert api.post("/api/simulations/", {**body, "runs": 10**6}, format="json").status_code == 400
    response = api.get("/api/tournaments/999999/simulation/")
    assert response.status_code == 404
    tournament = factories.make_tournament(stage="planned")
    assert api.get(f"/api/tournaments/{tournament.pk}/simulation/?hours=abc").status_code == 400
    assert api.get(f"/api/tournaments/{tournament.pk}/simulation/?entries=1").status_code == 400


def test_flight_seat_draw_for_the_next_day_is_random_but_recorded(api):
    event = make_event(labels=("Day 1A", "Day 1B"))
    for label in ("Day 1A", "Day 1B"):
        play_flight(event, label, [f"{label[-1]}{i}" for i in range(6)])
    day = flights.draw_next_day(event, rng=random.Random(9))
    draw = day.tournament.seat_draws.get()
    assert len(draw.assignment) == 6 and draw.kind == "start"
