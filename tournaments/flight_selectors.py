"""Shared reads of multi-day events (docs/festivals.md): which flight a tournament is, where its play
stops, who may register, the event's one prize pool and payout table, places across the event, and
the totals the clock screens and the player's page show (``flight_snapshot``).

No writes here. ``check_registration`` only refuses (``StateError``), so ``services.register`` asks
it in its own transaction, with the player's row locked, before it adds an entry.
"""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction

from django.db.models import Count, Q, Sum
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from config.prepared import PreparedQuery

from . import clock as clockmath
from . import payouts as payoutmath
from .errors import StateError
from .models import Bag, Entry, Event, Flight, Player, Tournament
from .selectors import _payout_table, _shares, clock_state, periods_of, registration_open

ACTIVE = Entry.Status.ACTIVE
FINISHED = Tournament.Status.FINISHED


# Read by every clock and console build of every tournament, most of them on their own: compiled once.
_flight_of = PreparedQuery(
    lambda tournament_id: (
        Flight.objects.select_related("event").filter(tournament_id=tournament_id).order_by()[:1]
    )
)


def flight_of(tournament: Tournament) -> Flight | None:
    """The tournament's place in an event (None: a tournament on its own)."""
    return _flight_of.first(tournament.pk)  # one at most: a tournament is one flight


def last_day(event: Event) -> int:
    return event.flights.order_by("-day").values_list("day", flat=True).first() or 1


def is_last_day(flight: Flight) -> bool:
    return flight.day >= last_day(flight.event)


def flights_of_day(event: Event, day: int) -> list[Flight]:
    return list(event.flights.filter(day=day).select_related("tournament").order_by("label"))


def _play_index(periods: list[clockmath.Period], level_number: int) -> int | None:
    """The period index of level ``level_number`` (as players say it), None if there is none."""
    for index, number in enumerate(clockmath.level_numbers(periods)):
        if number == level_number:
            return index
    return None


def stop_point(flight: Flight, now: datetime | None = None) -> dict | None:
    """Where play stops on a day that is not the last: after level ``after_level`` or at
    ``at_players`` players left in the flight (whichever comes first; 0 means not used). ``reached``
    says whether the floor may stop play and bag now. None on the last day (it plays to a winner)."""
    if is_last_day(flight):
        return None
    tournament = flight.tournament
    players_left = tournament.entries.filter(status=ACTIVE).count()
    after_level, at_players = flight.stops
    by_players = bool(at_players) and players_left <= at_players
    by_level = False
    level_number = None
    if tournament.level_started_at or tournament.paused_at:
        periods = periods_of(tournament)
        state = clock_state(tournament, now)
        level_number = clockmath.level_number(periods, state.level_index)
        stop_index = _play_index(periods, after_level) if after_level else None
        if stop_index is not None:
            by_level = state.level_index > stop_index or (
                state.level_index == stop_index and state.remaining <= 0
            )
    return {
        "after_level": after_level,
        "at_players": at_players,
        "players_left": players_left,
        "level": level_number,
        "reached": by_level or by_players,
        "by_level": by_level,
        "by_players": by_players,
        "stopped": flight.play_stopped_at is not None,
        "closed": flight.closed_at is not None,
    }


def day_stop_index(tournament: Tournament, periods: list[clockmath.Period]) -> int | None:
    """The period whose end stops the clock for the day (the event's stop level), for a flight that
    is not on the last day and has not stopped yet; None otherwise."""
    flight = flight_of(tournament)
    if flight is None or not flight.stops[0] or flight.play_stopped_at is not None:
        return None
    if is_last_day(flight):
        return None
    index = _play_index(periods, flight.stops[0])
    return index if index is not None and index + 1 < len(periods) else None


def resume_index(flight: Flight, now: datetime | None = None) -> int:
    """The period the next day starts at: the level after the stop level when play stopped at the end
    of a level, else the level in play when it stopped (from its full time); never a break."""
    tournament = flight.tournament
    periods = periods_of(tournament)
    state = clock_state(tournament, now)
    index = state.level_index
    after_level = flight.stops[0]
    stop_index = _play_index(periods, after_level) if after_level else None
    if stop_index is not None and (index > stop_index or (index == stop_index and state.remaining <= 0)):
        index = min(max(index, stop_index + 1), len(periods) - 1)
    return clockmath.play_index_for_next_hand(periods, index)


def check_registration(tournament: Tournament, player: Player) -> None:
    """Refuse an entry the event does not allow (409): a player still playing another starting
    flight (a player cannot play two flights at once), or a new entry into a later day that takes
    only the survivors (or is not drawn yet). The player's row is locked, so two registrations of one
    player into two flights at the same moment cannot both pass."""
    flight = flight_of(tournament)
    if flight is None:
        return
    Player.objects.select_for_update().filter(pk=player.pk).first()
    if flight.day == 1:
        other = (
            Entry.objects.filter(
                tournament__flight__event=flight.event,
                tournament__flight__day=1,
                tournament__flight__closed_at__isnull=True,
                player=player,
                status=ACTIVE,
            )
            .exclude(tournament_id=tournament.pk)
            .select_related("tournament__flight")
            .first()
        )
        if other is not None:
            raise StateError(
                _(
                    "%(player)s is still playing %(flight)s: a player cannot play two flights at once. "
                    "Register them here once they are out of it or it has bagged."
                )
                % {"player": player, "flight": other.tournament.flight.label},
                code="playing_another_flight",
                field="player",
                params={"flight": other.tournament_id},
            )
        return
    if flight.day > 2 or not flight.event.late_stack:  # late entries go into day 2 only
        raise StateError(
            _("%(day)s takes no new entries: only the survivors of the day before play it.")
            % {"day": flight.label},
            code="survivors_only",
            field="player",
        )
    if flight.drawn_at is None:
        raise StateError(
            _("Late entries into %(day)s open once its survivors are drawn to their seats.")
            % {"day": flight.label},
            code="day_not_drawn",
        )


# ---------------------------------------------------------------- the event's prize pool and places


def buy_in_entries(event: Event):
    """Every entry bought into the event: all entries of the starting flights, and the late entries
    of later days (a survivor's entry on a later day carries a bag; it is not a new buy-in)."""
    return Entry.objects.filter(tournament__flight__event=event).exclude(
        tournament__flight__day__gt=1, bags_carried_in__isnull=False
    )


def field_size(event: Event) -> int:
    return buy_in_entries(event).distinct().count()


def prize_pool(event: Event) -> int:
    return max(field_size(event) * event.buy_in, event.guarantee)


def _next_day(event: Event) -> Flight | None:
    return event.flights.filter(day__gt=1).order_by("day").first()


def paid_cap(event: Event) -> int | None:
    """Places paid are capped at the next day's field when the event pays nobody out before it:
    a player out on day 1 cannot take a place (None: no cap, or not known until that day is drawn)."""
    if event.pays_day1_finishers:
        return None
    second = _next_day(event)
    if second is None or second.drawn_at is None:
        return None
    return second.tournament.entries.count()


def payout_table(event: Event) -> list[int]:
    """Prize by place for the whole event (index 0 is first), from every flight's entries."""
    pool, field = prize_pool(event), field_size(event)
    percentages = tuple(event.payout_percentages or ())
    amounts = list(_payout_table(pool, field, percentages, event.percent_paid, event.payout_unit))
    cap = paid_cap(event)
    if cap is not None and 0 < cap < len(amounts):
        shares = list(_shares(field, percentages, event.percent_paid))[:cap]
        total = sum(shares, Fraction(0))
        amounts = payoutmath.payout_amounts(pool, [share / total for share in shares], event.payout_unit)
    return amounts


def _day_one_places(event: Event, offset: int) -> list[dict]:
    """Players out on day 1 (and in no later day), ranked across the flights by how far from their
    flight's bag line they busted: the last one out of each flight share the places just below the
    next day's field (``offset``), and so on down. A player out of several flights counts once, at the
    best of them."""
    best: dict[int, tuple[int, Entry]] = {}
    for flight in flights_of_day(event, 1):
        survivors = flight.bags.count()
        for entry in flight.tournament.entries.filter(place__isnull=False).select_related("player"):
            distance = entry.place - survivors
            if entry.player_id not in best or distance < best[entry.player_id][0]:
                best[entry.player_id] = (distance, entry)
    later = set(
        Entry.objects.filter(tournament__flight__event=event, tournament__flight__day__gt=1).values_list(
            "player_id", flat=True
        )
    )
    ranked = sorted(
        ((d, e) for pid, (d, e) in best.items() if pid not in later), key=lambda pair: (pair[0], pair[1].pk)
    )
    rows, place, i = [], offset + 1, 0
    while i < len(ranked):
        group = [pair for pair in ranked[i:] if pair[0] == ranked[i][0]]
        for _distance, entry in group:
            rows.append(_result(entry, place, place + len(group) - 1 if len(group) > 1 else None))
        place += len(group)
        i += len(group)
    return rows


def _result(entry: Entry, place: int, shared_to: int | None) -> dict:
    return {
        "entry": entry.pk,
        "player": entry.player.name,
        "player_id": entry.player_id,
        "flight": entry.tournament.flight.label,
        "place": place,
        "place_shared_to": shared_to,
        "prize": 0,
    }


def results(event: Event) -> list[dict]:
    """Places across the event, best first, each with its prize from the event's payout table.

    The later days' places are their tournaments' own (their fields are the event's top players).
    Day 1's busts have a place only when the event pays day-1 finishers, once every flight has bagged
    and the next day is drawn (until then the field above them is not known)."""
    rows = []
    later = event.flights.filter(day__gt=1).select_related("tournament").order_by("day")
    for flight in later:
        entries = flight.tournament.entries.filter(place__isnull=False).select_related("player", "tournament")
        for entry in entries.order_by("place", "pk"):
            row = _result(entry, entry.place, entry.place_shared_to)
            rows.append(row)
    second = _next_day(event)
    if event.pays_day1_finishers and second is not None and second.drawn_at is not None:
        rows += _day_one_places(event, second.tournament.entries.count())
    amounts = payout_table(event)
    groups: dict[tuple[int, int], list[dict]] = {}
    for row in rows:
        groups.setdefault((row["place"], row["place_shared_to"] or row["place"]), []).append(row)
    for (first, last_place), members in groups.items():
        padded = amounts + [0] * max(0, last_place - len(amounts))
        for row, prize in zip(members, payoutmath.split_shared(padded, first, last_place)):
            row["prize"] = prize
    rows.sort(key=lambda r: (r["place"], r["entry"]))
    return rows


# ---------------------------------------------------------------- what the screens show


def _flight_row(flight: Flight, now: datetime) -> dict:
    tournament = flight.tournament
    counts = tournament.entries.aggregate(
        entries=Count("id"),
        active=Count("id", filter=_active()),
        chips=Sum("chips", filter=_active()),
    )
    return {
        "tournament": tournament.pk,
        "label": flight.label,
        "day": flight.day,
        "status": tournament.status,
        "entries": counts["entries"],
        "players_left": counts["active"] if flight.closed_at is None else 0,
        "chips_in_play": (counts["chips"] or 0) if flight.closed_at is None else 0,
        "registration_open": registration_open(tournament, now),
        "play_stopped": flight.play_stopped_at is not None,
        "closed": flight.closed_at is not None,
        "drawn": flight.drawn_at is not None or flight.day == 1,
        "survivors": [
            {"player": bag.player.name, "chips": bag.chips, "bag": bag.bag_number, "status": bag.status}
            for bag in flight.bags.select_related("player").order_by("-chips", "bag_number")
        ],
        "stop": stop_point(flight, now),
    }


def _active() -> Q:
    return Q(status=ACTIVE)


def event_totals(event: Event, now: datetime | None = None) -> dict:
    """The whole event at a glance: entries and players, the one prize pool and payout table,
    players and chips still in (playing now or bagged for a later day), and every flight's row."""
    now = now or timezone.now()
    flights = [
        _flight_row(f, now) for f in event.flights.select_related("tournament").order_by("day", "label")
    ]
    waiting = Bag.objects.filter(flight__event=event, status=Bag.Status.BAGGED)
    bagged_players = set(waiting.values_list("player_id", flat=True))
    playing = set(
        Entry.objects.filter(
            tournament__flight__event=event, tournament__flight__closed_at__isnull=True, status=ACTIVE
        )
        .exclude(tournament__status=FINISHED)
        .values_list("player_id", flat=True)
    )
    chips = sum(row["chips_in_play"] for row in flights) + (waiting.aggregate(c=Sum("chips"))["c"] or 0)
    left = len(playing | bagged_players)
    table = payout_table(event)
    pool = prize_pool(event)
    return {
        "event": event.pk,
        "name": event.name,
        "entries": field_size(event),
        "players": buy_in_entries(event).values("player_id").distinct().count(),
        "prize_pool": pool,
        "places_paid": len(table),
        "payouts": [{"place": i, "amount": amount} for i, amount in enumerate(table, start=1)],
        "players_left": left,
        "chips_in_play": chips,
        "average_stack": round(chips / left) if left else 0,
        "stack_rule": event.stack_rule,
        "pays_day1_finishers": event.pays_day1_finishers,
        "flights": flights,
    }


def flight_snapshot(tournament: Tournament, now: datetime | None = None) -> dict | None:
    """For the clock screen and the player's page (docs/festivals.md): None for a tournament on its
    own; for a flight, its label and day, where its play stops, and the event's totals with every
    flight's survivors. Nothing secret in it."""
    flight = flight_of(tournament)
    if flight is None:
        return None
    totals = event_totals(flight.event, now)
    own = next(row for row in totals["flights"] if row["tournament"] == tournament.pk)
    return {
        "label": flight.label,
        "day": flight.day,
        "last_day": is_last_day(flight),
        "stop": own["stop"],
        "event": totals,
    }
