"""The OneWorld game state: a value that dumps to JSON; rules never mutate it in place."""

from __future__ import annotations

from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from engine.core.protocol import Action
from engine.games.oneworld.options import Options

SEATS = ("BORG", "CHEZ")
ASPECTS = ("Stone", "Blade", "Fog")
BEATS = {"Stone": "Blade", "Blade": "Fog", "Fog": "Stone"}
"""13.1: Stone defeats Blade, Blade defeats Fog, Fog defeats Stone."""

Step = Literal[
    "order", "end", "gods", "tower", "place", "move", "fight", "combat", "accost_child", "accost_god", "over"
]
Where = Literal["reserve", "map", "tower", "lost"]


ActionKey = tuple[str, tuple[tuple[str, str], ...]]


def other(seat: str) -> str:
    """The opposing seat."""
    return "CHEZ" if seat == "BORG" else "BORG"


class Child(BaseModel):
    """One Child of a god: its id (B1..B13, C1..C13), aspect and whereabouts."""

    model_config = ConfigDict(frozen=True)

    id: str
    side: str
    aspect: str = "Stone"
    where: Where = "reserve"
    hex: str = ""


class Fight(BaseModel):
    """A combat in one hex (8.2): its round and the aspects each side has chosen, unrevealed."""

    model_config = ConfigDict(frozen=True)

    hex: str
    round: int = 1
    quiet: int = 0
    """Rounds in a row without a loss (12.0 Frustration Clause)."""
    chosen: dict[str, tuple[str, ...]] = Field(default_factory=dict)


class Accost(BaseModel):
    """A Child accosting an enemy god (10.4): both aspects held unrevealed until the god has chosen."""

    model_config = ConfigDict(frozen=True)

    child: str
    hex: str
    child_aspect: str = ""
    god_aspect: str = ""


class Changes(BaseModel):
    """What happened this turn, for the board's highlights."""

    model_config = ConfigDict(frozen=True)

    moved: tuple[str, ...] = ()
    combat: tuple[str, ...] = ()
    losses: tuple[str, ...] = ()
    arrows: tuple[tuple[str, str], ...] = ()


class State(BaseModel):
    """A OneWorld game."""

    model_config = ConfigDict(frozen=True)

    options: Options = Options()
    step: Step = "order"
    active: str = "BORG"
    turn: int = 0
    setup_rolls: dict[str, int] = Field(default_factory=dict)
    first: str = ""
    """The seat that sets up first (3.2, 3.3)."""
    stacking: int = 4
    ends: dict[str, str] = Field(default_factory=dict)
    """Seat -> the end of the map (or, with New Geography, the Tower site) it defends."""
    god_hex: dict[str, str] = Field(default_factory=dict)
    lives: dict[str, int] = Field(default_factory=dict)
    tower_hex: dict[str, str] = Field(default_factory=dict)
    children: tuple[Child, ...] = ()
    moved: tuple[str, ...] = ()
    """Children that have moved this turn (each moves once, 4.2)."""
    stops: dict[str, int] = Field(default_factory=dict)
    """Hex -> Blades that stopped on a friendly Stone there this turn (12.0 Friendly Obstacle)."""
    accosted: bool = False
    god_moved: bool = False
    transforms: int = 0
    fights: tuple[str, ...] = ()
    """Hexes whose combat is still to be fought this turn."""
    fight: Fight | None = None
    accost: Accost | None = None
    changes: Changes = Changes()
    previous: Changes = Changes()
    """The last turn's changes, still shown on the board until the next order is given."""
    longest_combat: int = 0
    winner: str = ""
    end_reason: str = ""

    _legal: dict[str, list[Action]] | None = PrivateAttr(default=None)
    _keys: dict[str, set[ActionKey]] | None = PrivateAttr(default=None)

    def child(self, cid: str) -> Child | None:
        """The Child with this id."""
        for c in self.children:
            if c.id == cid:
                return c
        return None

    def on_map(self, side: str) -> list[Child]:
        """The Children of ``side`` on the mapsheet."""
        return [c for c in self.children if c.side == side and c.where == "map"]

    def in_hex(self, hex_: str) -> list[Child]:
        """The Children in a hex."""
        return [c for c in self.children if c.where == "map" and c.hex == hex_]


def children(n: int) -> str:
    """``1 Child``, ``3 Children``."""
    return f"{n} {'Child' if n == 1 else 'Children'}"


def fork(state: State, **changes: object) -> State:
    """A copy of ``state`` with some fields replaced; nested values are frozen, so a shallow copy is safe."""
    new = state.model_copy(update=changes)
    new._legal = None
    new._keys = None
    return new


def replace_children(state: State, updates: dict[str, Child]) -> tuple[Child, ...]:
    """The children tuple with some Children replaced by id."""
    return tuple(updates.get(c.id, c) for c in state.children)


_KEYS: dict[int, ActionKey] = {}


@cache
def _cached_action(verb: str, pairs: tuple[tuple[str, str | int], ...]) -> Action:
    made = Action(verb=verb, args=dict(pairs))
    _KEYS[id(made)] = made.key()  # the cache keeps ``made`` alive, so its id stays its own
    return made


def key_of(a: Action) -> ActionKey:
    """``a.key()``, remembered for the actions ``action`` builds."""
    known = _KEYS.get(id(a))
    return known if known is not None else a.key()


def action(verb: str, args: dict[str, str | int] | None = None) -> Action:
    """An ``Action``, built once for each verb and arguments (they are frozen, so shared safely)."""
    return _cached_action(verb, tuple((args or {}).items()))
