# The two commands a newcomer needs:  make run  (the service with a demo)  and  make test.
VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 8000

.PHONY: setup browser run test test-fast lint bench

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $@

# Browser tests drive Debian's Chromium (browser downloads are not possible here).
browser:
	@test -x /usr/bin/chromium || { \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q chromium; }

run: setup
	$(PY) manage.py serve --demo --port $(PORT)

test: setup browser
	$(VENV)/bin/lint-imports
	$(PY) -m pytest -n 2

test-fast: setup
	$(PY) -m pytest -m "not browser"
