"""The integration suite: real PostgreSQL, Redis, celery and daphne processes.

Every test here is marked ``integration`` and skipped unless DATABASE_URL (PostgreSQL) and
REDIS_URL are set; ``.ci/run`` starts throwaway servers and sets both. The Redis database named by
REDIS_URL is flushed before each test: point it at a server you can spare.

Processes run the product's own commands (``celery worker``, ``celery beat``, ``daphne``) on free
loopback ports, against the test database that pytest-django created, and are always stopped (the
whole process group, so no prefork child outlives its test).
"""

import os
from pathlib import Path

import pytest

from .processes import ROOT, Processes

CONFIGURED = os.environ.get("DATABASE_URL", "").startswith("postgres") and bool(os.environ.get("REDIS_URL"))


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    skip = pytest.mark.skip(reason="needs DATABASE_URL (PostgreSQL) and REDIS_URL")
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.integration)
            if not CONFIGURED:
                item.add_marker(skip)


@pytest.fixture
def redis_client():
    import redis

    client = redis.Redis.from_url(os.environ["REDIS_URL"], socket_timeout=5)
    client.flushdb()
    yield client
    client.flushdb()
    client.close()


@pytest.fixture
def service_env(transactional_db, redis_client):
    """The environment for product processes: the test database, the test Redis."""
    import dj_database_url
    from django.db import connection

    url = dj_database_url.parse(os.environ["DATABASE_URL"])
    test_name = connection.settings_dict["NAME"]
    database_url = f"postgres://{url['USER']}:{url['PASSWORD']}@{url['HOST']}:{url['PORT']}/{test_name}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DJANGO_ALLOW_ASYNC"))}
    env.update(
        DATABASE_URL=database_url,
        REDIS_URL=os.environ["REDIS_URL"],
        DJANGO_SETTINGS_MODULE="config.settings",
        PYTHONPATH=str(ROOT),
        PYTHONUNBUFFERED="1",
        # The integration tests sign their HTTP requests in with Basic auth (off outside tests).
        DJANGO_API_BASIC_AUTH="1",
    )
    return env


@pytest.fixture
def processes(service_env, tmp_path, request):
    procs = Processes(service_env, tmp_path)
    yield procs
    procs.stop_all()
    if request.node.rep_call.failed if hasattr(request.node, "rep_call") else False:
        print(procs.logs())


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)
