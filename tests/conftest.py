import os
import shutil
import sys
import tempfile

# The socket tests drive consumers from async tests that also set up data with the ORM; Django refuses
# sync ORM calls from an async context unless told that this is deliberate (this process only: the
# servers that tests start as subprocesses run without it, as in production).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


import pytest
from django.contrib.auth.models import Permission
from rest_framework.test import APIClient

# Python's own, before any test imports the server's entry point (config.asgi sets the servers').
PYTHON_SWITCH_INTERVAL = sys.getswitchinterval()


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, tmp_path_factory, request):
    """SQLite tests use a database file, not the shared in-memory database: with several threads (the
    concurrency tests) the in-memory one fails at once with "database table is locked" instead of
    waiting its turn like a real SQLite file in IMMEDIATE mode does."""
    from django.conf import settings

    db = settings.DATABASES["default"]
    if db["ENGINE"] == "django.db.backends.sqlite3" and not db.get("TEST", {}).get("NAME"):
        # In memory where the machine has it (/dev/shm): the workers' commits never wait on the disk.
        if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
            folder = tempfile.mkdtemp(prefix="courchevel-test-", dir="/dev/shm")
            request.addfinalizer(lambda: shutil.rmtree(folder, ignore_errors=True))
        else:
            folder = str(tmp_path_factory.mktemp("sqlite"))
        db.setdefault("TEST", {})["NAME"] = os.path.join(folder, "test.sqlite3")


@pytest.fixture(autouse=True)
def _no_server_collector_keeping():
    """Importing config.asgi (the socket tests) starts what a server does about the garbage collector
    (config.gc_pauses: the pause log, a freeze and a young collection every 0.5 s from a thread of its
    own). The test process is no server: each test runs with Python's own collector (and the log is
    never left on for collections after the log's streams are closed)."""
    from config import gc_pauses

    gc_pauses.stop_settling()
    gc_pauses.unwatch()
    sys.setswitchinterval(PYTHON_SWITCH_INTERVAL)  # and Python's own switch interval (config.threads)
    yield
    gc_pauses.unwatch()


@pytest.fixture(autouse=True)
def _english_to_start_with():
    """Each test starts in the default language: a request in another language (a French clock screen,
    an Italian staff account) leaves its thread's language active for the next test on that worker."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _shipped_templates(request):
    """The blind-structure templates a data migration ships, present in every test that uses the
    database: a transactional test's flush deletes them for the tests that run after it on the same
    worker (tests of one file share a worker: ``--dist loadfile``)."""
    marker = request.node.get_closest_marker("django_db")
    transactional = (marker is not None and marker.kwargs.get("transaction")) or (
        "transactional_db" in request.fixturenames or "live_server" in request.fixturenames
    )
    if transactional or (marker is None and "db" not in request.fixturenames):
        return
    request.getfixturevalue("db")
    from tournaments.models import BlindStructure, Level
    from tournaments.structures import install_templates, templates

    if BlindStructure.objects.filter(is_template=True).count() < len(templates()):
        install_templates(BlindStructure, Level)


# --- who is asking ---------------------------------------------------------------------------------
# No passwords: hashing is slow, and the tests sign in with force_login / force_authenticate.


@pytest.fixture
def staff(django_user_model):
    """The tournament director: staff, no special permissions."""
    return django_user_model.objects.create_user("director", is_staff=True)


@pytest.fixture
def floor(django_user_model):
    """A floor person: staff who may void and correct hands (dealing.change_hand)."""
    user = django_user_model.objects.create_user("floor", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="change_hand"))
    return user


@pytest.fixture
def deck_prep(django_user_model):
    """Deck preparation: staff who may see a seeded hand's deck (dealing.view_deck)."""
    user = django_user_model.objects.create_user("deckprep", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="view_deck"))
    return user


@pytest.fixture
def api(staff):
    """The API as the director."""
    client = APIClient()
    client.force_authenticate(staff)
    return client


@pytest.fixture
def anon(db):
    """The API as nobody."""
    return APIClient()


@pytest.fixture(autouse=True)
def fresh_rate_limits(request):
    """Each test starts with no sign-in failures and no API requests counted (the cache is the local
    memory of this process), and with API rates no test reaches by accident; the tests of the limits
    themselves (tests/security) set the rates they check with the ``settings`` fixture."""
    from django.conf import settings
    from django.core.cache import cache

    from dealing import hand_cache

    cache.clear()
    hand_cache.clear()  # hands kept in memory by an earlier test's committed inputs
    saved = settings.THROTTLE_RATES
    settings.THROTTLE_RATES = {scope: "100000/60" for scope in saved}
    yield
    settings.THROTTLE_RATES = saved
    cache.clear()


@pytest.fixture
def balance_task_inline(monkeypatch):
    """Queued balance tasks run at once, whatever broker is configured (Redis in the integration run);
    the list of the tournaments they ran for. With ``django_capture_on_commit_callbacks(execute=True)``
    they run where a worker would: after the commit of what queued them. ``.held = True``: they are
    only listed, as if no worker had taken them yet."""
    from tables import tasks

    class Queued(list):
        held = False

    queued = Queued()

    def delay(tournament_id):
        queued.append(tournament_id)
        if not queued.held:
            tasks.balance_tournament(tournament_id)

    monkeypatch.setattr(tasks.balance_tournament, "delay", delay)
    return queued
