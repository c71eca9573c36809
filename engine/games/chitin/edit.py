"""Moderator corrections of the position (/mod edit): place, remove or change a counter; move or revalue a chit.

An edit is made only in a movement phase: an attack being declared or resolved holds the
counters of its combats and the losses, retreats and advances still owed, which an edit
could leave without an answer.
"""

from __future__ import annotations

from engine.core.errors import BadArguments
from engine.core.protocol import Action, ArgSpec, Event, VerbSpec
from engine.core.state import clone
from engine.games.chitin.board import DIRS, Index, describe, geo, is_ground, role
from engine.games.chitin.data import chits as chit_data
from engine.games.chitin.data import counters as counter_data
from engine.games.chitin.data import unit_type
from engine.games.chitin.flow import PREFIX, SEATS
from engine.games.chitin.food import let_go
from engine.games.chitin.movement import MAX_UNITS
from engine.games.chitin.state import Counter, State

YES = {"yes", "true", "on", "1", "y"}
NO = {"no", "false", "off", "0", "n"}

SPECS = [
    VerbSpec(
        verb="place",
        help="put a new counter on the map (it gets the side's next id and moves from its side's next movement phase)",
        args=(
            ArgSpec(name="side", help="Red or Blue"),
            ArgSpec(name="type", help="GT, PX, LR, TR (warriors), PL (air), B (Basic) or W (Worker)"),
            ArgSpec(name="units", help="1-3 (PL: 1, 2 or 4; B and W: 1)", kind="int", required=False),
            ArgSpec(name="hex", help="a hex of the map, e.g. 0608", kind="hex"),
            ArgSpec(name="facing", help="N, NE, SE, S, SW or NW (default: the stack's facing, else N)",
                    kind="direction", required=False),
        ),
    ),
    VerbSpec(
        verb="remove",
        help="eliminate a counter on the map (it is dead; no units are counted lost for victory points, no Worker "
        "replaces it, and a chit it carries stays in its hex)",
        args=(ArgSpec(name="unit", help="the counter's id, e.g. R7", kind="unit"),),
    ),
    VerbSpec(
        verb="change",
        help="change a counter on the map: its units (strength), its facing (the whole stack turns) or disrupted",
        args=(
            ArgSpec(name="unit", help="the counter's id, e.g. R7", kind="unit"),
            ArgSpec(name="units", help="1-3 (PL: 1, 2 or 4)", kind="int", required=False),
            ArgSpec(name="facing", help="N, NE, SE, S, SW or NW", kind="direction", required=False),
            ArgSpec(name="disrupted", help="yes or no", required=False),
        ),
    ),
    VerbSpec(
        verb="chit",
        help="correct a Harvest Chit that lies on the map (not carried): its value or its hex",
        args=(
            ArgSpec(name="chit", help="the chit's letter, e.g. A"),
            ArgSpec(name="value", help="0 to the chit limit", kind="int", required=False),
            ArgSpec(name="hex", help="a hex of the map, e.g. 0608", kind="hex", required=False),
        ),
    ),
]

USAGE = (
    "write op:place side:SIDE type:TYPE [units:N] hex:HEX [facing:DIR], op:remove unit:ID, "
    "op:change unit:ID [units:N] [facing:DIR] [disrupted:yes|no] or op:chit chit:LETTER [value:N] [hex:HEX]"
)


def _arg(action: Action, name: str) -> str:
    return str(action.args.get(name, "")).strip()


def _check_step(state: State) -> None:
    if state.step == "move":
        return
    if state.step == "over":
        raise BadArguments("the game is over; its position can no longer be edited")
    if state.step in ("face", "attack", "combat"):
        now = {"face": f"the stack in {state.face_hex} is being faced", "attack": "attacks are being declared",
               "combat": "combats are being resolved"}[state.step]
        raise BadArguments(f"{now}; the position can be edited only in a movement phase: make the edit at the "
                           "next /move prompt")
    raise BadArguments("the game is being set up; the position can be edited once the first movement phase begins")


def _hex(action: Action, what: str) -> str:
    text = _arg(action, "hex")
    if text not in geo().hex_of:
        raise BadArguments(f"{what} cannot go to '{text or '?'}': name a hex of the Chitin map, e.g. 0608")
    return text


def _facing(action: Action, what: str) -> int:
    text = _arg(action, "facing").upper()
    if text not in DIRS:
        raise BadArguments(f"{what} cannot face '{_arg(action, 'facing')}': use N, NE, SE, S, SW or NW")
    return DIRS.index(text)


def _sizes(code: str) -> list[int]:
    return sorted({e.units for e in counter_data().sheet if e.type == code})


def _units(action: Action, code: str, what: str) -> int:
    text = _arg(action, "units") or "1"
    sizes = _sizes(code)
    if not text.isdigit() or int(text) not in sizes:
        raise BadArguments(f"{what} cannot hold '{text}' units: a {unit_type(code).name} counter holds "
                           + ", ".join(map(str, sizes)))
    return int(text)


def _fits(state: State, c: Counter, hex_: str, ignore: str = "") -> None:
    """A ground counter in ``hex_``: no enemy ground units there, three units at most, one warrior type."""
    if not is_ground(c):
        return
    h = geo().hex_of[hex_]
    idx = Index(state)
    here = [x for x in idx.ground.get(h, []) if x.id != ignore]
    if any(x.side != c.side for x in here):
        raise BadArguments(f"{hex_} holds {here[0].side} units: {describe(c)} of {c.side} cannot stand there")
    st = here + [c]
    if sum(x.units for x in st) > MAX_UNITS:
        raise BadArguments(f"{hex_} would hold {sum(x.units for x in st)} units with {describe(c)}: at most "
                           f"{MAX_UNITS} (rule 6.05); remove or reduce a counter first")
    if len({x.type for x in st if role(x) == "warrior"}) > 1:
        raise BadArguments(f"{hex_} would hold two types of warrior with {describe(c)} (rule 6.051)")


def _counter(state: State, action: Action) -> Counter:
    cid = _arg(action, "unit").upper()
    c = state.counters.get(cid)
    if c is None:
        raise BadArguments(f"there is no counter '{cid or '?'}': name a counter on the map by its id, e.g. R7")
    if c.where != "map":
        raise BadArguments(f"{describe(c)} is not on the map (it is {c.where}); only a counter on the map can be edited")
    return c


def edit(state: State, action: Action) -> tuple[State, list[Event]]:
    """Apply one moderator edit to a copy of ``state``; raise ``BadArguments`` when it cannot be made."""
    if action.verb not in ("place", "remove", "change", "chit"):
        raise BadArguments(f"Chitin has no edit '{action.verb}': {USAGE}")
    _check_step(state)
    new = clone(state)
    if action.verb == "place":
        return new, [_place(new, action)]
    if action.verb == "remove":
        return new, [_remove(new, action)]
    if action.verb == "change":
        return new, [_change(new, action)]
    return new, [_chit(new, action)]


def _place(state: State, action: Action) -> Event:
    side = _arg(action, "side").capitalize()
    if side not in SEATS:
        raise BadArguments(f"side must be {' or '.join(SEATS)}, not '{_arg(action, 'side')}'")
    code = _arg(action, "type").upper()
    if code not in counter_data().types:
        raise BadArguments(f"there is no unit type '{_arg(action, 'type')}': use " + ", ".join(counter_data().types))
    name = f"{side} {unit_type(code).name}"
    units = _units(action, code, name)
    hex_ = _hex(action, name)
    n = state.next_id[side]
    c = Counter(id=f"{PREFIX[side]}{n}", side=side, type=code, units=units, where="map", hex=hex_)
    _fits(state, c, hex_)
    friends = Index(state).ground.get(geo().hex_of[hex_], []) if is_ground(c) else []
    if _arg(action, "facing"):
        c.facing = _facing(action, name)
        if friends and friends[0].facing != c.facing:
            raise BadArguments(f"the stack in {hex_} faces {DIRS[friends[0].facing]}: a counter placed there faces "
                               f"the same way (rule 6.06); leave facing out or turn the stack with op:change first")
    elif friends:
        c.facing = friends[0].facing
    if side == state.active:
        c.moved, c.mp = True, 0  # it moves from its side's next movement phase
    state.next_id[side] = n + 1
    state.counters[c.id] = c
    return Event(kind="edit", text=f"{side} {describe(c)} placed in {hex_} facing {DIRS[c.facing]}", hexes=(hex_,))


def _remove(state: State, action: Action) -> Event:
    c = _counter(state, action)
    where, name = c.hex, describe(c)
    c.where, c.hex = "dead", ""
    text = f"{c.side} {name} removed from {where}; it is eliminated"
    if c.chit:
        letter = c.chit
        if let_go(state, c, where):
            text += f"; the other Workers keep carrying Harvest Chit {letter}"
        else:
            text += f", and Harvest Chit {letter} it carried stays in {where}"
    return Event(kind="edit", text=text, hexes=(where,))


def _change(state: State, action: Action) -> Event:
    c = _counter(state, action)
    name = f"{c.side} {describe(c)} in {c.hex}"
    if not any(_arg(action, k) for k in ("units", "facing", "disrupted")):
        raise BadArguments(f"say what to change of {name}: units:N, facing:DIR and/or disrupted:yes|no")
    parts: list[str] = []
    if _arg(action, "units"):
        units = _units(action, c.type, name)
        if units != c.units:
            trial = c.model_copy(update={"units": units})
            _fits(state, trial, c.hex, ignore=c.id)
            c.units = units
            parts.append(f"now {describe(c)}")
    if _arg(action, "facing"):
        d = _facing(action, name)
        if d != c.facing:
            stack = [c]
            if is_ground(c):
                stack = Index(state).stack(geo().hex_of[c.hex], c.side)
            for x in stack:
                x.facing = d
            others = " with its stack" if len(stack) > 1 else ""
            parts.append(f"faces {DIRS[d]}{others}")
    if _arg(action, "disrupted"):
        text = _arg(action, "disrupted").lower()
        if text not in YES | NO:
            raise BadArguments(f"disrupted is yes or no, not '{text}'")
        flag = text in YES
        if flag != c.disrupted:
            c.disrupted = flag
            if c.side == state.active:
                c.began_disrupted = c.began_disrupted or flag
            parts.append("disrupted" if flag else "no longer disrupted")
    if not parts:
        raise BadArguments(f"{name} already is as asked: nothing to change")
    return Event(kind="edit", text=f"{name}: " + ", ".join(parts), hexes=(c.hex,))


def _chit(state: State, action: Action) -> Event:
    letter = _arg(action, "chit").upper()
    ch = state.chits.get(letter)
    if ch is None:
        known = ", ".join(sorted(state.chits)) or "none"
        raise BadArguments(f"there is no Harvest Chit '{letter or '?'}' in this game; the chits are: {known}")
    if ch.off_by or ch.carriers:
        where = f"carried off by {ch.off_by}" if ch.off_by else f"carried by {'+'.join(ch.carriers)}"
        raise BadArguments(f"Harvest Chit {letter} is {where}: only a chit lying on the map can be edited")
    if not _arg(action, "value") and not _arg(action, "hex"):
        raise BadArguments(f"say what to change of Harvest Chit {letter} in {ch.hex}: value:N and/or hex:HEX")
    parts: list[str] = []
    start = ch.hex
    if _arg(action, "value"):
        text, limit = _arg(action, "value"), chit_data().limit
        if not text.isdigit() or int(text) > limit:
            raise BadArguments(f"Harvest Chit {letter} cannot be worth '{text}': its value is 0 to {limit}")
        if int(text) != ch.value:
            parts.append(f"value {ch.value} -> {text}")
            ch.face, ch.bodies = int(text), 0
    if _arg(action, "hex"):
        hex_ = _hex(action, f"Harvest Chit {letter}")
        taken = [x.letter for x in state.chits.values() if x.hex == hex_ and not x.carriers and not x.off_by and x is not ch]
        if taken:
            raise BadArguments(f"{hex_} already holds Harvest Chit {taken[0]}: choose an empty hex for {letter}")
        if hex_ != ch.hex:
            parts.append(f"moved to {hex_}")  # the line begins "Harvest Chit X in <its hex>:"
            ch.hex = hex_
    if not parts:
        raise BadArguments(f"Harvest Chit {letter} already is as asked: nothing to change")
    return Event(kind="edit", text=f"Harvest Chit {letter} in {start}: " + ", ".join(parts),
                 hexes=tuple(dict.fromkeys((start, ch.hex))))
