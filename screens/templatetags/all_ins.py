"""``{% all_in_panel tournament %}``: the console's all-in panel (``screens.views.feature``), kept out
of the console view so that its page only includes it."""

from django import template

from dealing.permissions import can_correct

from ..views.feature import all_in_tables

register = template.Library()


@register.inclusion_tag("console/_all_ins.html", takes_context=True)
def all_in_panel(context, tournament):
    request = context.get("request")
    user = getattr(request, "user", None)
    return {
        "tournament": tournament,
        "rows": all_in_tables(tournament),
        "may_release": bool(user and can_correct(user)),
        "hand_for_hand": tournament.hand_for_hand,
        "csrf_token": context.get("csrf_token"),
    }
