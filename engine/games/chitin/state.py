"""The game state of Chitin: I: plain pydantic values that dump to JSON."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, model_validator

Where = Literal["reserve", "map", "exited", "dead"]


class Counter(BaseModel):
    """One counter: a unit type and a number of units (rule 2.022)."""

    id: str
    side: str
    type: str
    units: int
    where: Where = "reserve"
    hex: str = ""
    """Printed hex number on the map; air units stand on a hex of their megahex."""
    facing: int = 0
    disrupted: bool = False
    began_disrupted: bool = False
    """Disrupted when its movement phase began: no charge (8.025, 8.034)."""
    mp: int = 0
    """Movement points (megahexes for air) left this phase."""
    moved: bool = False
    """Its move is over for this phase (a Worker that picked up a chit goes on, 6.081)."""
    turned: bool = False
    """It turned in place this phase (6.06): free, but once is enough."""
    charging: bool = False
    entered: bool = False
    """An air unit that entered its megahex this turn (8.014)."""
    chit: str = ""
    """The Harvest Chit a Worker carries (6.081)."""
    ready_turn: int = 0
    """A replacement Worker may enter from this turn on (6.083)."""


class Chit(BaseModel):
    """A Harvest Chit: its face value and the dead units added to it (4.021, 8.041)."""

    letter: str
    face: int
    bodies: int = 0
    original: bool = True
    hex: str = ""
    carriers: list[str] = Field(default_factory=list)
    """The Workers carrying it; several may carry one chit together (6.081, RULINGS Chitin 7)."""
    off_by: str = ""
    """The seat whose Worker carried it off its own end."""

    @model_validator(mode="before")
    @classmethod
    def _one_carrier(cls, data: object) -> object:
        """A position saved before several Workers could carry a chit had one ``carrier``."""
        if isinstance(data, dict) and "carrier" in data:
            data = dict(data)
            old = data.pop("carrier")
            data.setdefault("carriers", [old] if old else [])
        return data

    @property
    def value(self) -> int:
        return self.face + self.bodies


class Pair(BaseModel):
    """One declared attack: an attacking stack (hex) or air unit (id) on a hex or on 'air'."""

    by: str
    on: str


class Combat(BaseModel):
    """A combat as resolved: who fought, the odds, the die and the result."""

    attackers: list[str]
    defenders: list[str]
    arrows: list[tuple[str, str]]
    charge: list[str] = Field(default_factory=list)
    attack: int = 0
    defence: int = 0
    odds: str = ""
    die: int = 0
    result: str = ""
    dice: int = 0
    """Under ``combat: dice``: the attack's dice and re-roll advantages."""
    rerolls: int = 0


class Task(BaseModel):
    """A decision combat leaves to one player: losses, a retreat, an advance (7.063-7.066)."""

    kind: Literal["loss", "retreat", "advance", "defend", "press"]
    seat: str
    units: list[str] = Field(default_factory=list)
    n: int = 0
    hexes: list[str] = Field(default_factory=list)
    rule: str = ""
    combat: int = -1
    losers: list[str] = Field(default_factory=list)
    """For an advance: the enemy counters of that combat, whose losses open a change of facing (5.00)."""


class State(BaseModel):
    """A whole game of Chitin: I."""

    scenario: str
    advanced: bool
    turn_limit: int = 0
    first_off: bool = False
    combat: str = "crt"
    """``crt`` (7.06) or ``dice`` (the step-reduction dice of RULINGS)."""
    step: str = "forces"
    turn: int = 0
    active: str = ""
    first: str = ""
    ends: dict[str, str] = Field(default_factory=dict)
    counters: dict[str, Counter] = Field(default_factory=dict)
    chits: dict[str, Chit] = Field(default_factory=dict)
    picks: dict[str, list[str]] = Field(default_factory=dict)
    ready: list[str] = Field(default_factory=list)
    rolls: dict[str, int] = Field(default_factory=dict)
    high: str = ""
    overrun_by: dict[str, list[str]] = Field(default_factory=dict)
    """7.07: hex overrun this movement phase -> the counters that took part (they pass it at 2 + ...)."""
    face_hex: str = ""
    face_charge: bool = False
    plan: list[Pair] = Field(default_factory=list)
    combats: list[Combat] = Field(default_factory=list)
    current: int = 0
    queue: list[Task] = Field(default_factory=list)
    rear_threats: dict[str, list[str]] = Field(default_factory=dict)
    """7.05: own counter ids of a stack -> enemy counter ids behind it when the attack phase began."""
    lost: dict[str, int] = Field(default_factory=dict)
    next_id: dict[str, int] = Field(default_factory=dict)
    moved_hexes: list[str] = Field(default_factory=list)
    loss_hexes: list[str] = Field(default_factory=list)
    last_moved: list[str] = Field(default_factory=list)
    """The previous turn's moves and losses, shown on the board until the next order is given."""
    last_losses: list[str] = Field(default_factory=list)
    winner: str = ""
    over_reason: str = ""
    score: dict[str, int] = Field(default_factory=dict)

    def mine(self, seat: str) -> list[Counter]:
        """Counters of ``seat``."""
        return [c for c in self.counters.values() if c.side == seat]
