# Capicúa: `make run` sets everything up and serves the site; `make test` runs the suite.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# What `run` needs (requirements/base.txt), and what the tests and tools add (dev.txt).
BASE_STAMP := $(VENV)/.installed-base
DEV_STAMP := $(VENV)/.installed-dev
HOST ?= 127.0.0.1
PORT ?= 8000
WEB_PROCESSES ?= 2
# The suite runs in this many processes, each with its own database, Redis database and var/.
TEST_WORKERS ?= 4
# The least share of the code the suite must run (CI sets it; see .ci/run).
COVERAGE_FLOOR ?= 0

.PHONY: run test run-prod install install-dev requirements messages lint typecheck clean bench

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip uv

$(BASE_STAMP): requirements/base.txt | $(PY)
	$(VENV)/bin/uv pip install --python $(PY) --quiet -r requirements/base.txt
	touch $(BASE_STAMP)

$(DEV_STAMP): requirements/dev.txt | $(PY)
	$(VENV)/bin/uv pip install --python $(PY) --quiet -r requirements/dev.txt
	touch $(BASE_STAMP) $(DEV_STAMP)

install: $(BASE_STAMP)

install-dev: $(DEV_STAMP)

CATALOGUES := $(wildcard locale/*/LC_MESSAGES/*.po)
COMPILED := $(CATALOGUES:.po=.mo)

messages: $(COMPILED)

%.mo: %.po | $(BASE_STAMP)
	$(VENV)/bin/pybabel -q compile -i $< -o $@

run: install messages
	$(PY) manage.py migrate --noinput -v 0
	$(PY) manage.py seed_demo
	$(PY) manage.py serve --host $(HOST) --port $(PORT)

# The suite gets its own var/ (SQLite file, Celery folders, static files) and plain HTTP.
test: export CAPICUA_VAR_DIR = $(CURDIR)/var/test
test: export SECURE_SSL = 0
test: export SECRET_KEY ?= test-only-secret-key-for-the-suite-0123456789abcdefghijkl
test: install-dev messages
	$(PY) manage.py collectstatic --noinput -v 0
	mkdir -p var/coverage && rm -f var/coverage/data*
	$(PY) -m pytest -p tests.parallel -n $(TEST_WORKERS) --dist loadscope --cov --cov-report= $(PYTEST_ARGS)
	@echo "coverage: $$($(PY) -m coverage report --format=total)% of the code ran (floor $(COVERAGE_FLOOR)%)"
	@$(PY) -m coverage report --fail-under=$(COVERAGE_FLOOR) > /dev/null

run-prod: install messages
	$(PY) manage.py check --deploy
	$(PY) manage.py migrate --noinput -v 0
	$(PY) manage.py collectstatic --noinput -v 0
	$(PY) manage.py serve --production --host $(HOST) --port $(PORT) --web $(WEB_PROCESSES)

requirements: | $(PY)
	$(VENV)/bin/uv pip compile pyproject.toml -q -o requirements/base.txt
	$(VENV)/bin/uv pip compile pyproject.toml -q --extra dev -o requirements/dev.txt

lint: install-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# mypy: the engine and pairing strict and clean, the rest held to tools/mypy-baseline.txt.
typecheck: install-dev
	$(PY) tools/typecheck.py

bench: install-dev
	for b in benchmarks/*.py; do $(PY) $$b || exit 1; done

clean:
	rm -rf var $(VENV)
