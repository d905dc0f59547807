"""The clock screens' banner: a refused announcement changes nothing (the review's bug: it used to
clear the current banner)."""

import pytest
from django.core.exceptions import ValidationError

from screens.floor import ANNOUNCEMENT_MAX_LENGTH, set_announcement
from screens.models import Announcement
from screens.snapshots import clock_snapshot
from tests.screens.live import live_tournament

pytestmark = pytest.mark.django_db


def test_a_refused_announcement_leaves_the_current_banner_on_the_screens():
    tournament = live_tournament(players=4)
    set_announcement(tournament, "Dinner break at 20:00")
    version = clock_snapshot(tournament.pk)["version"]
    with pytest.raises(ValidationError):
        set_announcement(tournament, "x" * (ANNOUNCEMENT_MAX_LENGTH + 1))
    assert clock_snapshot(tournament.pk)["data"]["announcement"] == "Dinner break at 20:00"
    assert clock_snapshot(tournament.pk)["version"] == version
    assert Announcement.objects.filter(tournament=tournament, active=True).count() == 1


def test_an_empty_announcement_clears_the_banner():
    tournament = live_tournament(players=4)
    set_announcement(tournament, "Dinner break at 20:00")
    set_announcement(tournament, "")
    assert clock_snapshot(tournament.pk)["data"]["announcement"] == ""
