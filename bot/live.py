"""A game in play: its rules, config, current state and where its log stands."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass

from pydantic import BaseModel

from bot.records import UNDO, fold, load_state, replay, rules_for
from bot.store import GameRow, Store
from engine.core.dice import Roll
from engine.core.protocol import Action, GameConfig, GameRules, Prompt

SNAPSHOT_EVERY = 50
OFF_LOOP_AFTER = 200
"""A replay of more actions than this runs in a worker thread, not on the event loop."""


@dataclass
class Live:
    """The in-memory copy of one game, rebuilt from the store's log."""

    row: GameRow
    rules: GameRules
    config: GameConfig
    state: BaseModel | None
    seq: int
    dice_key: str
    seats: dict[str, str]
    """Seat -> user id."""
    board_key: tuple[int, str] | None = None
    """(turn, phase) of the last board posted."""

    @property
    def id(self) -> int:
        return self.row.id

    def seats_of(self, user: str) -> list[str]:
        """The seats a user holds in this game (usually one)."""
        return [s for s, u in self.seats.items() if u == user]

    def user_of(self, seat: str) -> str:
        return self.seats.get(seat, "")

    @property
    def title(self) -> str:
        """The game's title, with its scenario when the game has several (``Chitin: I, Basic scenario``)."""
        if len(self.rules.scenarios) > 1 and self.config.scenario:
            return f"{self.rules.title}, {self.config.scenario.capitalize()} scenario"
        return self.rules.title

    def name_of(self, seat: str) -> str:
        """The display name of a seat's player (a replacement's, once a moderator has replaced one)."""
        return name_in(self.row, self.config, seat)

    def pending(self) -> list[Prompt]:
        if self.state is None:
            return []
        return self.rules.pending_now(self.state)


def name_in(row: GameRow, config: GameConfig, seat: str) -> str:
    """``Live.name_of`` for a game's row, in play or not."""
    return str(row.settings_dict.get("names", {}).get(seat) or config.name_of(seat))


def config_of(row: GameRow) -> GameConfig:
    return GameConfig.model_validate_json(row.config)


def seats_of(row: GameRow) -> dict[str, str]:
    return dict(row.settings_dict.get("seats", {}))


async def load_live(store: Store, row: GameRow) -> Live:
    """Rebuild a game from its latest snapshot (or from the start) and the actions after it."""
    config = config_of(row)
    rules = rules_for(config)
    branch = await store.branch_info(row.id, row.branch)
    seq = await store.last_seq(row.id, row.branch)
    state: BaseModel | None = None
    if row.status not in ("invited", "declined"):
        state = await _fold(store, rules, config, row)
    key = row.settings_dict.get("board_key")
    return Live(row=row, rules=rules, config=config, state=state, seq=seq, dice_key=branch["dice_key"],
                seats=seats_of(row), board_key=(key[0], key[1]) if key else None)


async def _fold(store: Store, rules: GameRules, config: GameConfig, row: GameRow) -> BaseModel:
    """Only the newest snapshot and the actions after it are read: a long game costs what a short one does."""
    snap = await store.last_snapshot(row.id, row.branch)
    start_seq = 0
    state: BaseModel | None = None
    if snap is not None:
        start_seq, text = snap
        state = load_state(rules, text)
    actions = await store.actions(row.id, row.branch, after=start_seq)
    steps = [(a.seat, _action(a.action), _rolls(a.rolls)) for a in actions]
    if state is not None and any(act.verb == UNDO and int(act.args["seq"]) <= start_seq for _, act, _ in steps):
        state, start_seq = None, 0  # a take-back reaches behind the snapshot: fold from the start
        actions = await store.actions(row.id, row.branch)
        steps = [(a.seat, _action(a.action), _rolls(a.rolls)) for a in actions]
    if len(steps) >= OFF_LOOP_AFTER:  # a long fold (no snapshot near): in a worker thread, as full_replay
        rules = type(rules)()
        if state is None:
            out, _ = await asyncio.to_thread(replay, rules, config, _rolls(row.setup_rolls), steps, trusted=True)
        else:
            out, _ = await asyncio.to_thread(fold, rules, state, steps, first=start_seq + 1, trusted=True)
        return out
    if state is None:
        setup = _rolls(row.setup_rolls)
        state, _ = replay(rules, config, setup, steps, trusted=True)
        return state
    state, _ = fold(rules, state, steps, first=start_seq + 1, trusted=True)
    return state


async def full_replay(store: Store, row: GameRow, branch: int | None = None, *, trusted: bool = True
                      ) -> tuple[BaseModel, list]:
    """Replay a branch from the very start (ignoring snapshots); returns state and per-action events."""
    config = config_of(row)
    rules = rules_for(config)
    actions = await store.actions(row.id, branch or row.branch)
    setup = _rolls(row.setup_rolls)
    steps = [
        (a.seat, _action(a.action), _rolls(a.rolls))
        for a in actions
    ]
    if len(steps) < OFF_LOOP_AFTER:
        return replay(rules, config, setup, steps, trusted=trusted)
    # A long log is folded in a worker thread, with its own copy of the rules (a game's rules may
    # keep caches), so the event loop goes on answering other members meanwhile.
    return await asyncio.to_thread(replay, type(rules)(), config, setup, steps, trusted=trusted)


def _action(text: str) -> Action:
    """An action of our own log: written by us from a validated Action, so read without validating again."""
    data = json.loads(text)
    return Action.model_construct(verb=data["verb"], args=data.get("args", {}))


def _rolls(text: str) -> list[Roll]:
    return [Roll.model_construct(**r) for r in json.loads(text)]
