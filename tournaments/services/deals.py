"""Deals at the final table: the talk (the clock stops unless the tournament says it runs), a
proposal (no write), and the deal recorded with every player left agreeing, then paid out.

The clock: a director starts "deal talk" when the players ask to talk; unless
``clock_runs_during_deal`` that pauses a running clock. Recording the deal, or ending the talk
without one, resumes it, but only if the talk paused it (a clock the director had paused stays
paused, and hand-for-hand keeps its own pause). A proposal can be asked for at any time and changes
nothing.

The money: the deal shares the prizes of the places still to be won (the payout table's top places,
one per player left) less the amount left to play for. Each player's prize becomes their deal
amount at once; whoever finishes first also gets the amount left to play for. Places are still
recorded as players bust (R8.8).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tables.models import Seat

from .. import clock as clockmath
from .. import deals as dealmath
from ..audit import AuditAction, record_audit
from ..errors import RuleError, StateError
from ..models import Deal, DealShare, Entry, Tournament, clock_changed
from ..selectors import clock_state, payout_table, registration_open
from .clock_control import clock_op
from .common import Status, locked
from .prizes import recompute_prizes

KINDS = tuple(Deal.Kind.values)


def players_left(tournament: Tournament) -> list[Entry]:
    """The players a deal is made between: everyone still in, most chips first."""
    return list(
        tournament.entries.filter(status=Entry.Status.ACTIVE)
        .select_related("player")
        .order_by("-chips", "pk")[: dealmath.MAX_PLAYERS + 1]
    )


def prizes_left(tournament: Tournament, players: int) -> list[int]:
    """The prizes of the places still to be won, best first (0 for places not paid)."""
    table = payout_table(tournament)[:players]
    return table + [0] * (players - len(table))


def _check_state(tournament: Tournament, entries: list[Entry]) -> None:
    """A deal is for a live tournament whose field is final, once, between 2 to MAX_PLAYERS players."""
    if tournament.status not in (Status.RUNNING, Status.ON_BREAK):
        raise StateError(
            _("A deal is made while the tournament runs (it is %(status)s).")
            % {"status": tournament.get_status_display()},
            code="not_running",
        )
    if Deal.objects.filter(tournament=tournament).exists():
        raise StateError(_("The players have already made a deal."), code="already_a_deal")
    if registration_open(tournament):
        raise StateError(
            _("Registration is still open: the prize pool is not final, so no deal yet."),
            code="registration_open",
        )
    if len(entries) > dealmath.MAX_PLAYERS:
        raise StateError(
            _("A deal is made by at most %(max)s players; more are still in.")
            % {"max": dealmath.MAX_PLAYERS},
            code="too_many_players",
            params={"maximum": dealmath.MAX_PLAYERS},
        )
    if len(entries) < 2:
        raise StateError(_("A deal needs at least two players left."), code="too_few_players")
    if any(e.chips <= 0 for e in entries):
        raise StateError(
            _("Every player in a deal needs a chip count: count the chips first."), code="no_chips"
        )


def _rule_error(exc: dealmath.DealError) -> RuleError:
    """The pure module's refusal, translated (422, with the allowed range in ``params``)."""
    p = exc.params
    messages = {
        "left_to_play_for": lambda: (
            _(
                "The amount left to play for must be from %(minimum)s to %(maximum)s: nobody's share can fall "
                "below the lowest prize left."
            )
            % p
        ),
        "custom_total": lambda: (
            (
                _("The amounts add up to %(sum)s, not %(total)s: %(difference)s too much.")
                if p["difference"] > 0
                else _("The amounts add up to %(sum)s, not %(total)s: %(difference)s short.")
            )
            % {**p, "difference": abs(p["difference"])}
        ),
        "custom_amounts": lambda: _("Give every player in the deal a whole amount of at least 0."),
        "prizes_not_descending": lambda: _("A lower place cannot be paid more than a higher one."),
        "bad_kind": lambda: _("A deal is ICM, a chip chop or a custom split."),
    }
    message = messages.get(exc.code, lambda: exc.message)()
    field = {"left_to_play_for": "left_to_play_for", "custom_total": "amounts", "custom_amounts": "amounts"}
    return RuleError(message, code=exc.code, field=field.get(exc.code), params=p)


def _custom_list(custom: dict[int, int] | None, entries: list[Entry]) -> list[int] | None:
    if custom is None:
        return None
    unknown = set(custom) - {e.pk for e in entries}
    if unknown:
        raise ValidationError(
            {"amounts": _("Entry %(id)s is not a player left in this tournament.") % {"id": min(unknown)}}
        )
    return [custom.get(e.pk) for e in entries]


def propose_deal(
    tournament: Tournament, kind: str, *, left_to_play_for: int = 0, custom: dict[int, int] | None = None
) -> tuple[dealmath.Proposal, list[Entry]]:
    """What each player left would get in a deal of this kind (no write): the proposal, and the
    players in its order (most chips first)."""
    if kind not in KINDS:
        raise ValidationError({"kind": _("A deal is ICM, a chip chop or a custom split.")})
    entries = players_left(tournament)
    _check_state(tournament, entries)
    try:
        proposal = dealmath.propose(
            kind,
            [e.chips for e in entries],
            prizes_left(tournament, len(entries)),
            left_to_play_for,
            _custom_list(custom, entries),
        )
    except dealmath.DealError as exc:
        raise _rule_error(exc) from exc
    return proposal, entries


@transaction.atomic
def record_deal(
    tournament: Tournament,
    kind: str,
    *,
    agreed: list[int],
    left_to_play_for: int = 0,
    custom: dict[int, int] | None = None,
    expected: dict[int, int] | None = None,
    actor=None,
    now=None,
) -> Deal:
    """Record the deal every player left agreed to (``agreed``: their entry ids) and pay it out.

    ``expected``: the amounts the players were shown, by entry id; if the chips changed since, the
    amounts would too, so the deal is refused (409) for the players to see the new ones."""
    tournament = locked(tournament)
    proposal, entries = propose_deal(tournament, kind, left_to_play_for=left_to_play_for, custom=custom)
    ids = {e.pk for e in entries}
    agreed_ids = set(agreed)
    if agreed_ids - ids:
        raise ValidationError(
            {
                "agreed": _("Entry %(id)s is not a player left in this tournament.")
                % {"id": min(agreed_ids - ids)}
            }
        )
    missing = [e for e in entries if e.pk not in agreed_ids]
    if missing:
        raise RuleError(
            _("Every player left must agree to a deal: %(names)s has not.")
            % {"names": ", ".join(str(e) for e in missing)},
            code="not_everyone_agreed",
            field="agreed",
            params={"missing": [e.pk for e in missing], "players": len(entries)},
        )
    busy = (
        Seat.objects.filter(entry__in=entries, table__hand_in_progress=True).select_related("table").first()
    )
    if busy is not None:
        raise StateError(
            _("Table %(table)s is in a hand: record the deal when it is over.")
            % {"table": busy.table.number},
            code="in_a_hand",
        )
    amounts = dict(zip((e.pk for e in entries), proposal.amounts))
    if expected is not None and {int(k): v for k, v in expected.items()} != amounts:
        raise StateError(
            _("The chips or the prizes changed since the players saw these amounts: show them the new ones."),
            code="changed",
            params={"amounts": {str(k): v for k, v in amounts.items()}},
        )
    deal = Deal.objects.create(
        tournament=tournament,
        kind=kind,
        players=len(entries),
        prize_money=proposal.prize_money,
        left_to_play_for=proposal.left_to_play_for,
        method=proposal.method,
        samples=proposal.samples,
        standard_error=proposal.standard_error,
        recorded_by=actor if getattr(actor, "is_authenticated", False) else None,
    )
    DealShare.objects.bulk_create(
        DealShare(deal=deal, entry=e, chips=e.chips, amount=amount, without_deal=without, agreed=True)
        for e, amount, without in zip(entries, proposal.amounts, proposal.without_deal)
    )
    record_audit(
        actor,
        AuditAction.DEAL_RECORD,
        tournament,
        data={
            "kind": kind,
            "method": proposal.method,
            "samples": proposal.samples,
            "standard_error": round(proposal.standard_error, 2),
            "prize_money": proposal.prize_money,
            "left_to_play_for": proposal.left_to_play_for,
            "shares": [
                {
                    "entry": e.pk,
                    "name": str(e),
                    "chips": e.chips,
                    "amount": a,
                    "without_deal": w,
                    "agreed": True,
                }
                for e, a, w in zip(entries, proposal.amounts, proposal.without_deal)
            ],
        },
    )
    _end_talk(tournament, actor=actor, now=now)
    recompute_prizes(tournament)
    clock_changed(tournament.pk)
    return deal


@transaction.atomic
def start_deal_talk(tournament: Tournament, *, actor=None, now=None) -> Tournament:
    """The players want to talk about a deal: the clock pauses (unless ``clock_runs_during_deal``)."""
    now = now or timezone.now()
    tournament = locked(tournament)
    _check_state(tournament, players_left(tournament))
    if tournament.deal_talk_since is not None:
        raise StateError(_("The players are already talking about a deal."), code="already_talking")
    paused = False
    running = clock_state(tournament, now).running
    if running and not tournament.clock_runs_during_deal and not tournament.hand_for_hand:
        tournament = clock_op(
            tournament,
            clockmath.pause,
            actor=actor,
            action=AuditAction.CLOCK_PAUSE,
            now=now,
            data={"deal_talk": True},
        )
        paused = True
    tournament.deal_talk_since = now
    tournament.deal_talk_paused_clock = paused
    tournament.save(update_fields=["deal_talk_since", "deal_talk_paused_clock"])
    record_audit(actor, AuditAction.DEAL_TALK_START, tournament, data={"clock_paused": paused})
    clock_changed(tournament.pk)
    return tournament


@transaction.atomic
def end_deal_talk(tournament: Tournament, *, actor=None, now=None) -> Tournament:
    """No deal (this time): the clock resumes if the talk paused it."""
    tournament = locked(tournament)
    if tournament.deal_talk_since is None:
        raise StateError(_("No deal talk is under way."), code="not_talking")
    tournament = _end_talk(tournament, actor=actor, now=now)
    clock_changed(tournament.pk)
    return tournament


def _end_talk(tournament: Tournament, *, actor, now) -> Tournament:
    if tournament.deal_talk_since is None:
        return tournament
    now = now or timezone.now()
    resumed = False
    if (
        tournament.deal_talk_paused_clock
        and tournament.paused_at is not None
        and not tournament.hand_for_hand
        and tournament.status in (Status.RUNNING, Status.ON_BREAK)
    ):
        tournament = clock_op(
            tournament,
            clockmath.resume,
            actor=actor,
            action=AuditAction.CLOCK_RESUME,
            now=now,
            data={"deal_talk": True},
        )
        resumed = True
    seconds = round((now - tournament.deal_talk_since).total_seconds())
    tournament.deal_talk_since = None
    tournament.deal_talk_paused_clock = False
    tournament.save(update_fields=["deal_talk_since", "deal_talk_paused_clock"])
    record_audit(
        actor, AuditAction.DEAL_TALK_END, tournament, data={"clock_resumed": resumed, "seconds": seconds}
    )
    return tournament
