"""RULES 7.6: before a hand ends, no response carries the seed, the deck order or a hole card that has
not been shown, except to the deck-prep role (dealing.view_deck)."""

import json

import pytest
from django.test import Client
from rest_framework.test import APIClient

from dealing import vault
from dealing.engine import shuffled_deck
from dealing.models import Hand
from screens.pairing import create_pairing_code, redeem_pairing_code
from tests.factories import make_table

from .tablet import Tablet, play_out


def secrets_of(hand: Hand) -> tuple[str, list[str], list[str]]:
    """The seed hex, the hole cards and the deck cards that are not on the board yet."""
    deck = shuffled_deck(vault.seed_of(hand))
    holes = deck[: 5 * len(hand.config["seats"])]
    return vault.seed_of(hand).hex(), holes, deck


def leaks(text: str, hand: Hand, board: list[str]) -> list[str]:
    seed, holes, deck = secrets_of(hand)
    found = []
    if seed in text:
        found.append("seed")
    found += [card for card in holes if f'"{card}"' in text]
    # Any card not dealt face up yet (the burns and the rest of the deck) gives the deck order away.
    undealt = [c for c in deck if c not in board and c not in holes]
    found += [f"deck {card}" for card in undealt if f'"{card}"' in text or f"&quot;{card}&quot;" in text]
    return found


def responses(client, hand, table, tablet_response=None):
    tournament = table.tournament_id
    urls = [
        f"/api/hands/{hand.pk}/",
        f"/api/hands/{hand.pk}/events/",
        f"/api/hands/{hand.pk}/options/",
        f"/api/hands/{hand.pk}/events/?after=0",
        f"/api/hands/{hand.pk}/events/?after=-1",
        f"/api/tables/{table.pk}/current-hand/",
        f"/api/hands/?table={table.pk}",
        f"/api/hands/?tournament={tournament}&status=running",
        f"/api/hands/{hand.pk}/history/",
        f"/api/hands/{hand.pk}/history/?output=text",
        f"/api/tables/{table.pk}/hand-history/",
        f"/api/tables/{table.pk}/hand-history/?output=text",
        f"/api/tournaments/{tournament}/hand-history/",
        f"/api/tournaments/{tournament}/hand-history/?output=text",
        f"/api/tournaments/{tournament}/verify-hands/",
        f"/api/hands/{hand.pk}/deck/",
        f"/api/hands/{hand.pk}/verify/",
    ]
    out = {url: client.get(url) for url in urls}
    if tablet_response is not None:
        out["action response"] = tablet_response
    return out


@pytest.mark.django_db
def test_no_response_carries_a_secret_before_the_hand_ends(api, staff, deck_prep):
    _, table = make_table(stacks=(1000, 1000, 1000), extra_entries=1)
    created = api.post("/api/hands/", {"table": table.pk}, format="json")
    hand = Hand.objects.get(pk=created.json()["id"])
    tablet = Tablet(api, hand.pk)
    acted = tablet.act(1, "call")
    board = tablet.state()["board"]
    assert board  # the first flop card is public (R4.2)

    anonymous = APIClient()
    for who, client in (("anonymous", anonymous), ("staff", api)):
        checked = responses(client, hand, table, acted if who == "staff" else None)
        checked["start response"] = created
        for url, response in checked.items():
            text = response.content.decode()
            assert not leaks(text, hand, board), (who, url, leaks(text, hand, board))
        assert checked[f"/api/hands/{hand.pk}/deck/"].status_code in (401, 403)
        # PHH and text downloads of a running hand are refused; table and tournament files leave it out
        assert checked[f"/api/hands/{hand.pk}/history/"].status_code == 409
        assert checked[f"/api/hands/{hand.pk}/history/?output=text"].status_code == 409
        assert checked[f"/api/tables/{table.pk}/hand-history/"].content == b""
        assert checked[f"/api/hands/{hand.pk}/verify/"].status_code == 409
        assert checked[f"/api/hands/{hand.pk}/events/?after=0"].json()["events"]  # public events are there

    # The pages staff and the table's tablet see: the console, the console's hand page, the tablet.
    page_client = Client()
    page_client.force_login(staff)
    pages = {
        url: page_client.get(url)
        for url in (
            f"/console/{table.tournament_id}/",
            f"/console/{table.tournament_id}/hands/{hand.pk}/",
            f"/tablet/{table.pk}/",
        )
    }
    code = create_pairing_code(tournament=table.tournament, kind="tablet", table=table)
    device, token = redeem_pairing_code(code.code)
    tablet_client = Client()
    tablet_client.cookies[device.cookie_name] = token
    pages["paired tablet page"] = tablet_client.get(f"/tablet/{table.pk}/")
    for url, response in pages.items():
        assert response.status_code == 200, url
        text = response.content.decode()
        assert not leaks(text, hand, board), (url, leaks(text, hand, board))
    assert "still running" in pages[f"/console/{table.tournament_id}/hands/{hand.pk}/"].content.decode()

    # the deck-prep role sees the seed, the deck and every hole card
    prep = APIClient()
    prep.force_authenticate(deck_prep)
    deck_response = prep.get(f"/api/hands/{hand.pk}/deck/")
    assert any(found.startswith("deck ") for found in leaks(deck_response.content.decode(), hand, board))
    deck = deck_response.json()
    seed, holes, full_deck = secrets_of(hand)
    assert deck["seed"] == seed and deck["deck"] == full_deck
    response = prep.get(f"/api/hands/{hand.pk}/")
    assert "seed" in leaks(response.content.decode(), hand, board)  # the leak check does find secrets
    state = response.json()
    assert state["seed"] == seed
    assert sorted(c for p in state["state"]["players"] for c in p["cards"]) == sorted(holes)
    events = prep.get(f"/api/hands/{hand.pk}/events/").json()["events"]
    assert any(e["type"] == "hole" for e in events)


@pytest.mark.django_db
def test_everything_is_revealed_once_the_hand_is_over(api):
    _, table = make_table(stacks=(1000, 1000, 1000), extra_entries=1)
    hand_id = api.post("/api/hands/", {"table": table.pk}, format="json").json()["id"]
    play_out(Tablet(api, hand_id))
    hand = Hand.objects.get(pk=hand_id)
    anonymous = APIClient()
    data = anonymous.get(f"/api/hands/{hand_id}/").json()
    assert data["seed"] == vault.seed_of(hand).hex()
    phh = anonymous.get(f"/api/hands/{hand_id}/history/")
    assert phh.status_code == 200 and "variant = " in phh.content.decode()
    assert vault.seed_of(hand).hex() in phh.content.decode()
    text = anonymous.get(f"/api/hands/{hand_id}/history/?output=text").content.decode()
    assert "Cup - table 1 - hand 1" in text and "*** SUMMARY ***" in text


@pytest.mark.django_db
def test_a_voided_hand_reveals_its_seed_but_a_running_one_never_does(api, floor):
    _, table = make_table(stacks=(1000, 1000, 1000), extra_entries=1)
    hand_id = api.post("/api/hands/", {"table": table.pk}, format="json").json()["id"]
    assert APIClient().get(f"/api/hands/{hand_id}/").json()["seed"] is None
    client = APIClient()
    client.force_authenticate(floor)
    assert (
        client.post(f"/api/hands/{hand_id}/void/", {"reason": "card exposed"}, format="json").status_code
        == 200
    )
    assert APIClient().get(f"/api/hands/{hand_id}/").json()["seed"] is not None


@pytest.mark.django_db
def test_nothing_secret_leaks_at_any_point_of_a_hand(api):
    """RULES 7.6 street by street: the public hand, its events and the tablet's socket snapshot never
    carry the seed, a hole card, a burn or the rest of the deck until the hand is over."""
    from screens.snapshots import table_snapshot

    from .tablet import call_down

    _, table = make_table(game="courchevel_hilo", stacks=(1000, 1000, 1000), extra_entries=1)
    hand_id = api.post("/api/hands/", {"table": table.pk}, format="json").json()["id"]
    hand = Hand.objects.get(pk=hand_id)
    tablet = Tablet(api, hand_id)
    anonymous = APIClient()
    streets = set()
    for _ in range(40):
        state = tablet.state()
        if state["phase"] == "over" or Hand.objects.get(pk=hand_id).is_over:
            break
        streets.add(state["street"])
        texts = {
            "hand": anonymous.get(f"/api/hands/{hand_id}/").content.decode(),
            "events": anonymous.get(f"/api/hands/{hand_id}/events/").content.decode(),
            "socket": json.dumps(table_snapshot(table.pk)),
        }
        for name, text in texts.items():
            assert not leaks(text, hand, state["board"]), (
                state["street"],
                name,
                leaks(text, hand, state["board"]),
            )
        assert tablet.send(call_down(state)).status_code == 200
    assert streets == {"preflop", "flop", "turn", "river"}
    assert Hand.objects.get(pk=hand_id).is_over


@pytest.mark.django_db
def test_a_dealt_hand_is_stored_once_with_its_views_and_its_secrets_apart(staff, django_assert_num_queries):
    """RULES 7.6 at the deal: the hand row carries the public view (no hole card), the vault the seed,
    the dealt hole cards and the full view, each written with its row; all of it is what replaying the
    stored log with the vault's secrets gives, and the log itself keeps no hole card."""
    from dealing import eventlog, services
    from dealing.models import HandEvent, HandSecret

    _, table = make_table(stacks=(1000, 2000, 3000))
    hand = services.start_next_hand(table, actor=staff)
    stored = Hand.objects.get(pk=hand.pk)
    secret = HandSecret.objects.get(hand=stored)
    rows = services.event_rows(stored)
    replayed = eventlog.rebuild(rows, vault.seed_of(stored), vault.dealt_events(stored))
    last = rows[-1].seq
    assert (stored.state_seq, secret.state_seq) == (last, last)
    assert stored.state == replayed.view(public=True)
    assert secret.state == replayed.view(public=False)
    with django_assert_num_queries(2):  # the log's last event, then the vault's cached full view
        assert services.full_view(stored) == replayed.view(public=False)
    seed, holes, _deck = secrets_of(stored)
    assert bytes(secret.seed).hex() == seed
    assert secret.events  # the dealt form of the events that hide cards
    log = json.dumps([r.payload for r in HandEvent.objects.filter(hand=stored)])
    public = json.dumps(stored.state)
    assert not [card for card in holes if f'"{card}"' in log or f'"{card}"' in public]
    assert any(f'"{card}"' in json.dumps(secret.events) for card in holes)
