"""Every legal action of a seat, step by step: the single source of input (3.0)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from engine.core.errors import IllegalAction
from engine.core.hexes import DIRECTION_NAMES, neighbors
from engine.core.protocol import Action
from engine.games.annihilator import data
from engine.games.annihilator.assault import default_pairs, parse_pairs
from engine.games.annihilator.board import Board, base_types, move_cost
from engine.games.annihilator.combat import can_attack
from engine.games.annihilator.state import State, Unit

# step -> (seat, verbs, prompt text, rule, secret)
STEPS: dict[str, tuple[str, tuple[str, ...], str, str, bool]] = {
    "deploy": (data.ANNIHILATOR, ("place", "lift", "autodeploy", "ready"),
               "set up the Security Robots and Repairbots (or take the default deployment), then say ready", "4.1",
               False),
    "land": (data.MARINES, ("land",), "roll for the three impact hexes", "4.2", False),
    "h_move": (data.MARINES, ("move", "recover", "done"), "move the Marines", "5.1", False),
    "h_combat": (data.MARINES, ("attack", "done"), "close combat", "7.1", False),
    "h_advance": (data.MARINES, ("advance", "recover", "done"), "advance into the hexes just cleared", "8.3", False),
    "a_advance": (data.ANNIHILATOR, ("advance", "done"), "advance into the hexes just cleared", "8.3", False),
    "h_demo": (data.MARINES, ("charge", "cancel", "done"), "give your demolition orders (sealed)", "8.1", True),
    "a_move": (data.ANNIHILATOR, ("move", "done"), "move the robots", "5.1", False),
    "a_combat": (data.ANNIHILATOR, ("attack", "mind", "done"), "close combat and the Mind Weapon", "7.1", False),
    "a_repair": (data.ANNIHILATOR, ("repair", "done"), "repair with Repairbots", "9.0", False),
}

_ACTIONS: dict[tuple[str, tuple[tuple[str, str], ...]], Action] = {}


def act(verb: str, **args: str) -> Action:
    """An Action, shared between calls: legal lists are rebuilt often and actions are frozen."""
    key = (verb, tuple(args.items()))
    a = _ACTIONS.get(key)
    if a is None:
        if len(_ACTIONS) > 50_000:
            _ACTIONS.clear()
        a = _ACTIONS[key] = Action(verb=verb, args=dict(args))
    return a


_UNIT_TO: dict[tuple[str, str], dict[str, Action]] = {}


def unit_moves(verb: str, uid: str, dests: Iterable[str]) -> list[Action]:
    """``move``/``advance``/``place`` actions of one unit to each of ``dests``: the most numerous
    actions, from their own cache, the unit's row of it looked up once."""
    row = _UNIT_TO.get((verb, uid))
    if row is None:
        row = _UNIT_TO[(verb, uid)] = {}
    arg = "at" if verb == "place" else "to"
    out = []
    for to in dests:
        a = row.get(to)
        if a is None:
            a = row[to] = Action(verb=verb, args={"unit": uid, arg: to})
        out.append(a)
    return out


def is_legal_fast(state: State, seat: str, action: Action) -> bool | None:
    """Membership in ``legal`` for the numerous verbs, without listing them; None: not answered here."""
    if state.step not in STEPS or STEPS[state.step][0] != seat or action.verb not in STEPS[state.step][1]:
        return False
    if action.verb == "attack" and state.close_combat == "assault":
        return is_legal_attack(state, seat, action)
    if action.verb not in ("move", "advance", "place"):
        return None
    arg = "at" if action.verb == "place" else "to"
    if set(action.args) != {"unit", arg}:
        return False
    uid, to = str(action.args["unit"]), str(action.args[arg])
    u = state.units.get(uid)
    if u is None or u.side != seat or not u.alive:
        return False
    board = Board(state)
    if action.verb == "place":
        return not u.hex and to in placeable_set() and board.room(to, seat)
    if u not in movers(state, seat):
        return False
    only = state.fresh if action.verb == "advance" else None
    return to in board.destinations(u, u.mp, only=only)


@cache
def placeable() -> tuple[str, ...]:
    """Hexes a robot may be set up in (4.1): any hex robots may enter."""
    return tuple(sorted(n for n in data.hexes_by_number() if move_cost(State(), False, n) is not None))


@cache
def placeable_set() -> frozenset[str]:
    """``placeable`` as a set."""
    return frozenset(placeable())


def movers(state: State, side: str) -> list[Unit]:
    """Units of ``side`` that may still move: on the map, not disrupted, points left (5.1)."""
    return [u for u in state.side_units(side) if u.hex and not u.disrupted and u.mp > 0]


def legal(state: State, seat: str) -> list[Action]:
    """Every legal action of ``seat`` now."""
    if state.step not in STEPS or STEPS[state.step][0] != seat:
        return []
    out: list[Action] = []
    for verb in STEPS[state.step][1]:
        out.extend(_GEN[verb](state))
    return out


def has_choice(state: State) -> bool:
    """Whether the step offers anything besides ending it."""
    if state.step not in STEPS:
        return False
    for verb in STEPS[state.step][1]:
        if verb in ("move", "advance") and _some_step(state, verb):
            return True
        if verb != "done" and _GEN[verb](state):
            return True
    return False


def _some_step(state: State, verb: str) -> bool:
    """A quick yes: some unit can step into a next hex and stop there (the full search says no)."""
    side = STEPS[state.step][0]
    board = Board(state)
    only = set(state.fresh) if verb == "advance" else None
    by_no, nums = data.hexes_by_number(), data.hex_numbers()
    for u in movers(state, side):
        for n in neighbors(by_no[u.hex]):
            k = nums.get(n)
            if k is None or (only is not None and k not in only):
                continue
            cost = move_cost(state, u.human, k)
            if cost is not None and cost <= u.mp and board.room(k, side):
                return True
    return False


def _place(state: State) -> list[Action]:
    todo = [u for u in state.side_units(data.ANNIHILATOR) if not u.hex]
    if not todo:
        return []
    board = Board(state)
    hexes = [h for h in placeable() if board.room(h, data.ANNIHILATOR)]
    return [a for u in todo for a in unit_moves("place", u.id, hexes)]


def _lift(state: State) -> list[Action]:
    return [act("lift", unit=u.id) for u in state.side_units(data.ANNIHILATOR) if u.hex]


def _autodeploy(state: State) -> list[Action]:
    return [act("autodeploy")] if any(not u.hex for u in state.side_units(data.ANNIHILATOR)) else []


def _ready(state: State) -> list[Action]:
    return [] if any(not u.hex for u in state.side_units(data.ANNIHILATOR)) else [act("ready")]


def _land(state: State) -> list[Action]:
    return [act("land")]


def _move(state: State) -> list[Action]:
    side = STEPS[state.step][0]
    board = Board(state)
    return [a for u in movers(state, side) for a in unit_moves("move", u.id, board.destinations(u, u.mp))]


def _advance(state: State) -> list[Action]:
    side = STEPS[state.step][0]
    board = Board(state)
    return [
        a for u in movers(state, side) for a in unit_moves("advance", u.id, board.destinations(u, u.mp, only=state.fresh))
    ]


def _recover(state: State) -> list[Action]:
    return [
        act("recover", unit=u.id)
        for u in state.side_units(data.MARINES)
        if u.kind == "assault" and u.arrived and u.hex in state.caches and not u.disrupted
    ]


def must_leave(state: State) -> list[Unit]:
    """Units that set a charge here and can still move out this movement phase (8.1)."""
    board = Board(state)
    return [u for u in movers(state, data.MARINES) if u.leave and u.hex == u.leave and board.destinations(u, u.mp)]


def _done(state: State) -> list[Action]:
    if state.step == "h_move" and must_leave(state):
        return []
    return [act("done")]


def _attack(state: State) -> list[Action]:
    side = STEPS[state.step][0]
    hexes = sorted({u.hex for u in state.side_units(side) if u.hex})
    if state.close_combat == "assault":  # RULINGS, close assault: the default pairing, offered as a choice
        return [act("attack", at=h, pairs=default_pairs(state, h, side)) for h in hexes if can_attack(state, h, side)]
    return [act("attack", at=h) for h in hexes if can_attack(state, h, side)]


def is_legal_attack(state: State, seat: str, action: Action) -> bool:
    """An ``attack`` under close assault with any pairing the attacker may choose, or none (the default)."""
    if not set(action.args) >= {"at"} or set(action.args) - {"at", "pairs"}:
        return False
    at = str(action.args["at"])
    if at not in data.hexes_by_number() or not can_attack(state, at, seat):
        return False
    text = str(action.args.get("pairs", ""))
    if not text:
        return True
    try:
        parse_pairs(state, at, seat, text)
    except IllegalAction:
        return False
    return True


def _mind(state: State) -> list[Action]:
    if state.mind_used:
        return []
    return [act("mind", at=h) for h in sorted({u.hex for u in state.side_units(data.MARINES) if u.hex})]


def chargers(state: State) -> list[Unit]:
    """Units that may still set a charge this demolition phase (8.1, 8.4)."""
    ordered = {o.unit for o in state.orders}
    return [
        u
        for u in state.side_units(data.MARINES)
        if u.hex and not u.disrupted and u.charges > 0 and u.id not in ordered
    ]


def _charge(state: State) -> list[Action]:
    return [
        act("charge", unit=u.id, pattern=p, at=u.hex, facing=f)
        for u in chargers(state)
        for p in u.utype.patterns
        for f in DIRECTION_NAMES
    ]


def _cancel(state: State) -> list[Action]:
    return [act("cancel", unit=o.unit) for o in state.orders]


def restored_type(state: State, hex_no: str) -> str:
    """The hex type a repair would give back: the printed one, or the breach of an impact (9.0)."""
    return "breach" if hex_no in state.impacts else base_types()[hex_no]


def repair_blocked(state: State, hex_no: str) -> bool:
    """RULINGS Annihilator 9: no repair restores a hex to impassable for humans while a human stands in it."""
    restored = data.hex_types().types[restored_type(state, hex_no)]
    return restored.human is None and any(u.human for u in state.at(hex_no))


def _repair(state: State) -> list[Action]:
    return [
        act("repair", unit=u.id)
        for u in state.side_units(data.ANNIHILATOR)
        if u.kind == "repair" and u.hex and u.hex in state.markers and u.id not in state.repaired
        and not repair_blocked(state, u.hex)
    ]


_GEN = {
    "place": _place,
    "lift": _lift,
    "autodeploy": _autodeploy,
    "ready": _ready,
    "land": _land,
    "move": _move,
    "advance": _advance,
    "recover": _recover,
    "done": _done,
    "attack": _attack,
    "mind": _mind,
    "charge": _charge,
    "cancel": _cancel,
    "repair": _repair,
}
