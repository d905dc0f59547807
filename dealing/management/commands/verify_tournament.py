"""manage.py verify_tournament TOURNAMENT_ID: verify every finished hand of a tournament."""

from django.core.management.base import BaseCommand, CommandError

from dealing.verification import verify_tournament, write_report
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Check every finished hand of a tournament, and each hand's seed against the master seed."

    def add_arguments(self, parser):
        parser.add_argument("tournament_id", type=int)
        parser.add_argument("--json", action="store_true", help="Print the report as JSON.")

    def handle(self, *args, tournament_id, **options):
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is None:
            raise CommandError(f"No tournament with id {tournament_id}.")
        report = verify_tournament(tournament)
        write_report(self.stdout, report, as_json=options["json"])
        if not report.ok:
            raise CommandError(f"Tournament {tournament_id} has hands that do not verify.", returncode=2)
