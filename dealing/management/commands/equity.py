"""manage.py equity HAND vs HAND [vs HAND ...] [--board ..] [--dead ..] [--game ..] [--samples N]:
each player's chances and share of the pot with every hand face up (dealing.engine.equity).

    python manage.py equity Ah Kd Qs Jc Th vs 2c 3d 4h 5s 6c --board 7h --game courchevel_hilo
"""

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from dealing.engine import RuleError
from dealing.engine.hand import COURCHEVEL, COURCHEVEL_HILO, GAMES
from dealing.equity import ERRORS, refusal  # noqa: F401  (ERRORS: the refusals' wording lives there)
from tournaments.models import Game

SEPARATOR = "vs"


def percent(chance: float | None) -> str:
    return "-" if chance is None else f"{chance:.2%}"


class Command(BaseCommand):
    @property
    def help(self) -> str:  # argparse needs a plain string, translated when the parser is made
        return _(
            "All-in equity: each hand's chances and share of the pot over every remaining board (or a "
            "sample of them). Hands are five card codes each, separated by vs."
        )

    def add_arguments(self, parser):
        parser.add_argument("cards", nargs="+", help=_("Hands of five card codes, separated by vs."))
        parser.add_argument("--board", nargs="*", default=[], help=_("The board cards dealt so far."))
        parser.add_argument("--dead", nargs="*", default=[], help=_("Cards out of play."))
        parser.add_argument("--game", choices=GAMES, default=COURCHEVEL, help=_("The game."))
        parser.add_argument(
            "--samples", type=int, help=_("Sample this many boards instead of counting them all.")
        )
        parser.add_argument("--seed", type=int, help=_("Seed for the sampling, to repeat an answer."))

    def handle(self, *args, cards, board, dead, game, samples, seed, **options):
        from dealing.engine import all_in_equity  # loads NumPy: only when asked

        hands: list[list[str]] = [[]]
        for card in cards:
            if card.lower() == SEPARATOR:
                hands.append([])
            else:
                hands[-1].append(card)
        try:
            result = all_in_equity(hands, board, dead=dead, game=game, samples=samples, seed=seed)
        except RuleError as error:
            raise CommandError(refusal(error)) from error
        self.stdout.write(self.report(result))

    def report(self, result) -> str:
        hilo = result.game == COURCHEVEL_HILO
        title = str(Game(result.game).label)
        if result.board:
            title = _("%(game)s, board %(board)s") % {"game": title, "board": " ".join(result.board)}
        lines = [title]
        if result.dead:
            lines.append(_("Dead cards: %(cards)s") % {"cards": " ".join(result.dead)})
        if result.method == "exact":
            lines.append(
                _("Exact: every one of the %(boards)s remaining boards.") % {"boards": f"{result.boards:,}"}
            )
        else:
            lines.append(
                _(
                    "Sampled: %(boards)s of the %(total)s remaining boards, seed %(seed)s; "
                    "± is one standard error."
                )
                % {"boards": f"{result.boards:,}", "total": f"{result.total_boards:,}", "seed": result.seed}
            )
        headers = [_("Hand"), _("Share"), _("High win"), _("High tie")]
        if hilo:
            headers += [_("Low win"), _("Low tie")]
        headers += [_("Scoop"), _("Split")]
        rows = []
        for player in result.players:
            share = percent(player.share)
            if result.method != "exact":
                share = _("%(share)s ± %(error)s") % {"share": share, "error": percent(player.share_error)}
            row = [" ".join(player.hole), share, percent(player.high_win), percent(player.high_tie)]
            if hilo:
                row += [percent(player.low_win), percent(player.low_tie)]
            rows.append([*row, percent(player.scoop), percent(player.split)])
        widths = [max(len(r[i]) for r in [headers, *rows]) for i in range(len(headers))]
        lines.append("")
        for row in [headers, *rows]:
            cells = [row[0].ljust(widths[0])] + [
                cell.rjust(width) for cell, width in zip(row[1:], widths[1:])
            ]
            lines.append("  ".join(cells).rstrip())
        if hilo:
            lines.append("")
            lines.append(
                _("No qualifying low: %(chance)s of the boards.") % {"chance": percent(result.no_low)}
            )
        return "\n".join(lines)
