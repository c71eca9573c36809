"""The tree's exploration constant is each game's own (`GameAI.explore`; docs/ai.md, "Exploration"):
how much a child's few visits count against its mean value when the search picks where to look."""

from __future__ import annotations

import pytest

from engine.ai import decide
from engine.ai.selfplay import Table
from engine.games.oneworld.ai import GAME_AI
from tests.ai.helpers import drive


def _moving(t: Table) -> bool:
    prompts = t.rules.pending_now(t.state)
    return (bool(prompts) and getattr(t.state, "step", "") == "move"
            and len(t.rules.legal_now(t.state, prompts[0].seat)) > 8)


def _busiest_share(explore: float, monkeypatch: pytest.MonkeyPatch) -> float:
    monkeypatch.setattr(GAME_AI, "explore", explore)
    t = drive(Table("oneworld", "standard", dice_seed="explore"), _moving)
    seat = t.rules.pending_now(t.state)[0].seat
    _, stats = decide("oneworld", t.information(seat), "normal", "s")
    visits = [v for v, _ in stats["children"].values()]  # type: ignore[attr-defined]
    return max(visits) / sum(visits)


def test_the_search_looks_where_the_values_lead_as_much_as_the_game_s_exploration_constant_says(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # with no exploration the search keeps to the child whose mean is best; with a large one it
    # spreads its visits over the children it allows
    greedy, curious = _busiest_share(0.0, monkeypatch), _busiest_share(5.0, monkeypatch)
    assert greedy > curious
    assert curious < 0.5 < greedy
