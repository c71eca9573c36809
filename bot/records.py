"""Rebuilding a game from its log, and the exported game record (docs/record-format.md)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pydantic import BaseModel, Field

from engine.core import registry
from engine.core.dice import RecordedDice, Roll
from engine.core.protocol import Action, Event, GameConfig, GameRules

RECORD_FORMAT = 1


class LoggedAction(BaseModel):
    """One entry of a game's log as a record holds it."""

    seq: int
    seat: str
    action: Action | None
    """None while the action is a sealed secret."""
    rolls: list[Roll] = Field(default_factory=list)
    dice_key: str = "main"
    commitment: str | None = None
    nonce: str | None = None
    events: list[str] = Field(default_factory=list)
    """The public lines this action produced (checked by ``hexhive replay``)."""


class ModerationEntry(BaseModel):
    """A line of the game's moderation log; ``seq`` is the action a position edit became."""

    seq: int | None = None
    moderator: str
    what: str
    reason: str = ""


class DiceKey(BaseModel):
    """From action ``from_seq`` on, the line of play drew its dice under ``key`` (a rollback starts a new key)."""

    from_seq: int
    key: str


class GameRecord(BaseModel):
    """A whole game, enough to re-run it through the engine and check every result."""

    format: int = RECORD_FORMAT
    game_id: int
    config: GameConfig
    status: str
    seed_hash: str
    seed: str | None = None
    """Published once the game is over (or when its dice were never secret)."""
    dice_secret: bool = True
    setup_rolls: list[Roll] = Field(default_factory=list)
    actions: list[LoggedAction] = Field(default_factory=list)
    outcome: dict[str, Any] | None = None
    dice_keys: list[DiceKey] | None = None
    """Which dice key each stretch of the line of play used (absent in older records)."""
    moderation: list[ModerationEntry] | None = None
    """The moderation log (absent in older records): every position edit must be in it."""


def commitment(nonce: str, action: Action) -> str:
    """The public hash of a sealed choice: sha256 of ``nonce:action-json``."""
    return hashlib.sha256(f"{nonce}:{action.model_dump_json()}".encode()).hexdigest()


def load_state(rules: GameRules, text: str) -> BaseModel:
    """A state from its JSON."""
    return rules.state_model().model_validate_json(text)


def replay(
    rules: GameRules, config: GameConfig, setup_rolls: list[Roll], steps: list[tuple[str, Action, list[Roll]]],
    *, trusted: bool = False,
) -> tuple[BaseModel, list[list[Event]]]:
    """Fold ``apply`` over the log with the recorded dice; returns the state and each action's events.

    ``trusted`` skips the legality check of each action, for our own log, which was
    checked when it was written; a record from elsewhere is replayed with every check.
    """
    dice = RecordedDice(setup_rolls)
    state = rules.setup(config, dice)
    all_events: list[list[Event]] = []
    step = rules.replay_step if trusted else rules.apply
    for seat, action, rolls in steps:
        d = RecordedDice(rolls)
        state, events = step(state, seat, action, d)
        if d.unused:
            raise ValueError(f"{action.text()} left {d.unused} recorded roll(s) unused")
        all_events.append(events)
    return state, all_events


def rules_for(config: GameConfig) -> GameRules:
    """The registered rules of a config's game."""
    return registry.get(config.game)


def dumps(obj: Any) -> str:
    """Compact JSON for the store."""
    return json.dumps(obj, separators=(",", ":"), sort_keys=True)
