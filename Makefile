# Capicúa: `make run` sets everything up and serves the site; `make test` runs the suite.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
WEB_PROCESSES ?= 2

.PHONY: run test run-prod install requirements messages lint clean bench

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip uv

$(STAMP): requirements/dev.txt | $(PY)
	$(VENV)/bin/uv pip install --python $(PY) --quiet -r requirements/dev.txt
	touch $(STAMP)

install: $(STAMP)

messages: install
	$(PY) manage.py compilemessages --ignore .venv -v 0

run: install messages
	$(PY) manage.py migrate --noinput -v 0
	$(PY) manage.py seed_demo
	$(PY) manage.py serve --host $(HOST) --port $(PORT)

test: install messages
	$(PY) -m pytest $(PYTEST_ARGS)

run-prod: install messages
	$(PY) manage.py check --deploy --fail-level WARNING
	$(PY) manage.py migrate --noinput -v 0
	$(PY) manage.py collectstatic --noinput -v 0
	$(PY) manage.py serve --production --host $(HOST) --port $(PORT) --web $(WEB_PROCESSES)

requirements: | $(PY)
	$(VENV)/bin/uv pip compile pyproject.toml -q -o requirements/base.txt
	$(VENV)/bin/uv pip compile pyproject.toml -q --extra dev -o requirements/dev.txt
	$(VENV)/bin/uv pip compile pyproject.toml -q --extra prod -o requirements/prod.txt

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

bench: install
	for b in benchmarks/*.py; do $(PY) $$b || exit 1; done

clean:
	rm -rf var $(VENV)
