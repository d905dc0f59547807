"""The break's color-up and chip race (R8.7) from the console: one button, the service decides."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import Tournament

from .staff import console_can, error_text


def color_up_offered(tournament: Tournament, levels, state) -> list[int]:
    """The chips this break colors up, when the clock is on such a break and they are still in play."""
    if tournament.status != Tournament.Status.ON_BREAK or state is None or state.level_index >= len(levels):
        return []
    level = levels[state.level_index]
    in_play = set(tournament.chip_denominations or [])
    return sorted(set(level.color_up or []) & in_play) if level.is_break else []


@console_can("chip_counts")
@require_POST
def color_up(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    try:
        result = services.color_up(tournament, actor=request.user)
    except (TournamentError, ValidationError) as exc:
        messages.error(request, error_text(exc))
    else:
        messages.success(
            request,
            _("The chips are colored up and the odd chips raced off: %(count)s players won a chip.")
            % {"count": len(result.winners)},
        )
    return redirect(reverse("console", args=[tournament.pk]) + "#clock")
