# Two entry points: `make run` (the bot, or the local console without a token)
# and `make test` (lint, type check of engine/, the whole test suite).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench soak golden clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/hexhive

test: $(STAMP)
	$(BIN)/ruff check bot engine render tests
	$(BIN)/mypy engine
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/pytest tests/benchmarks --benchmark-only --benchmark-enable -p no:randomly

# Redraw the renderer's golden images (tests/render/golden/) after an intended change; look at them.
golden: $(STAMP)
	$(BIN)/python -m tests.render.golden

soak: $(STAMP)
	ANNIHILATOR_PLAYOUTS=1000 $(BIN)/pytest tests/annihilator/test_playouts.py

clean:
	rm -rf $(VENV)
