"""The dealer tablet page. Its live state comes over the table's socket; its actions go to the
dealing API with the device token (``Authorization: Device …``) and a client_action_id, so a
retried request never acts twice."""

from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from tournaments.devices import DeviceKind, device_from_cookies


def tablet_labels() -> dict:
    return {
        "seat": _("Seat"),
        "button": _("Button"),
        "sb": _("SB"),
        "bb": _("BB"),
        "to_act": _("To act"),
        "board": _("Board"),
        "exposed": _("Exposed flop card"),
        "pot": _("Pot"),
        "side_pot": _("Side pot"),
        "main_pot": _("Main pot"),
        "fold": _("Fold"),
        "check": _("Check"),
        "call": _("Call"),
        "bet": _("Bet"),
        "raise_to": _("Raise to"),
        "all_in": _("All-in"),
        "pot_bet": _("Pot"),
        "start_hand": _("Deal next hand"),
        "no_hand": _("No hand in progress"),
        "high": _("High"),
        "low": _("Low"),
        "no_low": _("No qualifying low"),
        "wins": _("wins"),
        "winners": _("Winners"),
        "move": _("Seat move"),
        "move_to": _("%(name)s: move to table %(table)s, seat %(seat)s"),
        "move_in": _("%(name)s arrives from table %(table)s: seat %(seat)s"),
        "acknowledge": _("Done"),
        "wait": _("Hand-for-hand: wait for the other tables"),
        "halted": _("Dealing stopped"),
        "call_floor": _("Call the floor"),
        "floor_called": _("The floor has been called"),
        "failed": _("That did not go through"),
        "retry": _("Try again"),
        "offline": _("Reconnecting…"),
        "revoked": _("This tablet was unpaired by the director."),
        "unauthorized": _("This tablet is not paired."),
        "commitment": _("Commitment"),
        "hand": _("Hand"),
        "amount": _("Amount"),
        "clear": _("Clear"),
        "enter_cards": _("Enter cards"),
        "card_used": _("That card is already used"),
        "bet_label": _("Bet"),
        "folded": _("Folded"),
        "all_in_label": _("All-in"),
        "level": _("Level"),
        "shows": _("shows"),
        "stack": _("Stack"),
        "seat_hole": _("Hole cards for seat %(seat)s"),
        "board_cards": _("Board cards"),
    }


def tablet(request, table_id: int):
    from tables.models import Table

    table = get_object_or_404(Table.objects.select_related("tournament"), pk=table_id)
    device = device_from_cookies(request.COOKIES, DeviceKind.TABLET, table.pk)
    staff = request.user.is_authenticated and request.user.is_staff
    if device is None and not staff:
        return render(request, "pair.html", {"reason": _("This tablet is not paired for this table.")}, status=403)
    token = request.COOKIES.get(device.cookie_name) if device else ""
    return render(
        request,
        "tablet.html",
        {
            "table": table,
            "tournament": table.tournament,
            "ws_path": f"/ws/tables/{table.pk}/",
            "labels": tablet_labels(),
            "device_token": token,
            "device": device,
        },
    )
