"""Replay of any log equals the live state, byte for byte, for every registered game."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.records import replay
from engine.core import registry
from engine.core.dice import SeededDice
from engine.core.protocol import GameConfig, Player
from tests.support.samples import playable_games, sample_options


@pytest.mark.parametrize("game", playable_games())
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32), length=st.integers(0, 150))
def test_replay_of_any_log_equals_the_live_state(game, seed, length):
    rules = registry.get(game)
    rng = random.Random(seed)
    config = GameConfig(game=game, scenario=rng.choice(rules.scenarios) if rules.scenarios else "",
                        options=sample_options(game), players=tuple(Player(seat=s, name=s) for s in rules.seats))
    dice = SeededDice(str(seed), 0)
    state = rules.setup(config, dice)
    setup_rolls = dice.rolls
    log = []
    for n in range(1, length + 1):
        prompts = rules.pending(state)
        if not prompts:
            break
        p = rng.choice(prompts)
        action = rng.choice(rules.legal_actions(state, p.seat))
        d = SeededDice(str(seed), n)
        state, _ = rules.apply(state, p.seat, action, d)
        log.append((p.seat, action, d.rolls))
    replayed, _ = replay(rules, config, setup_rolls, log)
    assert replayed.model_dump_json() == state.model_dump_json()


@pytest.mark.parametrize("game", playable_games())
def test_apply_never_changes_the_state_it_is_given(game):
    rules = registry.get(game)
    rng = random.Random(1)
    config = GameConfig(game=game, scenario=rules.scenarios[0] if rules.scenarios else "",
                        options=sample_options(game), players=tuple(Player(seat=s, name=s) for s in rules.seats))
    state = rules.setup(config, SeededDice("m", 0))
    for n in range(1, 200):
        prompts = rules.pending(state)
        if not prompts:
            break
        p = rng.choice(prompts)
        action = rng.choice(rules.legal_actions(state, p.seat))
        before = state.model_dump_json()
        new, _ = rules.apply(state, p.seat, action, SeededDice("m", n))
        assert state.model_dump_json() == before, f"{action.text()} changed the state it was given"
        state = new
