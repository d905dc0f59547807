"""The admin shows hands and events read-only, and never a running hand's secrets."""

import pytest
from django.test import Client

from dealing import vault
from dealing.engine import shuffled_deck
from dealing.models import Hand, HandEvent
from tests.factories import make_table


@pytest.mark.django_db
def test_admin_is_read_only_and_hides_a_running_hands_cards(api, django_user_model):
    _, table = make_table(stacks=(1000, 1000, 1000))
    hand = Hand.objects.get(pk=api.post("/api/hands/", {"table": table.pk}, format="json").json()["id"])
    admin_user = django_user_model.objects.create_superuser("boss", "boss@example.com", None)
    client = Client()
    client.force_login(admin_user)

    page = client.get(f"/admin/dealing/hand/{hand.pk}/change/")
    assert page.status_code == 200
    text = page.content.decode()
    holes = shuffled_deck(vault.seed_of(hand))[:15]
    assert not [card for card in holes if f"&#x27;{card}&#x27;" in text or f"'{card}'" in text]
    assert vault.seed_of(hand).hex() not in text
    assert "hidden until the hand is over" in text

    event = HandEvent.objects.filter(hand=hand, type="hole").first()
    assert client.get(f"/admin/dealing/handevent/{event.pk}/change/").status_code == 200
    assert client.post(f"/admin/dealing/handevent/{event.pk}/delete/", {"post": "yes"}).status_code == 403
    assert HandEvent.objects.filter(pk=event.pk).exists()
    assert client.get("/admin/dealing/handevent/add/").status_code == 403
