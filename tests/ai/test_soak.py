"""The soak (``make soak``): many seeded bot-against-bot games in every game and scenario.

Skipped unless ``AI_SOAK`` is set. ``AI_SOAK_GAMES`` (default 200) games a game and scenario,
easy against easy (issue 12: whole games to a natural end); ``AI_SOAK_SEARCH_GAMES`` (default 20)
games normal against easy and normal against normal (issue 15; up to about a second a decision,
so fewer). Prints one line a series: the share of natural ends, win rates, lengths; fails
on a crash, a dead end or a share of natural ends under 95%.
"""

from __future__ import annotations

import os

import pytest

from tests.ai.league import series
from tests.ai.test_selfplay import cases

pytestmark = pytest.mark.skipif(not os.environ.get("AI_SOAK"), reason="the soak runs with make soak")


@pytest.mark.parametrize(("game", "scenario", "options"), cases())
def test_soak_easy_against_easy(game: str, scenario: str, options: dict[str, str]) -> None:
    s = series(game, scenario, options, "easy", "easy", int(os.environ.get("AI_SOAK_GAMES", "200")))
    print("\nSOAK", s.line())
    assert not s.errors
    assert s.natural >= 0.95 * s.games


@pytest.mark.parametrize("pairing", [("normal", "easy"), ("normal", "normal")])
@pytest.mark.parametrize(("game", "scenario", "options"), cases())
def test_soak_search_player(game: str, scenario: str, options: dict[str, str], pairing: tuple[str, str]) -> None:
    s = series(game, scenario, options, pairing[0], pairing[1], int(os.environ.get("AI_SOAK_SEARCH_GAMES", "20")))
    print("\nSOAK", s.line())
    assert not s.errors
    assert s.natural >= 0.95 * s.games
