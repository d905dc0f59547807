"""The deal and payout table from the console and the API: the director only, the status codes, the
results page and CSV showing the deal."""

import csv
import io

import pytest
from django.contrib.auth.models import User

from screens import roles
from tests import factories
from tournaments import services
from tournaments.models import Deal, Entry


@pytest.fixture
def director(db):
    return User.objects.create_user("td", password="pw", is_staff=True)


@pytest.fixture
def floor(db):
    user = User.objects.create_user("floor", password="pw", is_staff=True)
    user.groups.add(roles.ensure_roles()[roles.FLOOR])
    return user


@pytest.fixture
def final_three(db):
    """Five entries of 1,000 paying 2,500/1,500/1,000; three left with 2,500, 1,500 and 1,000 chips."""
    t = factories.make_tournament(players=5, buy_in=1000, payout_percentages=[50, 30, 20])
    entries = sorted(factories.entries_of(t), key=lambda e: e.pk)
    for e in entries[3:]:
        services.bust_entries(t, [(factories.zero(e), 1000)])
    for e, chips in zip(entries[:3], [2500, 1500, 1000]):
        services.set_chips(e, chips, reason="count")
    return t, entries[:3]


def test_the_api_proposes_without_writing_and_records_with_201(client, director, final_three):
    t, entries = final_three
    client.force_login(director)
    url = f"/api/tournaments/{t.pk}/deal/"
    answer = client.post(
        url + "proposal/", {"kind": "chip_chop", "left_to_play_for": 500}, content_type="application/json"
    )
    assert answer.status_code == 200
    assert [s["amount"] for s in answer.json()["shares"]] == [1750, 1450, 1300]
    assert not Deal.objects.exists()
    body = {"kind": "chip_chop", "left_to_play_for": 500, "agreed": [e.pk for e in entries]}
    recorded = client.post(url, body, content_type="application/json")
    assert recorded.status_code == 201 and recorded.json()["left_to_play_for"] == 500
    assert client.get(url).json()["id"] == recorded.json()["id"]
    again = client.post(url, body, content_type="application/json")
    assert again.status_code == 409 and again.json()["code"] == "already_a_deal"


def test_the_api_says_400_for_bad_input_and_422_for_a_broken_deal_rule(client, director, final_three):
    t, entries = final_three
    client.force_login(director)
    url = f"/api/tournaments/{t.pk}/deal/"
    assert (
        client.post(
            url + "proposal/", {"kind": "icm", "left_to_play_for": "5"}, content_type="application/json"
        ).status_code
        == 400
    )
    assert (
        client.post(url + "proposal/", {"kind": "split"}, content_type="application/json").status_code == 400
    )
    too_much = client.post(
        url + "proposal/", {"kind": "icm", "left_to_play_for": 2001}, content_type="application/json"
    )
    assert too_much.status_code == 422 and too_much.json()["params"]["maximum"] == 2000
    partial = client.post(url, {"kind": "icm", "agreed": [entries[0].pk]}, content_type="application/json")
    assert partial.status_code == 422 and partial.json()["code"] == "not_everyone_agreed"
    custom = {
        "kind": "custom",
        "agreed": [e.pk for e in entries],
        "amounts": [{"entry": e.pk, "amount": 1000} for e in entries],
    }
    short = client.post(url, custom, content_type="application/json")
    assert short.status_code == 422 and short.json()["params"]["difference"] == -2000
    assert not Deal.objects.exists()


def test_only_the_director_makes_a_deal(client, floor, final_three):
    t, _entries = final_three
    client.force_login(floor)
    assert (
        client.post(
            f"/api/tournaments/{t.pk}/deal/proposal/", {"kind": "icm"}, content_type="application/json"
        ).status_code
        == 403
    )
    assert client.get(f"/console/{t.pk}/deal/").status_code == 403
    assert client.get(f"/console/{t.pk}/payouts/").status_code == 403
    console = client.get(f"/console/{t.pk}/").content.decode()
    assert f"/console/{t.pk}/deal/" not in console


def test_the_console_deal_page_shows_amounts_and_records_only_when_everyone_ticked(
    client, director, final_three
):
    t, entries = final_three
    client.force_login(director)
    assert f"/console/{t.pk}/deal/" in client.get(f"/console/{t.pk}/").content.decode()
    page = client.get(f"/console/{t.pk}/deal/", {"kind": "chip_chop", "left": "500"}).content.decode()
    assert "1750" in page and "1450" in page and "1300" in page
    form = {
        "kind": "chip_chop",
        "left": "500",
        **{f"shown_{e.pk}": a for e, a in zip(entries, [1750, 1450, 1300])},
    }
    refused = client.post(
        f"/console/{t.pk}/deal/record/", {**form, f"agreed_{entries[0].pk}": "1"}, follow=True
    )
    assert "must agree" in refused.content.decode() and not Deal.objects.exists()
    client.post(f"/console/{t.pk}/deal/record/", {**form, **{f"agreed_{e.pk}": "1" for e in entries}})
    assert Deal.objects.get().left_to_play_for == 500


def test_the_results_page_and_csv_show_the_deal_and_the_winners_extra(client, director, final_three):
    t, (big, middle, small) = final_three
    services.record_deal(t, "chip_chop", agreed=[big.pk, middle.pk, small.pk], left_to_play_for=500)
    services.bust_entries(t, [(factories.zero(small), 1000)])
    services.bust_entries(t, [(factories.zero(middle), 1500)])
    client.force_login(director)
    page = client.get(f"/console/{t.pk}/results/").content.decode()
    assert "deal 1750 + 500 left to play for" in page and "deal 1300" in page
    rows = list(
        csv.reader(io.StringIO(client.get(f"/console/{t.pk}/results.csv").content.decode("utf-8-sig")))
    )
    assert rows[0][-2:] == ["Deal (Chip chop)", "Left to play for, won"]
    assert rows[1][1] == str(big) and rows[1][3] == "2250" and rows[1][-2:] == ["1750", "500"]
    assert rows[3][3] == "1300" and rows[3][-2:] == ["1300", ""]
    assert Entry.objects.get(pk=big.pk).prize == 2250


def test_the_payout_table_page_saves_amounts_and_names_the_problem_when_they_do_not_add_up(
    client, director, db
):
    t = factories.make_tournament(players=5, buy_in=1000)
    client.force_login(director)
    url = f"/console/{t.pk}/payouts/"
    page = client.post(url, {"amount": ["3000", "1000", "900", ""]}).content.decode()
    assert "100 short" in page
    t.refresh_from_db()
    assert t.payout_amounts == []
    client.post(url, {"amount": ["3000", "1200", "800", "", ""]})
    t.refresh_from_db()
    assert services.payout_table(t) == [3000, 1200, 800]
