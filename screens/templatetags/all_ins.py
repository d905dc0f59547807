"""``{% all_in_panel tournament %}``: the console's all-in panel (``screens.views.feature``), kept out
of the console view so that its page only includes it."""

import json

from django import template

from dealing.permissions import can_correct

from ..views.feature import all_in_tables

register = template.Library()


@register.inclusion_tag("console/_all_ins.html", takes_context=True)
def all_in_panel(context, tournament):
    request = context.get("request")
    user = getattr(request, "user", None)
    rows = all_in_tables(tournament)
    return {
        "tournament": tournament,
        "rows": rows,
        # What the live console compares with the snapshot's (screens.snapshots.all_ins_signature).
        "signature": json.dumps(
            [[row["hand"].pk, row["hand"].state_seq] for row in rows], separators=(",", ":")
        ),
        "may_release": bool(user and can_correct(user)),
        "hand_for_hand": tournament.hand_for_hand,
        "csrf_token": context.get("csrf_token"),
    }
