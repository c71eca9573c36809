"""Invariants of every position reached in random play: stacking (7.2, 8.5), parental concern (7.3),
Towers (5.5), thirteen at most (9.2), lives (10.2), and a prompt always answerable (4.1)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.core.dice import SeededDice
from engine.core.protocol import GameConfig
from engine.games.oneworld.combat import contested
from tests.oneworld.positions import PLAYERS, RULES
from tests.oneworld.test_playouts import MIXES


def _check(state) -> None:
    stacks = Counter((c.hex, c.side) for c in state.children if c.where == "map")
    assert all(n <= state.stacking for n in stacks.values()), stacks
    for seat in ("BORG", "CHEZ"):
        assert len(state.on_map(seat)) <= 13
        assert 0 <= state.lives[seat] <= 3
        god = state.god_hex.get(seat)
        if god and state.step not in ("accost_child", "accost_god"):
            assert not state.in_hex(god), f"Children in {seat}'s god hex {god}"
        if god and state.accost is not None and state.accost.hex == god:
            assert [c.id for c in state.in_hex(god)] == [state.accost.child]
    towers = set(state.tower_hex.values())
    for c in state.children:
        if c.where == "map" and c.hex in towers:
            assert state.tower_hex.get(c.side) == c.hex or state.options.non_aligned_towers, c
    if state.step == "move" and not state.moved:
        assert contested(state) == [], "every combat is fought to its end before the next turn (8.3)"
    for p in RULES.pending(state):
        assert RULES.legal_actions(state, p.seat), f"{p.seat} must '{p.text}' but cannot"


@pytest.mark.parametrize("mix", sorted(MIXES))
def test_7_2_random_play_keeps_every_invariant(mix):
    for seed in range(4):
        rng = random.Random(seed)
        state = RULES.setup(
            GameConfig(game="oneworld", options=MIXES[mix], players=PLAYERS), SeededDice(mix, seed)
        )
        for n in range(1, 200):
            _check(state)
            prompts = RULES.pending(state)
            if not prompts:
                assert RULES.outcome(state) is not None
                break
            p = rng.choice(prompts)
            state, _ = RULES.apply(
                state, p.seat, rng.choice(RULES.legal_actions(state, p.seat)), SeededDice(mix, n)
            )
