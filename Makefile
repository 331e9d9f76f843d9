# The commands of README.md. The machine needs Python 3.11; PostgreSQL and Redis come
# from Python packages when no server is given; `make test` installs Chromium with
# apt-get when it is missing.

SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
PYTEST_ARGS ?=
BENCH_ARGS ?=

.PHONY: run test lint bench-deadlines bench bench-solver bench-faults bench-leagues bench-moderation bench-pages

$(PY):
	$(PYTHON) -m venv $(VENV)

# Stamps: reinstall only when the dependencies change.
$(VENV)/.installed-run: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --editable .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --editable ".[dev]"
	touch $@ $(VENV)/.installed-run

## run: the whole app on http://127.0.0.1:$PORT (8000) with Celery workers (main, bots) and beat
# config.runstack starts PostgreSQL and Redis unless DATABASE_URL / REDIS_URL are set,
# then migrates, collects the static files and creates the demo accounts before the app.
run: export DEBUG ?= true
run: $(VENV)/.installed-run
	$(PY) -m config.runstack

## test: the whole test suite against PostgreSQL, Redis and Chromium (the tests that need no
## live server on every core, then the browser and server tests one at a time)
test: $(VENV)/.installed-dev
	PY=$(PY) scripts/test-env.sh scripts/run-tests.sh $(PYTEST_ARGS)

## bench-deadlines: how late timed-out turns are applied, and how long a sweep takes
bench-deadlines: $(VENV)/.installed-dev
	scripts/test-env.sh $(PY) benchmarks/bench_deadlines.py

## bench: move latency over 50 games and push latency to 20 pages, on daphne, PostgreSQL, Redis, Celery
bench: $(VENV)/.installed-dev
	scripts/test-env.sh $(PY) benchmarks/bench_web.py $(BENCH_ARGS)

## bench-faults: Celery workers killed, Redis restarted, database connections dropped, 50 games in play
bench-faults: $(VENV)/.installed-dev
	scripts/test-env.sh $(PY) benchmarks/bench_faults.py $(BENCH_ARGS)

## bench-solver: the exact solver over the sample positions (p50/p90/max per table size)
bench-solver: $(VENV)/.installed-dev
	$(PY) benchmarks/bench_solver.py

## lint: ruff (lint and format), mypy --strict, the import contracts
lint: $(VENV)/.installed-dev
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy
	$(VENV)/bin/lint-imports --no-cache --no-logo

## bench-leagues: a league of 200 players and 2,000 finished games: the standings page, a recompute after a ruling, the schedule
bench-leagues: $(VENV)/.installed-dev
	scripts/test-env.sh $(PY) benchmarks/bench_leagues.py $(BENCH_ARGS)

## bench-moderation: a case's evidence (a 4-player game of 120 turns, solver lines included: first open and cached) and a ruling in a 200-player league
bench-moderation: $(VENV)/.installed-dev
	scripts/test-env.sh $(PY) benchmarks/bench_moderation.py $(BENCH_ARGS)

## bench-pages: the main pages (lobby, your move, season, queue, ...) with 1,000 and with 100,000 games on the site: p50/p95 and queries per page
bench-pages: $(VENV)/.installed-dev
	scripts/test-env.sh $(PY) benchmarks/bench_pages.py $(BENCH_ARGS)
