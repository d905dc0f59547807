"""The structure editor forecasts the event beside the levels (the simulator, docs/simulator.md): how
long it runs with its spread, when the money and the final table come, for the field registered so far."""

import re

import pytest

from tests.screens.live import live_tournament
from tournaments.models import Level

pytestmark = pytest.mark.django_db


def forecast(client, tournament) -> str:
    page = client.get(f"/console/{tournament.pk}/structure/").content.decode()
    found = re.search(r'<p data-role="forecast">(.*?)</p>', page, re.S)
    assert found, "no forecast on the structure page"
    return found.group(1)


def hours(text: str) -> float:
    h, m = re.search(r"it runs (\d+) h (\d+)", text).groups()
    return int(h) + int(m) / 60


def test_the_structure_editor_forecasts_the_event_and_follows_the_levels(client, staff):
    client.force_login(staff)
    tournament = live_tournament(players=30, start=False, level_minutes=20)
    text = forecast(client, tournament)
    assert "Forecast for 30 entries" in text and "the money after" in text and "the final table after" in text
    assert "/simulation/" in text  # the full forecast and the fit to a schedule
    before = hours(text)
    Level.objects.filter(structure=tournament.structure).update(duration_minutes=40)
    assert hours(forecast(client, tournament)) > before  # levels twice as long: a longer event
