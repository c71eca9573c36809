"""The player's own random numbers: a small seeded generator, never the ``random`` module.

The engine may not draw randomness itself (tests/test_engine_purity.py); the player is handed a
seed (``seed_for``: the game's secret seed and the action number, through HMAC) and every choice
it makes at random comes from this generator, so the same position and seed give the same move
on any machine. SplitMix64 is short, fast in Python and passes the usual statistical tests.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from typing import TypeVar

from engine.core.dice import Roll

T = TypeVar("T")
_MASK = (1 << 64) - 1


def seed_for(game_seed: str, action_no: int, seat: str = "") -> str:
    """The player's seed for a decision: derived from the game's seed and the action number.

    One-way (HMAC-SHA256 under its own key), so the seed tells nothing about the game's dice.
    """
    msg = f"ai:{seat}:{action_no}".encode()
    return hmac.new(game_seed.encode(), msg, hashlib.sha256).hexdigest()[:32]


class Rng:
    """SplitMix64 seeded from any string or integer."""

    def __init__(self, seed: str | int) -> None:
        self._seed = str(seed)
        self._x = int.from_bytes(hashlib.sha256(self._seed.encode()).digest()[:8], "big")

    def fork(self, label: str | int) -> Rng:
        """An independent generator for a named sub-task (a playout, an opponent's sample)."""
        return Rng(f"{self._seed}/{label}/{self.next64()}")

    def copy(self) -> Rng:
        """A generator at the same point of the same sequence (common random numbers)."""
        twin = Rng(self._seed)
        twin._x = self._x
        return twin

    def next64(self) -> int:
        self._x = (self._x + 0x9E3779B97F4A7C15) & _MASK
        z = self._x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def random(self) -> float:
        """Uniform in [0, 1)."""
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def below(self, n: int) -> int:
        """Uniform in 0..n-1 (n >= 1), without modulo bias."""
        if n <= 1:
            return 0
        limit = ((1 << 64) // n) * n
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.below(len(seq))]

    def shuffle(self, items: list[T]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def weighted(self, weights: Sequence[float]) -> int:
        """An index drawn with the given non-negative weights (uniform if they sum to zero)."""
        total = sum(max(w, 0.0) for w in weights)
        if total <= 0:
            return self.below(len(weights))
        x = self.random() * total
        for i, w in enumerate(weights):
            x -= max(w, 0.0)
            if x < 0:
                return i
        return len(weights) - 1


class RngDice:
    """Dice for the player's imagined futures: drawn from its own generator, recorded like any dice."""

    def __init__(self, rng: Rng) -> None:
        self._rng = rng
        self._rolls: list[Roll] = []

    def roll(self, sides: int = 6, why: str = "") -> int:
        value = self._rng.below(sides) + 1
        self._rolls.append(Roll(sides=sides, value=value, why=why))
        return value

    @property
    def rolls(self) -> list[Roll]:
        return list(self._rolls)


class TapeDice:
    """Recorded rolls first (a step the seat saw), then the generator once the record runs out.

    In a determinized past the sampled hidden choices can ask for rolls the real game never made.
    """

    def __init__(self, rolls: Sequence[Roll], rng: Rng) -> None:
        self._tape = list(rolls)
        self._rng = rng
        self._rolls: list[Roll] = []

    def roll(self, sides: int = 6, why: str = "") -> int:
        if self._tape and self._tape[0].sides == sides:
            value = self._tape.pop(0).value
        else:
            self._tape = []
            value = self._rng.below(sides) + 1
        self._rolls.append(Roll(sides=sides, value=value, why=why))
        return value

    @property
    def rolls(self) -> list[Roll]:
        return list(self._rolls)
