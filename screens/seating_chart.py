"""The seating chart the clock screens show on the director's demand: every player by name, with table
and seat, alphabetical as a floor chart is, in pages a screen shows in turn.

The clock snapshot (shared by every clock screen, rebuilt at each change) carries only whether the
chart is on and how many pages it has; the names are here, built once per tournament version and
encoded once per page (``VersionedBuilds``), and a screen fetches one page at a time only while the
chart is on. So a field of 10,000 costs the clock snapshot nothing, and a hundred screens turning
their pages cost one build per change, then a dictionary lookup each.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from config.text import name_key
from tables.models import Seat, SeatingPlan, Table
from tournaments.models import Entry
from tournaments.selectors import tournament_version

from .snapshot_hub import VersionedBuilds

# Names on one page of the chart: four columns of 24 fit a 1280x720 screen at a readable size.
PAGE_SIZE = 96


@dataclass(frozen=True)
class SeatingChart:
    version: int
    players: int
    pages: tuple[str, ...]  # each page's JSON, encoded once
    etags: tuple[str, ...]


def chart_on(tournament_id: int) -> bool:
    return bool(
        SeatingPlan.objects.filter(tournament_id=tournament_id)
        .values_list("chart_on_clock", flat=True)
        .first()
    )


def seated(tournament_id: int):
    """Players in a seat at an active table (the chart a floor posts: no one busted, no chips)."""
    return Seat.objects.filter(
        table__tournament_id=tournament_id,
        table__status=Table.Status.ACTIVE,
        entry__isnull=False,
        entry__status=Entry.Status.ACTIVE,
    )


def page_count(players: int) -> int:
    return max(1, -(-players // PAGE_SIZE))


def clock_payload(tournament) -> dict | None:
    """What the clock snapshot says of the chart: None while it is off (one indexed read), else the
    number of players and of pages (one count), never a name."""
    if not chart_on(tournament.pk):
        return None
    players = seated(tournament.pk).count()
    return {"players": players, "pages": page_count(players), "page_size": PAGE_SIZE}


def build(tournament_id: int, version: int) -> SeatingChart:
    # The version is read before the state (the state is never older than its version claims).
    version = tournament_version(tournament_id)
    rows = sorted(
        seated(tournament_id).values_list("entry__player__name", "table__number", "number"),
        key=lambda row: (name_key(row[0]), row[0], row[1], row[2]),
    )
    pages = page_count(len(rows))
    texts, etags = [], []
    for index in range(pages):
        chunk = rows[index * PAGE_SIZE : (index + 1) * PAGE_SIZE]
        texts.append(
            json.dumps(
                {
                    "version": version,
                    "page": index + 1,
                    "pages": pages,
                    "players": len(rows),
                    "rows": [[name, table, seat] for name, table, seat in chunk],
                },
                separators=(",", ":"),
                ensure_ascii=False,
            )
        )
        etags.append(f'"c{tournament_id}-{version}-{index + 1}"')
    return SeatingChart(version, len(rows), tuple(texts), tuple(etags))


builds = VersionedBuilds(build)


def chart(tournament_id: int) -> SeatingChart:
    """The chart of the tournament's current version (built at most once per version and process)."""
    return builds.get(tournament_id, tournament_version(tournament_id))
