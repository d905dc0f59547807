"""Setting a tournament up from the console: a new tournament, its settings, its blind structure.

The forms only read what was typed (whole numbers, lists of numbers, choices); every rule is the
services' (``tournaments.services``): their errors are shown next to the field they name. The setup
can change until the tournament starts; after that the page answers 409 and says why.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from tournaments import clock as clockmath
from tournaments import services, simulation, simulator
from tournaments.errors import TournamentError
from tournaments.models import AnteKind, Betting, BlindStructure, Game, Level, Tournament

from .flights import duration_text
from .staff import console_can

NOT_STARTED = (Tournament.Status.PLANNED, Tournament.Status.REGISTERING)
NULLABLE = {"max_players"}


class NumberListField(forms.CharField):
    """ "25, 100, 500" -> [25, 100, 500] (whole numbers, or decimals when ``decimals``)."""

    def __init__(self, *, decimals: bool = False, **kwargs):
        self.decimals = decimals
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)

    def to_python(self, value):
        text = (super().to_python(value) or "").replace(";", ",").strip()
        if not text:
            return []
        result = []
        for part in [p.strip() for p in text.split(",")]:
            try:
                number = float(part) if self.decimals else int(part)
            except ValueError:
                raise ValidationError(
                    _("List numbers separated by commas, e.g. 50, 30, 20.")
                    if self.decimals
                    else _("List whole numbers separated by commas, e.g. 25, 100, 500.")
                ) from None
            result.append(int(number) if self.decimals and number == int(number) else number)
        return result

    def prepare_value(self, value):
        if isinstance(value, list):
            return ", ".join(str(v) for v in value)
        return value


def _number(label, **kwargs):
    return forms.IntegerField(label=label, required=False, **kwargs)


class TournamentSetupForm(forms.Form):
    """What a director fills in; the services decide what is allowed."""

    name = forms.CharField(label=gettext_lazy("Name"), required=False, max_length=1000)
    game = forms.ChoiceField(label=gettext_lazy("Game"), choices=Game.choices)
    betting = forms.ChoiceField(label=gettext_lazy("Betting"), choices=Betting.choices)
    structure = forms.ChoiceField(label=gettext_lazy("Blind structure"), choices=())
    starting_stack = _number(
        gettext_lazy("Starting stack"), help_text=gettext_lazy("Empty: the structure's suggested stack.")
    )
    seats_per_table = _number(gettext_lazy("Seats per table"), initial=8)
    chip_denominations = NumberListField(
        label=gettext_lazy("Chip set"),
        help_text=gettext_lazy("Empty: the structure's chips. Breaks color up in the structure editor."),
    )
    late_registration_until_level = _number(
        gettext_lazy("Late registration until level"),
        initial=0,
        help_text=gettext_lazy("0: closes when the tournament starts."),
    )
    max_reentries = _number(gettext_lazy("Re-entries per player"), initial=0)
    max_players = _number(
        gettext_lazy("Maximum players"),
        help_text=gettext_lazy(
            "The seats the room has for it; when full, the desk keeps alternates. Empty: no limit."
        ),
    )
    rebuys_allowed = _number(gettext_lazy("Rebuys per player"), initial=0)
    rebuy_stack = _number(
        gettext_lazy("Rebuy stack"), initial=0, help_text=gettext_lazy("0: a starting stack.")
    )
    rebuy_price = _number(gettext_lazy("Rebuy price"), initial=0)
    addon_allowed = forms.BooleanField(label=gettext_lazy("Add-on"), required=False)
    addon_stack = _number(
        gettext_lazy("Add-on stack"), initial=0, help_text=gettext_lazy("0: a starting stack.")
    )
    addon_price = _number(gettext_lazy("Add-on price"), initial=0)
    buy_in = _number(gettext_lazy("Buy-in (to the prize pool)"), initial=0)
    fee = _number(gettext_lazy("Fee (to the house)"), initial=0)
    guarantee = _number(gettext_lazy("Guarantee"), initial=0)
    payout_percentages = NumberListField(
        decimals=True,
        label=gettext_lazy("Payouts (percent by place)"),
        help_text=gettext_lazy("e.g. 50, 30, 20. Empty: the standard curve for the field size."),
    )
    percent_paid = _number(gettext_lazy("Percent of the field paid (standard curve)"), initial=15)
    seeding = forms.ChoiceField(label=gettext_lazy("Shuffle seed"), choices=Tournament.Seeding.choices)
    clock_runs_during_deal = forms.BooleanField(
        label=gettext_lazy("The clock keeps running while players talk about a deal"), required=False
    )

    GROUPS = (
        (gettext_lazy("The game"), ("name", "game", "betting", "structure", "seeding")),
        (gettext_lazy("Chips and tables"), ("starting_stack", "seats_per_table", "chip_denominations")),
        (
            gettext_lazy("Entries"),
            (
                "late_registration_until_level",
                "max_players",
                "max_reentries",
                "rebuys_allowed",
                "rebuy_stack",
                "rebuy_price",
                "addon_allowed",
                "addon_stack",
                "addon_price",
            ),
        ),
        (
            gettext_lazy("Money"),
            ("buy_in", "fee", "guarantee", "payout_percentages", "percent_paid", "clock_runs_during_deal"),
        ),
    )

    def __init__(self, *args, editing: Tournament | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.editing = editing
        if editing is None:
            templates = BlindStructure.objects.filter(is_template=True).order_by("betting", "name")
            others = Tournament.objects.select_related("structure").order_by("-created_at")[:200]
            self.fields["structure"].choices = [
                (_("Templates"), [(f"template:{s.pk}", f"{s.name}") for s in templates]),
                (
                    _("Copy another tournament's structure"),
                    [(f"copy:{t.pk}", f"{t.name} ({t.get_betting_display()})") for t in others],
                ),
            ]
        else:
            # Fixed once created: the structure is the tournament's own (edited in the structure
            # editor), the betting goes with it, the seeding is chosen once (RULES section 7).
            for name in ("structure", "betting", "seeding"):
                del self.fields[name]

    def groups(self):
        return [
            (title, [self[name] for name in names if name in self.fields]) for title, names in self.GROUPS
        ]

    def chosen_structure(self) -> BlindStructure | None:
        kind, _sep, pk = self.cleaned_data.get("structure", "").partition(":")
        if not pk.isdigit():
            return None
        if kind == "template":
            return BlindStructure.objects.filter(pk=pk, is_template=True).first()
        tournament = Tournament.objects.select_related("structure").filter(pk=pk).first()
        return tournament.structure if tournament else None

    def service_fields(self) -> dict:
        """What was typed, for the service: blanks left out (the model's defaults apply)."""
        data = {}
        for name, value in self.cleaned_data.items():
            # A blank maximum field size is a value: no limit (it may clear one set before).
            if name == "structure" or (value is None and name not in NULLABLE):
                continue
            data[name] = value
        if data.get("chip_denominations"):
            data["smallest_chip"] = min(data["chip_denominations"])
        return data

    def show_error(self, exc) -> None:
        """A service's refusal, next to the field it names (or above the form)."""
        if isinstance(exc, ValidationError) and hasattr(exc, "error_dict"):
            for field, errors in exc.message_dict.items():
                field = "chip_denominations" if field == "smallest_chip" else field
                self.add_error(field if field in self.fields else None, errors)
        elif isinstance(exc, ValidationError):
            self.add_error(None, exc.messages)
        else:
            field = getattr(exc, "field", None)
            self.add_error(field if field in self.fields else None, str(exc.message))


def _status_of(exc) -> int:
    return getattr(exc, "status", 400)


@console_can("setup")
def tournament_new(request):
    """The new-tournament page: the game, the structure to start from, chips, entries and money."""
    form = TournamentSetupForm(request.POST or None, initial={"seeding": Tournament.Seeding.FRESH})
    status = 200
    if request.method == "POST":
        if form.is_valid():
            structure = form.chosen_structure()
            fields = form.service_fields()
            if structure is None:
                form.add_error("structure", _("Choose a template or a tournament to copy."))
            else:
                if "starting_stack" not in fields and structure.starting_stack:
                    fields["starting_stack"] = structure.starting_stack
                try:
                    tournament = services.create_tournament(structure=structure, actor=request.user, **fields)
                except (TournamentError, ValidationError) as exc:
                    form.show_error(exc)
                    status = _status_of(exc)
                else:
                    messages.success(
                        request,
                        _("%(name)s is created. Check its blind structure, then open registration.")
                        % {"name": tournament.name},
                    )
                    return redirect("console-structure", tournament.pk)
        status = 400 if status == 200 else status
    return render(request, "console/setup.html", {"form": form, "tournament": None}, status=status)


def _started_response(request, tournament):
    return render(request, "console/setup_closed.html", {"tournament": tournament}, status=409)


@console_can("setup")
def tournament_setup(request, tournament_id: int):
    """The settings of a tournament that has not started yet."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if tournament.status not in NOT_STARTED:
        return _started_response(request, tournament)
    initial = {
        name: getattr(tournament, name) for name in TournamentSetupForm.base_fields if name != "structure"
    }
    form = TournamentSetupForm(request.POST or None, initial=initial, editing=tournament)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            fields = {
                name: value
                for name, value in form.service_fields().items()
                if value != getattr(tournament, name)
            }
            try:
                if fields:
                    services.update_tournament(tournament, actor=request.user, **fields)
            except (TournamentError, ValidationError) as exc:
                form.show_error(exc)
                status = _status_of(exc)
            else:
                messages.success(request, _("The settings are saved."))
                return redirect("console", tournament.pk)
        status = 400 if status == 200 else status
    return render(request, "console/setup.html", {"form": form, "tournament": tournament}, status=status)


# ---------------------------------------------------------------- the structure editor


class LevelForm(forms.Form):
    is_break = forms.BooleanField(required=False)
    duration_minutes = forms.IntegerField(required=False)
    small_blind = forms.IntegerField(required=False)
    big_blind = forms.IntegerField(required=False)
    ante_kind = forms.ChoiceField(choices=AnteKind.choices, required=False)
    ante = forms.IntegerField(required=False)
    small_bet = forms.IntegerField(required=False)
    big_bet = forms.IntegerField(required=False)
    color_up = NumberListField()
    order = forms.IntegerField(required=False)

    def values(self, *, is_break: bool, fixed_limit: bool) -> dict:
        data = {k: v for k, v in self.cleaned_data.items() if v not in (None, "")}
        data.pop("order", None)
        data.pop("is_break", None)
        if is_break:
            return {k: v for k, v in data.items() if k in ("duration_minutes", "color_up")}
        data.pop("color_up", None)
        if fixed_limit and "big_blind" in data:
            # R3.3: in fixed limit the stakes are named by the bets; the big blind is the small bet.
            data.setdefault("small_bet", data["big_blind"])
            data.setdefault("big_bet", 2 * data["small_bet"])
        return data


def _length(minutes: int) -> str:
    hours, rest = divmod(minutes, 60)
    return _("%(hours)s h %(minutes)02d min") % {"hours": hours, "minutes": rest}


def structure_rows(tournament: Tournament) -> list[dict]:
    levels = list(tournament.structure.levels.order_by("order"))
    numbers = clockmath.level_numbers([clockmath.Period(0, level.is_break) for level in levels])
    rows, elapsed = [], 0
    for level, number in zip(levels, numbers):
        rows.append({"level": level, "number": number, "starts_at": _length(elapsed)})
        elapsed += level.duration_minutes
    return rows


# The structure editor's forecast: runs of the simulator (docs/simulator.md), and the field it assumes
# before anyone has registered.
FORECAST_RUNS = 300
FORECAST_ENTRIES = 100


def structure_forecast(tournament: Tournament) -> dict | None:
    """How long the event will run as the structure stands, from the simulator (R-free: a forecast),
    with the field registered so far (or FORECAST_ENTRIES); None when the simulator cannot say."""
    entries, reentries = simulation.expected_field(tournament)
    entries = entries if entries >= 2 else FORECAST_ENTRIES
    try:
        report = simulation.simulate(
            simulation.config_of(tournament, entries, reentries), runs=FORECAST_RUNS, seed=0
        )
    except (simulator.SimulationError, ValidationError):
        return None
    spread = {
        k: {q: duration_text(v) for q, v in report[k].items()} for k in ("length", "bubble", "final_table")
    }
    return {"entries": entries, "runs": FORECAST_RUNS, **spread}


def _structure_page(request, tournament, *, errors=None, status=200):
    rows = structure_rows(tournament)
    total = sum(r["level"].duration_minutes for r in rows)
    return render(
        request,
        "console/structure.html",
        {
            "tournament": tournament,
            "rows": rows,
            "fixed_limit": tournament.betting == Betting.FIXED_LIMIT,
            "ante_kinds": AnteKind.choices,
            "length": _length(total),
            "play_levels": sum(1 for r in rows if not r["level"].is_break),
            "breaks": sum(1 for r in rows if r["level"].is_break),
            "errors": errors or {},
            "editable": tournament.status in NOT_STARTED,
            "forecast": structure_forecast(tournament),
        },
        status=status,
    )


def _level_errors(exc) -> dict:
    if isinstance(exc, ValidationError) and hasattr(exc, "error_dict"):
        return {field: " ".join(msgs) for field, msgs in exc.message_dict.items()}
    if isinstance(exc, ValidationError):
        return {"__all__": " ".join(exc.messages)}
    return {getattr(exc, "field", None) or "__all__": str(exc.message)}


@console_can("setup")
def structure_editor(request, tournament_id: int):
    tournament = get_object_or_404(Tournament.objects.select_related("structure"), pk=tournament_id)
    return _structure_page(request, tournament)


def _editable_or_409(request, tournament):
    if tournament.status not in NOT_STARTED:
        return _started_response(request, tournament)
    return None


@console_can("setup")
@require_POST
def structure_level_save(request, tournament_id: int, level_id: int):
    tournament = get_object_or_404(Tournament.objects.select_related("structure"), pk=tournament_id)
    closed = _editable_or_409(request, tournament)
    if closed:
        return closed
    level = get_object_or_404(Level, pk=level_id, structure=tournament.structure)
    form = LevelForm(request.POST)
    if not form.is_valid():
        errors = {k: " ".join(v) for k, v in form.errors.items()}
        return _structure_page(request, tournament, errors={level.pk: errors}, status=400)
    values = form.values(is_break=level.is_break, fixed_limit=tournament.betting == Betting.FIXED_LIMIT)
    if not level.is_break and values.get("ante_kind") == AnteKind.NONE:
        values.setdefault("ante", 0)
    try:
        services.update_level(level, actor=request.user, **values)
    except (TournamentError, ValidationError) as exc:
        return _structure_page(
            request, tournament, errors={level.pk: _level_errors(exc)}, status=_status_of(exc)
        )
    messages.success(request, _("The level is saved."))
    return redirect(reverse("console-structure", args=[tournament.pk]) + f"#level-{level.pk}")


@console_can("setup")
@require_POST
def structure_level_add(request, tournament_id: int):
    tournament = get_object_or_404(Tournament.objects.select_related("structure"), pk=tournament_id)
    closed = _editable_or_409(request, tournament)
    if closed:
        return closed
    form = LevelForm(request.POST)
    if not form.is_valid():
        errors = {k: " ".join(v) for k, v in form.errors.items()}
        return _structure_page(request, tournament, errors={"new": errors}, status=400)
    is_break = form.cleaned_data["is_break"]
    values = form.values(is_break=is_break, fixed_limit=tournament.betting == Betting.FIXED_LIMIT)
    values.setdefault("duration_minutes", 0)
    order = form.cleaned_data.get("order")
    try:
        services.add_level(
            tournament.structure,
            actor=request.user,
            is_break=is_break,
            **values,
            **({"order": order - 1} if order else {}),
        )
    except (TournamentError, ValidationError) as exc:
        return _structure_page(
            request, tournament, errors={"new": _level_errors(exc)}, status=_status_of(exc)
        )
    messages.success(request, _("The break is added.") if is_break else _("The level is added."))
    return redirect("console-structure", tournament.pk)


@console_can("setup")
@require_POST
def structure_level_delete(request, tournament_id: int, level_id: int):
    tournament = get_object_or_404(Tournament.objects.select_related("structure"), pk=tournament_id)
    closed = _editable_or_409(request, tournament)
    if closed:
        return closed
    level = get_object_or_404(Level, pk=level_id, structure=tournament.structure)
    try:
        services.delete_level(level, actor=request.user)
    except (TournamentError, ValidationError) as exc:
        return _structure_page(
            request, tournament, errors={level.pk: _level_errors(exc)}, status=_status_of(exc)
        )
    messages.success(request, _("The level is deleted."))
    return redirect("console-structure", tournament.pk)
