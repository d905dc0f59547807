import random

import pytest


@pytest.fixture
def rng():
    """The draws and floor decisions of a tables test, the same on every run."""
    return random.Random(1234)
