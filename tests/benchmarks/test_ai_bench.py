"""Strength and speed of the bot opponent (``make bench-ai``; skipped unless ``AI_BENCH`` is set).

Seeded series, seats alternating; each prints one line: share of natural ends, the first
player's win rate, lengths and (for the search levels) the p95 of its decision times.
``AI_BENCH_GAMES`` sets the games a series (200 by default, as issue 15 asks; 10 for a quick look),
spread over ``AI_WORKERS`` processes (``make bench-ai``: one a core; the figures do not depend on
it). ``AI_BENCH_CLOCK=process`` (``make bench-ai``'s default) times decisions by this process's
processor time instead of the wall clock (on a shared machine). Games the results file holds for
the code checked out are read from it, not played. Not timed assertions: figures to read and to
quote in docs/ai.md.
"""

from __future__ import annotations

import os

import pytest

from tests.ai.league import series

pytestmark = pytest.mark.skipif(not os.environ.get("AI_BENCH"), reason="run with make bench-ai")

GAMES = [
    ("oneworld", "standard", {}),
    ("chitin", "learning", {}),
    ("chitin", "basic", {}),
    ("chitin", "advanced", {}),
    ("annihilator", "standard", {}),
]
PAIRINGS = [("normal", "greedy"), ("normal", "random"), ("easy", "greedy"), ("hard", "normal")]


@pytest.mark.parametrize("pairing", PAIRINGS, ids=[f"{a}-vs-{b}" for a, b in PAIRINGS])
@pytest.mark.parametrize(("game", "scenario", "options"), GAMES, ids=[f"{g}-{s}" for g, s, _ in GAMES])
def test_ai_strength(game: str, scenario: str, options: dict[str, str], pairing: tuple[str, str]) -> None:
    n = int(os.environ.get("AI_BENCH_GAMES", "200"))
    s = series(game, scenario, options, pairing[0], pairing[1], n, time_a=pairing[0] != "easy")
    print("\nBENCH", s.line())
    assert s.games == n and not s.errors
