import pytest

from tests import factories
from tournaments.models import BlindStructure

# The tournament these tests talk about: Hi/Lo on the shipped pot-limit template, 20,000 chips, 100 + 10.
WINTER_CUP = {
    "name": "Winter Cup",
    "game": "courchevel_hilo",
    "starting_stack": 20000,
    "buy_in": 100,
    "fee": 10,
}


@pytest.fixture
def template(db):
    """Regular pot limit: 20-minute levels, a 15-minute break after every fourth (shipped by migration)."""
    return BlindStructure.objects.get(name="Regular - Pot Limit", is_template=True)


@pytest.fixture
def planned(template):
    """A Winter Cup just created from the template (``fields`` override its settings)."""

    def make(**fields):
        return factories.make_tournament(structure=template, stage="planned", **{**WINTER_CUP, **fields})

    return make


@pytest.fixture
def running(template):
    """A started Winter Cup with ``players`` entries (all 20,000 chips), seated by the draw."""

    def make(players: int = 10, **fields):
        return factories.make_tournament(structure=template, players=players, **{**WINTER_CUP, **fields})

    return make
