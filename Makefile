# The two commands of README.md:
#   make play   install what is missing, build static/vendor, serve on http://127.0.0.1:8000/
#   make test   install everything the tests need, build, lint, type-check, run all tests
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
VPY := $(VENV)/bin/python
PORT ?= 8000
BROKER_PORT ?= 9000
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: play test build deps browser lint typecheck unit e2e clean

play: build
	$(PYTHON) scripts/serve.py --port $(PORT) --broker-port $(BROKER_PORT)

test: build $(VENV)/.installed browser lint typecheck unit e2e

# npm packages (package-lock.json) into node_modules/
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund

build: node_modules/.package-lock.json
	$(PYTHON) scripts/build.py

# pip packages (requirements-dev.txt) into .venv/
$(VENV)/.installed: requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

deps: node_modules/.package-lock.json $(VENV)/.installed browser

# A Chromium for Playwright: its own if installed, else Debian's (apt-get when missing).
browser: $(VENV)/.installed
	@if command -v chromium >/dev/null || $(VPY) -c 'import pathlib, sys; \
	from playwright.sync_api import sync_playwright; p = sync_playwright().start(); \
	found = pathlib.Path(p.chromium.executable_path).exists(); p.stop(); sys.exit(not found)'; \
	then echo "browser: found"; \
	else $(SUDO) apt-get update && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; fi

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check py tests e2e scripts boot

typecheck: $(VENV)/.installed
	$(VENV)/bin/mypy

# pytest exits 5 when a folder has no tests yet: that is not a failure. Two workers
# (pytest-xdist): one per core of the 2-core machine the suite's budgets are measured on.
WORKERS ?= 2
unit: $(VENV)/.installed
	$(VPY) -m pytest -n $(WORKERS) tests; rc=$$?; [ $$rc -eq 0 ] || [ $$rc -eq 5 ]

e2e: build $(VENV)/.installed browser
	$(VPY) -m pytest -n $(WORKERS) e2e; rc=$$?; [ $$rc -eq 0 ] || [ $$rc -eq 5 ]

clean:
	rm -rf static/vendor
