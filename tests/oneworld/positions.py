"""Positions for OneWorld tests, written like a set-up sheet: ``"B1 Stone 0607"``."""

from __future__ import annotations

from typing import Any

from engine.core.dice import FixedDice
from engine.core.protocol import Action, Event, GameConfig, Player
from engine.core.registry import get
from engine.games.oneworld.options import parse_options
from engine.games.oneworld.state import SEATS, Child, State

RULES = get("oneworld")
PLAYERS = tuple(Player(seat=s, name=s.lower()) for s in SEATS)


def position(
    *units: str,
    gods: dict[str, str] | None = None,
    towers: dict[str, str] | None = None,
    options: dict[str, Any] | None = None,
    active: str = "BORG",
    rest: str = "tower",
    **fields: Any,
) -> State:
    """A game in ``active``'s movement phase with the Children listed; the others lie under their Tower."""
    opts = parse_options(options or {})
    placed: dict[str, Child] = {}
    for text in units:
        cid, aspect, hex_ = text.split()
        placed[cid] = Child(
            id=cid, side="BORG" if cid[0] == "B" else "CHEZ", aspect=aspect, where="map", hex=hex_
        )
    children = tuple(
        placed.get(f"{s[0]}{i}", Child(id=f"{s[0]}{i}", side=s, where=rest))  # type: ignore[arg-type]
        for s in SEATS
        for i in range(1, 14)
    )
    base: dict[str, Any] = dict(
        options=opts,
        step="move",
        active=active,
        turn=1,
        first="CHEZ" if active == "BORG" else "BORG",
        stacking=int(opts.stacking_limit) if opts.stacking_limit != "roll" else 4,
        ends={"BORG": "north", "CHEZ": "south"},
        god_hex=gods if gods is not None else {"BORG": "0702", "CHEZ": "0720"},
        lives=opts.lives(),
        tower_hex=towers if towers is not None else ({"BORG": "0111", "CHEZ": "1311"} if opts.towers else {}),
        children=children,
    )
    base.update(fields)
    return State(**base)


def new_game(options: dict[str, Any] | None = None, rolls: tuple[int, int] = (5, 2)) -> State:
    """A new game whose set-up roll fell BORG ``rolls[0]``, CHEZ ``rolls[1]``."""
    config = GameConfig(game="oneworld", scenario="standard", options=options or {}, players=PLAYERS)
    return RULES.setup(config, FixedDice(list(rolls)))  # type: ignore[return-value]


def act(
    state: State, seat: str, verb: str, dice: list[int] | None = None, **args: Any
) -> tuple[State, list[Event]]:
    """Apply one order through the full legality check; the dice fall as listed."""
    new, events = RULES.apply(state, seat, Action(verb=verb, args=args), FixedDice(dice or []))
    return new, events  # type: ignore[return-value]


def legal(state: State, seat: str, verb: str | None = None) -> list[Action]:
    """The legal actions of ``seat`` (of one verb)."""
    return [a for a in RULES.legal_actions(state, seat) if verb is None or a.verb == verb]


def destinations(state: State, child: str) -> set[str]:
    """Where a Stone or Fog may move: the ``to`` of its legal moves."""
    seat = "BORG" if child[0] == "B" else "CHEZ"
    return {
        str(a.args["to"]) for a in legal(state, seat, "move") if a.args["child"] == child and "to" in a.args
    }


def blade_dirs(state: State, child: str) -> dict[str, Action]:
    """A Blade's legal moves by direction (without Friendly Obstacle stops)."""
    seat = "BORG" if child[0] == "B" else "CHEZ"
    return {
        str(a.args["dir"]): a
        for a in legal(state, seat, "move")
        if a.args["child"] == child and "dir" in a.args and "steps" not in a.args
    }


def where(state: State, child: str) -> str:
    """The hex of a Child on the map, or where it is instead (tower, lost)."""
    c = state.child(child)
    assert c is not None
    return c.hex if c.where == "map" else c.where


def refusal(state: State, seat: str, verb: str, **args: Any) -> str:
    """The message a player reads when the order is refused (it must be refused)."""
    from engine.core.errors import RuleError

    try:
        RULES.apply(state, seat, Action(verb=verb, args=args), FixedDice([]))
    except RuleError as exc:
        return str(exc)
    raise AssertionError(f"/{verb} {args} was accepted")
