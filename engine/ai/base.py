"""What a game tells the search player: evaluation, move ordering, playout policy, secret choices.

Each game may provide ``engine/games/<game>/ai.py`` with a ``GAME_AI`` object of a subclass of
``GameAI``; games without one are played with this default (outcome-only evaluation and uniform
random playouts), which is enough for the one-decision combat resolvers.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from pydantic import BaseModel

from engine.ai.info import Seen
from engine.ai.rng import Rng, RngDice
from engine.core.protocol import Action, Event, GameRules


def squash(x: float, scale: float = 1.0) -> float:
    """A score difference as a value in (0, 1): 0.5 for even, towards 1 for ``x`` >> ``scale``."""
    z = max(-60.0, min(60.0, x / scale))
    return 1.0 / (1.0 + math.exp(-z))


class GameAI:
    """The defaults; games override what they know better."""

    playout_depth = 40
    """How many actions a playout plays before the position is evaluated."""
    width = 8
    """The most children the tree considers at a node (the first ones of ``order``)."""
    node_cost = 1.0
    """How expensive this game's nodes are, relative to the others (budgets are divided by it)."""
    explore = 0.7
    """The tree's exploration constant (UCB's c): how much a child's few visits count against its
    mean value. Each game's evaluation has its own spread of values between moves and its own
    noise (dice, hidden information), so each game tunes it by series against the greedy policy."""

    candidates = 0
    """Above 0: the player is a rollout player (``search.flat``) over this many candidates, not the tree."""
    horizon_cap = 120
    """The most actions a rollout of the rollout player plays."""

    game_cost = 0.0
    """Above 0: the decisions ``deep`` names are weighed by whole games, each candidate played on to
    the game's end by the playout policy for both seats (``search.flat`` with ``whole``), when the
    budget pays for ``deep_least`` games a candidate, a game costing ``game_cost`` iterations;
    with less (the lower levels) they are answered as any other. For a decision taken once a game
    whose worth shows only at its end (Chitin's first move and end, 3.02)."""
    deep_least = 6
    game_cap = 3000
    """The most actions a whole game of ``deep`` plays on before the evaluation values it."""

    def at(self, level: str) -> GameAI:
        """The player for ``level``: this one, unless the game gives a level its own (OneWorld's
        ``hard`` weighs the opponent's next accost, an evaluation the lower budget does not have)."""
        return self

    def deep(self, rules: GameRules, state: BaseModel, seat: str) -> bool:
        """Whether this decision is one to weigh by whole games (``game_cost``)."""
        return False

    def horizon(self, rules: GameRules, start: BaseModel, state: BaseModel, seat: str) -> bool:
        """Whether a rollout from ``start`` (the position of the decision) may stop at ``state``."""
        return False

    def cost(self, rules: GameRules, state: BaseModel) -> float:
        """What the budget is divided by in ``state``: ``node_cost``, unless a game knows better
        (a position whose playouts cost more, such as a large army, gets fewer of them)."""
        return self.node_cost

    def evaluate(self, rules: GameRules, state: BaseModel, seat: str) -> float:
        """How good ``state`` is for ``seat``: 1 won, 0 lost, 0.5 even, always within [0, 1] (whole
        games, ``search.flat``, drop a choice by that bound)."""
        out = rules.outcome(state)
        if out is None:
            return 0.5
        return terminal_value(out.winner, seat)

    def order(self, rules: GameRules, state: BaseModel, seat: str, legal: list[Action], rng: Rng) -> list[Action]:
        """``legal`` best first (the search looks at the first ``width``)."""
        out = list(legal)
        rng.shuffle(out)
        return out

    def playout(self, rules: GameRules, state: BaseModel, seat: str, legal: list[Action], rng: Rng) -> Action:
        """A fast, reasonable action for playouts and for the ``easy`` level."""
        return rng.choice(legal)

    def secret(self, rules: GameRules, state: BaseModel, seat: str, legal: list[Action], rng: Rng) -> Action | None:
        """The answer to a secret (simultaneous) prompt, or None to let the search decide.

        ``state`` is a determinized position in which the other seat's sealed choice of the
        same round is not made (it is still pending), so nothing here can depend on it.
        """
        return None

    def direct(self, rules: GameRules, state: BaseModel, seat: str, legal: list[Action], rng: Rng,
               deadline: Callable[[], bool] | None = None) -> Action | None:
        """The action for a decision the game plays without searching, or None to search.

        For decisions whose consequences lie beyond what a playout and the evaluation see, where
        the search's choice is worse than the game's own tactics (Chitin's movement: docs/ai-measurements.md,
        "The search and Chitin's movement"). ``state`` is determinized, as for ``secret``.
        ``deadline`` is the caller's (``choose``): a game that weighs its tactics by rollouts
        here (postures, plans) stops taking samples once it says the time is up, and plays the
        best found so far (with none taken, its tactics' own first choice).
        """
        return None

    def certain(self, rules: GameRules, seat: str, seen: Sequence[Seen]) -> bool:
        """Whether a sealed run with these public events has one possible content only.

        Then ``sample_sealed`` must return that one position (no randomness used).
        """
        return False

    def sample_sealed(self, rules: GameRules, state: BaseModel, seat: str, seen: Sequence[Seen],
                      rng: Rng) -> BaseModel | None:
        """A position after ``seat``'s sealed steps, consistent with the public events ``seen``.

        The default plays ``seat``'s playout policy with noise until its secret prompt is over,
        and keeps the first sample whose public events match ``seen`` (kind and hexes).
        Returns None when no consistent sample was found.
        """
        want = [(e.kind, e.hexes) for e in seen]
        for attempt in range(12):
            r = rng.fork(attempt)
            s, events = self.play_secret_run(rules, state, seat, r)
            if [(e.kind, e.hexes) for e in events if e.public] == want:
                return s
        return None

    def play_secret_run(self, rules: GameRules, state: BaseModel, seat: str, rng: Rng) -> tuple[BaseModel, list[Event]]:
        """``seat`` answers its secret prompts until it has none left: a sample of a sealed run."""
        events: list[Event] = []
        for _ in range(200):
            prompts = [p for p in rules.pending_now(state) if p.seat == seat and p.secret]
            if not prompts:
                break
            legal = rules.legal_now(state, seat)
            if not legal:
                break
            a = self.playout(rules, state, seat, legal, rng) if rng.random() < 0.7 else rng.choice(legal)
            state, ev = rules.replay_step(state, seat, a, RngDice(rng))
            events += ev
        return state, events


def terminal_value(winner: str | None, seat: str) -> float:
    if winner is None or winner == "":
        return 0.5
    return 1.0 if winner == seat else 0.0


def first_of(legal: Sequence[Action], verb: str) -> Action | None:
    return next((a for a in legal if a.verb == verb), None)


DEFAULT = GameAI()
