"""Multi-day events through tournaments.services.flights (docs/festivals.md): flights, the stop and
the bag (R6.7), the next day's draw (R8.1), one prize pool and places across the event (R8.8)."""

import random
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from tables import services as tables_services
from tables.models import SeatDraw
from tests import factories
from tournaments import flight_selectors as fs
from tournaments import services
from tournaments.audit import AuditAction
from tournaments.errors import RuleError, StateError
from tournaments.models import AuditEntry, Bag, Entry, Event, Player, Tournament
from tournaments.services import flights

pytestmark = pytest.mark.django_db

LEVELS = [
    factories.level(10, 20, minutes=20),
    factories.level(20, 40, minutes=20),
    factories.pause(10),
    factories.level(30, 60, minutes=20),
    factories.level(50, 100, minutes=20),
    factories.level(100, 200, minutes=20),
]


def make_event(labels=("Day 1A", "Day 1B", "Day 1C"), **fields):
    structure = factories.make_structure(levels=LEVELS, name="Flights blinds")
    options = dict(
        name="Winter Millions",
        structure=structure,
        flights=list(labels),
        game="courchevel",
        starting_stack=1000,
        buy_in=100,
        fee=10,
        stop_at_players=3,
        seats_per_table=8,
    )
    options.update(fields)
    return flights.create_event(**options)


def flight(event, label):
    return event.flights.select_related("tournament").get(label=label)


def fill(tournament, names):
    return [services.register(tournament, services.player_named(name)) for name in names]


def start(tournament, seed=1):
    tables_services.draw_seats(tournament, random.Random(seed))
    services.start_tournament(tournament)
    tournament.refresh_from_db()
    return tournament


def bust_down_to(tournament, players_left, winner=0):
    """Eliminate the last entry, chips to the ``winner``-th active one, until ``players_left`` are in."""
    while tournament.entries.filter(status=Entry.Status.ACTIVE).count() > players_left:
        active = list(tournament.entries.filter(status=Entry.Status.ACTIVE).order_by("pk"))
        loser = active[-1]
        table = loser.seats.values_list("table", flat=True).first()
        mates = [e for e in active[:-1] if e.seats.filter(table=table).exists()] or active[:-1]
        flights.eliminate(loser, by=mates[min(winner, len(mates) - 1)])
        tables_services.balance(tournament)  # what the queued balancing task does after a bust (R8.3)


def bag_all(tournament, prefix):
    """Each table's survivors bagged at the counts the system holds."""
    bags = []
    for table in tournament.tables.filter(status="active").order_by("number"):
        seats = table.seat_set.filter(entry__isnull=False, entry__status="active").select_related("entry")
        counts = [
            {"entry": s.entry_id, "chips": s.entry.chips, "bag": f"{prefix}-{s.entry_id}"} for s in seats
        ]
        if counts:
            bags += flights.bag_table(tournament, table.number, counts)
    return bags


def play_flight(event, label, names, survivors=3, winner=0):
    tournament = flight(event, label).tournament
    fill(tournament, names)
    start(tournament)
    bust_down_to(tournament, survivors, winner)
    flights.stop_play(tournament)
    bag_all(tournament, label[-1])
    return tournament


# ---------------------------------------------------------------- the event and its flights


def test_an_event_is_flights_with_registration_open_and_a_later_day_planned():
    event = make_event(days=3, day_stops=[{"day": 2, "stop_at_players": 4}])
    rows = list(event.flights.select_related("tournament").order_by("day", "label"))
    assert [(f.day, f.label) for f in rows] == [
        (1, "Day 1A"),
        (1, "Day 1B"),
        (1, "Day 1C"),
        (2, "Day 2"),
        (3, "Day 3"),
    ]
    assert [f.tournament.status for f in rows] == ["registering"] * 3 + ["planned"] * 2
    # each its own tournament, with its own copy of the structure (its own clock)
    assert len({f.tournament.structure_id for f in rows}) == 5
    # the flights carry no buy-in of their own: the event has the one prize pool
    assert {f.tournament.buy_in for f in rows} == {0}
    assert AuditEntry.objects.filter(action=AuditAction.EVENT_CREATE).count() == 1


def test_an_event_needs_a_stop_and_distinct_flight_labels():
    with pytest.raises(ValidationError, match="where a flight's play stops"):
        make_event(stop_at_players=0)
    with pytest.raises(ValidationError, match="Two flights are called day 1a"):
        make_event(labels=("Day 1A", "day 1a"))
    with pytest.raises(ValidationError, match="the next day needs one"):
        make_event(stop_after_level=5)  # the structure has 5 levels of play
    assert not Event.objects.exists() and not Tournament.objects.exists()


def test_a_player_cannot_play_two_flights_at_once_but_may_enter_the_next_once_out():
    event = make_event()
    a, b = flight(event, "Day 1A").tournament, flight(event, "Day 1B").tournament
    fill(a, ["Ana", "Bo", "Cy", "Di", "Ed"])
    ana = Player.objects.get(name="Ana")
    with pytest.raises(
        StateError, match="Ana is still playing Day 1A: a player cannot play two flights at once"
    ) as exc:
        services.register(b, ana)
    assert exc.value.status == 409 and exc.value.code == "playing_another_flight"
    start(a)
    ana_entry = a.entries.get(player=ana)
    flights.eliminate(ana_entry, by=a.entries.exclude(player=ana).first())
    entry = services.register(b, ana)  # out of 1A: 1B takes her
    assert entry.tournament_id == b.pk and entry.chips == 1000


# ---------------------------------------------------------------- the end of a flight


def test_eliminations_move_the_chips_and_play_stops_at_the_players_left():
    event = make_event()
    a = flight(event, "Day 1A").tournament
    entries = fill(a, [f"P{i}" for i in range(6)])
    start(a)
    with pytest.raises(StateError, match="Play stops at 3 players left; now level 1 with 6 players left"):
        flights.stop_play(a)
    flights.eliminate(entries[5], by=entries[0])
    entries[0].refresh_from_db()
    assert entries[0].chips == 2000  # chips are never lost (R6.7)
    bust_down_to(a, 3)
    with pytest.raises(StateError, match="Play stops at 3 players left: stop play and bag"):
        flights.eliminate(entries[0], by=entries[1])
    flights.stop_play(a)
    a.refresh_from_db()
    assert a.paused_at is not None and a.status == "running"
    # the flight's busts have their flight places 6, 5, 4 (R8.8)
    assert sorted(a.entries.exclude(place=None).values_list("place", flat=True)) == [4, 5, 6]


def test_play_stops_after_the_stop_level_and_the_next_day_resumes_at_the_level_after():
    event = make_event(stop_at_players=0, stop_after_level=2)
    a = flight(event, "Day 1A").tournament
    fill(a, ["A", "B", "C"])
    tables_services.draw_seats(a, random.Random(1))
    started = timezone.now() - timedelta(minutes=30)
    services.start_tournament(a, now=started)
    with pytest.raises(StateError, match="Play stops after level 2"):
        flights.stop_play(a)
    fl = flights.stop_play(a, now=started + timedelta(minutes=41))  # level 2 over: on the break
    assert fl.resume_level_index == 3  # level 3 (after the break), from its full time


def test_bagging_checks_the_counts_add_up_to_the_chips_at_the_table():
    event = make_event()
    a = flight(event, "Day 1A").tournament
    fill(a, [f"P{i}" for i in range(6)])
    start(a)
    bust_down_to(a, 3)
    with pytest.raises(StateError, match="Stop play before bagging"):
        bag_all(a, "A")
    flights.stop_play(a)
    table = a.tables.get()
    seated = list(table.seat_set.filter(entry__status="active").select_related("entry"))
    total = sum(s.entry.chips for s in seated)
    counts = [{"entry": s.entry_id, "chips": s.entry.chips, "bag": f"A{i}"} for i, s in enumerate(seated)]
    wrong = [dict(c) for c in counts]
    wrong[0]["chips"] += 100
    with pytest.raises(
        RuleError, match=rf"add up to {total + 100}, but {total} chips are in play there \(\+100\)"
    ) as exc:
        flights.bag_table(a, table.number, wrong)
    assert exc.value.rule == "R6.7" and exc.value.params["difference"] == 100
    with pytest.raises(ValidationError, match="has no count"):
        flights.bag_table(a, table.number, counts[:2])
    with pytest.raises(ValidationError, match="cannot share a bag number"):
        flights.bag_table(a, table.number, [{**c, "bag": "A1"} for c in counts])
    assert not Bag.objects.exists()
    # a recount that moves chips between two players but keeps the total is taken, and audited
    counts[0]["chips"] -= 50
    counts[1]["chips"] += 50
    bags = flights.bag_table(a, table.number, counts)
    assert sum(b.chips for b in bags) == total and len(bags) == 3
    a.refresh_from_db()
    assert a.status == Tournament.Status.FINISHED and flight(event, "Day 1A").closed_at is not None
    assert a.entries.filter(place=1).count() == 0  # nobody wins a flight
    audit = AuditEntry.objects.get(action=AuditAction.FLIGHT_BAG)
    assert len(audit.data["recounted"]) == 2


# ---------------------------------------------------------------- the next day


def test_day_two_draws_every_survivor_with_the_best_bag_and_resumes_the_clock():
    event = make_event()
    play_flight(event, "Day 1A", ["Ana", "Bo", "Cy", "Di", "Ed", "Flo"])
    with pytest.raises(StateError, match="Day 1B, Day 1C has not bagged yet"):
        flights.draw_next_day(event)
    # Ana survived 1A; she plays 1B too and survives it with a different stack
    b_names = ["Ana", "Gus", "Hal", "Ivy", "Jo", "Kim"]
    b = play_flight(event, "Day 1B", b_names, winner=1)  # Gus wins the chips: Ana keeps 1,000
    play_flight(event, "Day 1C", ["Lou", "Max", "Ned", "Ola", "Pia", "Quin"])
    ana_bags = list(Bag.objects.filter(player__name="Ana"))
    day2 = flights.draw_next_day(event, rng=random.Random(4))
    t2 = day2.tournament
    t2.refresh_from_db()
    survivors = Bag.objects.values("player").distinct().count()
    assert t2.entries.count() == survivors and t2.status == "registering"
    assert len(ana_bags) == 2 and ana_bags[0].chips != ana_bags[1].chips
    assert t2.entries.get(player__name="Ana").chips == max(b.chips for b in ana_bags)
    assert Bag.objects.filter(status=Bag.Status.SET_ASIDE).get().chips == min(b.chips for b in ana_bags)
    carried = Bag.objects.filter(status=Bag.Status.CARRIED)
    assert sum(e.chips for e in t2.entries.all()) == sum(b.chips for b in carried)
    # the draw is the recorded seat draw (R8.1)
    assert SeatDraw.objects.filter(tournament=t2, kind=SeatDraw.Kind.START).count() == 1
    assert survivors == 8 and t2.tables.count() == 1  # Ana once: 8 players at one table of 8
    assert t2.level_index == flight(event, "Day 1A").resume_level_index
    services.start_tournament(t2)
    assert services.clock_state(t2).level_index == t2.level_index
    assert b.pk != t2.pk


def test_every_surviving_stack_is_added_up_when_the_event_says_so():
    event = make_event(labels=("Day 1A", "Day 1B"), stack_rule="all")
    a = flight(event, "Day 1A").tournament
    fill(a, ["Ana", "Bo", "Cy", "Di"])
    start(a)
    ana = a.entries.get(player__name="Ana")
    bust_down_to(a, 3)  # the last entry goes: Ana (first) stays
    flights.stop_play(a)
    bag_all(a, "A")
    b = flight(event, "Day 1B").tournament
    fill(b, ["Ana", "Eve", "Fay", "Gil"])
    start(b)
    bust_down_to(b, 3)
    flights.stop_play(b)
    bag_all(b, "B")
    stacks = list(Bag.objects.filter(player__name="Ana").values_list("chips", flat=True))
    assert len(stacks) == 2 and ana.pk
    t2 = flights.draw_next_day(event, rng=random.Random(2)).tournament
    assert t2.entries.get(player__name="Ana").chips == sum(stacks)


def test_late_entry_into_day_two_at_the_events_stack_or_survivors_only():
    event = make_event(labels=("Day 1A",), late_stack=1500, late_until_level=4)
    play_flight(event, "Day 1A", ["A", "B", "C", "D", "E", "F"])
    t2 = flight(event, "Day 2").tournament
    with pytest.raises(StateError, match="Registration is closed"):  # not drawn yet
        services.register(t2, services.player_named("Late Larry"))
    flights.draw_next_day(event, rng=random.Random(1))
    late = services.register(t2, services.player_named("Late Larry"))
    assert late.chips == 1500 and late.seats.exists()
    assert fs.field_size(event) == 7  # 6 flight entries + 1 late entry; survivors are not new buy-ins
    closed = make_event(labels=("Day 1A",), name="No late")
    play_flight(closed, "Day 1A", ["G", "H", "I", "J", "K", "L"])
    flights.draw_next_day(closed, rng=random.Random(1))
    with pytest.raises(StateError, match="Day 2 takes no new entries: only the survivors") as exc:
        services.register(flight(closed, "Day 2").tournament, services.player_named("Nope"))
    assert exc.value.code == "survivors_only"


# ---------------------------------------------------------------- one prize pool, places across the event


def test_one_prize_pool_and_places_across_the_event_to_the_winner():
    event = make_event(payout_percentages=[50, 30, 20])
    for label, names in (
        ("Day 1A", [f"A{i}" for i in range(6)]),
        ("Day 1B", [f"B{i}" for i in range(6)]),
        ("Day 1C", [f"C{i}" for i in range(6)]),
    ):
        play_flight(event, label, names)
    assert fs.prize_pool(event) == 18 * 100  # every flight's entries, the fee not in it
    assert fs.payout_table(event) == [900, 540, 360]
    t2 = flights.draw_next_day(event, rng=random.Random(3)).tournament
    services.start_tournament(t2)
    assert fs.results(event) == []  # day 1 busts have no place: the event does not pay them
    bust_down_to(t2, 1)
    t2.refresh_from_db()
    assert t2.status == "finished"
    results = fs.results(event)
    assert [r["place"] for r in results] == list(range(1, 10))
    assert [r["prize"] for r in results[:4]] == [900, 540, 360, 0]
    assert results[0]["player"] == t2.entries.get(place=1).player.name


def test_day_one_finishers_share_places_by_their_distance_from_the_bag_when_paid():
    event = make_event(pays_day1_finishers=True, percent_paid=100)
    for label in ("Day 1A", "Day 1B", "Day 1C"):
        play_flight(event, label, [f"{label[-1]}{i}" for i in range(6)])
    flights.draw_next_day(event, rng=random.Random(3))
    results = fs.results(event)
    # 9 on day 2; each flight's last one out (4th there) shares places 10-12, then 13-15, 16-18
    day_one = [r for r in results if r["place"] > 9]
    assert [(r["place"], r["place_shared_to"]) for r in day_one] == [(10, 12)] * 3 + [(13, 15)] * 3 + [
        (16, 18)
    ] * 3
    assert len({r["prize"] for r in day_one[:3]}) == 1  # shared places split their prizes


def test_the_flight_snapshot_has_the_events_totals_and_each_flights_survivors():
    event = make_event()
    a = play_flight(event, "Day 1A", [f"A{i}" for i in range(6)])
    b = flight(event, "Day 1B").tournament
    fill(b, ["X", "Y"])
    snapshot = fs.flight_snapshot(b)
    assert snapshot["label"] == "Day 1B" and snapshot["day"] == 1 and not snapshot["last_day"]
    totals = snapshot["event"]
    assert totals["entries"] == 8 and totals["prize_pool"] == 800
    assert totals["players_left"] == 5  # 3 bagged in 1A, 2 registered in 1B
    assert totals["chips_in_play"] == 6000 + 2000
    rows = {row["label"]: row for row in totals["flights"]}
    assert len(rows["Day 1A"]["survivors"]) == 3 and rows["Day 1A"]["closed"]
    assert sum(s["chips"] for s in rows["Day 1A"]["survivors"]) == 6000
    assert rows["Day 1B"]["players_left"] == 2 and rows["Day 1B"]["stop"]["at_players"] == 3
    assert fs.flight_snapshot(factories.make_tournament(stage="planned")) is None
    assert a.pk


def test_the_clock_waits_at_the_end_of_the_stop_level_for_the_bag():
    event = make_event(stop_at_players=0, stop_after_level=1)
    a = flight(event, "Day 1A").tournament
    fill(a, ["A", "B", "C"])
    tables_services.draw_seats(a, random.Random(1))
    started = timezone.now() - timedelta(minutes=25)
    services.start_tournament(a, now=started)
    a.refresh_from_db()
    assert services.advance_clock(a)  # the beat: level 1 (20 minutes) is over
    a.refresh_from_db()
    state = services.clock_state(a)
    # paused at level 2 with its full time, not running on into it
    assert state.level_index == 1 and not state.running and state.remaining == 20 * 60
    assert fs.stop_point(flight(event, "Day 1A"))["reached"]
    assert flights.stop_play(a).resume_level_index == 1
    # the last day and tournaments outside an event run on as before
    plain = factories.make_tournament(players=2, levels=LEVELS, started_at=started)
    assert services.advance_clock(plain)
    assert services.clock_state(Tournament.objects.get(pk=plain.pk)).running


def test_a_three_day_event_bags_day_two_and_places_both_days_busts():
    with pytest.raises(ValidationError, match="Say where play stops on Day 2"):
        make_event(days=3)
    event = make_event(days=3, day_stops=[{"day": 2, "stop_at_players": 3}])
    for label in ("Day 1A", "Day 1B", "Day 1C"):
        play_flight(event, label, [f"{label[-1]}{i}" for i in range(6)])
    day2 = flights.draw_next_day(event, rng=random.Random(5)).tournament
    services.start_tournament(day2)
    bust_down_to(day2, 3)  # Day 2 stops at its own 3 players left
    flights.stop_play(day2)
    bag_all(day2, "D2")
    day3 = flights.draw_next_day(event, rng=random.Random(6)).tournament
    assert day3.entries.count() == 3
    assert sum(e.chips for e in day3.entries.all()) == 18 * 1000  # every chip of the event
    with pytest.raises(StateError, match="Day 3 takes no new entries"):
        services.register(day3, services.player_named("Too Late"))
    services.start_tournament(day3)
    bust_down_to(day3, 1)
    results = fs.results(event)
    assert [r["place"] for r in results] == list(range(1, 10))
    assert {r["flight"] for r in results[:3]} == {"Day 3"} and {r["flight"] for r in results[3:]} == {"Day 2"}
