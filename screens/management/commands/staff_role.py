"""``manage.py staff_role <username> <role>``: give a staff account its role (docs/directors-guide.md,
"Roles"). The role is one of director, floor, desk, deckprep; the account keeps its password."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from screens.roles import ROLE_LABELS, ROLE_NAMES, set_role


class Command(BaseCommand):
    help = "Give a staff account one role: director, floor, desk (registration) or deckprep."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("role", choices=sorted(ROLE_NAMES))

    def handle(self, *args, username, role, **options):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(_("No account named %(username)s.") % {"username": username})
        set_role(user, ROLE_NAMES[role])
        self.stdout.write(
            _("%(username)s is now %(role)s.") % {"username": username, "role": ROLE_LABELS[ROLE_NAMES[role]]}
        )
