"""Sampling a full position from what a seat knows (``Information``).

The checkpoint is replayed forward: every ``Known`` step is applied with its recorded rolls; a
``Sealed`` run of the other seat is left unmade as long as the steps that follow can be applied
without it (both players choosing in secret at once: the other's choice stays pending, so the
search sees it as undecided), and is otherwise sampled by the game's ``sample_sealed`` so that
it agrees with the public events it caused.
"""

from __future__ import annotations

from functools import lru_cache

from pydantic import BaseModel

from engine.ai.base import GameAI
from engine.ai.info import Information, Known, Sealed
from engine.ai.rng import Rng, TapeDice
from engine.core.protocol import GameRules


@lru_cache(maxsize=8)
def _load(game: str, checkpoint: str, rules: GameRules) -> BaseModel:
    return rules.state_model().model_validate_json(checkpoint)


def start_state(rules: GameRules, info: Information) -> BaseModel:
    """The checkpoint as a position (loaded once, shared: ``apply`` never changes a state)."""
    return _load(info.game, info.checkpoint, rules)


def has_hidden(rules: GameRules, ai: GameAI, info: Information) -> bool:
    """Whether the seat's information holds an uncertain sealed run (else there is one position only)."""
    return any(isinstance(s, Sealed) and not ai.certain(rules, s.seat, s.events) for s in info.steps)


_PREFIX: list[tuple[str, list[str], BaseModel]] = []
"""Positions after certain prefixes of steps (no uncertain sealed run in them), newest last."""


def _certain_prefix(rules: GameRules, ai: GameAI, info: Information) -> tuple[BaseModel, int]:
    """The position after the longest prefix of ``info.steps`` that has one possible past only.

    Such a prefix holds known steps and sealed runs the game calls ``certain`` (a run whose
    public events leave one possibility). It is replayed once and remembered, so a long game
    with an old sealed step is not replayed again at every decision.
    """
    end = 0
    state = start_state(rules, info)
    for i, step in enumerate(info.steps):
        if isinstance(step, Sealed) and not ai.certain(rules, step.seat, step.events):
            break
        end = i + 1
    keys = [s.model_dump_json() for s in info.steps[:end]]
    best_len, best_state = 0, state
    for checkpoint, done, known in _PREFIX:
        if checkpoint == info.checkpoint and len(done) <= end and len(done) > best_len and keys[:len(done)] == done:
            best_len, best_state = len(done), known
    state = best_state
    rng = Rng("certain")
    for step in info.steps[best_len:end]:
        if isinstance(step, Sealed):
            sampled = ai.sample_sealed(rules, state, step.seat, step.events, rng)
            if sampled is None:
                return best_state, best_len
            state = sampled
        else:
            state, _ = rules.replay_step(state, step.seat, step.action, TapeDice(step.rolls, rng))
    if end > best_len:
        _PREFIX.append((info.checkpoint, keys, state))
        del _PREFIX[:-4]
    return state, end


def determinize(rules: GameRules, ai: GameAI, info: Information, rng: Rng) -> BaseModel:
    """One full position consistent with ``info``.

    If the game's sampler finds no sealed run that matches the public events, a run of the
    other seat's policy is used as it is (a sample wrong in a detail still lets the bot move).
    """
    state, start = _certain_prefix(rules, ai, info)
    deferred: list[Sealed] = []
    for step in info.steps[start:]:
        if isinstance(step, Sealed):
            deferred.append(step)
            continue
        assert isinstance(step, Known)
        if deferred and not _can_apply(rules, state, step):
            state = _resolve(rules, ai, state, deferred, rng)
            deferred = []
        state, _ = rules.replay_step(state, step.seat, step.action, TapeDice(step.rolls, rng))
    if deferred and not any(p.seat == info.seat for p in rules.pending_now(state)):
        state = _resolve(rules, ai, state, deferred, rng)
    return state


def _can_apply(rules: GameRules, state: BaseModel, step: Known) -> bool:
    if not any(p.seat == step.seat and step.action.verb in p.verbs for p in rules.pending_now(state)):
        return False
    return rules.is_legal(state, step.seat, step.action)


def _resolve(rules: GameRules, ai: GameAI, state: BaseModel, runs: list[Sealed], rng: Rng) -> BaseModel:
    for run in runs:
        sampled = ai.sample_sealed(rules, state, run.seat, run.events, rng.fork("sealed"))
        if sampled is None:
            # keep playing: a sample that disagrees in a detail is better than no move at all
            sampled, _ = ai.play_secret_run(rules, state, run.seat, rng.fork("fallback"))
        state = sampled
    return state
