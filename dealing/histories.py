"""Hand histories for download: one hand, one table or a whole tournament, as PHH or readable text.

The engine's ``dealing.engine.history`` writes each hand; this module picks the hands, adds the
tournament's labels and joins them. A running hand's history carries hole cards, so only finished
(and voided) hands are in table and tournament downloads.
"""

from django.utils.translation import gettext as _

from dealing.engine import history

from . import services
from .models import Hand

FORMATS = {"phh": ("application/toml; charset=utf-8", "phh"), "text": ("text/plain; charset=utf-8", "txt")}


def _title(hand: Hand) -> str:
    table = hand.table
    title = _("%(tournament)s - table %(table)s - hand %(number)s") % {
        "tournament": table.tournament.name,
        "table": table.number,
        "number": hand.number,
    }
    if hand.status == Hand.Status.VOIDED:
        title += " " + _("(VOIDED: misdeal)")
    return title


def hand_history(hand: Hand, fmt: str) -> str:
    engine = services.engine_hand(hand)
    if fmt == "phh":
        extra = {"event": hand.table.tournament.name, "table": hand.table.number, "hand": hand.number}
        if hand.finished_at:
            extra["time_zone"] = "UTC"
        text = history.to_phh(engine, **extra)
        if hand.status == Hand.Status.VOIDED:
            text += "_voided = true\n"
        return text
    return history.to_text(engine, title=_title(hand))


def histories(hands, fmt: str) -> str:
    """Several hands in one file: PHH's multi-hand form (``[n]`` tables), text separated by a blank line."""
    parts = []
    for index, hand in enumerate(hands, start=1):
        text = hand_history(hand, fmt)
        if fmt == "phh":
            parts.append(f"[{index}]\n{text}")
        else:
            parts.append(text.rstrip("\n") + "\n")
    return "\n".join(parts)


def finished_hands(**filters):
    return (
        Hand.objects.filter(status__in=[Hand.Status.FINISHED, Hand.Status.VOIDED], **filters)
        .select_related("table", "table__tournament")
        .order_by("table__number", "number")
    )
