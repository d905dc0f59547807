"""What the live screens are sent: the one place that decides what is public.

Every payload is built here from the database, field by field (never by dumping a model), with a
version read *before* the state (``Tournament.version``, ``Table.version``). Clock and table
payloads are public: they never carry hole cards that are not shown, seeds or the deck.
``PRIVATE_KEYS`` names what must never appear; the tests walk every payload type for it.

The clock is sent as the schedule plus "level ends at" and the server's time; screens count down
locally and roll into the next level themselves, so nothing is sent every second.
"""

from __future__ import annotations

import time

from django.db.models import Count, F, Max, Min, Q
from django.utils import timezone

from config import text
from config.per_version import PerVersion
from config.prepared import PreparedQuery
from dealing import services as dealing_services
from dealing.equity import hand_equity
from dealing.hand_for_hand import waiting_reason
from dealing.models import Hand
from tables import services as tables_services
from tables.models import Move, Seat, SeatingPlan, Table
from tables.services import halted_reason
from tournaments import clock, selectors
from tournaments.audit import AuditAction
from tournaments.clock import ClockError
from tournaments.flight_selectors import flight_snapshot
from tournaments.models import AuditEntry, ChipRace, Entry, Tournament
from tournaments.selectors import tournament_version
from tournaments.services import level_for_next_hand, payout_table, prize_pool

from . import seating_chart
from .models import Announcement, Device, FloorCall
from .views import console_controls
from .views.console_seating import suggestion_key

# Keys that must never appear in a clock, table or console payload.
PRIVATE_KEYS = frozenset(
    {"seed", "master_seed", "deck", "hole_cards", "holes", "hand_seed", "token", "token_hash"}
)


def _ms(dt) -> int | None:
    return int(dt.timestamp() * 1000) if dt is not None else None


def server_time_ms() -> int:
    return int(time.time() * 1000)


def envelope(kind: str, version: int, data: dict) -> dict:
    return {
        "type": "snapshot",
        "kind": kind,
        "version": version,
        "server_time": server_time_ms(),
        "data": data,
    }


# --- the clock ------------------------------------------------------------------------------------


def _level_payload(level, index: int, number: int | None) -> dict:
    return {
        "index": index,
        "number": number,
        "is_break": level.is_break,
        "seconds": level.duration_minutes * 60,
        "small_blind": level.small_blind,
        "big_blind": level.big_blind,
        "ante": level.ante,
        "ante_kind": level.ante_kind,
        "small_bet": level.small_bet,
        "big_bet": level.big_bet,
        "color_up": list(level.color_up or []),
    }


def schedule_payload(levels: list) -> list[dict]:
    numbers = clock.level_numbers(selectors.periods(levels))
    return [_level_payload(level, index, numbers[index]) for index, level in enumerate(levels)]


def clock_payload(tournament: Tournament, levels: list | None = None) -> dict:
    """The stored clock as a screen needs it: state at ``now`` plus "level ends at"."""
    levels = selectors.levels_of(tournament) if levels is None else levels
    if not levels:
        return {
            "started": False,
            "running": False,
            "paused": False,
            "level_index": 0,
            "remaining": 0,
            "level_ends_at": None,
        }
    state = selectors.clock_state(tournament, levels=levels)
    return {
        "started": state.started,
        "running": state.running,
        "paused": tournament.paused_at is not None,
        "level_index": state.level_index,
        # Running, the screens count down from "level ends at": the time left is not sent, so the
        # payload stays the same all through a level and a rebuild costs the screens nothing.
        "remaining": None if state.running else round(state.remaining, 3),
        "level_ends_at": _ms(state.level_ends_at),
        "is_last_level": state.is_last_level,
        "clock_version": tournament.clock_version,
    }


def _money(tournament: Tournament, totals: dict[str, int]) -> dict:
    """Prize pool and payouts, as the tournaments services compute them."""
    return {
        "prize_pool": prize_pool(tournament, totals),
        "payouts": [
            {"place": place, "amount": amount}
            for place, amount in enumerate(payout_table(tournament, totals), 1)
        ],
    }


def field_payload(tournament: Tournament, totals: dict[str, int] | None = None) -> dict:
    """``totals``: ``selectors.entry_totals`` when the caller has read them (one pass over the entries
    for the field and the prize pool alike)."""
    totals = selectors.entry_totals(tournament) if totals is None else totals
    left, chips = totals["left"], totals["chips"]
    return {
        "entries": totals["entries"],
        "reentries": totals["reentries"],
        "players_left": left,
        "chips_in_play": chips,
        "average_stack": round(chips / left) if left else 0,
        **_money(tournament, totals),
    }


RECENT_MOVES = 8
CHIP_LEADERS = 10
RESULTS_SHOWN = 30


# The clock's reads (every clock screen's and the console's build, once per bust or balance at a big
# event): their SQL is built once (config.prepared); Django compiled each every time, about 1 ms a query.
_latest_announcement = PreparedQuery(
    lambda tournament_id: Announcement.objects.filter(tournament_id=tournament_id, active=True).order_by(
        "-created_at", "-id"
    )[:1]
)
_recent_moves = PreparedQuery(
    lambda tournament_id: (
        Move.objects.filter(tournament_id=tournament_id)
        .exclude(status=Move.Status.CANCELLED)
        .select_related("entry__player", "from_table", "to_table")
        .order_by("-created_at", "-id")[:RECENT_MOVES]
    )
)
_chip_leaders = PreparedQuery(
    lambda tournament_id: (
        Entry.objects.filter(tournament_id=tournament_id, status=Entry.Status.ACTIVE)
        .select_related("player")
        .order_by("-chips", "id")[:CHIP_LEADERS]
    )
)


def _paid(tournament_id: int):
    return Entry.objects.filter(tournament_id=tournament_id, prize__gt=0, place__isnull=False).select_related(
        "player"
    )


_results_at_the_end = PreparedQuery(
    lambda tournament_id: _paid(tournament_id).order_by("place", "id")[:RESULTS_SHOWN]
)
_latest_in_the_money = PreparedQuery(
    lambda tournament_id: _paid(tournament_id).order_by("-busted_at", "place")[:10]
)


def announcement_text(tournament: Tournament) -> str:
    latest = _latest_announcement.first(tournament.pk)
    return latest.text if latest else ""


def tournament_public(tournament: Tournament) -> dict:
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "game": tournament.game,
        "game_label": str(tournament.get_game_display()),
        "betting": tournament.betting,
        "betting_label": str(tournament.get_betting_display()),
        "status": tournament.status,
        "status_label": str(tournament.get_status_display()),
        "hand_for_hand": tournament.hand_for_hand,
        "smallest_chip": tournament.smallest_chip,
        # Only the commitment (SHA-256 of the master seed) is public before the end (RULES 7.6).
        "seed_commitment": tournament.master_seed_commitment or "",
    }


def chip_race_payload(tournament: Tournament, levels: list, table_number: int | None = None) -> dict | None:
    """The chip race of the break the clock is on (R8.7), once it is run: who won a chip, or for one
    table every card dealt. The race's seed is public (anyone can deal the race again and check it)."""
    if tournament.status != Tournament.Status.ON_BREAK:
        return None  # asked by every table snapshot: no query outside a break
    race = ChipRace.objects.filter(tournament=tournament).first()
    if race is None:
        return None
    if race.level_order != selectors.clock_state(tournament, levels=levels).level_index:
        return None
    payload = {
        "old_chip": race.old_chip,
        "new_chip": race.new_chip,
        "colored_up": race.colored_up,
        "race_seed": bytes(race.seed).hex(),
        "winners": [
            {
                "table": t["table"],
                "seat": p["seat"],
                "name": p["name"],
                "best": p["best"],
                "saved": p["saved"],
            }
            for t in race.tables
            for p in t["players"]
            if p["won"] or p["saved"]
        ],
    }
    if table_number is not None:
        payload["players"] = race.table_rows(table_number)
    return payload


def late_registration_payload(tournament: Tournament, levels: list) -> dict:
    """Whether a player may still register, and the schedule index of the last period it is open
    in (the level ``late_registration_until_level`` and the break after it): screens count down to
    that period's end themselves."""
    until = tournament.late_registration_until_level
    numbers = clock.level_numbers(selectors.periods(levels)) if levels else []
    last = None
    for index, number in enumerate(numbers):
        if number is not None and number <= until:
            last = index
    if last is not None and last + 1 < len(numbers) and numbers[last + 1] is None:
        last += 1  # the break right after the last level of late registration
    return {
        "open": selectors.registration_open(tournament, levels=levels) if levels else False,
        "until_level": until,
        "last_index": last,
    }


def recent_moves_payload(tournament: Tournament) -> list[dict]:
    """The latest seat moves (balancing, a table broken, the final table's redraw): who goes where."""
    moves = _recent_moves(tournament.pk)
    return [
        {
            "id": m.pk,
            "name": m.entry.player.name,
            "from_table": m.from_table.number if m.from_table_id else None,
            "from_seat": m.from_seat,
            "to_table": m.to_table.number,
            "to_seat": m.to_seat,
            "reason": m.reason,
            "at": _ms(m.created_at),
        }
        for m in moves
    ]


def chip_leaders_payload(tournament: Tournament) -> list[dict]:
    """The biggest stacks, once counts tell players apart (every stack equal says nothing)."""
    active = tournament.entries.filter(status=Entry.Status.ACTIVE)
    # Two ends of the chip leaders' index, not a count of distinct stacks over the whole field.
    stacks = active.aggregate(most=Max("chips"), least=Min("chips"))
    if stacks["most"] == stacks["least"]:
        return []
    return [{"name": e.player.name, "chips": e.chips} for e in _chip_leaders(tournament.pk)]


def results_payload(tournament: Tournament) -> list[dict]:
    """Places paid so far: at the end the winner first, during play the latest in the money."""
    if tournament.status == Tournament.Status.FINISHED:
        rows = _results_at_the_end(tournament.pk)
    else:
        rows = _latest_in_the_money(tournament.pk)
    return [{"place": e.place, "name": e.player.name, "prize": e.prize} for e in rows]


def hand_for_hand_payload(tournament: Tournament) -> dict | None:
    """R8.6: the round being played and the clock time the rounds so far took off (each at most
    ``HAND_FOR_HAND_MAX_SECONDS``)."""
    if not tournament.hand_for_hand:
        return None
    audit = AuditEntry.objects.filter(tournament=tournament)
    began = audit.filter(action=AuditAction.CLOCK_HAND_FOR_HAND).values_list("at", flat=True).first()
    rounds = audit.filter(action=AuditAction.CLOCK_HAND_FOR_HAND_ROUND)
    if began is not None:
        rounds = rounds.filter(at__gte=began)
    taken = [
        min(float((data or {}).get("seconds", 0)), clock.HAND_FOR_HAND_MAX_SECONDS)
        for data in rounds.values_list("data", flat=True)
    ]
    return {"round": len(taken) + 1, "seconds_taken": round(sum(taken))}


def room_payload(tournament: Tournament) -> dict:
    """What a room's screens add to the clock: tables left, moves, leaders, places paid."""
    tables_left = Table.objects.filter(tournament=tournament, status=Table.Status.ACTIVE).count()
    return {
        "tables_left": tables_left,
        "final_table": tables_left == 1
        and tournament.status in (Tournament.Status.RUNNING, Tournament.Status.ON_BREAK),
        "recent_moves": recent_moves_payload(tournament),
        "chip_leaders": chip_leaders_payload(tournament),
        "results": results_payload(tournament),
        "hand_for_hand": hand_for_hand_payload(tournament),
    }


# Survivors shown per flight on a clock screen (the chip leaders); the count is always given.
FLIGHT_SURVIVORS_SHOWN = 10


def flight_payload(tournament: Tournament) -> dict | None:
    """A flight of a multi-day event (docs/festivals.md): its label, where its play stops, and the
    event's totals with each flight's survivors (the ten biggest bags and how many); None otherwise."""
    flight = flight_snapshot(tournament)
    if flight is None:
        return None
    event = flight["event"]
    return {
        "label": flight["label"],
        "day": flight["day"],
        "last_day": flight["last_day"],
        "stop": flight["stop"],
        "event": {
            "name": event["name"],
            "entries": event["entries"],
            "players_left": event["players_left"],
            "average_stack": event["average_stack"],
            "prize_pool": event["prize_pool"],
            "places_paid": event["places_paid"],
            "flights": [
                {
                    "label": row["label"],
                    "day": row["day"],
                    "entries": row["entries"],
                    "players_left": row["players_left"],
                    "closed": row["closed"],
                    "survivors": len(row["survivors"]),
                    "leaders": [
                        {"player": bag["player"], "chips": bag["chips"]}
                        for bag in row["survivors"][:FLIGHT_SURVIVORS_SHOWN]
                    ],
                }
                for row in event["flights"]
            ],
        },
        "payouts": event["payouts"],
    }


def clock_data(tournament: Tournament, levels: list | None = None, totals: dict | None = None) -> dict:
    if levels is None:
        levels = selectors.levels_of(tournament)
    flight = flight_payload(tournament)
    field = field_payload(tournament, totals)
    if flight is not None:
        # One prize pool and one payout table for the whole event, whichever flight this is.
        field["prize_pool"] = flight["event"]["prize_pool"]
        field["payouts"] = flight.pop("payouts")
    return {
        "tournament": tournament_public(tournament),
        "schedule": schedule_payload(levels),
        "clock": clock_payload(tournament, levels),
        "field": field,
        "flight": flight,
        "announcement": announcement_text(tournament),
        "chip_race": chip_race_payload(tournament, levels),
        "late_registration": late_registration_payload(tournament, levels),
        "room": room_payload(tournament),
        # The seating chart on the screens (the director's toggle): its size, never its names.
        "seating_chart": seating_chart.clock_payload(tournament),
    }


# The paid places a clock screen lists (static/live/clock.js: its payouts panel shows 30, the console's
# compact clock 5). A big event pays 1,500 places: the whole table is 44 KB of the clock's 50 KB, sent
# to each of 100 screens on every change and decoded by each; the player's page has every place.
CLOCK_PAYOUTS_SHOWN = 30


def _screen_field(data: dict) -> dict:
    """``data`` (``clock_data``) with the payouts a clock screen lists and how many places are paid."""
    field = data["field"]
    payouts = field["payouts"]
    data["field"] = {
        **field,
        "payouts": payouts[:CLOCK_PAYOUTS_SHOWN],
        "places_paid": sum(1 for p in payouts if p["amount"] > 0),
    }
    return data


def clock_snapshot(tournament_id: int) -> dict:
    # The version is read before the state, so the state is never older than its version claims.
    version = tournament_version(tournament_id)
    tournament = Tournament.objects.select_related("structure").get(pk=tournament_id)
    return envelope("clock", version, _screen_field(clock_data(tournament)))


# --- the director console -------------------------------------------------------------------------


CONSOLE_TABLES_WITH_SEATS = 30


def tables_summary(tournament: Tournament) -> list[dict]:
    # Two reads for the whole room, not one per table: the console stays quick at 1,250 tables. Seat
    # names only for a room's worth of tables (the console shows one line a table past that).
    tables = list(
        Table.objects.filter(tournament=tournament)
        .order_by("number")
        .values("pk", "number", "status", "hand_in_progress", "button_seat")
    )  # rows, not 1,250 model instances
    seated_at = Seat.objects.filter(table__tournament=tournament, entry__isnull=False)
    seats_of: dict[int, list[dict]] = {}
    if len(tables) <= CONSOLE_TABLES_WITH_SEATS:
        for table_id, number, entry_id, name, entry_number, chips in (
            Seat.objects.filter(table__tournament=tournament)
            .order_by("table_id", "number")
            .values_list(
                "table_id", "number", "entry_id", "entry__player__name", "entry__number", "entry__chips"
            )
        ):
            # Named as an entry is anywhere else (Entry.__str__: a re-entry carries its number).
            shown = f"{name} #{entry_number}" if entry_id and entry_number > 1 else (name or "")
            seats_of.setdefault(table_id, []).append(
                {"number": number, "name": shown if entry_id else "", "chips": chips if entry_id else None}
            )
    seated = dict(seated_at.values("table_id").annotate(n=Count("id")).values_list("table_id", "n"))
    return [
        {
            "id": table["pk"],
            "number": table["number"],
            "status": table["status"],
            "hand_in_progress": table["hand_in_progress"],
            "button_seat": table["button_seat"],
            "players": seated.get(table["pk"], 0),
            "seats": seats_of.get(table["pk"], []),
        }
        for table in tables
    ]


def console_entries(tournament: Tournament, query: str = "", limit: int | None = None) -> list[Entry]:
    """The first ``limit`` entries the console lists (its page and its snapshot alike): the players in
    first, then those out, each by place and then by name (no place last); those named in the search
    when there is one.

    Read part by part, each in the order of an index (places; players' names), so the first 60 of
    a 10,000-entry field are 60 index steps, not a sort of the whole field joined with its players."""
    entries = tournament.entries.select_related("player")
    if query:
        entries = entries.filter(player__name_key__contains=text.name_key(query))
    rows: list[Entry] = []
    for status in Entry.Status:  # as declared: the players in, then those out (and any status added)
        for placed in (True, False):
            left = None if limit is None else limit - len(rows)
            if left is not None and left <= 0:
                return rows
            part = entries.filter(status=status, place__isnull=not placed).order_by(
                *(("place",) if placed else ()), "player__name", "id"
            )
            rows += part if left is None else part[:left]
    return rows


def console_devices(tournament: Tournament):
    """The devices the console lists: those still paired first (a revoked one has ``revoked_at``),
    clocks before tablets. NULLs first said outright: databases disagree on where they sort."""
    return (
        Device.objects.filter(tournament=tournament)
        .select_related("table")
        .order_by(F("revoked_at").asc(nulls_first=True), "kind", "id")
    )


# As many as the console's page shows (screens.views.console): 1,350 devices at a big event.
CONSOLE_DEVICES_LISTED = 40
CONSOLE_ENTRIES_LISTED = 60
CONSOLE_AUDIT_LISTED = 50
CONSOLE_HANDS_LISTED = 30


def _clock_time(dt, seconds: bool = False) -> str:
    """A time of day as the console's page prints it (the server's time zone, 24 hours)."""
    if dt is None:
        return ""
    return timezone.localtime(dt).strftime("%H:%M:%S" if seconds else "%H:%M")


def devices_summary(tournament: Tournament) -> list[dict]:
    return [
        {
            "id": d.pk,
            "kind": d.kind,
            "label": d.label,
            "table_id": d.table_id,
            "active": d.is_active,
            "last_seen_at": _ms(d.last_seen_at),
            "paired": _clock_time(d.created_at),
            "last_seen": _clock_time(d.last_seen_at),
        }
        for d in console_devices(tournament)[:CONSOLE_DEVICES_LISTED]
    ]


def _entries_payload(tournament: Tournament) -> list[dict]:
    return [
        {
            "id": e.pk,
            "name": str(e),
            "status": e.status,
            "chips": e.chips,
            "place": e.place,
            "place_shared_to": e.place_shared_to,
            "prize": e.prize,
        }
        for e in console_entries(tournament, limit=CONSOLE_ENTRIES_LISTED)
    ]


CONSOLE_MOVES_LISTED = 40  # moves made and not yet acknowledged (as many as the page shows)


def console_moves(tournament: Tournament):
    """The console's "Moves": every move waiting for a hand to end, and the latest made ones still
    waiting for the dealer's "Done". A move a dealer never acknowledged stays "done": over a big
    event's day thousands of them would be listed, in every console snapshot, as the day went on."""
    latest_done = (
        Move.objects.filter(tournament=tournament, status=Move.Status.DONE)
        .order_by("-id")
        .values("id")[:CONSOLE_MOVES_LISTED]
    )
    return (
        Move.objects.filter(tournament=tournament)
        .filter(Q(status=Move.Status.PENDING) | Q(pk__in=latest_done))
        .select_related("entry__player", "from_table", "to_table")
        .order_by("id")
    )


def _pending_moves_payload(tournament: Tournament) -> list[dict]:
    """The console's "Moves" (``console_moves``)."""
    return [
        {
            "id": m.pk,
            "name": str(m.entry),
            "from_table": m.from_table.number if m.from_table_id else None,
            "from_seat": m.from_seat,
            "to_table": m.to_table.number,
            "to_seat": m.to_seat,
            "status": m.status,
        }
        for m in console_moves(tournament)
    ]


def _suggestions_payload(tournament: Tournament) -> dict:
    """Balancing in "suggest and approve" mode: the moves the seating engine would make now (keyed as
    the console's approve and skip forms are; which ones a director skipped is their session's)."""
    plan = SeatingPlan.objects.filter(tournament=tournament).first()  # read only: no get_or_create
    review = plan is not None and plan.review_moves
    rows = []
    if review and tournament.status != Tournament.Status.FINISHED and tournament.tables.exists():
        moves = tables_services.suggested_moves(tournament)
        names = {
            e.pk: str(e)
            for e in tournament.entries.filter(pk__in={m.entry_id for m in moves}).select_related("player")
        }
        rows = [
            {
                "key": suggestion_key(m),
                "entry_id": m.entry_id,
                "name": names.get(m.entry_id, ""),
                "from_table": m.from_table.number if m.from_table_id else None,
                "from_seat": m.from_seat,
                "to_table": m.to_table.number,
                "to_seat": m.to_seat,
                "reason": m.reason,
            }
            for m in moves
        ]
    return {"review": review, "moves": rows}


def _audit_payload(tournament: Tournament) -> list[dict]:
    return [
        {
            "id": a.pk,
            "at": _clock_time(a.at, seconds=True),
            "who": str(a.actor) if a.actor_id else (a.device_label or "–"),
            "action": a.action,
            "target": a.target,
            "reason": a.reason,
        }
        for a in AuditEntry.objects.filter(tournament=tournament).select_related("actor")[
            :CONSOLE_AUDIT_LISTED
        ]
    ]


def _hands_payload(tournament: Tournament) -> list[dict]:
    return [
        {
            "id": h.pk,
            "label": h.label,
            "status": h.status,
            "seed_commitment": h.seed_commitment,
        }
        for h in Hand.objects.filter(table__tournament=tournament)
        .select_related("table")
        .order_by("-started_at")[:CONSOLE_HANDS_LISTED]
    ]


def all_ins_signature(tournament: Tournament) -> list[list[int]]:
    """The hands in an all-in run-out and how far each has got: the console fetches its all-ins panel
    again when this changes (their equity is worked out for that panel alone, not for every snapshot)."""
    return [
        list(row)
        for row in Hand.objects.filter(
            table__tournament=tournament, status=Hand.Status.RUNNING, state__runout=True
        )
        .order_by("table__number")
        .values_list("pk", "state_seq")
    ]


def console_payload(tournament: Tournament, levels: list, totals: dict | None = None) -> dict:
    """What the console's panels show beyond the clock (static/live/console.js draws them), bounded
    like its page: the first entries, a line a table past a room's worth, the first devices.
    ``totals``: as for ``field_payload``."""
    totals = selectors.entry_totals(tournament) if totals is None else totals
    state = selectors.clock_state(tournament, levels=levels) if levels else None
    phase = console_controls.phase_of(tournament, state)
    money = {"prize_pool": prize_pool(tournament, totals), "payouts": list(payout_table(tournament, totals))}
    return {
        "phase": phase,
        "offers": console_controls.offers(tournament, phase, state, levels),
        "level_index": state.level_index if state is not None else 0,
        "entries": _entries_payload(tournament),
        "entries_total": totals["entries"],
        "hand_for_hand_tables": [
            {"number": t["number"], "state": t["state"]}
            for t in console_controls.hand_for_hand_tables(tournament)
        ],
        "moves": _pending_moves_payload(tournament),
        "suggestions": _suggestions_payload(tournament),
        "prize_pool": money["prize_pool"],
        "payouts": money["payouts"],
        "hands": _hands_payload(tournament),
        "audit": _audit_payload(tournament),
        "floor_pin_set": bool(tournament.floor_pin_hash),
        "all_ins": all_ins_signature(tournament),
    }


def director_version(tournament_id: int) -> int:
    """The console's version: the tournament's (everything a clock screen shows) plus its own (what
    only the console shows, ``console_changed``). Both only grow, so their sum does too."""
    version, console_version = Tournament.objects.values_list("version", "console_counter__version").get(
        pk=tournament_id
    )
    return version + (console_version or 0)  # no row: no run-out yet


def director_snapshot(tournament_id: int) -> dict:
    version = director_version(tournament_id)  # read before the state, as for the clock
    tournament = Tournament.objects.select_related("structure").get(pk=tournament_id)
    levels = selectors.levels_of(tournament)
    totals = selectors.entry_totals(tournament)  # the field and the prize pool: one pass, both panels
    data = _screen_field(clock_data(tournament, levels, totals))  # its payouts panel: console.payouts
    data["tables"] = tables_summary(tournament)
    data["devices"] = devices_summary(tournament)
    data["devices_total"] = Device.objects.filter(tournament=tournament).count()
    data["floor_calls"] = [
        {"id": c.pk, "table": c.table.number, "called_at": _ms(c.called_at), "time": _clock_time(c.called_at)}
        for c in FloorCall.objects.filter(tournament=tournament, answered_at__isnull=True).select_related(
            "table"
        )
    ]
    data["console"] = console_payload(tournament, levels, totals)
    return envelope("director", version, data)


# --- a table (the dealer tablet) ------------------------------------------------------------------


def current_level_payload(tournament: Tournament, levels: list | None = None) -> dict | None:
    """The level the next hand is dealt at (R8.2), as the tournaments services decide it."""
    try:
        level = level_for_next_hand(tournament, levels=levels)
    except ClockError:  # a structure without levels of play: the tablet shows no level
        return None
    return _level_payload(level, level.order, None)


def hand_payload(hand) -> dict | None:
    """A hand as any screen may see it (the dealing app decides what that is)."""
    return None if hand is None else dealing_services.public_hand(hand)


def hand_for_hand_wait(table) -> str:
    """R8.6: the reason this table waits between hands during hand-for-hand, or "" (the tournaments
    services decide; a table in the middle of its hand is not waiting)."""
    if table.hand_in_progress:
        return ""
    return waiting_reason(table) or ""


def _move_payload(move, table) -> dict:
    return {
        "id": move.pk,
        "name": move.entry.player.name,
        "from_table": move.from_table.number if move.from_table_id else None,
        "from_seat": move.from_seat,
        "to_table": move.to_table.number,
        "to_seat": move.to_seat,
        "status": move.status,
        "status_label": str(move.get_status_display()),
        "outgoing": move.from_table_id == table.pk,
    }


# What every tablet shows of the tournament (tablets_data): its clock, level and color-up.
_TABLETS_DATA = PerVersion(by_language=True)


# A table snapshot's reads (every socket's first snapshot, every deal and hand end of 1,250 tables):
# their SQL is built once (config.prepared).
_table_with_tournament = PreparedQuery(
    lambda pk: Table.objects.select_related("tournament__structure").filter(pk=pk).order_by()[:1]
)
_seats_of_table = PreparedQuery(
    lambda table_id: Seat.objects.filter(table_id=table_id).select_related("entry__player").order_by("number")
)
_moves_of_table = PreparedQuery(
    lambda table_id: (
        Move.objects.filter(
            Q(from_table_id=table_id, status__in=[Move.Status.PENDING, Move.Status.DONE])
            | Q(to_table_id=table_id, status=Move.Status.PENDING)
        )
        .select_related("entry__player", "from_table", "to_table")
        .order_by("id")
    )
)
_last_hand_of_table = PreparedQuery(
    lambda table_id: Hand.objects.filter(table_id=table_id).order_by("-number")[:1]
)
_open_floor_call = PreparedQuery(
    lambda table_id: (
        FloorCall.objects.filter(table_id=table_id, answered_at__isnull=True).only("pk").order_by()[:1]
    )
)


def table_data(table, *, tournament_version: int | None = None) -> dict:
    """``tournament_version``: the version read with this snapshot, for the field's figures."""
    tournament = table.tournament
    # Read once: the seat map, and between hands who is dealt in next and whether the table is short.
    seat_rows = _seats_of_table(table.pk)
    for seat in seat_rows:
        seat.table = table  # what the related manager would have set: no read of the table again
    seats = [
        {
            "number": seat.number,
            "entry_id": seat.entry_id,
            "name": seat.entry.player.name if seat.entry_id else "",
            "chips": seat.entry.chips if seat.entry_id else None,
        }
        for seat in seat_rows
    ]
    # Moves out wait for the hand to end, then for the dealer's "Done" (the player has left); moves in
    # are listed only while they wait (once made, the player sits in the seat map). A redraw that left
    # a player where they sat is no move at all.
    moves = [
        move
        for move in _moves_of_table(table.pk)
        if not (move.from_table_id == move.to_table_id and move.from_seat == move.to_seat)
    ]
    hand = _last_hand_of_table.first(table.pk)
    if hand is not None:
        hand.table = table  # with its tournament already read: no lazy reads while the payload is built
    levels = None
    if tournament.status == Tournament.Status.ON_BREAK:  # the chip race reads them (R8.7)
        levels = selectors.levels_of(tournament)
    return {
        **_TABLETS_DATA.get(tournament, tournament_version, lambda: tablets_data(tournament, levels)),
        "table": {
            "id": table.pk,
            "number": table.number,
            "seats": table.seats,
            "status": table.status,
            "button_seat": table.button_seat,
            "big_blind_seat": table.big_blind_seat,
            "hand_in_progress": table.hand_in_progress,
            # Only read between hands (the tablet shows it before "Deal"), so inputs mid-hand skip it.
            "halted_reason": ""
            if table.hand_in_progress
            else str(
                halted_reason(
                    table,
                    current=True,
                    figures=tables_services.current_field_figures(tournament, tournament_version),
                    seated_here=sum(1 for seat in seat_rows if seat.entry_id is not None),
                )
                or ""
            ),
            # The next hand's button and blinds, shown before it is dealt (the first hand's too).
            "next_positions": None
            if table.hand_in_progress
            else dealing_services.next_hand_positions(table, seats=seat_rows, last=hand),
        },
        "seats": seats,
        "moves": [_move_payload(move, table) for move in moves],
        "hand": hand_payload(hand),
        "wait": hand_for_hand_wait(table),
        "chip_race": chip_race_payload(tournament, levels or [], table.number),
        "floor_called": bool(_open_floor_call.first(table.pk)),
    }


def table_version(table_id: int) -> int:
    """The version a table snapshot built now would carry (its table's and its tournament's)."""
    return sum(Table.objects.values_list("version", "tournament__version").get(pk=table_id))


def table_snapshot(table_id: int) -> dict:
    # The table's version plus its tournament's (a level change or hand-for-hand changes the tablet
    # too): a sum of counters that only grow, read with the table's row and before the rest of the
    # state it describes (which can only be as new or newer).
    table = _table_with_tournament.first(table_id)
    if table is None:
        raise Table.DoesNotExist(f"table {table_id}")
    table_version, tournament_version = table.version, table.tournament.version
    data = table_data(table, tournament_version=tournament_version)
    # The tournament part inside is at least this new: a "tablets" snapshot of an older version
    # does not replace it on the tablet (static/live/tablet.js).
    data["tournament_version"] = tournament_version
    data["table_version"] = table_version
    return envelope("table", table_version + tournament_version, data)


def patched_table_snapshot(snapshot: dict, patch: dict) -> dict | None:
    """The table snapshot after an input in the middle of its hand: ``snapshot`` (the last one built)
    with the hand that ``patch`` carries; ``snapshot`` itself when it is already newer than the patch
    (the patch came late: nothing to do); or None when the patch does not follow it exactly (a change
    in between, or another hand): then the snapshot is built again."""
    data = snapshot.get("data") or {}
    hand, new_hand = data.get("hand"), patch.get("hand")
    patch_version, table_version = patch.get("table_version"), data.get("table_version")
    if (
        snapshot.get("kind") == "table"
        and isinstance(patch_version, int)
        and isinstance(table_version, int)
        and patch_version <= table_version
    ):
        return snapshot
    if (
        snapshot.get("kind") != "table"
        or not isinstance(new_hand, dict)
        or not isinstance(hand, dict)
        or hand.get("id") != new_hand.get("id")
        or table_version is None
        or patch_version != table_version + 1
    ):
        return None
    version = patch["table_version"] + data["tournament_version"]
    return envelope("table", version, {**data, "table_version": patch["table_version"], "hand": new_hand})


_hand_at_table = PreparedQuery(
    lambda pk, table_id: Hand.objects.select_related("table").filter(pk=pk, table_id=table_id).order_by()[:1]
)


def table_hand_patch(table_id: int, hand_id: int) -> dict | None:
    """The patch an input's announcement carries (``dealing.services``), read back from the database:
    the running hand and the table's version, in one query so both are of the same moment. For a
    refresh whose announcement is late or lost; None when the hand is over (then the table is built)."""
    hand = _hand_at_table.first(hand_id, table_id)
    if hand is None or hand.status != Hand.Status.RUNNING:
        return None
    return {
        "table_version": hand.table.version,
        "hand": dealing_services.public_hand(hand, seq=hand.state_seq),
    }


def tablets_data(tournament: Tournament, levels: list | None = None) -> dict:
    """What every tablet of a tournament shows of it: the same for all of them, built once per server
    and version for the 1,250 tablets of a big event (a level change costs one build, not 1,250)."""
    levels = selectors.levels_of(tournament) if levels is None else levels
    return {
        "tournament": tournament_public(tournament),
        "level": current_level_payload(tournament, levels),
        # The table's own clock (issue 15 item 5): time left and breaks, counted down by the tablet.
        "clock": clock_payload(tournament, levels),
        # On a break with a color-up (R8.7): the chips that leave the table.
        "color_up": _break_color_up(tournament, levels),
    }


def _break_color_up(tournament: Tournament, levels: list) -> list:
    if tournament.status != Tournament.Status.ON_BREAK or not levels:
        return []
    index = selectors.clock_state(tournament, levels=levels).level_index
    return list(levels[index].color_up or []) if 0 <= index < len(levels) else []


def tablets_snapshot(tournament_id: int) -> dict:
    version = tournament_version(tournament_id)
    tournament = Tournament.objects.select_related("structure").get(pk=tournament_id)
    return envelope(
        "tablets", version, _TABLETS_DATA.get(tournament, version, lambda: tablets_data(tournament))
    )


# --- the feature table (a stream, the room's screens) ----------------------------------------------


BOARD_STREET = {0: "preflop", 1: "preflop", 3: "flop", 4: "turn", 5: "river"}


def feature_data(table) -> dict:
    """One table for an audience: the board, the players, the hands that are face up (R6.2: the
    dealer turned them up, or they were shown at the showdown) with each player's equity, and the
    result. Built from the hand's public view only: a hand not yet face up has no cards here."""
    tournament = table.tournament
    hand = Hand.objects.filter(table=table).exclude(status=Hand.Status.VOIDED).order_by("-number").first()
    data = {
        "tournament": {
            "name": tournament.name,
            "game": tournament.game,
            "game_label": str(tournament.get_game_display()),
            "betting_label": str(tournament.get_betting_display()),
        },
        "table": {"id": table.pk, "number": table.number},
        "hand": None,
    }
    if hand is None:
        return data
    view = dealing_services.public_view(hand)
    equity = hand_equity(hand, view)
    shares = {p["seat"]: p for p in equity["players"]} if equity else {}
    data["hand"] = {
        "number": hand.number,
        "status": hand.status,
        # What the board shows (in a run-out the engine's street is already the next one to deal).
        "street": BOARD_STREET.get(len(view["board"]), "preflop"),
        "board": list(view["board"]),
        "pot": view["pot_total"],
        "runout": bool(view.get("runout")),
        "players": [
            {
                "seat": p["seat"],
                "player": p["player"],
                "stack": p["stack"],
                "bet": p["bet"],
                "folded": p["folded"],
                "all_in": p["all_in"],
                "face_up": bool(p["shown"] and p["cards"]),
                "cards": list(p["cards"]) if p["shown"] and p["cards"] else None,
                "equity": _player_equity(shares.get(p["seat"])),
            }
            for p in view["players"]
        ],
        "equity": {"method": equity["method"], "boards": equity["boards"]} if equity else None,
        "result": _feature_result(view.get("result")),
    }
    return data


def _player_equity(row: dict | None) -> dict | None:
    if row is None:
        return None
    names = ("share", "share_error", "high_win", "high_tie", "low_win", "low_tie", "scoop", "split")
    return {name: row[name] for name in names}


def _feature_result(result: dict | None) -> dict | None:
    if not result:
        return None
    return {
        "pots": [
            {
                "amount": pot["amount"],
                "awards": [
                    {k: a[k] for k in ("seat", "player", "amount", "share", "hand")} for a in pot["awards"]
                ],
            }
            for pot in result["pots"]
        ],
        "hands": [
            {"seat": h["seat"], "cards": h["cards"], "high": h["high"], "low": h["low"]}
            for h in result["hands"]
        ],
    }


def feature_snapshot(table_id: int) -> dict:
    version = Table.objects.values_list("version", flat=True).get(pk=table_id)
    table = Table.objects.select_related("tournament").get(pk=table_id)
    return envelope("feature", version, feature_data(table))


def find_private_keys(payload, path: str = "") -> list[str]:
    """Paths of any private key in a payload (used by tests and as a last check in DEBUG)."""
    found = []
    if isinstance(payload, dict):
        for key, value in payload.items():
            if key in PRIVATE_KEYS:
                found.append(f"{path}.{key}")
            found.extend(find_private_keys(value, f"{path}.{key}"))
    elif isinstance(payload, list):
        for i, value in enumerate(payload):
            found.extend(find_private_keys(value, f"{path}[{i}]"))
    return found
