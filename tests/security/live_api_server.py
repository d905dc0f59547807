"""The server the schema fuzz (``test_schema_fuzz.py``) drives: daphne on loopback over a fresh SQLite file.

Run as ``python -m tests.security.live_api_server DB_PATH PORT``: migrates, makes a running
tournament with a hand in progress and a finished one, a staff user holding every dealing role, and
prints one JSON line (the ids, and the session cookie and CSRF token to send) before serving HTTP
until killed. The API rates are raised so the fuzz is not throttled (429 stays documented anyway).
Not collected by pytest.
"""

import json
import os
import sys


def main(db_path: str, port: int) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{db_path}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["DJANGO_DEBUG"] = "0"  # as in production: no debug pages
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission
    from django.core.management import call_command
    from django.middleware.csrf import _get_new_csrf_string
    from django.test import Client

    from dealing import services as dealing
    from tests.screens.browser_server import exit_with_parent
    from tests.screens.live import live_tournament as make_tournament

    settings.THROTTLE_RATES = {scope: "1000000/60" for scope in settings.THROTTLE_RATES}
    call_command("migrate", interactive=False, verbosity=0)
    user = get_user_model().objects.create_user("fuzz", password="fuzz-pw-1", is_staff=True)
    user.user_permissions.add(
        *Permission.objects.filter(
            codename__in=["view_deck", "change_hand"], content_type__app_label="dealing"
        )
    )
    tournament = make_tournament(players=6, name="Fuzz Cup", master_seed=True)
    table = tournament.tables.order_by("number").first()
    finished = dealing.start_next_hand(table, actor=user)
    dealing.void_hand(finished, actor=user, reason="fuzz: a voided hand")
    running = dealing.start_next_hand(table, actor=user)
    client = Client()
    client.force_login(user)
    csrf = _get_new_csrf_string()
    print(
        json.dumps(
            {
                "tournament": tournament.pk,
                "table": table.pk,
                "hand": running.pk,
                "voided_hand": finished.pk,
                "entry": tournament.entries.first().pk,
                "player": tournament.entries.first().player_id,
                "structure": tournament.structure_id,
                "level": tournament.structure.levels.first().pk,
                "session": client.cookies["sessionid"].value,
                "csrf": csrf,
            }
        ),
        flush=True,
    )
    from daphne.endpoints import build_endpoint_description_strings
    from daphne.server import Server

    from config.asgi import application

    exit_with_parent()
    Server(
        application=application,
        endpoints=build_endpoint_description_strings(host="127.0.0.1", port=port),
        signal_handlers=True,
        verbosity=0,
    ).run()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
