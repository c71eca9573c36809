"""Whole games between players, kept as the bot keeps them: a record with sealed steps.

``Table`` holds a game's configuration, its record (``LogEntry`` steps, sealed until a
``reveal`` event opens them, as the bot's store does) and its positions, and hands each seat
its ``Information`` only. ``play`` runs a game to its end between two deciders; the tests, the
soak and the benchmarks use it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from pydantic import BaseModel

from engine.ai.info import Information, LogEntry, observe
from engine.ai.rng import Rng
from engine.core import registry
from engine.core.dice import Roll, SeededDice
from engine.core.protocol import Action, GameConfig, GameRules, Outcome, Player

Decider = Callable[["Table", str], Action]
"""Given the table and a seat with a prompt, the seat's action."""


class Table:
    """A game in progress with its record."""

    def __init__(self, game: str, scenario: str = "", options: dict[str, str] | None = None,
                 dice_seed: str = "table") -> None:
        self.rules: GameRules = registry.get(game)
        scenario = scenario or (self.rules.scenarios[0] if self.rules.scenarios else "")
        players = tuple(Player(seat=s, name=s) for s in self.rules.seats)
        self.config = GameConfig(game=game, scenario=scenario, options=dict(options or {}), players=players)
        self.dice_seed = dice_seed
        dice = SeededDice(dice_seed, 0)
        self.states: list[BaseModel] = [self.rules.setup(self.config, dice)]
        self.setup_rolls: list[Roll] = dice.rolls
        self.log: list[LogEntry] = []

    @property
    def state(self) -> BaseModel:
        return self.states[-1]

    def play(self, seat: str, action: Action) -> None:
        """Apply ``seat``'s action (checked), sealing it if it answers a secret prompt."""
        prompt = self.rules.prompt_for(self.state, seat, action.verb)
        dice = SeededDice(self.dice_seed, len(self.log) + 1)
        new, events = self.rules.apply(self.state, seat, action, dice)
        if any(e.kind == "reveal" for e in events):
            self.log = [e.model_copy(update={"sealed": False}) if e.sealed else e for e in self.log]
        sealed = bool(prompt and prompt.secret) and not any(e.kind == "reveal" for e in events)
        self.log.append(LogEntry(seat=seat, action=action, rolls=tuple(dice.rolls), sealed=sealed))
        self.states.append(new)

    def information(self, seat: str) -> Information:
        """What ``seat`` may know now (through ``observe``, as the bot would build it)."""
        return observe(self.rules, self.config, self.setup_rolls, self.log, seat, self.states.__getitem__)


@dataclass
class GameResult:
    outcome: Outcome | None
    actions: int
    capped: bool
    decisions: dict[str, int] = field(default_factory=dict)


def play(table: Table, deciders: dict[str, Decider], seed: str | int = 0, max_actions: int = 6000) -> GameResult:
    """Play until the game ends or ``max_actions``; simultaneous prompts are answered in a seeded order."""
    rng = Rng(f"order:{seed}")
    decisions: dict[str, int] = {}
    for _ in range(max_actions):
        prompts = table.rules.pending_now(table.state)
        if not prompts:
            return GameResult(table.rules.outcome(table.state), len(table.log), False, decisions)
        seats = list(dict.fromkeys(p.seat for p in prompts))
        seat = seats[rng.below(len(seats))]
        action = deciders[seat](table, seat)
        decisions[seat] = decisions.get(seat, 0) + 1
        table.play(seat, action)
    return GameResult(table.rules.outcome(table.state), len(table.log), True, decisions)


def bot(level: str, seed: str | int = 0) -> Decider:
    """The bot opponent at ``level``: it sees its ``Information`` only."""
    from engine.ai.player import choose

    def decide(table: Table, seat: str) -> Action:
        return choose(table.rules.name, table.information(seat), level, f"{seed}:{len(table.log)}")

    return decide


def uniform(seed: str | int = 0) -> Decider:
    """A uniformly random legal player (a benchmark opponent)."""
    rng = Rng(f"uniform:{seed}")

    def decide(table: Table, seat: str) -> Action:
        return rng.choice(table.rules.legal_now(table.state, seat))

    return decide
