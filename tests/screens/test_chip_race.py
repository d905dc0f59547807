"""R8.7: the chip race is dealt at each table from a recorded seed, so anyone can deal it again; the
result is kept, audited, and shown on the clock screens and on each table's tablet."""

import random

import pytest

from dealing.engine.shuffle import hand_seed, shuffled_deck
from screens.snapshots import clock_snapshot, table_snapshot
from tables import services as tables_services
from tournaments import services
from tournaments.chiprace import chip_race
from tournaments.models import AuditEntry, BlindStructure, ChipRace, Entry, Player

pytestmark = pytest.mark.django_db


def _on_a_color_up_break(players=12):
    template = BlindStructure.objects.get(name="Regular - Pot Limit", is_template=True)
    tournament = services.create_tournament(
        structure=template, name="Race night", game="courchevel", starting_stack=20000, seats_per_table=6
    )
    services.open_registration(tournament)
    for i in range(players):
        services.register(tournament, Player.objects.create(name=f"Racer {i + 1}"))
    tables_services.draw_seats(tournament, random.Random(7))
    services.start_tournament(tournament)
    # Odd 25-chips at every seat, as after some play (the total stays a whole number of chips).
    for i, entry in enumerate(tournament.entries.order_by("pk")):
        services.set_chips(entry, 20000 + (25, 50, 75, -75, -50, -25)[i % 6], reason="after play")
    index = next(level.order for level in tournament.structure.levels.order_by("order") if level.color_up)
    services.jump_to_level(tournament, index)
    tournament.refresh_from_db()
    return tournament


def test_the_race_is_recorded_with_its_seed_and_deals_again_the_same_R8_7():
    tournament = _on_a_color_up_break()
    result = services.color_up(tournament, rng=random.Random(5))
    race = ChipRace.objects.get(tournament=tournament)
    assert (race.old_chip, race.new_chip) == (25, 100) and len(race.tables) == 2
    for table in race.tables:
        seated = [(p["entry"], Entry.objects.get(pk=p["entry"]).chips) for p in table["players"]]
        assert all(p["cards"] and p["best"] in p["cards"] for p in table["players"])
        # Dealt again from the recorded seed, the table's deck gives the same cards and the same winners.
        deck = shuffled_deck(hand_seed(bytes(race.seed), table["table"], 0))
        rows = {p["entry"]: p for p in table["players"]}
        odd = [(entry, rows[entry]["odd_chips"]) for entry, _chips in seated]
        again = chip_race(odd, 25, 100, deck=deck)
        assert {r.key: list(r.cards) for r in again.dealt} == {
            p["entry"]: p["cards"] for p in table["players"]
        }
        assert set(again.winners) == {p["entry"] for p in table["players"] if p["won"]}
    assert sorted(result.winners) == sorted(p["entry"] for t in race.tables for p in t["players"] if p["won"])
    audit = AuditEntry.objects.get(action="tournament.color_up")
    assert audit.data["race_seed"] == bytes(race.seed).hex() and audit.data["tables"] == race.tables
    assert all(chips % 100 == 0 for chips in tournament.entries.values_list("chips", flat=True))


def test_the_clock_shows_the_winners_and_each_tablet_its_own_tables_cards_R8_7():
    tournament = _on_a_color_up_break()
    assert clock_snapshot(tournament.pk)["data"]["chip_race"] is None  # not raced yet
    services.color_up(tournament, rng=random.Random(5))
    race = ChipRace.objects.get(tournament=tournament)
    shown = clock_snapshot(tournament.pk)["data"]["chip_race"]
    winners = {(w["table"], w["seat"]) for w in shown["winners"] if not w["saved"]}
    assert winners == {(t["table"], p["seat"]) for t in race.tables for p in t["players"] if p["won"]}
    assert shown["race_seed"] == bytes(race.seed).hex()
    for table in tournament.tables.all():
        on_tablet = table_snapshot(table.pk)["data"]["chip_race"]["players"]
        assert on_tablet == race.table_rows(table.number) and on_tablet
        assert {p["seat"] for p in on_tablet} <= set(
            table.seat_set.filter(entry__isnull=False).values_list("number", flat=True)
        )
    # After the break the race is no longer shown.
    services.jump_to_level(tournament, race.level_order + 1)
    assert clock_snapshot(tournament.pk)["data"]["chip_race"] is None
