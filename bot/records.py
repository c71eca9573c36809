"""Rebuilding a game from its log, and the exported game record (docs/record-format.md)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pydantic import BaseModel, Field

from engine.core import registry
from engine.core.dice import RecordedDice, Roll
from engine.core.protocol import MODERATOR, Action, Event, GameConfig, GameRules

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


class HintEntry(BaseModel):
    """A hint asked in a teaching game (``hints:on``): by which seat, after which action, and, once the
    game is over, what it suggested (``None`` until then)."""

    after_seq: int
    seat: str
    suggestion: str | None = None


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
    hints: list[HintEntry] | None = None
    """Hints asked (absent in older records and games without ``hints:on``)."""


def key_hash(key: str) -> str:
    """What a fresh dice key's announcement shows: the first 16 hex digits of its sha256, posted in
    the game's thread when a rollback (or restore, or renewal) starts it, while the key stays
    secret; ``hexhive replay`` holds a record's keys to their announcements."""
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def key_announced(key: str, from_seq: int) -> str:
    """The words that announce a fresh dice key, and the action its dice start at, in the moderation
    log and the thread."""
    return f"dice key sha256 {key_hash(key)} from action {from_seq}"


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
    return fold(rules, state, steps, trusted=trusted)


UNDO = "undo"
"""A player's take-back in the log: ``undo {seq: N}`` puts the state back to just before action N."""


def fold(rules: GameRules, state: BaseModel, steps: list[tuple[str, Action, list[Roll]]], *, first: int = 1,
         trusted: bool = False) -> tuple[BaseModel, list[list[Event]]]:
    """Apply logged actions ``first``, ``first + 1``... to ``state``; a take-back restores an earlier state."""
    folder = Folder(rules, state, [a for _, a, _ in steps], first=first, trusted=trusted)
    all_events = [folder.step(seat, action, RecordedDice(rolls)) for seat, action, rolls in steps]
    return folder.state, all_events


class Folder:
    """Applies a log's actions one at a time, keeping the states its take-backs return to.

    Only those states are kept, so the fold stays as light as a plain one; a take-back
    gives back the very state the game had, byte for byte.
    """

    def __init__(self, rules: GameRules, state: BaseModel, actions: list[Action], *, first: int = 1,
                 trusted: bool = False, in_place: bool = False) -> None:
        """``in_place``: a trusted step may change the current state itself rather than a copy, when no
        one else holds it (the caller reads each state before the next step and keeps none of them)."""
        self.rules, self.state, self.trusted, self.in_place = rules, state, trusted, in_place
        self.n = first - 1
        self.wanted = {_undone(a) - 1 for a in actions if a.verb == UNDO}
        self.kept: dict[int, BaseModel] = {self.n: state} if self.n in self.wanted else {}
        self.owned = False  # the first state is the caller's; a kept one is shared with ``kept``

    def step(self, seat: str, action: Action, dice: RecordedDice) -> list[Event]:
        """Apply the next logged action with its recorded dice; returns its events."""
        self.n += 1
        if action.verb == UNDO:
            back = _undone(action)
            if back - 1 not in self.kept or back >= self.n or dice.unused:
                raise ValueError(f"action {self.n} takes back action {back}, which this log cannot go back to")
            self.state, self.owned = self.kept[back - 1], False
            events = [Event(kind="undo", text=f"{seat} took back action #{back}")]
        else:
            if self.trusted:
                self.state, events = self.rules.replay_step(self.state, seat, action, dice,
                                                            owned=self.in_place and self.owned)
            else:
                self.state, events = self.rules.apply(self.state, seat, action, dice)
            self.owned = seat != MODERATOR  # a player's action gave a deep copy (or changed ours); an edit may share
            if dice.unused:
                raise ValueError(f"{action.text()} left {dice.unused} recorded roll(s) unused")
        if self.n in self.wanted:
            self.kept[self.n], self.owned = self.state, False
        return events


def _undone(action: Action) -> int:
    text = str(action.args.get("seq", ""))
    if not text.isdigit():
        raise ValueError(f"a take-back must name the action it takes back: {action.text()}")
    return int(text)


def rules_for(config: GameConfig) -> GameRules:
    """The registered rules of a config's game."""
    return registry.get(config.game)


def dumps(obj: Any) -> str:
    """Compact JSON for the store."""
    return json.dumps(obj, separators=(",", ":"), sort_keys=True)
