# The two commands a newcomer needs:  make run  (the service with a demo)  and  make test.
VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 8000

.PHONY: setup messages gettext lock browser run test test-fast lint bench

setup: $(VENV)/.installed messages

# The translation catalogues (docs/translations.md): config/locale's .po files are committed, the .mo
# files Django reads are compiled from them here (and are not committed).
PO_FILES := $(wildcard config/locale/*/LC_MESSAGES/*.po)
messages: $(PO_FILES:.po=.mo)

%.mo: %.po | gettext
	msgfmt --check-format --check-header -o $@ $<

# GNU gettext: msgfmt compiles the catalogues, xgettext (makemessages, and the catalogue test) reads the code.
gettext:
	@command -v msgfmt >/dev/null && command -v xgettext >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q gettext; }

$(VENV)/.installed: pyproject.toml requirements.lock
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	# Exactly the tested versions (requirements.lock), then the project itself without re-resolving.
	$(PY) -m pip install -q -r requirements.lock
	$(PY) -m pip install -q --no-deps -e .
	touch $@

# Re-resolve the lock file after changing pyproject.toml's dependencies.
lock: setup
	$(VENV)/bin/uv pip compile pyproject.toml --extra test --python-version 3.11 -o requirements.lock -q
	$(VENV)/bin/uv pip compile pyproject.toml --python-version 3.11 -c requirements.lock -o docker/requirements.lock -q

# Browser tests drive Debian's Chromium (browser downloads are not possible here).
browser:
	@test -x /usr/bin/chromium || { \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q chromium; }

run: setup
	$(PY) manage.py serve --demo --port $(PORT)

test: setup browser
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(PY) -m pytest -n 2

test-fast: setup
	$(PY) -m pytest -m "not browser"
