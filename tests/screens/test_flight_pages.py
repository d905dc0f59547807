"""The console's multi-day event pages and the simulator's preview (screens/views/flights.py), through
Django's test client: what the director sees and what each button changes."""

import re

import pytest

from tests import factories
from tests.tournaments.test_flights import LEVELS
from tournaments.models import Bag, BlindStructure, Entry, Event, Flight

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(client, staff):
    client.force_login(staff)
    return client


def texts(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def create(director, **fields):
    structure = factories.make_structure(levels=LEVELS)
    form = {
        "name": "Autumn Cup",
        "game": "courchevel",
        "structure": structure.pk,
        "flights": "Day 1A, Day 1B",
        "starting_stack": "1000",
        "buy_in": "50",
        "stop_at_players": "2",
        **fields,
    }
    response = director.post("/console/events/new/", form)
    return response


def test_the_pages_are_for_staff_only(client):
    for url in ("/console/events/", "/console/flights/1/", "/console/1/simulation/"):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith("/login/")


def test_a_director_creates_an_event_and_runs_a_flight_to_its_bags(director):
    response = create(director)
    event = Event.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/console/events/{event.pk}/"
    page = texts(director.get(response["Location"]))
    assert "Day 1A" in page and "Day 1B" in page and "Day 2" in page
    a = Flight.objects.get(label="Day 1A").tournament
    for name in ("Ana", "Bo", "Cy", "Di"):
        director.post(f"/console/flights/{a.pk}/register/", {"name": name})
    director.post(f"/console/flights/{a.pk}/draw/")
    director.post(f"/console/flights/{a.pk}/start/")
    page = texts(director.get(f"/console/flights/{a.pk}/"))
    assert 'Players left</dt><dd data-role="players-left">4</dd>' in page.replace("> <", "><")
    assert "at 2 players left" in page
    ana, bo, cy, di = (a.entries.get(player__name=n) for n in ("Ana", "Bo", "Cy", "Di"))
    director.post(f"/console/flights/{a.pk}/entries/{di.pk}/out/", {"by": ana.pk})
    director.post(f"/console/flights/{a.pk}/entries/{cy.pk}/out/", {"by": bo.pk})
    ana.refresh_from_db()
    assert ana.chips == 2000 and a.entries.filter(status=Entry.Status.BUSTED).count() == 2
    response = director.post(f"/console/flights/{a.pk}/stop/", follow=True)
    assert "Play has stopped: count and bag each table." in texts(response)
    table = a.tables.get().number
    wrong = {f"chips-{ana.pk}": "2000", f"bag-{ana.pk}": "A1", f"chips-{bo.pk}": "1900", f"bag-{bo.pk}": "A2"}
    response = director.post(f"/console/flights/{a.pk}/tables/{table}/bag/", wrong, follow=True)
    assert "add up to 3900, but 4000 chips are in play there (-100): count again (R6.7)." in texts(response)
    assert not Bag.objects.exists()
    right = {**wrong, f"chips-{bo.pk}": "2,000"}
    response = director.post(f"/console/flights/{a.pk}/tables/{table}/bag/", right, follow=True)
    assert f"Table {table} is bagged." in texts(response)
    sheet = texts(director.get(f"/console/flights/{a.pk}/bags/"))
    assert "Bag-and-tag sheet" in sheet and "live/flights.css" in sheet
    assert re.search(r"<strong>A1</strong></td><td>Ana</td>", sheet.replace("> <", "><"))
    assert 'data-role="total">4000<' in sheet


def test_refusals_are_messages_that_change_nothing(director):
    response = create(director, stop_at_players="0", follow=True)
    response = director.post("/console/events/new/", {"structure": "x"}, follow=True)
    assert "Structure: give a whole number." in texts(response)
    assert not Event.objects.exists()
    create(director)
    a, b = (Flight.objects.get(label=label).tournament for label in ("Day 1A", "Day 1B"))
    director.post(f"/console/flights/{a.pk}/register/", {"name": "Ana"})
    response = director.post(f"/console/flights/{b.pk}/register/", {"name": "ana"}, follow=True)
    assert "Ana is still playing Day 1A: a player cannot play two flights at once." in texts(response)
    response = director.post(f"/console/flights/{a.pk}/stop/", follow=True)
    assert "Play stops only while the flight runs" in texts(response)


def test_the_simulation_preview_shows_the_forecast_and_a_schedule_fit(director):
    template = BlindStructure.objects.get(name="Regular - Pot Limit", is_template=True)
    tournament = factories.make_tournament(structure=template, stage="planned", starting_stack=20000)
    page = texts(director.get(f"/console/{tournament.pk}/simulation/?entries=80&hours=7"))
    assert "Forecast (1000 runs)" in page and 'data-role="length"' in page
    assert "Fit in 7 hours" in page
    assert "Best fit among the templates" in page or "No template fits" in page
    assert page.count("<tr><td>") >= 10  # a row per level reached
    bad = texts(director.get(f"/console/{tournament.pk}/simulation/?entries=1"))
    assert "Give from 2 to 100,000 expected entries." in bad
    link = texts(director.get(f"/console/{tournament.pk}/"))
    assert f"/console/{tournament.pk}/simulation/" in link


def test_a_flights_own_console_links_to_its_flight_page(director):
    create(director)
    a = Flight.objects.get(label="Day 1A").tournament
    page = texts(director.get(f"/console/{a.pk}/"))
    assert f'href="/console/flights/{a.pk}/"' in page and "Day 1A: stop, bag and the event" in page
    plain = factories.make_tournament(stage="planned")
    assert "/console/flights/" not in texts(director.get(f"/console/{plain.pk}/"))


def test_the_admin_shows_events_flights_and_bags_read_only(client, django_user_model, director):
    create(director)
    admin = django_user_model.objects.create_user("boss", is_staff=True, is_superuser=True)
    client.force_login(admin)
    event = Event.objects.get()
    for url in (
        "/admin/tournaments/event/",
        f"/admin/tournaments/event/{event.pk}/change/",
        "/admin/tournaments/flight/",
        "/admin/tournaments/bag/",
    ):
        assert client.get(url).status_code == 200, url
    assert client.get("/admin/tournaments/bag/add/").status_code == 403
