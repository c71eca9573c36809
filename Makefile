# Two entry points: `make run` (the bot, or the local console without a token)
# and `make test` (lint, type check, the whole test suite).
# `make run` installs only what running needs; `make test` adds the developer tools.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: run test bench soak clean

$(RUN_STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $(RUN_STAMP)

$(DEV_STAMP): $(RUN_STAMP)
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(DEV_STAMP)

run: $(RUN_STAMP)
	$(BIN)/hexhive

test: $(DEV_STAMP)
	$(BIN)/ruff check bot engine render tests
	$(BIN)/mypy engine
	$(BIN)/pytest

bench: $(DEV_STAMP)
	$(BIN)/pytest tests/benchmarks --benchmark-only --benchmark-enable -p no:randomly

soak: $(DEV_STAMP)
	ANNIHILATOR_PLAYOUTS=1000 $(BIN)/pytest tests/annihilator/test_playouts.py

clean:
	rm -rf $(VENV)
