"""What the console offers now: the tournament's phase and only the buttons that can work in it
(no Pause on a finished tournament, no Bust for the winner), the "Go to level" list with level
numbers and fixed-limit bets, and each table's state in a hand-for-hand round (R8.6)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from dealing.models import Hand
from tables.models import MAX_SEATS, Move, Seat, Table
from tournaments import clock as clockmath
from tournaments import services
from tournaments.models import Betting, Entry, Tournament


def phase_of(tournament: Tournament, state) -> str:
    status = tournament.status
    if status == Tournament.Status.FINISHED:
        return "finished"
    if status in (Tournament.Status.PLANNED, Tournament.Status.REGISTERING):
        return status
    if tournament.hand_for_hand:
        return "hand_for_hand"
    if state is not None and state.is_break and state.running:
        return "break"
    if state is None or not state.running:
        return "paused"
    return "running"


PHASES = ("planned", "registering", "running", "paused", "break", "hand_for_hand", "finished")


def phase_label(phase: str) -> str:
    return {
        "planned": _("Planned"),
        "registering": _("Registering"),
        "running": _("Running"),
        "paused": _("Paused"),
        "break": _("On break"),
        "hand_for_hand": _("Hand-for-hand"),
        "finished": _("Finished"),
    }[phase]


def offers(tournament: Tournament, phase: str, state=None, levels=None) -> dict[str, bool]:
    """``levels``: the structure's levels when the caller has read them already."""
    started = phase in ("running", "paused", "break", "hand_for_hand")
    at_levels = started or phase == "registering"
    return {
        "previous_level": at_levels and state is not None and state.level_index > 0,
        "next_level": at_levels and state is not None and not state.is_last_level,
        "open_registration": phase == "planned",
        "start": phase == "registering",
        "pause": phase in ("running", "break"),
        "resume": phase == "paused",
        "add_time": started,
        "levels": at_levels,
        "hand_for_hand_on": phase in ("running", "paused", "break"),
        "hand_for_hand_off": phase == "hand_for_hand",
        "bust": started,
        "setup": phase in ("planned", "registering"),
        "results": phase != "planned",
        "register": phase != "finished" and services.registration_open(tournament, levels=levels),
    }


def level_choices(tournament: Tournament, levels) -> list[dict]:
    """Each period as the director names it: "Level 3 · 25/50 (ante 50)", fixed limit by its bets."""
    numbers = clockmath.level_numbers([clockmath.Period(0, level.is_break) for level in levels])
    fixed = tournament.betting == Betting.FIXED_LIMIT
    rows = []
    for index, (level, number) in enumerate(zip(levels, numbers)):
        if level.is_break:
            label = _("Break · %(minutes)s min") % {"minutes": level.duration_minutes}
        elif fixed:
            label = _("Level %(number)s · %(small)s/%(big)s (blinds %(sb)s/%(bb)s)") % {
                "number": number,
                "small": level.small_bet,
                "big": level.big_bet,
                "sb": level.small_blind,
                "bb": level.big_blind,
            }
        else:
            label = _("Level %(number)s · %(sb)s/%(bb)s") % {
                "number": number,
                "sb": level.small_blind,
                "bb": level.big_blind,
            }
        if not level.is_break and level.ante:
            label += " " + _("(ante %(ante)s)") % {"ante": level.ante}
        if not level.is_break:
            label += " · " + _("%(minutes)s min") % {"minutes": level.duration_minutes}
        rows.append({"index": index, "label": label})
    return rows


def hand_for_hand_tables(tournament: Tournament) -> list[dict]:
    """Each table in play and where it is in the current round: dealing, done and waiting, or to deal."""
    started = tournament.hand_for_hand_round_started_at
    if not tournament.hand_for_hand or started is None:
        return []
    tables = Table.objects.filter(tournament=tournament, status=Table.Status.ACTIVE).order_by("number")
    players = {}
    for seat in Seat.objects.filter(table__in=tables, entry__status=Entry.Status.ACTIVE):
        players[seat.table_id] = players.get(seat.table_id, 0) + 1
    hands = {}
    for hand in Hand.objects.filter(table__in=tables, started_at__gte=started).exclude(
        status=Hand.Status.VOIDED
    ):
        hands.setdefault(hand.table_id, []).append(hand.status)
    rows = []
    for table in tables:
        if players.get(table.pk, 0) < 2:
            continue
        statuses = hands.get(table.pk, [])
        if Hand.Status.RUNNING in statuses:
            state, label = "playing", _("playing its hand")
        elif statuses:
            state, label = "done", _("done, waiting")
        else:
            state, label = "to_deal", _("to deal")
        rows.append({"number": table.number, "state": state, "label": label})
    return rows


def live_labels(tournament: Tournament) -> dict:
    """The console's texts that static/live/console.js fills in from the director socket's snapshot,
    in the director's language (the snapshot is shared by every director, so it carries codes and
    numbers, not words). The same msgids as the page's template: one translation each."""
    labels = {
        "phase": {code: phase_label(code) for code in PHASES},
        "status": {code: str(label) for code, label in Tournament.Status.choices},
        "move_status": {code: str(label) for code, label in Move.Status.choices},
        "move_reason": {code: str(label) for code, label in Move.Reason.choices},
        "hand_status": {code: str(label) for code, label in Hand.Status.choices},
        "table_status": {code: str(label) for code, label in Table.Status.choices},
        "hand_for_hand": {
            "playing": _("playing its hand"),
            "done": _("done, waiting"),
            "to_deal": _("to deal"),
        },
        # Plurals as each language makes them, for every number of players a table can hold (R2.7).
        "players": {
            str(n): ngettext("%(players)s player", "%(players)s players", n) % {"players": n}
            for n in range(MAX_SEATS + 1)
        },
        "floor_call": _("Table %(number)s calls the floor (%(time)s)"),
        "table": _("Table %(number)s"),
        "table_state": _("Table %(number)s: %(state)s"),
        "bust": _("Bust %(name)s"),
        "remove": _("Remove %(name)s and their %(chips)s chips from the tournament because:"),
        "suggestion": _("%(name)s: table %(from)s seat %(fseat)s → table %(to)s seat %(tseat)s (%(reason)s)"),
        "move": _("%(name)s: table %(from)s seat %(fseat)s → table %(to)s seat %(tseat)s"),
        "skipped": _("Skipped:"),
        "entries_shown": _(
            "%(shown)s of %(total)s entries shown: find a player above, or see them all at the registration desk."
        ),
        "devices_shown": _("Devices shown: %(shown)s of %(total)s."),
        "in": _("in"),
        "out": _("out"),
        "open": _("open"),
        "hand": _("hand"),
        "tablet": _("tablet"),
        "revoked": _("revoked"),
        "no_entries": _("No entries yet."),
        "no_tables": _("No tables drawn yet."),
        "no_devices": _("No paired devices."),
        "no_hands": _("No hands dealt yet."),
        "no_audit": _("Nothing recorded yet."),
        "balanced": _("The tables are balanced: no move to make."),
        "round_starts": _("The round starts with the next hand dealt."),
        "seed_secret": _("seed secret until the hand is over"),
        "history": _("history and verification"),
        "floor_pin_set": _("set"),
        "floor_pin_off": _("not set: only the console can take an input back"),
    }
    if tournament.status == Tournament.Status.FINISHED:
        # No one is left to bust or remove: the page says nothing of it, not even in its scripts' data.
        del labels["bust"], labels["remove"]
    return labels
