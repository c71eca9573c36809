"""Replay of any log equals the live state, byte for byte, for every registered game."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.records import UNDO, Folder, replay
from engine.core import registry
from engine.core.dice import RecordedDice, SeededDice
from engine.core.protocol import Action, GameConfig, GameRules, Player
from tests.support.samples import playable_games, sample_options


def _config(rules: GameRules, scenario: str) -> GameConfig:
    return GameConfig(game=rules.name, scenario=scenario, options=sample_options(rules.name),
                      players=tuple(Player(seat=s, name=s) for s in rules.seats))


@pytest.mark.parametrize("game", playable_games())
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32), length=st.integers(0, 150))
def test_replay_of_any_log_equals_the_live_state(game, seed, length):
    rules = registry.get(game)
    rng = random.Random(seed)
    config = _config(rules, rng.choice(rules.scenarios) if rules.scenarios else "")
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
    config = _config(rules, rules.scenarios[0] if rules.scenarios else "")
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


@pytest.mark.parametrize("game", playable_games())
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32), length=st.integers(0, 150))
def test_a_fold_that_changes_states_in_place_gives_every_state_a_copying_fold_gives(game, seed, length):
    """``hexhive db check`` folds a trusted log changing one state in place (``Folder(in_place=True)``);
    the states it reads, those its take-backs return to and the state it starts from must be exactly
    those of applying each action to a copy."""
    rules = registry.get(game)
    rng = random.Random(seed)
    config = _config(rules, rng.choice(rules.scenarios) if rules.scenarios else "")
    start = rules.setup(config, SeededDice(str(seed), 0))
    first = start.model_dump_json()
    state, before, log, expected = start, [start], [], []  # before[k - 1]: the state before action k
    for n in range(1, length + 1):
        if n > 3 and rng.random() < 0.1:  # a take-back of one of the last few actions, kept or not
            back = rng.randint(max(1, n - 4), n - 1)
            action, seat, rolls = Action(verb=UNDO, args={"seq": str(back)}), rules.seats[0], []
            state = before[back - 1]
        else:
            prompts = rules.pending(state)
            if not prompts:
                break
            p = rng.choice(prompts)
            action, seat = rng.choice(rules.legal_actions(state, p.seat)), p.seat
            d = SeededDice(str(seed), n)
            state, _ = rules.apply(state, p.seat, action, d)
            rolls = d.rolls
        before.append(state)
        log.append((seat, action, rolls))
        expected.append(state.model_dump_json())
    folder = Folder(rules, start, [a for _, a, _ in log], trusted=True, in_place=True)
    for n, ((seat, action, rolls), want) in enumerate(zip(log, expected, strict=True), start=1):
        folder.step(seat, action, RecordedDice(rolls))
        assert folder.state.model_dump_json() == want, f"action {n}, {action.text()}, in place"
    assert start.model_dump_json() == first, "the fold changed the state it was given"
