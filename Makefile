# Two entry points: `make run` (the bot, or the local console without a token)
# and `make test` (lint, type check of engine/, bot/ and render/, the whole test suite).
# `make run` installs only what running needs; `make test` adds the developer tools.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: run test bench soak golden clean

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
	$(BIN)/mypy engine bot render
	$(BIN)/pytest

bench: $(DEV_STAMP)
	$(BIN)/pytest tests/benchmarks --benchmark-only --benchmark-enable -p no:randomly -s

# Redraw the renderer's golden images (tests/render/golden/) after an intended change; look at them.
golden: $(DEV_STAMP)
	$(BIN)/python -m tests.render.golden

soak: $(DEV_STAMP)
	ANNIHILATOR_PLAYOUTS=1000 $(BIN)/pytest tests/annihilator/test_playouts.py

clean:
	rm -rf $(VENV)
