"""Positions for Chitin tests: place counters on the map and play orders against the rules."""

from __future__ import annotations

from engine.core.dice import FixedDice
from engine.core.hexes import neighbor
from engine.core.protocol import Action, Event
from engine.core.registry import get
from engine.games.chitin import flow, movement
from engine.games.chitin.board import DIRS, T, geo
from engine.games.chitin.data import kind_code
from engine.games.chitin.state import Counter, State

RULES = get("chitin")
SIDE = {"R": "Red", "B": "Blue"}


def nb(h: str, d: str) -> str:
    """The hex next to printed hex ``h`` in direction ``d`` (N, NE, SE, S, SW, NW)."""
    return T(neighbor(geo().hex_of[h], DIRS.index(d)))


def position(scenario: str = "learning", active: str = "Red", step: str = "move", chits: bool = False) -> State:
    """An empty board of ``scenario``: Red at the north end, Blue at the south, ``active`` to move."""
    state = flow.new_state(scenario, 0, False)
    state.counters, state.picks = {}, {}
    if not chits:
        state.chits = {}
    state.ends = {"Red": "north", "Blue": "south"}
    state.first, state.active, state.turn, state.step = "Red", active, 1, step
    state.next_id = {"Red": 50, "Blue": 50}
    return state


def put(state: State, cid: str, kind: str, where: str = "reserve", face: str = "N", disrupted: bool = False) -> Counter:
    """Place counter ``cid`` (R.. is Red, B.. Blue) of kind ``GT3``/``W``/``B`` in a hex or in reserve."""
    code, units = kind_code(kind)
    c = Counter(id=cid, side=SIDE[cid[0]], type=code, units=units, facing=DIRS.index(face), disrupted=disrupted)
    if where != "reserve":
        c.where, c.hex = "map", where
    state.counters[cid] = c
    return c


def begin(state: State) -> State:
    """Start the active side's movement phase (fresh movement points, command control)."""
    movement.start_movement(state, state.active, [])
    state.step = "move"
    return state


def act(state: State, seat: str, verb: str, dice: list[int] | None = None, **args: str) -> tuple[State, list[Event]]:
    """Apply one order through the rules (legality checked), with fixed dice."""
    new, events = RULES.apply(state, seat, Action(verb=verb, args=args), FixedDice(list(dice or [])))
    assert isinstance(new, State)
    return new, events


def legal(state: State, seat: str, verb: str, **given: str) -> list[dict[str, str]]:
    """The legal actions of one verb, optionally filtered by some arguments."""
    out = []
    for a in RULES.legal_actions(state, seat):
        if a.verb == verb and all(str(a.args.get(k)) == v for k, v in given.items()):
            out.append({k: str(v) for k, v in a.args.items()})
    return out


def destinations(state: State, seat: str, stack: str, verb: str = "move") -> set[str]:
    """Where a stack may move."""
    return {a["to"] for a in legal(state, seat, verb, stack=stack)}
