"""Fixtures for the live-screen tests: a small running tournament with seated tables."""

import pytest
from django.contrib.auth import get_user_model

from tests.screens.browser_server import SERVER_KEY, browser_server
from tests.screens.live import live_tournament


@pytest.fixture
def tournament(db):
    return live_tournament()


@pytest.fixture
def plain_user(db):
    return get_user_model().objects.create_user("someone", password="pw-someone-1")


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


# The browser tests' server (tests/screens/browser_server.py) takes a while to migrate a fresh database
# and warm up, so it is started as soon as pytest knows that browser tests will run, and the other tests
# run meanwhile.


@pytest.hookimpl(trylast=True)  # after -m / -k have deselected what will not run
def pytest_collection_modifyitems(session, config, items):
    import os

    if hasattr(config, "workerinput") or not os.path.exists("/usr/bin/chromium"):
        return  # under xdist each worker starts the server only if it runs a browser test
    if any(item.get_closest_marker("browser") and "tests/screens/" in item.nodeid for item in items):
        browser_server(config)


def pytest_unconfigure(config):
    server = getattr(config, SERVER_KEY, None)
    if server is not None:
        server.stop()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed browser test shows the end of its server's log: a stalled page is explained there
    (a 503, a lock wait, a traceback), not in the browser."""
    outcome = yield
    report = outcome.get_result()
    server = getattr(item.config, SERVER_KEY, None)
    if report.failed and server is not None and item.get_closest_marker("browser"):
        try:
            tail = server.log_path.read_text(errors="replace")[-6000:]
        except OSError as error:
            tail = f"(the server's log could not be read: {error})"
        report.sections.append(("browser server log (last 6,000 characters)", tail))
