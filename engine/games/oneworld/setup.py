"""Set-up (3.0): the die roll, ends, gods, Towers and thirteen Children each."""

from __future__ import annotations

from functools import cache

from engine.core.dice import Dice
from engine.core.hexes import Hex, distance
from engine.core.protocol import Action, Event
from engine.games.oneworld.board import Board, board
from engine.games.oneworld.options import Options
from engine.games.oneworld.state import ASPECTS, SEATS, Child, State, action, fork, other, replace_children

SETUP_SITES = {"north": "0701", "south": "0721"}
"""12.0 New Geography: the Tower hexes at the ends (the centre hex of each end)."""


def new_state(options: Options, dice: Dice) -> State:
    """3.1, 3.2: counters for both sides and the die roll for who chooses the set-up order."""
    rolls = {"BORG": 0, "CHEZ": 0}
    while rolls["BORG"] == rolls["CHEZ"]:  # 3.2: a tie is rolled again
        rolls = {s: dice.roll(6, f"set-up roll for {s} (rule 3.2)") for s in SEATS}
    stacking = (
        dice.roll(6, "variant stacking limit (rule 12.0)")
        if options.stacking_limit == "roll"
        else int(options.stacking_limit)
    )
    children = tuple(Child(id=f"{s[0]}{i}", side=s) for s in SEATS for i in range(1, 14))
    winner = max(SEATS, key=lambda s: rolls[s])
    return State(
        options=options,
        step="order",
        active=winner,
        setup_rolls=rolls,
        stacking=stacking,
        children=children,
        lives=options.lives(),
    )


def end_choices(state: State) -> list[str]:
    """The ends (or, with New Geography, Tower sites) the first player may defend (3.3)."""
    return ["west", "east"] if state.options.new_geography else ["north", "south"]


def tower_sites(state: State) -> list[str]:
    """The two hexes a Tower of Balance may stand in (3.4, 12.0 New Geography)."""
    if state.options.new_geography:
        return sorted(SETUP_SITES.values())
    b = board()
    return sorted(b.name(h) for h in b.sites.values())


def god_hexes(state: State, seat: str) -> list[str]:
    """3.3: hexes within three of the defended end (New Geography: within three of the site)."""
    b = board()
    end = state.ends[seat]
    blocked = set(tower_sites(state)) | set(state.god_hex.values())
    if state.options.new_geography:
        site = b.sites[f"{end} tower"]
        hexes = [h for h in b.hexes if distance(h, site) <= 3]
    else:
        hexes = [h for h in b.hexes if b.end_distance(h, end) <= 3]
    return sorted(n for n in (b.name(h) for h in hexes) if n not in blocked)


def place_hexes(state: State, seat: str) -> list[str]:
    """3.3: hexes within seven of the god, less the god's own (7.3), Towers (5.5), enemies and full stacks (7.2)."""
    b = board()
    god = b.parse(state.god_hex[seat])
    assert god is not None
    count: dict[str, int] = {}
    enemy: set[str] = set()
    for c in state.children:
        if c.where == "map":
            if c.side == seat:
                count[c.hex] = count.get(c.hex, 0) + 1
            else:
                enemy.add(c.hex)
    blocked = set(tower_sites(state)) | set(state.god_hex.values()) | enemy
    out = []
    for h in _near(b, god, 7):
        n = b.name(h)
        if n not in blocked and count.get(n, 0) < state.stacking:
            out.append(n)
    return sorted(out)


@cache
def _near(b: Board, centre: Hex, radius: int) -> list[Hex]:
    return [h for h in b.hexes if distance(h, centre) <= radius]


def unplaced(state: State, seat: str) -> list[Child]:
    """Children of ``seat`` not yet set up."""
    return [c for c in state.children if c.side == seat and c.where == "reserve"]


def legal(state: State, seat: str) -> list[Action]:
    """Legal set-up actions of ``seat`` in the current step."""
    if seat != state.active:
        return []
    if state.step == "order":
        return [action("order", {"setup": w}) for w in ("first", "second")]
    if state.step == "end":
        return [action("defend", {"end": e}) for e in end_choices(state)]
    if state.step == "tower":
        return [action("tower", {"hex": h}) for h in tower_sites(state)]
    if state.step == "gods":
        return [action("gods", {"hex": h}) for h in god_hexes(state, seat)]
    if state.step == "place":
        if not unplaced(state, seat):
            return [action("done")]
        return list(_place_actions(tuple(place_hexes(state, seat))))
    return []


@cache
def _place_actions(hexes: tuple[str, ...]) -> tuple[Action, ...]:
    # the same list of hexes recurs placement after placement
    out = [action("place", {"hex": h, "aspect": a}) for h in hexes for a in ASPECTS]
    return tuple(out + [action("place_all")])


def apply(state: State, seat: str, action: Action) -> tuple[State, list[Event]]:
    """Apply a legal set-up action."""
    handler = {
        "order": _order,
        "defend": _defend,
        "tower": _tower,
        "gods": _gods,
        "place": _place,
        "place_all": _place_all,
        "done": _done,
    }[action.verb]
    return handler(state, seat, action)


def _order(state: State, seat: str, action: Action) -> tuple[State, list[Event]]:
    first = seat if action.args["setup"] == "first" else other(seat)
    choice = "sets up first" if first == seat else f"has {first} set up first"
    text = f"{seat} won the set-up roll {state.setup_rolls[seat]} to {state.setup_rolls[other(seat)]} and {choice} (rule 3.2)"
    return fork(state, first=first, active=first, step="end"), [Event(kind="phase", text=text)]


def _defend(state: State, seat: str, action: Action) -> tuple[State, list[Event]]:
    end = str(action.args["end"])
    ends = {seat: end, other(seat): _opposite(end)}
    where = f"the {end} end" if end in ("north", "south") else f"the {end} Tower site"
    return fork(state, ends=ends, step="gods"), [
        Event(kind="setup", text=f"{seat} defends {where} (rule 3.3)")
    ]


def _opposite(end: str) -> str:
    return {"north": "south", "south": "north", "west": "east", "east": "west"}[end]


def _tower(state: State, seat: str, action: Action) -> tuple[State, list[Event]]:
    hex_ = str(action.args["hex"])
    rest = next(h for h in tower_sites(state) if h != hex_)
    towers = {seat: hex_, other(seat): rest}
    text = f"{seat} takes the Tower of Balance at {hex_}; {other(seat)}'s Tower stands at {rest} (rule 3.4)"
    return fork(state, tower_hex=towers, step="gods"), [Event(kind="setup", text=text, hexes=(hex_, rest))]


def _gods(state: State, seat: str, action: Action) -> tuple[State, list[Event]]:
    hex_ = str(action.args["hex"])
    gods = dict(state.god_hex)
    gods[seat] = hex_
    text = f"{seat}'s three gods sit in {hex_} (rule 3.3)"
    return fork(state, god_hex=gods, step="place"), [Event(kind="setup", text=text, hexes=(hex_,))]


def _place(state: State, seat: str, action: Action) -> tuple[State, list[Event]]:
    child = unplaced(state, seat)[0]
    hex_, aspect = str(action.args["hex"]), str(action.args["aspect"])
    placed = child.model_copy(update={"where": "map", "hex": hex_, "aspect": aspect})
    new = fork(state, children=replace_children(state, {child.id: placed}))
    return new, [
        Event(kind="setup", text=f"{seat} places {aspect} {child.id} in {hex_} (rule 3.3)", hexes=(hex_,))
    ]


def _place_all(state: State, seat: str, action: Action) -> tuple[State, list[Event]]:
    # A default formation: the hexes nearest the god, nearest the enemy first, aspects in turn.
    b = board()
    god = b.parse(state.god_hex[seat])
    enemy_god = b.parse(state.god_hex.get(other(seat), "")) or b.centre
    assert god is not None
    new, placed = state, []
    for i, child in enumerate(unplaced(state, seat)):
        options = place_hexes(new, seat)
        here = {c.hex: 0 for c in new.children}
        for c in new.children:
            if c.where == "map" and c.side == seat:
                here[c.hex] += 1
        hexes = sorted(options, key=lambda n: (here.get(n, 0), *_formation_key(b, god, enemy_god, n)))
        hex_ = hexes[0]
        aspect = ASPECTS[i % 3]
        new = fork(
            new,
            children=replace_children(
                new, {child.id: child.model_copy(update={"where": "map", "hex": hex_, "aspect": aspect})}
            ),
        )
        placed.append(hex_)
    text = f"{seat} sets up the remaining Children around the gods (rule 3.3)"
    return new, [Event(kind="setup", text=text, hexes=tuple(sorted(set(placed))))]


def _formation_key(b: Board, god: Hex, target: Hex, name: str) -> tuple[bool, int, int, str]:
    h = b.parse(name)
    assert h is not None
    # a screen within three hexes of the god, on the side facing the enemy, one Child a hex where it can
    return (distance(h, god) > 3, distance(h, target), distance(h, god), name)


def _done(state: State, seat: str, action: Action) -> tuple[State, list[Event]]:
    if seat == state.first:
        second = other(seat)
        step = "gods" if not state.options.towers else "tower"
        text = f"{seat} has set up; {second} now sets up (rule 3.4)"
        return fork(state, active=second, step=step), [Event(kind="phase", text=text)]
    # 3.5: the player who set up last moves first.
    text = f"Both gods have set up. Turn 1: {seat} moves first (rule 3.5)"
    return fork(state, active=seat, step="move", turn=1), [Event(kind="phase", text=text)]
