"""Positions and moves for the Annihilator tests: a state from a few lines, an order in one call."""

from __future__ import annotations

from engine.core.dice import Dice, FixedDice
from engine.core.hexes import format_ccrr, neighbor
from engine.core.protocol import Action, Event, GameConfig, Player
from engine.games.annihilator import RULES, data
from engine.games.annihilator.rules import initial_units
from engine.games.annihilator.state import State

M, A = data.MARINES, data.ANNIHILATOR
CORES = data.core_hexes()


def config(**options: object) -> GameConfig:
    """A game config with both seats filled."""
    return GameConfig(game="annihilator", scenario="standard", options=options,
                      players=(Player(seat=M, name="alice"), Player(seat=A, name="bob")))


def position(step: str = "h_move", turn: int = 1, units: dict[str, str] | None = None, **fields: object) -> State:
    """A state in ``step`` with only the named units alive, in the named hexes, movement points full."""
    all_units = initial_units()
    for uid, u in all_units.items():
        if units and uid in units:
            u.hex = units[uid]
            u.mp = float(u.utype.movement)
        else:
            u.alive = False
    return State(step=step, turn=turn, units=all_units, **fields)


def play(state: State, seat: str, verb: str, dice: Dice | list[int] | None = None,
         **args: str) -> tuple[State, list[Event]]:
    """Apply one order through the rules' checks; ``dice`` may be a list of die faces."""
    if dice is None or isinstance(dice, list):
        dice = FixedDice(list(dice or []))
    new, events = RULES.apply(state, seat, Action(verb=verb, args=args), dice)
    assert isinstance(new, State)
    return new, events


def legal(state: State, seat: str, verb: str | None = None) -> list[Action]:
    """The legal actions of a seat, optionally of one verb."""
    return [a for a in RULES.legal_actions(state, seat) if verb is None or a.verb == verb]


def destinations(state: State, uid: str, verb: str = "move") -> set[str]:
    """Hexes a unit may move (or advance) to now."""
    return {str(a.args["to"]) for a in legal(state, state.unit(uid).side, verb) if a.args["unit"] == uid}


def step_from(hex_no: str, *directions: int) -> str:
    """The hex reached by walking ``directions`` from ``hex_no``."""
    h = data.hexes_by_number()[hex_no]
    for d in directions:
        h = neighbor(h, d)
    return format_ccrr(h)


def hexes_of(kind: str) -> list[str]:
    """Every hex of a printed terrain type, sorted."""
    from engine.games.annihilator.board import base_types

    return sorted(n for n, t in base_types().items() if t == kind)


def landed(impacts: list[int] | None = None) -> State:
    """A new game past the default set-up and the impact rolls (dice: side, die, die per impact)."""
    s = RULES.setup(config(), FixedDice([]))
    assert isinstance(s, State)
    s, _ = play(s, A, "autodeploy")
    s, _ = play(s, A, "ready")
    s, _ = play(s, M, "land", impacts or [1, 3, 4, 3, 2, 5, 5, 6, 6])
    return s
