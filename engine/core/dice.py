"""Dice: the engine never draws randomness itself, it asks a ``Dice`` it is handed.

Live play uses ``SeededDice``: roll *n* of action *k* is derived from the game's
secret seed by HMAC-SHA256, so the stream is fixed by the seed yet unforeseeable
without it. Every roll is recorded; a replay hands the engine ``RecordedDice``,
which reads the recorded rolls back and fails loudly when the engine asks for a
roll that was never made. The seed's SHA-256 is published when a game starts and
the seed itself when it ends: ``verify_rolls`` lets anyone re-derive every roll.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field, model_validator

MAX_SIDES = 1000
"""No die of any game has more sides; a record claiming one is refused."""


class Roll(BaseModel):
    """One recorded roll: the number of sides, the result and why it was rolled."""

    model_config = ConfigDict(frozen=True)

    sides: int = Field(ge=1, le=MAX_SIDES)
    value: int = Field(ge=1)
    why: str = Field(default="", max_length=200)

    @model_validator(mode="after")
    def _on_the_die(self) -> Roll:
        if self.value > self.sides:
            raise ValueError(f"a d{self.sides} cannot show {self.value}")
        return self


class Dice(Protocol):
    """What the engine needs: a die of ``sides`` sides, rolled for a stated reason."""

    def roll(self, sides: int = 6, why: str = "") -> int: ...

    @property
    def rolls(self) -> list[Roll]: ...


class DiceExhausted(Exception):
    """A replay asked for a roll that the log does not hold: the log and the rules disagree."""


def seed_hash(seed: str) -> str:
    """The public commitment to a game's dice seed."""
    return hashlib.sha256(seed.encode()).hexdigest()


def derive(seed: str, key: str, action_no: int, roll_no: int, sides: int) -> int:
    """Roll ``roll_no`` of action ``action_no`` under ``key``: uniform in 1..sides."""
    if not 1 <= sides <= 2**48:
        # Past 2**64 the rejection limit below is 0 and no draw would ever be accepted.
        raise ValueError(f"a die has 1 to 2**48 sides, not {sides}")
    counter = 0
    limit = (2**64 // sides) * sides  # reject the biased tail
    while True:
        msg = f"{key}:{action_no}:{roll_no}:{counter}".encode()
        digest = hmac.new(seed.encode(), msg, hashlib.sha256).digest()
        x = int.from_bytes(digest[:8], "big")
        if x < limit:
            return x % sides + 1
        counter += 1


class SeededDice:
    """Live dice for one action: derived from the game seed, recorded as they fall.

    ``key`` names the dice stream; a moderator's rollback switches to a fresh key
    so nobody can foresee rolls by replaying the abandoned branch.
    """

    def __init__(self, seed: str, action_no: int, key: str = "main") -> None:
        self._seed = seed
        self._action_no = action_no
        self._key = key
        self._rolls: list[Roll] = []

    def roll(self, sides: int = 6, why: str = "") -> int:
        value = derive(self._seed, self._key, self._action_no, len(self._rolls), sides)
        self._rolls.append(Roll(sides=sides, value=value, why=why))
        return value

    @property
    def rolls(self) -> list[Roll]:
        return list(self._rolls)


class RecordedDice:
    """Replay dice: hands back the recorded rolls in order, checking each request."""

    def __init__(self, rolls: list[Roll]) -> None:
        self._queue = list(rolls)
        self._used: list[Roll] = []

    def roll(self, sides: int = 6, why: str = "") -> int:
        if not self._queue:
            raise DiceExhausted(f"the record has no roll left for '{why}'")
        r = self._queue.pop(0)
        if r.sides != sides:
            raise DiceExhausted(f"the record rolled a d{r.sides} where the rules ask a d{sides} ('{why}')")
        self._used.append(r)
        return r.value

    @property
    def rolls(self) -> list[Roll]:
        return list(self._used)

    @property
    def unused(self) -> int:
        """How many recorded rolls were never asked for."""
        return len(self._queue)


class FixedDice:
    """Dice that fall as a test says: a list of values, read in order."""

    def __init__(self, values: list[int], sides: int = 6) -> None:
        self._values = list(values)
        self._rolls: list[Roll] = []

    def roll(self, sides: int = 6, why: str = "") -> int:
        if not self._values:
            raise DiceExhausted(f"the test gave no roll for '{why}'")
        value = self._values.pop(0)
        self._rolls.append(Roll(sides=sides, value=value, why=why))
        return value

    @property
    def rolls(self) -> list[Roll]:
        return list(self._rolls)


def verify_rolls(seed: str, key: str, action_no: int, rolls: list[Roll]) -> bool:
    """True when ``rolls`` are exactly what ``seed`` gives for that action."""
    return all(derive(seed, key, action_no, i, r.sides) == r.value for i, r in enumerate(rolls))
