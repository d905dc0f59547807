"""What the stored events of a hand replay to (the truth every kept or cached view is checked
against), and the next legal input read from the dealer's full view."""

from dealing import eventlog, services, vault
from dealing.models import Hand


def replayed(hand: Hand):
    rows = services.event_rows(hand)
    return eventlog.rebuild(rows, vault.seed_of(hand), vault.dealt_events(hand))


def replayed_view(hand: Hand) -> dict:
    return replayed(hand).view(public=False)


def replayed_public_view(hand: Hand) -> dict:
    return replayed(hand).view(public=True)


def next_input(hand: Hand) -> dict:
    """The player to act checks or calls."""
    view = services.snapshot(hand)["full"]
    options = view["options"]
    return {"type": "action", "seat": view["to_act"], "action": "call" if options["call"] else "check"}
