# Capicúa: `make run` sets everything up and serves the site; `make test` runs the suite.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
WEB_PROCESSES ?= 2
# The suite runs in this many processes, each with its own database, Redis database and var/.
TEST_WORKERS ?= 4

.PHONY: run test run-prod install requirements messages lint clean bench

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip uv

$(STAMP): requirements/dev.txt | $(PY)
	$(VENV)/bin/uv pip install --python $(PY) --quiet -r requirements/dev.txt
	touch $(STAMP)

install: $(STAMP)

CATALOGUES := $(wildcard locale/*/LC_MESSAGES/*.po)
COMPILED := $(CATALOGUES:.po=.mo)

messages: $(COMPILED)

%.mo: %.po | $(STAMP)
	$(VENV)/bin/pybabel -q compile -i $< -o $@

run: install messages
	$(PY) manage.py migrate --noinput -v 0
	$(PY) manage.py seed_demo
	$(PY) manage.py serve --host $(HOST) --port $(PORT)

# The suite gets its own var/ (SQLite file, Celery folders, static files) and plain HTTP.
test: export CAPICUA_VAR_DIR = $(CURDIR)/var/test
test: export SECURE_SSL = 0
test: export SECRET_KEY ?= test-only-secret-key-for-the-suite-0123456789abcdefghijkl
test: install messages
	$(PY) manage.py collectstatic --noinput -v 0
	$(PY) -m pytest -p tests.parallel -n $(TEST_WORKERS) --dist loadscope $(PYTEST_ARGS)

run-prod: install messages
	$(PY) manage.py check --deploy
	$(PY) manage.py migrate --noinput -v 0
	$(PY) manage.py collectstatic --noinput -v 0
	$(PY) manage.py serve --production --host $(HOST) --port $(PORT) --web $(WEB_PROCESSES)

requirements: | $(PY)
	$(VENV)/bin/uv pip compile pyproject.toml -q -o requirements/base.txt
	$(VENV)/bin/uv pip compile pyproject.toml -q --extra dev -o requirements/dev.txt

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

bench: install
	for b in benchmarks/*.py; do $(PY) $$b || exit 1; done

clean:
	rm -rf var $(VENV)
