"""R5.7, R6.5, R8.7: levels are made of the chips in play, from the first level to the last color-up."""

import pytest

from tournaments import services
from tournaments.chips import amounts_not_in_chips, smallest_chip_at_each_level
from tournaments.errors import RuleError
from tournaments.models import BlindStructure, Level
from tournaments.structures import CHIPS, templates

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("template", templates(), ids=lambda t: t["name"])
def test_every_shipped_template_is_made_of_its_chip_set_through_every_color_up_R5_7_R8_7(template):
    assert amounts_not_in_chips(template["levels"], CHIPS) == []
    smallest = smallest_chip_at_each_level(template["levels"], CHIPS)
    assert smallest[0] == 25 and smallest == sorted(smallest)  # color-ups only ever raise it


def test_a_tournament_from_a_template_plays_in_the_templates_chips_R5_7_R6_5():
    template = BlindStructure.objects.get(name="Regular - Pot Limit", is_template=True)
    assert template.chip_denominations == CHIPS
    tournament = services.create_tournament(
        structure=template, name="Cup", game="courchevel_hilo", starting_stack=20000
    )
    assert tournament.chip_denominations == CHIPS and tournament.smallest_chip == 25
    assert tournament.structure.chip_denominations == CHIPS  # its own copy keeps the chip set


def test_a_level_not_in_the_chips_in_play_is_refused_with_the_rule_and_changes_nothing_R5_7():
    template = BlindStructure.objects.get(name="Regular - Pot Limit", is_template=True)
    tournament = services.create_tournament(
        structure=template, name="Cup", game="courchevel", starting_stack=20000
    )
    level = tournament.structure.levels.get(order=0)
    before = (level.small_blind, level.big_blind)
    with pytest.raises(RuleError) as refused:
        services.update_level(level, small_blind=40, big_blind=100)
    assert refused.value.rule == "R5.7" and refused.value.params["smallest_chip"] == 25
    assert refused.value.params["amount"] == 40 and refused.value.params["field"] == "small_blind"
    level.refresh_from_db()
    assert (level.small_blind, level.big_blind) == before


def test_after_a_color_up_the_later_levels_need_the_bigger_chip_R5_7_R8_7():
    levels = [
        {"small_blind": 25, "big_blind": 50},
        {"is_break": True, "color_up": [25]},
        {"small_blind": 150, "big_blind": 300},  # 150 is no whole number of 100-chips
    ]
    problems = amounts_not_in_chips(levels, [25, 100, 500])
    assert [(p.level_order, p.field, p.smallest_chip) for p in problems] == [(2, "small_blind", 100)]


def test_changing_the_chip_set_of_a_tournament_checks_its_levels_R5_7():
    structure = services.create_structure(
        name="Odd", betting="no_limit", levels=[{"duration_minutes": 20, "small_blind": 10, "big_blind": 20}]
    )
    tournament = services.create_tournament(
        structure=structure, name="Cup", game="courchevel", starting_stack=1000
    )
    assert tournament.smallest_chip == 1  # a structure with no chip set plays in single chips
    with pytest.raises(RuleError):
        services.update_tournament(tournament, chip_denominations=[25, 100], smallest_chip=25)
    tournament.refresh_from_db()
    assert (
        tournament.chip_denominations == []
        and Level.objects.filter(structure=tournament.structure).count() == 1
    )
