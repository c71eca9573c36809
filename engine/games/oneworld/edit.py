"""Moderator corrections of the position (/mod edit): place, remove or change a Child.

An edit is made only in a movement phase, where no combat or accosting is under way: a
combat in progress holds chosen aspects for the Children in its hex, so changing them then
could leave a round that cannot be fought.
"""

from __future__ import annotations

from engine.core.errors import BadArguments
from engine.core.protocol import Action, ArgSpec, Event, VerbSpec
from engine.games.oneworld.board import board
from engine.games.oneworld.state import ASPECTS, Child, State, fork, replace_children

PLACES = {"tower": "goes under {side}'s Tower", "lost": "is lost in Chaos Itself, out of play"}

SPECS = [
    VerbSpec(
        verb="place",
        help="put a Child that is under its Tower or lost back on the map (it moves from its side's next turn)",
        args=(
            ArgSpec(name="child", help="the Child's id: B1-B13 (BORG) or C1-C13 (CHEZ)"),
            ArgSpec(name="aspect", help="Stone, Blade or Fog"),
            ArgSpec(name="hex", help="a hex of the map, e.g. 0507", kind="hex"),
        ),
    ),
    VerbSpec(
        verb="remove",
        help="take a Child off the map: to:tower puts it under its side's Tower (it may come back as a "
        "reinforcement; with no Towers it stays out of play), to:lost puts it out of play",
        args=(
            ArgSpec(name="child", help="the Child's id, e.g. C4"),
            ArgSpec(name="to", help="tower (the default) or lost", required=False),
        ),
    ),
    VerbSpec(
        verb="change",
        help="change a Child on the map: its aspect, its hex, or both",
        args=(
            ArgSpec(name="child", help="the Child's id, e.g. B3"),
            ArgSpec(name="aspect", help="Stone, Blade or Fog", required=False),
            ArgSpec(name="hex", help="a hex of the map, e.g. 0507", kind="hex", required=False),
        ),
    ),
]

USAGE = (
    "write op:place child:ID aspect:ASPECT hex:HEX, op:remove child:ID [to:tower|lost] "
    "or op:change child:ID [aspect:ASPECT] [hex:HEX]"
)


def _arg(action: Action, name: str) -> str:
    return str(action.args.get(name, "")).strip()


def _child(state: State, action: Action) -> Child:
    cid = _arg(action, "child").upper()
    child = state.child(cid)
    if not cid or child is None:
        raise BadArguments(f"there is no Child '{cid or '?'}': name one of B1-B13 (BORG) or C1-C13 (CHEZ)")
    return child


def _aspect(action: Action, child: Child) -> str:
    text = _arg(action, "aspect").capitalize()
    if text not in ASPECTS:
        raise BadArguments(f"{child.id} cannot take the aspect '{_arg(action, 'aspect')}': use Stone, Blade or Fog")
    return text


def _hex(state: State, action: Action, child: Child, ignore: str = "") -> str:
    text = _arg(action, "hex")
    h = board().parse(text)
    if h is None:
        raise BadArguments(f"{child.id} cannot go to '{text or '?'}': name a hex of the OneWorld map, e.g. 0507")
    name = board().name(h)
    towers = {t: seat for seat, t in state.tower_hex.items() if t}
    if name in towers and name not in own_towers(state, child.side):
        raise BadArguments(
            f"{name} is {towers[name]}'s Tower of Balance: no {child.side} being may enter it (rule 5.5); "
            "a Child goes only on its own Tower, as a reinforcement would (9.2, RULINGS OneWorld 9)"
        )
    gods = {g: seat for seat, g in state.god_hex.items() if g}
    if name in gods:
        why = "its own god (rule 7.3)" if gods[name] == child.side else "the enemy god, reached only by accosting it (rule 10.4)"
        raise BadArguments(f"{name} holds {gods[name]}'s god: {child.id} cannot be put in the hex of {why}")
    here = sum(1 for c in state.in_hex(name) if c.side == child.side and c.id != ignore)
    if here >= state.stacking:
        raise BadArguments(
            f"{name} already holds {here} {child.side} Children, the stacking limit (rule 7.2): "
            f"{child.id} cannot go there; move or remove one first"
        )
    return name


def own_towers(state: State, side: str) -> set[str]:
    """The Tower hexes a reinforcement of ``side`` may appear on (9.2; 12.0 Non-aligned Towers: either)."""
    if state.options.non_aligned_towers:
        return {t for t in state.tower_hex.values() if t}
    return {state.tower_hex[side]} if state.tower_hex.get(side) else set()


def _check_step(state: State) -> None:
    if state.step == "move":
        return
    if state.step == "over":
        raise BadArguments("the game is over; its position can no longer be edited")
    now = {
        "combat": f"a combat is being fought in {state.fight.hex if state.fight else '?'}",
        "fight": "the combats of this turn are being fought",
        "accost_child": "a god is being accosted",
        "accost_god": "a god is being accosted",
    }.get(state.step, "the game is being set up")
    raise BadArguments(
        f"{now}; the position can be edited only in a movement phase: make the edit at the next /move prompt"
    )


def edit(state: State, action: Action) -> tuple[State, list[Event]]:
    """Apply one moderator edit to a copy of ``state``; raise ``BadArguments`` when it cannot be made."""
    if action.verb not in ("place", "remove", "change"):
        raise BadArguments(f"OneWorld has no edit '{action.verb}': {USAGE}")
    _check_step(state)
    child = _child(state, action)
    moved = state.moved
    who = f"{child.side} {child.aspect} {child.id}"
    if action.verb == "place":
        if child.where == "map":
            raise BadArguments(f"{who} is already on the map in {child.hex}: use op:change to move it")
        aspect = _aspect(action, child)
        name = _hex(state, action, child)
        new_child = child.model_copy(update={"where": "map", "hex": name, "aspect": aspect})
        if child.side == state.active and child.id not in state.moved:
            moved = state.moved + (child.id,)  # it moves from its side's next turn, as a reinforcement does
        came = "from under its Tower" if child.where == "tower" else f"(it was {child.where})"
        text = f"{child.side} {aspect} {child.id} placed in {name} {came}"
        hexes: tuple[str, ...] = (name,)
    elif action.verb == "remove":
        if child.where != "map":
            raise BadArguments(f"{child.id} is not on the map (it is {child.where}); only a Child on the map can be removed")
        to = _arg(action, "to").lower() or "tower"
        if to not in PLACES:
            raise BadArguments(f"{who} can go to:tower (under {child.side}'s Tower) or to:lost (out of play), not '{to}'")
        new_child = child.model_copy(update={"where": to, "hex": ""})
        fate = PLACES[to].format(side=child.side)
        if to == "tower" and not state.options.towers:
            fate = "is out of play (this game has no Towers of Balance: it will not come back)"
        text = f"{who} removed from {child.hex}; it {fate}"
        hexes = (child.hex,)
    else:
        if child.where != "map":
            raise BadArguments(f"{child.id} is not on the map (it is {child.where}): use op:place to put it on the map")
        if not _arg(action, "aspect") and not _arg(action, "hex"):
            raise BadArguments(f"say what to change of {who}: aspect:Stone|Blade|Fog and/or hex:HEX")
        aspect = _aspect(action, child) if _arg(action, "aspect") else child.aspect
        name = _hex(state, action, child, ignore=child.id) if _arg(action, "hex") else child.hex
        if aspect == child.aspect and name == child.hex:
            raise BadArguments(f"{who} is already a {aspect} in {name}: nothing to change")
        new_child = child.model_copy(update={"aspect": aspect, "hex": name})
        parts = []
        if aspect != child.aspect:
            parts.append(f"now a {aspect}")
        if name != child.hex:
            parts.append(f"moved from {child.hex} to {name}")
        text = f"{who} in {child.hex} " + " and ".join(parts)
        hexes = tuple(dict.fromkeys((child.hex, name)))
    new = fork(state, children=replace_children(state, {child.id: new_child}), moved=moved)
    return new, [Event(kind="edit", text=text, hexes=hexes)]
