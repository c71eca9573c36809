"""Seeded random legal playouts: crash, dead-end and endless-phase detection for any game."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from engine.core.dice import SeededDice
from engine.core.protocol import GameConfig, GameRules, Outcome, Player


class DeadEnd(AssertionError):
    """A prompt with no legal answer."""


@dataclass
class PlayoutResult:
    outcome: Outcome | None
    actions: int
    capped: bool
    states: int = 0
    verbs: dict[str, int] = field(default_factory=dict)


def playout(
    rules: GameRules,
    scenario: str = "",
    options: dict | None = None,
    seed: int = 0,
    max_actions: int = 5000,
    check_replay_every: int = 0,
) -> PlayoutResult:
    """Play random legal actions until the game ends or ``max_actions`` is reached."""
    rng = random.Random(seed)
    players = tuple(Player(seat=s, name=f"p{i}") for i, s in enumerate(rules.seats))
    config = GameConfig(game=rules.name, scenario=scenario, options=options or {}, players=players)
    state = rules.setup(config, SeededDice(f"seed{seed}", 0))
    verbs: dict[str, int] = {}
    for n in range(1, max_actions + 1):
        prompts = rules.pending(state)
        if not prompts:
            return PlayoutResult(rules.outcome(state), n - 1, False, verbs=verbs)
        prompt = rng.choice(prompts)
        legal = rules.legal_actions(state, prompt.seat)
        if not legal:
            raise DeadEnd(f"seed {seed}, action {n}: {prompt.seat} must '{prompt.text}' but has no legal answer")
        action = rng.choice(legal)
        verbs[action.verb] = verbs.get(action.verb, 0) + 1
        state, _ = rules.apply(state, prompt.seat, action, SeededDice(f"seed{seed}", n))
    return PlayoutResult(rules.outcome(state), max_actions, True, verbs=verbs)


def play_on(rules: GameRules, state, seed: int, actions: int):  # type: ignore[no-untyped-def]
    """Random legal play from ``state`` for up to ``actions`` actions; fails on a dead end. Returns the state."""
    rng = random.Random(seed)
    for n in range(actions):
        prompts = rules.pending(state)
        if not prompts:
            break
        p = rng.choice(prompts)
        legal = rules.legal_actions(state, p.seat)
        if not legal:
            raise DeadEnd(f"dead end after {n} actions: {p.seat} must '{p.text}' but has no legal answer")
        state, _ = rules.apply(state, p.seat, rng.choice(legal), SeededDice(f"play-on{seed}", n))
    return state
