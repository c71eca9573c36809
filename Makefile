# Two entry points: `make run` (the bot, or the local console without a token)
# and `make test` (lint, type check of engine/, the whole test suite).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench bench-ai soak clean

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

soak: $(STAMP)
	ANNIHILATOR_PLAYOUTS=1000 $(BIN)/pytest tests/annihilator/test_playouts.py
	AI_SOAK=1 $(BIN)/pytest tests/ai/test_soak.py -s -p no:randomly

# The bot opponent's strength and decision times (docs/ai.md); AI_BENCH_GAMES=200 for the full series.
bench-ai: $(STAMP)
	AI_BENCH=1 $(BIN)/pytest tests/benchmarks/test_ai_bench.py -s -p no:randomly

clean:
	rm -rf $(VENV)
