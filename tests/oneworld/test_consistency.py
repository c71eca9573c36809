"""The quick listing of legal moves agrees with the full routes that moves follow (6.2-6.4)."""

from __future__ import annotations

import random

import pytest

from engine.core.dice import SeededDice
from engine.core.protocol import GameConfig
from engine.games.oneworld.movement import context
from engine.games.oneworld.turn import movable, move_args, move_options
from tests.oneworld.positions import PLAYERS, RULES

OPTION_SETS = [
    {},
    {"pylon_movement": True, "friendly_obstacle": True},
    {"chaos_gambit_1": True},
    {"chaos_gambit_2": True, "stacking_limit": 2},
]


@pytest.mark.parametrize("options", OPTION_SETS)
def test_6_1_listed_moves_are_exactly_the_moves_with_routes(options):
    rng = random.Random(7)
    config = GameConfig(game="oneworld", options=options, players=PLAYERS)
    state = RULES.setup(config, SeededDice("c", 0))
    checked = 0
    for n in range(1, 260):
        prompts = RULES.pending(state)
        if not prompts:
            break
        if state.step == "move":
            ctx = context(state, state.active)
            for child in movable(state, state.active):
                quick = sorted(sorted(a.items()) for a in move_args(ctx, child))
                full = sorted(sorted(a.items()) for a, _ in move_options(ctx, child))
                assert quick == full, child
                checked += 1
        p = rng.choice(prompts)
        state, _ = RULES.apply(
            state, p.seat, rng.choice(RULES.legal_actions(state, p.seat)), SeededDice("c", n)
        )
    assert checked > 100
