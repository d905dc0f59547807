"""A flight's clock screen and players' page show the event: one prize pool and payout table for every
flight, the event's entries and players left, and each flight's survivors (docs/festivals.md)."""

import pytest

from screens import player_page, snapshots
from tests.tournaments.test_flights import fill, flight, make_event
from tournaments import flight_selectors

pytestmark = pytest.mark.django_db


def test_a_flights_clock_shows_the_events_pool_and_every_flights_players():
    event = make_event(labels=("Day 1A", "Day 1B"))
    day_a, day_b = flight(event, "Day 1A").tournament, flight(event, "Day 1B").tournament
    fill(day_a, [f"A{i}" for i in range(6)])
    fill(day_b, [f"B{i}" for i in range(4)])

    data = snapshots.clock_data(day_a)
    pool = flight_selectors.prize_pool(event)
    assert pool == 10 * 100  # ten buy-ins across both flights, without the fee
    assert data["field"]["prize_pool"] == pool and data["field"]["entries"] == 6
    assert sum(p["amount"] for p in data["field"]["payouts"]) == pool
    shown = data["flight"]
    assert shown["label"] == "Day 1A" and shown["event"]["entries"] == 10
    rows = {row["label"]: row["entries"] for row in shown["event"]["flights"]}
    assert rows == {"Day 1A": 6, "Day 1B": 4, "Day 2": 0}  # and the day the survivors will play
    assert snapshots.find_private_keys(data) == []

    phones = player_page.player_data(day_b)
    assert phones["flight"]["label"] == "Day 1B" and phones["field"]["prize_pool"] == pool


def test_a_tournament_on_its_own_has_no_flight_on_its_clock(tournament):
    assert snapshots.clock_data(tournament)["flight"] is None
