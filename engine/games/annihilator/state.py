"""The state of an Annihilator game: a pydantic value that apply never mutates."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from engine.core.state import clone as deep_clone
from engine.games.annihilator import data


class Unit(BaseModel):
    """One counter. ``hex`` is empty while unplaced (4.1) or once eliminated."""

    id: str
    kind: str
    hex: str = ""
    alive: bool = True
    disrupted: bool = False
    disrupted_turn: int = 0
    disrupted_step: str = ""
    """When the disruption happened: it lifts at that step of the next game turn (RULINGS Annihilator 6)."""
    mp: float = 0.0
    """Movement points left in the current movement or advance (5.1, 8.3)."""
    charges: int = 0
    """Nuclear Demolition Charges carried (8.4)."""
    leave: str = ""
    """The hex this unit set a charge in and must leave next movement phase (8.1)."""
    arrived: bool = False
    """Entered its hex this movement phase (8.5 recovery)."""

    @property
    def utype(self) -> data.UnitType:
        return data.units().types[self.kind]

    @property
    def side(self) -> str:
        return self.utype.side

    @property
    def human(self) -> bool:
        return self.side == data.MARINES

    @property
    def on_map(self) -> bool:
        return self.alive and bool(self.hex)

    def describe(self) -> str:
        """``Security Robot R3``: how messages name a unit."""
        return f"{self.utype.name} {self.id}"


class Charge(BaseModel):
    """A demolition charge order (8.1): who, which pattern, where, facing 0-5 (N..NW)."""

    model_config = ConfigDict(frozen=True)

    unit: str
    pattern: str
    at: str
    facing: int
    turn: int


class Mark(BaseModel):
    """A hex to outline on the board: what happened there last."""

    model_config = ConfigDict(frozen=True)

    hex: str
    kind: str


class State(BaseModel):
    """Everything needed to continue an Annihilator game."""

    scenario: str = "standard"
    hidden_charges: bool = False
    close_combat: str = "crt"
    turn: int = 0
    step: str = "deploy"
    units: dict[str, Unit] = Field(default_factory=dict)
    markers: dict[str, str] = Field(default_factory=dict)
    """Hex -> ``clear`` or ``obpas`` (2.2.2)."""
    destroyed: list[str] = Field(default_factory=list)
    """Brain core hexes destroyed (10.0)."""
    impacts: list[str] = Field(default_factory=list)
    caches: dict[str, int] = Field(default_factory=dict)
    """Hex -> charges left where a Demolition Squad fell in close combat (8.5)."""
    orders: list[Charge] = Field(default_factory=list)
    """This demolition phase's orders, sealed until the phase ends (8.1)."""
    charges: list[Charge] = Field(default_factory=list)
    """Charges set, to go off in the next demolition phase (8.1)."""
    fresh: list[str] = Field(default_factory=list)
    """Hexes just cleared by demolition, open to advance (8.3)."""
    fought: list[str] = Field(default_factory=list)
    """Hexes already attacked in this close combat phase (7.1)."""
    mind_used: bool = False
    repaired: list[str] = Field(default_factory=list)
    """Repairbots that have repaired this turn (9.0)."""
    sealed: bool = False
    """A sealed demolition order was given this phase, to be opened by a reveal (8.1)."""
    marks: list[Mark] = Field(default_factory=list)
    last_marks: list[Mark] = Field(default_factory=list)
    """The other side's marks, shown on the board until the next order is given."""
    winner: str | None = None
    reason: str = ""

    def clone(self) -> State:
        """A copy safe to change: units and containers are copied, frozen records shared."""
        new = self.model_copy()
        new.units = deep_clone(self.units)
        new.markers = dict(self.markers)
        new.caches = dict(self.caches)
        for name in ("destroyed", "impacts", "orders", "charges", "fresh", "fought", "marks", "last_marks", "repaired"):
            setattr(new, name, list(getattr(self, name)))
        return new

    def unit(self, uid: str) -> Unit:
        """The unit with id ``uid``."""
        return self.units[uid]

    def at(self, hex_no: str) -> list[Unit]:
        """Units alive in a hex."""
        return [u for u in self.units.values() if u.alive and u.hex == hex_no]

    def side_units(self, side: str) -> list[Unit]:
        """Units of a side still alive."""
        return [u for u in self.units.values() if u.alive and u.side == side]
