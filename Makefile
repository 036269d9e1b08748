# Percentile. `make run`: the app with a demo campaign; `make test`: the test suite;
# `make test-fast`: its pure rules and services only.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
MANAGE := $(BIN)/python manage.py
ADDR ?= 127.0.0.1:8000
HOST = $(word 1,$(subst :, ,$(ADDR)))
PORT = $(word 2,$(subst :, ,$(ADDR)))

.PHONY: run test test-fast bench lint typecheck install messages migrate clean lock audit

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

# The .txt files are locks (every package pinned with its hashes), compiled from the hand-edited
# .in files by `make lock`.
$(VENV)/.installed: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/pip install --quiet --require-hashes -r requirements-dev.txt
	touch $@

install: $(VENV)/.installed

migrate: install
	mkdir -p var
	$(MANAGE) migrate --noinput
	$(MANAGE) createcachetable

run: export DEBUG ?= 1
run: migrate
	$(MANAGE) load_demo
	@echo ""
	@echo "  Percentile runs at http://$(ADDR)/  (admin: http://$(ADDR)/admin/, API schema: http://$(ADDR)/api/schema/)"
	@echo "  Demo logins: gm, alice, bob; password: percentile-demo"
	@echo ""
	@# uvicorn serves the ASGI application, as production does (the encounter's server push
	@# needs it; static files come from whitenoise's finders with DEBUG on).
	@# One process group: Ctrl-C, or the server stopping, stops the worker too (the trap resets
	@# itself first, or kill 0 would signal the shell into its own trap again).
	@trap 'trap - EXIT INT TERM; kill 0' EXIT INT TERM; \
	  $(BIN)/celery -A config worker --beat --loglevel=INFO --concurrency=1 & \
	  $(BIN)/uvicorn config.asgi:application --host $(HOST) --port $(PORT) \
	    --timeout-graceful-shutdown 2

# On every core (pytest-xdist; PYTEST_WORKERS=0 runs in one process): the tests that must run
# alone stay together on one worker (tests/conftest.py, the "serial" group). The 25 slowest
# tests are listed at the end of each run.
PYTEST_WORKERS ?= auto
test: install
	$(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadgroup --durations=25 $(PYTEST_ARGS)

# The inner loop: the pure rules and the services of every system and of the encounter, in
# memory (SQLite, the database cache; DATABASE_URL and REDIS_URL are ignored), no browser, live
# server, deployment, PostgreSQL or Redis test, and no migration test (migrating back and forth
# is most of the time of tests/services: 4 tests, over half of it). Under 2 minutes on two cores.
FAST_TESTS := tests/gamerules tests/services tests/encounters/test_rules.py \
	tests/encounters/test_rules_invariants.py tests/encounters/test_services.py \
	tests/homebrew/test_services.py tests/eclipse/test_services.py
test-fast: install
	env -u DATABASE_URL -u REDIS_URL $(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadgroup \
	  -m "not browser and not deployment and not postgres and not redis" -k "not migration" \
	  $(FAST_TESTS) $(PYTEST_ARGS)

bench: install
	$(BIN)/python -m bench

messages: export DEBUG ?= 1
messages: install
	$(MANAGE) makemessages -l fr --ignore=.venv --ignore=var
	$(MANAGE) compilemessages --ignore=.venv

# Re-pin every package (and its hashes) from requirements.in and requirements-dev.in.
# `make lock UPGRADE=--upgrade` moves every pin to the newest release the .in files allow.
PIP_COMPILE = $(BIN)/pip-compile --quiet --generate-hashes --strip-extras --no-emit-index-url \
	--no-emit-find-links $(UPGRADE)
lock: | $(BIN)/python
	$(BIN)/pip install --quiet pip-tools==7.6.2
	$(PIP_COMPILE) -o requirements.txt requirements.in
	$(PIP_COMPILE) -o requirements-dev.txt requirements-dev.in

# Security lint: fails on any high-severity finding (CI runs it).
audit: install
	$(BIN)/bandit --quiet --recursive --severity-level high --exclude ./.venv,./tests,./var .

clean:
	rm -rf var $(VENV)

lint: install
	$(BIN)/pip install --quiet ruff==0.17.6
	$(BIN)/ruff check .
	$(BIN)/lint-imports

typecheck: install
	$(BIN)/mypy
