"""The director's deal page and payout table page (issue 14 item 5).

The deal page works a deal out on a plain GET form (kind, amount left to play for, custom amounts:
nothing is written), shows each player's amount beside their chips and their value without a deal,
and records it with a POST that carries who agreed and the amounts the players were shown; the
service refuses amounts that no longer match the chips. Deal talk is a pair of buttons that stop
and restart the clock (unless the tournament lets it run).
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import deals as dealmath
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import Deal, Tournament
from tournaments.selectors import deal_of

from .staff import console_can, error_text


def _whole(value: str, field: str) -> int:
    value = (value or "").strip().replace(" ", "").replace(",", "")
    if not (value.isascii() and value.isdigit() and len(value) <= 15):
        raise ValidationError({field: _("Give a whole amount of at least 0.")})
    return int(value)


def _custom(data, entries) -> dict[int, int]:
    return {e.pk: _whole(data.get(f"amount_{e.pk}", ""), "amounts") for e in entries}


def _form(data) -> tuple[str, int]:
    kind = data.get("kind", Deal.Kind.ICM)
    if kind not in Deal.Kind.values:
        kind = Deal.Kind.ICM
    return kind, _whole(data.get("left", "") or "0", "left_to_play_for")


@console_can("payouts")
def deal_page(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    deal = deal_of(tournament)
    context = {"tournament": tournament, "deal": deal, "kinds": Deal.Kind.choices}
    if deal is not None:
        return render(request, "console/deal.html", context)
    entries = services.players_left(tournament)
    kind, left, problem, proposal = Deal.Kind.ICM, 0, "", None
    custom = {}
    try:
        kind, left = _form(request.GET)
        if kind == Deal.Kind.CUSTOM:
            custom = _custom(request.GET, entries) if "kind" in request.GET else {}
            # A first look at a custom split starts from the chip chop's amounts, to edit.
            if not custom or not any(custom.values()):
                chop, entries = services.propose_deal(tournament, "chip_chop", left_to_play_for=left)
                custom = dict(zip((e.pk for e in entries), chop.amounts))
        proposal, entries = services.propose_deal(
            tournament, kind, left_to_play_for=left, custom=custom or None
        )
    except (TournamentError, ValidationError) as exc:
        problem = error_text(exc)
    prizes = services.prizes_left(tournament, len(entries)) if entries else []
    rows = []
    for i, entry in enumerate(entries):
        rows.append(
            {
                "entry": entry,
                "chips": entry.chips,
                "without_deal": proposal.without_deal[i] if proposal else None,
                "amount": proposal.amounts[i] if proposal else None,
                "custom": custom.get(entry.pk, ""),
            }
        )
    context.update(
        {
            "rows": rows,
            "kind": kind,
            "left": left,
            "problem": problem,
            "proposal": proposal,
            "prizes": prizes,
            "prize_money": sum(prizes),
            "max_left": dealmath.max_left_to_play_for(prizes) if prizes else 0,
            "exact_players": dealmath.EXACT_ICM_PLAYERS,
            "talking": tournament.deal_talk_since is not None,
        }
    )
    return render(request, "console/deal.html", context)


def _back(tournament: Tournament, query: str = ""):
    return redirect(reverse("console-deal", args=[tournament.pk]) + query)


@console_can("payouts")
@require_POST
def deal_record(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    entries = services.players_left(tournament)
    try:
        kind, left = _form(request.POST)
        custom = _custom(request.POST, entries) if kind == Deal.Kind.CUSTOM else None
        expected = {e.pk: _whole(request.POST.get(f"shown_{e.pk}", ""), "amounts") for e in entries}
        agreed = [e.pk for e in entries if request.POST.get(f"agreed_{e.pk}")]
        services.record_deal(
            tournament,
            kind,
            agreed=agreed,
            left_to_play_for=left,
            custom=custom,
            expected=expected,
            actor=request.user,
        )
    except (TournamentError, ValidationError) as exc:
        messages.error(request, error_text(exc))
        return _back(tournament, _keep(request.POST))
    messages.success(request, _("The deal is recorded: each player's prize is their deal amount."))
    return _back(tournament)


def _keep(post) -> str:
    """The form as it was (kind, amount left, custom amounts), so a refusal changes nothing on screen."""
    keep = {k: v for k, v in post.items() if k in ("kind", "left") or k.startswith("amount_")}
    if not keep:
        return ""
    return "?" + urlencode(keep)


@console_can("payouts")
@require_POST
def deal_talk(request, tournament_id: int, action: str):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if action not in ("start", "end"):
        raise Http404(_("No such deal talk action."))
    try:
        if action == "start":
            tournament = services.start_deal_talk(tournament, actor=request.user)
            messages.success(
                request,
                _("Deal talk: the clock is paused until the deal is recorded or the talk ends.")
                if tournament.deal_talk_paused_clock
                else _("Deal talk: the clock keeps running (as this tournament is set up)."),
            )
        else:
            services.end_deal_talk(tournament, actor=request.user)
            messages.success(request, _("No deal: play on."))
    except (TournamentError, ValidationError) as exc:
        messages.error(request, error_text(exc))
    return _back(tournament)


# ---------------------------------------------------------------- the payout table in amounts

BLANK_ROWS = 3


@console_can("payouts")
def payout_table_page(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    typed = None
    if request.method == "POST":
        typed = request.POST.getlist("amount")
        try:
            if request.POST.get("clear"):
                amounts = []
            else:
                # Empty rows at the end are places not paid; one in the middle is a mistake.
                while typed and not typed[-1].strip():
                    typed.pop()
                amounts = [_whole(value, "amounts") for value in typed]
            services.set_payout_table(tournament, amounts, actor=request.user)
        except (TournamentError, ValidationError) as exc:
            messages.error(request, error_text(exc))
        else:
            messages.success(request, _("The payout table is saved."))
            return redirect("console-payouts", tournament.pk)
    table = services.payout_table(tournament)
    rows = [str(a) for a in table] if typed is None else typed
    rows = rows + [""] * BLANK_ROWS
    pool = services.prize_pool(tournament)
    made_for = sum(tournament.payout_amounts or [])
    return render(
        request,
        "console/payouts.html",
        {
            "tournament": tournament,
            "rows": list(enumerate(rows, start=1)),
            "pool": pool,
            "own_table": bool(tournament.payout_amounts),
            "rescaled": bool(tournament.payout_amounts) and made_for != pool,
            "made_for": made_for,
            "deal": Deal.objects.filter(tournament=tournament).exists(),
            "finished_places": tournament.entries.filter(place__isnull=False).count(),
        },
    )
