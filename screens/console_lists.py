"""The console page's long lists, rendered in Python: at a big event the page lists 1,250 tables
twice (a line each, and the tablet-pairing choice), their break order and a payout table of 1,500
places. Through the template engine that is about 10,000 nodes and 4,000 ``blocktrans`` renders,
over a second of a page that should open in a blink.

Each list says what the template said, with the same translatable strings (the same catalogue
entries). Every translated text is escaped once, before the numbers go in (a number needs no
escaping), so a row costs a string format.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext

from tables.models import Table


def _tablet_url():
    """The tablet page's address for a table id, from one ``reverse`` instead of 1,250."""
    marker = 987654321
    head, tail = reverse("tablet", args=[marker]).split(str(marker))
    return lambda pk: f"{head}{int(pk)}{tail}"


def _table_label():
    label = escape(gettext("Table %(number)s"))
    return lambda number: label % {"number": int(number)}


def compact_table_lines(tables: Iterable[dict]) -> SafeString:
    """One line a table (number, players, broken or in a hand), each a link to its tablet page.
    ``tables``: dicts with pk, number, players, status, hand_in_progress."""
    url, label = _tablet_url(), _table_label()
    broken = f' <span class="pill">{escape(Table.Status.BROKEN.label)}</span>'
    hand = f' <span class="pill ok">{escape(gettext("hand"))}</span>'

    @cache  # a handful of distinct counts (0 to 10 players)
    def players(n: int) -> str:
        return escape(ngettext("%(players)s player", "%(players)s players", n) % {"players": n})

    def line(t: dict) -> str:
        state = broken if t["status"] == Table.Status.BROKEN else hand if t["hand_in_progress"] else ""
        return (
            f'<li data-table="{int(t["number"])}"><a href="{url(t["pk"])}" target="_blank">{label(t["number"])}</a>'
            f' <span class="muted">{players(int(t["players"]))}</span>{state}</li>'
        )

    return mark_safe("".join(line(t) for t in tables))


def table_options(tables: Iterable[dict]) -> SafeString:
    """The tables a tablet can be paired to (not the broken ones), as ``<option>``s."""
    label = _table_label()
    return mark_safe(
        "".join(
            f'<option value="{int(t["pk"])}">{label(t["number"])}</option>'
            for t in tables
            if t["status"] != Table.Status.BROKEN
        )
    )


def payout_rows(payouts: Iterable[dict]) -> SafeString:
    """Place and prize, one ``<tr>`` a place (whole numbers, nothing to escape)."""
    return mark_safe(
        "".join(
            f'<tr><td>{int(p["place"])}</td><td class="num">{int(p["amount"])}</td></tr>' for p in payouts
        )
    )
