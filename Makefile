# Two entry points: `make run` (the bot, or the local console without a token)
# and `make test` (lint, type check of engine/, bot/ and render/, the whole test suite).
# `make run` installs only what running needs; `make test` adds the developer tools.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: run test bench bench-ai soak golden clean

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

# The suite is spread over the cores (pytest-xdist): 3 min 56 s on an idle 2-core machine where
# one process took 7 to 9 minutes. The few tests that judge timing (marked serial) run alone
# afterwards, and the benchmarks and series below stay in one process (their printed lines and
# timings need it).
test: $(DEV_STAMP)
	$(BIN)/ruff check bot engine render tests
	$(BIN)/mypy engine bot render
	$(BIN)/pytest -n auto -m "not serial"
	$(BIN)/pytest -m serial

bench: $(DEV_STAMP)
	$(BIN)/pytest tests/benchmarks --benchmark-only --benchmark-enable -p no:randomly -s

# Redraw the renderer's golden images (tests/render/golden/) after an intended change; look at them.
golden: $(DEV_STAMP)
	$(BIN)/python -m tests.render.golden

# The bot's series spread their games over AI_WORKERS processes (default: one a core).
AI_WORKERS ?= $(shell nproc 2>/dev/null || echo 1)
# Every finished game of a series is kept here, for the same code; a stopped run plays on where it
# stopped when run again (tests/ai/league.py). AI_BENCH_RESULTS= (empty) plays every game.
AI_BENCH_RESULTS ?= bench/ai-results.jsonl

soak: $(DEV_STAMP)
	ANNIHILATOR_PLAYOUTS=1000 $(BIN)/pytest tests/annihilator/test_playouts.py
	CHITIN_PLAYOUTS=1000 $(BIN)/pytest tests/chitin/test_playouts.py -k uniform
	AI_WORKERS=$(AI_WORKERS) AI_BENCH_RESULTS=$(AI_BENCH_RESULTS) AI_SOAK=1 $(BIN)/pytest tests/ai/test_soak.py -s -p no:randomly

# The bot opponent's strength and decision times (docs/ai.md): 200 games a series (AI_BENCH_GAMES=10 for a
# quick look), decisions timed in processor time as the stored lines were (AI_BENCH_CLOCK=wall for the wall clock).
AI_BENCH_CLOCK ?= process
bench-ai: $(DEV_STAMP)
	AI_WORKERS=$(AI_WORKERS) AI_BENCH_RESULTS=$(AI_BENCH_RESULTS) AI_BENCH_CLOCK=$(AI_BENCH_CLOCK) AI_BENCH=1 $(BIN)/pytest tests/benchmarks/test_ai_bench.py -s -p no:randomly

clean:
	rm -rf $(VENV)
