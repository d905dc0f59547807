"""The pairing sheet: every open table's tablet gets its code in one go, printed as cards to leave at the
tables; each card pairs its own table's tablet, once, and tables already paired are left out."""

import re

import pytest

from screens.models import Device, DeviceKind, PairingCode
from screens.pairing import create_pairing_code, redeem_pairing_code
from tables.models import Table
from tests.screens.live import live_tournament
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


def sheet_codes(html: str) -> dict[int, str]:
    cards = re.findall(r'data-table="(\d+)".*?data-role="pairing-code">([A-Z0-9-]+)<', html, re.S)
    return {int(table): code for table, code in cards}


def test_the_sheet_has_a_card_per_unpaired_table_and_each_card_pairs_its_table_once(client, staff):
    tournament = live_tournament(players=30)  # four tables
    tables = {t.number: t for t in Table.objects.filter(tournament=tournament)}
    assert len(tables) >= 3
    first = tables[1]
    redeem_pairing_code(create_pairing_code(tournament=tournament, kind=DeviceKind.TABLET, table=first).code)
    client.force_login(staff)

    page = client.post(f"/console/{tournament.pk}/devices/pairing-sheet/")
    html = page.content.decode()
    assert page.status_code == 200
    codes = sheet_codes(html)
    assert sorted(codes) == sorted(n for n in tables if n != 1)  # table 1's tablet is paired already
    assert html.count("<svg") == len(codes)  # a QR code on every card
    assert AuditEntry.objects.filter(action="device.pairing_sheet").count() == 1

    for number, code in codes.items():
        response = client.post("/pair/", {"code": code})
        assert response.status_code == 302 and response["Location"] == f"/tablet/{tables[number].pk}/"
        assert client.post("/pair/", {"code": code}).status_code == 409  # once only
    paired = Device.objects.filter(tournament=tournament, kind=DeviceKind.TABLET, revoked_at__isnull=True)
    assert sorted(paired.values_list("table__number", flat=True)) == sorted(tables)


def test_every_table_gets_a_fresh_card_when_asked_and_strangers_get_none(client, staff):
    tournament = live_tournament(players=12)
    redeem_pairing_code(
        create_pairing_code(
            tournament=tournament, kind=DeviceKind.TABLET, table=tournament.tables.get(number=1)
        ).code
    )
    assert client.post(f"/console/{tournament.pk}/devices/pairing-sheet/").status_code == 302  # sign in
    assert not PairingCode.objects.filter(device__isnull=True).exists()
    client.force_login(staff)
    page = client.post(f"/console/{tournament.pk}/devices/pairing-sheet/", {"all": "1"})
    assert sorted(sheet_codes(page.content.decode())) == [1, 2]
    assert client.get(f"/console/{tournament.pk}/devices/pairing-sheet/").status_code == 405
