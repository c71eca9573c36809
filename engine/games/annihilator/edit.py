"""Moderator corrections of the position (/mod edit): place, remove or change a unit; set a hex marker.

An edit is made only in a movement phase (the Marines' or the Annihilator's): combats, the
demolition orders and advances hold hexes and units an edit could leave without an answer.
"""

from __future__ import annotations

from engine.core.errors import BadArguments
from engine.core.protocol import Action, ArgSpec, Event, VerbSpec
from engine.games.annihilator import data
from engine.games.annihilator.board import STACK_LIMIT, Board, base_types, hex_type, move_cost
from engine.games.annihilator.combat import disrupt
from engine.games.annihilator.state import State, Unit

YES = {"yes", "true", "on", "1", "y"}
NO = {"no", "false", "off", "0", "n"}
MARKERS = {"clear": "a Clear marker", "obpas": "an Obstructed-passable marker", "none": "no marker"}
MOVING = {"h_move": data.MARINES, "a_move": data.ANNIHILATOR}

SPECS = [
    VerbSpec(
        verb="place",
        help="put a unit that is eliminated or not yet on the map into a hex (it moves from its side's next "
        "movement phase)",
        args=(
            ArgSpec(name="unit", help="the unit's id: A1-A6, D1-D3 (Marines), R1-R10, B1-B6 (Annihilator)",
                    kind="unit"),
            ArgSpec(name="hex", help="a hex its side may enter, e.g. 0507", kind="hex"),
        ),
    ),
    VerbSpec(
        verb="remove",
        help="eliminate a unit on the map (it goes off the map, with any charges it carries)",
        args=(ArgSpec(name="unit", help="the unit's id, e.g. R3", kind="unit"),),
    ),
    VerbSpec(
        verb="change",
        help="change a unit on the map: its hex, disrupted (Marines only) or the charges a Demolition Squad carries",
        args=(
            ArgSpec(name="unit", help="the unit's id, e.g. D2", kind="unit"),
            ArgSpec(name="hex", help="a hex its side may enter", kind="hex", required=False),
            ArgSpec(name="disrupted", help="yes or no", required=False),
            ArgSpec(name="charges", help="0-3", kind="int", required=False),
        ),
    ),
    VerbSpec(
        verb="marker",
        help="set a hex's marker: clear, obpas (obstructed-passable) or none (the printed terrain again)",
        args=(
            ArgSpec(name="hex", help="the hex, e.g. 0507", kind="hex"),
            ArgSpec(name="marker", help="clear, obpas or none"),
        ),
    ),
]

USAGE = (
    "write op:place unit:ID hex:HEX, op:remove unit:ID, op:change unit:ID [hex:HEX] [disrupted:yes|no] "
    "[charges:N] or op:marker hex:HEX marker:clear|obpas|none"
)


def _arg(action: Action, name: str) -> str:
    return str(action.args.get(name, "")).strip()


def _check_step(state: State) -> None:
    if state.step in MOVING:
        return
    if state.step == "over":
        raise BadArguments("the game is over; its position can no longer be edited")
    if state.step in ("deploy", "land"):
        raise BadArguments("the game is being set up; the position can be edited once the first movement phase begins")
    now = {"h_combat": "the Marines' close combat", "h_advance": "the Marines' advance",
           "a_advance": "the Annihilator's advance", "h_demo": "the demolition orders",
           "a_combat": "the Annihilator's close combat", "a_repair": "the Annihilator's repairs"}
    raise BadArguments(f"{now.get(state.step, state.step)} is under way; the position can be edited only in a "
                       "movement phase: make the edit at the next move prompt")


def _unit(state: State, action: Action) -> Unit:
    uid = _arg(action, "unit").upper()
    u = state.units.get(uid)
    if u is None:
        raise BadArguments(f"there is no unit '{uid or '?'}': name one such as A1, D1, R1 or B1")
    return u


def _where(state: State, u: Unit, text: str) -> str:
    """A hex ``u`` may stand in: on the map, enterable by its side (Hex Type Chart), with room (6.0)."""
    if text not in data.hexes_by_number():
        raise BadArguments(f"{u.describe()} cannot go to '{text or '?'}': name a hex of the Annihilator map, e.g. 0507")
    if move_cost(state, u.human, text) is None:
        label = data.hex_types().types[hex_type(state, text)].label
        raise BadArguments(f"{u.describe()} cannot stand in {text}: it is {label}, closed to the {u.side} "
                           "(Hex Type Chart)")
    if not Board(state).room(text, u.side):
        raise BadArguments(f"{text} already holds {STACK_LIMIT[u.side]} {u.side} units, the stacking limit (rule 6.0): "
                           f"{u.describe()} cannot go there")
    return text


def edit(state: State, action: Action) -> tuple[State, list[Event]]:
    """Apply one moderator edit to a copy of ``state``; raise ``BadArguments`` when it cannot be made."""
    if action.verb not in ("place", "remove", "change", "marker"):
        raise BadArguments(f"Annihilator has no edit '{action.verb}': {USAGE}")
    _check_step(state)
    new = state.clone()
    if action.verb == "place":
        event = _place(new, action)
    elif action.verb == "remove":
        event = _remove(new, action)
    elif action.verb == "change":
        event = _change(new, action)
    else:
        event = _marker(new, action)
    return new, [event]


def _place(state: State, action: Action) -> Event:
    u = _unit(state, action)
    if u.on_map:
        raise BadArguments(f"{u.describe()} is already on the map in {u.hex}: use op:change to move it")
    hex_ = _where(state, u, _arg(action, "hex"))
    was = "eliminated" if not u.alive else "not yet on the map"
    u.alive, u.hex, u.disrupted, u.leave, u.arrived = True, hex_, False, "", False
    u.disrupted_turn, u.disrupted_step = 0, ""
    u.mp = 0.0  # it moves from its side's next movement phase
    charges = f", carrying {u.charges} charges" if u.kind == "demolition" else ""
    return Event(kind="edit", text=f"{u.side} {u.describe()} ({was}) placed in {hex_}{charges}", hexes=(hex_,))


def _on_map(state: State, action: Action) -> Unit:
    u = _unit(state, action)
    if not u.on_map:
        was = "eliminated" if not u.alive else "not yet on the map"
        raise BadArguments(f"{u.describe()} is {was}: only a unit on the map can be changed or removed "
                           "(op:place puts it on the map)")
    return u


def _remove(state: State, action: Action) -> Event:
    u = _on_map(state, action)
    if u.human and [x.id for x in state.side_units(data.MARINES) if x.on_map] == [u.id]:
        raise BadArguments(f"{u.describe()} is the last Marine unit on the map; removing it would end the game "
                           "(rule 10.0), which only play may do")
    where = u.hex
    u.alive, u.hex, u.leave, u.arrived, u.mp = False, "", "", False, 0.0
    charges = f", with the {u.charges} charges it carried" if u.kind == "demolition" and u.charges else ""
    return Event(kind="edit", text=f"{u.side} {u.describe()} removed from {where}; it is eliminated{charges}",
                 hexes=(where,))


def _change(state: State, action: Action) -> Event:
    u = _on_map(state, action)
    name = f"{u.side} {u.describe()} in {u.hex}"
    if not any(_arg(action, k) for k in ("hex", "disrupted", "charges")):
        raise BadArguments(f"say what to change of {name}: hex:HEX, disrupted:yes|no and/or charges:N")
    parts: list[str] = []
    start = u.hex
    if _arg(action, "disrupted"):
        text = _arg(action, "disrupted").lower()
        if text not in YES | NO:
            raise BadArguments(f"disrupted is yes or no, not '{text}'")
        flag = text in YES
        if flag and not u.human:
            raise BadArguments(f"{u.describe()} is a robot: a disrupted robot is eliminated (rule 7.1); "
                               "use op:remove instead")
        if flag != u.disrupted:
            if flag:
                disrupt(state, u)  # from now until this step of the next game turn (RULINGS Annihilator 6)
            else:
                u.disrupted, u.disrupted_turn, u.disrupted_step = False, 0, ""
            parts.append("disrupted" if flag else "no longer disrupted")
    if _arg(action, "charges"):
        text = _arg(action, "charges")
        if u.kind != "demolition":
            raise BadArguments(f"{u.describe()} carries no charges: only a Demolition Squad does (rule 8.4)")
        if not text.isdigit() or int(text) > 3:
            raise BadArguments(f"{u.describe()} may carry 0 to 3 charges, not '{text}' (rule 8.4)")
        if int(text) != u.charges:
            parts.append(f"carries {text} charge{'' if text == '1' else 's'} (was {u.charges})")
            u.charges = int(text)
    if _arg(action, "hex"):
        text = _arg(action, "hex")
        if text != u.hex:
            hex_ = _where(state, u, text)
            parts.append(f"moved to {hex_}")  # the line begins "... in <its hex>:"
            u.hex, u.arrived = hex_, False
    if not parts:
        raise BadArguments(f"{name} already is as asked: nothing to change")
    return Event(kind="edit", text=f"{name}: " + ", ".join(parts), hexes=tuple(dict.fromkeys((start, u.hex))))


def _marker(state: State, action: Action) -> Event:
    hex_ = _arg(action, "hex")
    if hex_ not in data.hexes_by_number():
        raise BadArguments(f"'{hex_ or '?'}' is not a hex of the Annihilator map: name one such as 0507")
    marker = _arg(action, "marker").lower()
    if marker not in MARKERS:
        raise BadArguments(f"a hex marker is clear, obpas (obstructed-passable) or none, not '{marker}'")
    if hex_ in data.core_hexes() or hex_ in state.destroyed:
        raise BadArguments(f"{hex_} is a brain core: it takes no marker; it is destroyed only by demolition (rule 8.2)")
    old = state.markers.get(hex_, "none")
    if old == marker:
        raise BadArguments(f"{hex_} already has {MARKERS[marker]}: nothing to change")
    if marker == "none":
        del state.markers[hex_]
    else:
        state.markers[hex_] = marker
    stuck = [u for u in state.at(hex_) if move_cost(state, u.human, hex_) is None]
    if stuck:
        label = data.hex_types().types[base_types()[hex_]].label
        raise BadArguments(f"{stuck[0].describe()} stands in {hex_}, which would be {label} again and closed to it: "
                           "move or remove it first")
    return Event(kind="edit", text=f"{hex_}: {MARKERS[old]} replaced by {MARKERS[marker]}", hexes=(hex_,))
