"""Why an order is refused: the unit, the hex and the rule, in words a player can act on."""

from __future__ import annotations

from engine.core.errors import IllegalAction
from engine.core.hexes import DIRECTION_NAMES
from engine.core.protocol import Action
from engine.games.annihilator import data
from engine.games.annihilator.assault import parse_pairs
from engine.games.annihilator.board import STACK_LIMIT, Board, hex_type, is_auto_defend, move_cost
from engine.games.annihilator.combat import attack_strength, attackers_in
from engine.games.annihilator.flow import PHASE_NAMES
from engine.games.annihilator.legal import chargers, must_leave, repair_blocked
from engine.games.annihilator.state import State, Unit

_WORDS = {3: "three", 6: "six"}


class Refusal(Exception):
    """A reason found while checking an order."""


def why_not(state: State, seat: str, action: Action) -> str:
    """The reason ``action`` is not legal now."""
    try:
        check = _CHECKS.get(action.verb)
        if check is not None:
            check(state, seat, action)
    except Refusal as r:
        return str(r)
    phase = PHASE_NAMES.get(state.step, state.step)
    return f"{action.text()} is not a legal order in the {phase}; check the unit, the hex and the step"


def canonical(state: State, action: Action) -> Action:
    """``action`` with its names written as the game writes them (a1 -> A1, ne -> NE, b -> B), whatever their case."""
    words = (*state.units, *DIRECTION_NAMES, *data.patterns().patterns)
    known = {str(w).lower(): str(w) for w in words}
    args = {k: known.get(str(v).strip().lower(), v) for k, v in action.args.items()}
    return Action(verb=action.verb, args=args)


def _unit(state: State, seat: str, action: Action) -> Unit:
    uid = str(action.args.get("unit", ""))
    if not uid:
        raise Refusal(f"/{action.verb} needs a unit: write unit:ID, e.g. unit:A1")
    if uid not in state.units:
        raise Refusal(f"there is no unit '{uid}': the units are A1-A6, D1-D3 (Marines), R1-R10, B1-B6 (Annihilator)")
    u = state.units[uid]
    if u.side != seat:
        raise Refusal(f"{u.describe()} belongs to the {u.side} player, not to you")
    if not u.alive:
        raise Refusal(f"{u.describe()} has been eliminated")
    return u


def _hex(state: State, action: Action, name: str) -> str:
    text = str(action.args.get(name, ""))
    if text not in data.hexes_by_number():
        raise Refusal(f"'{text}' is not a hex of the Annihilator map: write {name}: and four digits, e.g. {name}:1208")
    return text


def _entry(state: State, u: Unit, hex_no: str) -> None:
    if move_cost(state, u.human, hex_no) is None:
        kind = data.hex_types().types[hex_type(state, hex_no)].label.lower()
        raise Refusal(f"{u.describe()} cannot enter {kind} hex {hex_no} (rule 5.2, Hex Type Chart)")
    if not Board(state).room(hex_no, u.side):
        n = STACK_LIMIT[u.side]
        raise Refusal(f"hex {hex_no} already holds {_WORDS.get(n, n)} {u.side} units, the most allowed (rule 6.0)")


def _place(state: State, seat: str, action: Action) -> None:
    u = _unit(state, seat, action)
    if u.hex:
        raise Refusal(f"{u.describe()} is already set up in {u.hex}; /lift it first to set it up again (rule 4.1)")
    _entry(state, u, _hex(state, action, "at"))


def _lift(state: State, seat: str, action: Action) -> None:
    u = _unit(state, seat, action)
    if not u.hex:
        raise Refusal(f"{u.describe()} is not on the map; /place it (rule 4.1)")


def _movement(state: State, seat: str, action: Action) -> None:
    u = _unit(state, seat, action)
    to = _hex(state, action, "to")
    if u.disrupted:
        raise Refusal(f"{u.describe()} is disrupted and may not {action.verb} this turn (rule 7.1, Combat Effect "
                      "Table, RULINGS Annihilator 6)")
    if u.mp <= 0:
        raise Refusal(f"{u.describe()} has no movement points left this phase (rules 5.1, 5.4)")
    if action.verb == "advance" and to not in state.fresh:
        raise Refusal(f"{u.describe()} may advance only into hexes the charges just cleared, not {to} (rule 8.3)")
    if to == u.hex:
        raise Refusal(f"{u.describe()} is already in {to}")
    _entry(state, u, to)
    _crowded_auto_defend(state, u, to, action.verb)
    raise Refusal(f"{u.describe()} cannot reach {to} with {u.mp:g} movement points left; enemy units stop a move "
                  "where they stand (rules 5.2, 5.4)")


def _crowded_auto_defend(state: State, u: Unit, to: str, verb: str) -> None:
    """RULINGS Annihilator 10: the move would be possible but for an auto-defend hex holding three humans."""
    if not u.human:
        return
    board = Board(state)
    crowded = [h for h in data.hexes_by_number() if is_auto_defend(state, h) and not board.room(h, u.side)]
    if not crowded:
        return
    only = state.fresh if verb == "advance" else None
    ghost = state.clone()
    for h in crowded:  # the same position with those hexes emptied of humans
        for other in ghost.at(h):
            if other.human and other.id != u.id:
                other.hex = ""
    if to in Board(ghost).destinations(ghost.unit(u.id), u.mp, only=only):
        hexes = ", ".join(crowded)
        raise Refusal(f"{u.describe()} cannot reach {to}: the way passes auto-defend hex {hexes}, which already "
                      "holds three human units, and a human may not enter it (a D result there would leave "
                      "four; rule 6.0, RULINGS Annihilator 10)")


def _recover(state: State, seat: str, action: Action) -> None:
    u = _unit(state, seat, action)
    if u.kind != "assault":
        raise Refusal(f"only an Assault Squad may recover charges, and {u.id} is a {u.utype.name} (rule 8.5)")
    if u.hex not in state.caches:
        raise Refusal(f"no Demolition Squad fell in close combat in {u.hex or 'its hex'} (rule 8.5)")
    if u.disrupted:
        raise Refusal(f"{u.describe()} is disrupted and may not recover charges this turn "
                      "(Combat Effect Table, RULINGS Annihilator 6)")
    raise Refusal(f"{u.describe()} must enter {u.hex} this movement phase or advance to try to recover the "
                  "charges (rule 8.5, RULINGS Annihilator 8)")


def _attack(state: State, seat: str, action: Action) -> None:
    at = _hex(state, action, "at")
    if at in state.fought:
        raise Refusal(f"your units in {at} have already fought this phase (rule 7.1)")
    if not any(u.side != seat for u in state.at(at)):
        raise Refusal(f"there are no enemy units in {at} to attack (rule 7.1)")
    if attack_strength(attackers_in(state, at, seat)) <= 0:
        raise Refusal(f"none of your units in {at} can attack: they are absent, disrupted or have no attack strength "
                      "(rule 7.1)")
    if "pairs" in action.args:
        if state.close_combat != "assault":
            raise Refusal("pairs is for the option close_combat:assault only; on the Combat Results Table every "
                          "able unit in the hex attacks together (rule 7.1)")
        try:
            parse_pairs(state, at, seat, str(action.args["pairs"]))
        except IllegalAction as exc:
            raise Refusal(str(exc)) from None


def _mind(state: State, seat: str, action: Action) -> None:
    if state.mind_used:
        raise Refusal("the Mind Weapon has already struck this turn (rule 7.2)")
    at = _hex(state, action, "at")
    raise Refusal(f"there are no human units in {at} for the Mind Weapon to strike (rule 7.2)")


def _charge(state: State, seat: str, action: Action) -> None:
    u = _unit(state, seat, action)
    if u.disrupted:
        raise Refusal(f"{u.describe()} is disrupted and may not set a charge this turn (Combat Effect Table)")
    if u.charges <= 0:
        raise Refusal(f"{u.describe()} has no demolition charges left (rule 8.4)")
    if u not in chargers(state):
        raise Refusal(f"{u.describe()} has already been given an order this phase; /cancel it first (rule 8.1)")
    pattern = str(action.args.get("pattern", ""))
    if pattern not in u.utype.patterns:
        allowed = ", ".join(u.utype.patterns)
        raise Refusal(f"{u.describe()} may use pattern {allowed} only, not '{pattern}' (rule 8.4)")
    if str(action.args.get("at", "")) != u.hex:
        raise Refusal(f"{u.describe()} sets its charge in its own hex, {u.hex} (rule 8.1)")
    if str(action.args.get("facing", "")) not in DIRECTION_NAMES:
        raise Refusal("facing must be one of N, NE, SE, S, SW, NW (the direction the pattern points)")


def _cancel(state: State, seat: str, action: Action) -> None:
    u = _unit(state, seat, action)
    raise Refusal(f"{u.describe()} has no order to cancel this phase (rule 8.1)")


def _repair(state: State, seat: str, action: Action) -> None:
    u = _unit(state, seat, action)
    if u.kind != "repair":
        raise Refusal(f"only Repairbots repair, and {u.id} is a {u.utype.name} (rule 9.0)")
    if u.id in state.repaired:
        raise Refusal(f"Repairbot {u.id} has already repaired this turn (rule 9.0)")
    if u.hex in data.core_hexes():
        raise Refusal(f"brain core hex {u.hex} may not be repaired (rule 9.0)")
    if u.hex in state.markers and repair_blocked(state, u.hex):
        humans = ", ".join(h.id for h in state.at(u.hex) if h.human)
        raise Refusal(f"{u.hex} may not be restored to impassable while human units stand in it ({humans}) "
                      "(rule 9.0, RULINGS Annihilator 9)")
    raise Refusal(f"hex {u.hex} carries no Clear or Obstructed Passable marker to remove (rule 9.0)")


def _done(state: State, seat: str, action: Action) -> None:
    stuck = must_leave(state) if state.step == "h_move" else []
    if stuck:
        u = stuck[0]
        raise Refusal(f"{u.describe()} set a charge in {u.hex} and must move out of that hex this movement phase "
                      "(rule 8.1)")


def _ready(state: State, seat: str, action: Action) -> None:
    left = [u.id for u in state.side_units(data.ANNIHILATOR) if not u.hex]
    if left:
        raise Refusal(f"set up every robot first ({', '.join(left)} still off the map), or use /autodeploy "
                      "(rule 4.1)")


_CHECKS = {
    "place": _place, "lift": _lift, "move": _movement, "advance": _movement, "recover": _recover, "attack": _attack,
    "mind": _mind, "charge": _charge, "cancel": _cancel, "repair": _repair, "done": _done, "ready": _ready,
}
