"""manage.py verify_hand HAND_ID: recompute a finished hand's deck from its seed and replay it."""

from django.core.management.base import BaseCommand, CommandError

from dealing.models import Hand
from dealing.verification import verify_hand, write_report


class Command(BaseCommand):
    help = "Check a finished hand: seed commitment, master seed, every dealt card and every award."

    def add_arguments(self, parser):
        parser.add_argument("hand_id", type=int)
        parser.add_argument("--json", action="store_true", help="Print the report as JSON.")

    def handle(self, *args, hand_id, **options):
        hand = Hand.objects.select_related("table", "table__tournament").filter(pk=hand_id).first()
        if hand is None:
            raise CommandError(f"No hand with id {hand_id}.")
        report = verify_hand(hand)
        write_report(self.stdout, report, as_json=options["json"])
        if not report.ok:
            raise CommandError(f"Hand {report.label} does not verify.", returncode=2)
