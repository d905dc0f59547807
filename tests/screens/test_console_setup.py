"""The console's setup pages: a new tournament, its settings and its blind structure, without the admin."""

import pytest

from tests import factories
from tournaments.models import BlindStructure, Tournament

pytestmark = pytest.mark.django_db


def _form(source, **overrides):
    data = {
        "name": "Sunday Courchevel",
        "game": "courchevel",
        "betting": source.betting,
        "structure": f"template:{source.pk}",
        "starting_stack": "20000",
        "seats_per_table": "8",
        "chip_denominations": "25, 100, 500, 1000, 5000",
        "late_registration_until_level": "4",
        "max_reentries": "1",
        "rebuys_allowed": "0",
        "rebuy_stack": "0",
        "rebuy_price": "0",
        "addon_stack": "0",
        "addon_price": "0",
        "buy_in": "200",
        "fee": "20",
        "guarantee": "5000",
        "payout_percentages": "50, 30, 20",
        "percent_paid": "15",
        "seeding": "fresh",
    }
    data.update(overrides)
    return data


def test_a_director_creates_a_tournament_from_a_template_and_it_gets_its_own_structure(client, staff):
    client.force_login(staff)
    template = BlindStructure.objects.filter(is_template=True, betting="no_limit").first()
    response = client.post("/console/new/", _form(template))
    tournament = Tournament.objects.get(name="Sunday Courchevel")
    assert response.status_code == 302 and response["Location"] == f"/console/{tournament.pk}/structure/"
    assert tournament.structure != template and not tournament.structure.is_template
    assert tournament.structure.levels.count() == template.levels.count()
    assert (tournament.starting_stack, tournament.buy_in, tournament.fee, tournament.guarantee) == (
        20000,
        200,
        20,
        5000,
    )
    assert tournament.payout_percentages == [50, 30, 20] and tournament.smallest_chip == 25
    page = client.get(f"/console/{tournament.pk}/structure/").content.decode()
    assert "The event lasts" in page


def test_the_rules_errors_are_shown_next_to_their_fields_and_nothing_is_created(client, staff):
    client.force_login(staff)
    template = BlindStructure.objects.filter(is_template=True, betting="no_limit").first()
    response = client.post("/console/new/", _form(template, payout_percentages="50, 30"))
    assert response.status_code == 400
    form = response.context["form"]
    assert "100" in " ".join(form.errors["payout_percentages"])  # the service's rule: they sum to 100
    assert Tournament.objects.filter(name="Sunday Courchevel").count() == 0
    page = response.content.decode()
    assert 'data-field="payout_percentages"' in page and "field-error" in page
    # R2.7: at most 8 players at a table (the model's range), named next to its field.
    response = client.post("/console/new/", _form(template, seats_per_table="12"))
    assert list(response.context["form"].errors) == ["seats_per_table"]
    # A typing slip is the form's: "twenty" is not a whole number.
    response = client.post("/console/new/", _form(template, starting_stack="twenty"))
    assert list(response.context["form"].errors) == ["starting_stack"]
    assert Tournament.objects.filter(name="Sunday Courchevel").count() == 0


def test_a_copy_of_another_tournament_s_structure_keeps_its_edits(client, staff):
    client.force_login(staff)
    source = factories.make_tournament(stage="planned", name="Friday")
    response = client.post(
        "/console/new/",
        _form(source.structure, structure=f"copy:{source.pk}", chip_denominations="", starting_stack="1000"),
    )
    assert response.status_code == 302
    copy = Tournament.objects.get(name="Sunday Courchevel")
    assert [lv.big_blind for lv in copy.structure.levels.order_by("order")] == [
        lv.big_blind for lv in source.structure.levels.order_by("order")
    ]


def test_levels_are_edited_with_their_errors_and_refused_once_started_409(client, staff):
    client.force_login(staff)
    tournament = factories.make_tournament(stage="registering", players=0)
    level = tournament.structure.levels.filter(is_break=False).order_by("order").first()
    url = f"/console/{tournament.pk}/structure/{level.pk}/"
    response = client.post(
        url, {"duration_minutes": "25", "small_blind": "30", "big_blind": "20", "ante": "0"}
    )
    assert response.status_code == 400
    assert "cannot be more than the big blind" in response.content.decode()
    response = client.post(
        url, {"duration_minutes": "25", "small_blind": "10", "big_blind": "20", "ante": "0"}
    )
    assert response.status_code == 302
    level.refresh_from_db()
    assert level.duration_minutes == 25
    added = client.post(
        f"/console/{tournament.pk}/structure/add/",
        {"is_break": "on", "duration_minutes": "15", "color_up": ""},
    )
    assert added.status_code == 302 and tournament.structure.levels.filter(is_break=True).exists()

    running = factories.make_tournament(players=2)
    level = running.structure.levels.order_by("order").last()
    refused = client.post(f"/console/{running.pk}/structure/{level.pk}/", {"duration_minutes": "5"})
    assert refused.status_code == 409 and "can no longer be changed" in refused.content.decode()
    assert client.get(f"/console/{running.pk}/setup/").status_code == 409


def test_fixed_limit_levels_name_their_bets_R3_3(client, staff):
    client.force_login(staff)
    tournament = factories.make_tournament(
        stage="planned",
        betting="fixed_limit",
        levels=[factories.level(10, 20, small_bet=20, big_bet=40)],
    )
    level = tournament.structure.levels.get()
    response = client.post(
        f"/console/{tournament.pk}/structure/{level.pk}/",
        {"duration_minutes": "20", "small_blind": "15", "big_blind": "30", "big_bet": "50", "ante": "0"},
    )
    assert response.status_code == 400
    assert "big bet is twice the small bet (R3.3)" in response.content.decode()
    response = client.post(
        f"/console/{tournament.pk}/structure/{level.pk}/",
        {"duration_minutes": "20", "small_blind": "15", "big_blind": "30", "big_bet": "60", "ante": "0"},
    )
    assert response.status_code == 302
    level.refresh_from_db()
    assert (level.small_blind, level.big_blind, level.small_bet, level.big_bet) == (15, 30, 30, 60)
