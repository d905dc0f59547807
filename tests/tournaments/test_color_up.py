"""Color-ups and the chip race at a break (R8.7)."""

import random

import pytest

from tests.factories import entries_of
from tournaments import services
from tournaments.chiprace import chip_race
from tournaments.errors import StateError
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


def test_chip_race_keeps_whole_chips_races_the_odd_ones_and_races_nobody_out_R8_7():
    """Odd 25s: 25 + 50 + 75 + 25 = 175 make 1.75 new 100s, so two chips are raced, one per player at most."""
    stacks = [("s1", 1025), ("s2", 950), ("s3", 75), ("s4", 25), ("s5", 2000)]
    for seed in range(20):
        result = chip_race(stacks, 25, 100, random.Random(seed))
        assert len(result.winners) == 2 and len(set(result.winners)) == 2
        assert result.stacks["s5"] == 2000
        assert result.stacks["s1"] in (1000, 1100) and result.stacks["s2"] in (900, 1000)
        assert all(chips % 100 == 0 and chips > 0 for chips in result.stacks.values())
        # s3 and s4 had only odd chips: a win or a saving chip, never out.
        assert result.stacks["s3"] == 100 and result.stacks["s4"] == 100


def test_more_chips_more_cards_more_wins():
    wins = sum(
        "big" in chip_race([("big", 75), ("small", 25)], 25, 100, random.Random(seed)).winners
        for seed in range(400)
    )
    assert 250 < wins < 350  # three cards against one: the best card is 3/4 of the time


def _on_color_up_break(tournament):
    index = next(level.order for level in tournament.structure.levels.order_by("order") if level.color_up)
    services.jump_to_level(tournament, index)
    tournament.refresh_from_db()
    return tournament


def test_color_up_at_a_break_updates_stacks_and_the_smallest_chip(running, staff):
    tournament = running(4, chip_denominations=[25, 100, 500, 1000, 5000], smallest_chip=25)
    a, b, c, d = entries_of(tournament)
    for entry, chips in ((a, 20025), (b, 19950), (c, 20000), (d, 20025)):
        Entry.objects.filter(pk=entry.pk).update(chips=chips)
    tournament = _on_color_up_break(tournament)
    result = services.color_up(tournament, actor=staff, rng=random.Random(3))
    tournament.refresh_from_db()
    assert 25 not in tournament.chip_denominations and tournament.smallest_chip == 100
    chips = dict(tournament.entries.values_list("pk", "chips"))
    assert all(v % 100 == 0 for v in chips.values())
    assert len(result.winners) == 1  # 25 + 50 + 25 = 100: one new chip raced
    with pytest.raises(StateError, match="already colored up"):
        services.color_up(tournament)


def test_color_up_refused_outside_a_break(running):
    tournament = running(3, chip_denominations=[25, 100, 500], smallest_chip=25)
    with pytest.raises(StateError, match="only at a break"):
        services.color_up(tournament)


def test_color_up_api(api, running):
    tournament = _on_color_up_break(running(3, chip_denominations=[25, 100, 500, 1000], smallest_chip=25))
    response = api.post(f"/api/tournaments/{tournament.pk}/color-up/")
    assert response.status_code == 200, response.content
    assert response.json()["smallest_chip"] == 100


def test_color_up_api_outside_a_break_changes_nothing(api, running):
    tournament = running(3, chip_denominations=[25, 100, 500], smallest_chip=25)
    response = api.post(f"/api/tournaments/{tournament.pk}/color-up/")
    assert response.status_code == 409 and "break" in response.json()["detail"]
    tournament.refresh_from_db()
    assert tournament.smallest_chip == 25 and tournament.chip_denominations == [25, 100, 500]
