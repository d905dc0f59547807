"""The dealer's one-page guide (issue 15 item 11): public, printable, behind the tablet's "?" button,
covering pairing, a Courchevel hand with the exposed card, entered cards, all-ins, moves, breaks and
calling the floor."""

import pytest

from tests.screens.live import live_tournament

pytestmark = pytest.mark.django_db


def test_the_dealers_guide_is_one_public_page_linked_from_the_tablet(client, staff):
    page = client.get("/help/dealer/")
    assert page.status_code == 200
    html = page.content.decode()
    for heading in (
        "Pairing the tablet",
        "Dealing a Courchevel hand",
        "Seeded deck or entered cards",
        "All-ins",
        "Seat moves and breaks",
        "When something goes wrong",
    ):
        assert f">{heading}</h2>" in html, heading
    assert "exposed first flop card" in html and 'data-action="print"' in html
    tournament = live_tournament(players=3)
    client.force_login(staff)
    tablet = client.get(f"/tablet/{tournament.tables.get().pk}/").content.decode()
    assert 'href="/help/dealer/"' in tablet and 'data-action="help"' in tablet
