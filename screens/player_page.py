"""The players' page: what a phone in the room may see of a tournament, built once per version.

Everything here is public: the clock, the field, the payouts, the structure, the recent moves and
who sits where (the seat draw is posted in every room). Never a chip count of a player, a seed, a
card or a device. The payload carries no translated text (the page has its own labels), so one
build serves every language; it is encoded once and every request for that version is answered
with the same bytes (``VersionedBuilds``), or with 304 when the phone already has them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from django.core.serializers.json import DjangoJSONEncoder
from django.utils import translation

from config.text import name_key
from tables.models import Seat
from tournaments.models import Entry, Tournament

from . import snapshots
from .snapshot_hub import VersionedBuilds

SEARCH_RESULTS = 12


@dataclass(frozen=True)
class PlayerSnapshot:
    version: int
    text: str  # the JSON the page fetches
    etag: str
    # (name key, name, table, seat, place): every entry, to find a seat without sending the field.
    index: tuple[tuple[str, str, int | None, int | None, int | None], ...]


def player_data(tournament: Tournament) -> dict:
    data = snapshots.clock_data(tournament)
    public = data["tournament"]
    field = data["field"]
    return {
        "tournament": {
            "id": public["id"],
            "name": public["name"],
            "game": public["game"],
            "betting": public["betting"],
            "status": public["status"],
            "hand_for_hand": public["hand_for_hand"],
        },
        "schedule": data["schedule"],
        "clock": data["clock"],
        "field": {
            "entries": field["entries"],
            "reentries": field["reentries"],
            "players_left": field["players_left"],
            "average_stack": field["average_stack"],
            "chips_in_play": field["chips_in_play"],
            "prize_pool": field["prize_pool"],
            # A zero pool pays nobody: no "1. 0".
            "payouts": [p for p in field["payouts"] if p["amount"] > 0],
        },
        "announcement": data["announcement"],
        "flight": data["flight"],
        "late_registration": data["late_registration"],
        "room": {
            "tables_left": data["room"]["tables_left"],
            "final_table": data["room"]["final_table"],
            "recent_moves": data["room"]["recent_moves"],
            "results": data["room"]["results"],
            "hand_for_hand": data["room"]["hand_for_hand"],
        },
    }


def seat_index(tournament: Tournament) -> tuple:
    seats = {
        entry_id: (table, seat)
        for entry_id, table, seat in Seat.objects.filter(
            table__tournament=tournament, entry__isnull=False
        ).values_list("entry_id", "table__number", "number")
    }
    rows = []
    for entry_id, name, status, place in (
        Entry.objects.filter(tournament=tournament)
        .order_by("player__name", "number")
        .values_list("id", "player__name", "status", "place")
    ):
        table, seat = seats.get(entry_id, (None, None))
        rows.append((name_key(name), name, table, seat, place if status == Entry.Status.BUSTED else None))
    return tuple(rows)


def build(tournament_id: int, version: int) -> PlayerSnapshot:
    # The version is read before the state (the state is never older than its version claims).
    version = snapshots.tournament_version(tournament_id)
    tournament = Tournament.objects.select_related("structure").get(pk=tournament_id)
    with translation.override(None):  # no language in the payload: one build for every phone
        data = player_data(tournament)
    text = json.dumps({"version": version, "data": data}, cls=DjangoJSONEncoder, separators=(",", ":"))
    return PlayerSnapshot(version, text, f'"p{tournament_id}-{version}"', seat_index(tournament))


builds = VersionedBuilds(build)


def snapshot(tournament_id: int) -> PlayerSnapshot:
    """The page's snapshot of the tournament's current version (built at most once per version)."""
    return builds.get(tournament_id, snapshots.tournament_version(tournament_id))


def find_seats(snap: PlayerSnapshot, query: str) -> list[dict]:
    """Entries whose name holds ``query``, case, accents and spacing ignored ("jose" finds "José")."""
    key = name_key(query)
    if not key:
        return []
    found = []
    for row_key, name, table, seat, place in snap.index:
        if key in row_key:
            found.append({"name": name, "table": table, "seat": seat, "place": place})
            if len(found) >= SEARCH_RESULTS:
                break
    # Whole-word and prefix matches first: "ana" finds "Ana Lima" before "Joana".
    found.sort(key=lambda r: (not name_key(r["name"]).startswith(key), name_key(r["name"])))
    return found
