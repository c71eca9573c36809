"""The turn (4.0): movement, reinforcement from the Towers (9.x), combat (8.x), end of turn."""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.hexes import DIRECTION_NAMES, Hex
from engine.core.protocol import Action, Event
from engine.games.oneworld import combat, gods
from engine.games.oneworld.board import board
from engine.games.oneworld.movement import (
    Ctx,
    Route,
    blade_options,
    context,
    edge_reachable,
    walk_reach,
    walk_targets,
)
from engine.games.oneworld.state import Changes, Child, State, action, children, fork, other, replace_children

TOWER_CHART = {1: "Stone", 2: "Stone", 3: "Blade", 4: "Blade", 5: "Fog", 6: "Fog"}
"""13.3 Towers of Balance Chart."""


def move_options(ctx: Ctx, child: Child) -> list[tuple[dict[str, str | int], Route]]:
    """Every legal move of one Child, as action arguments and the route it takes."""
    start = ctx.b.parse(child.hex)
    assert start is not None
    if child.aspect == "Blade":
        out = blade_options(ctx, child, start)
    else:
        out = [({"to": ctx.b.name(h)}, r) for h, r in sorted(walk_targets(ctx, child, start).items())]
        if ctx.state.options.chaos_gambit_1 and edge_reachable(ctx, child, start):
            out.append(({"to": "chaos"}, Route((), chaos=True)))
    return [({"child": child.id, **args}, r) for args, r in out]


def move_args(ctx: Ctx, child: Child) -> list[dict[str, str | int]]:
    """The arguments of every legal move of one Child (``move_options`` without the routes, found faster)."""
    start = ctx.b.parse(child.hex)
    assert start is not None
    if child.aspect == "Blade":
        return [{"child": child.id, **args} for args, _ in blade_options(ctx, child, start)]
    out: list[dict[str, str | int]] = [
        {"child": child.id, "to": n} for n in sorted(ctx.b.name(h) for h in walk_reach(ctx, child, start))
    ]
    if ctx.state.options.chaos_gambit_1 and edge_reachable(ctx, child, start):
        out.append({"child": child.id, "to": "chaos"})
    return out


def movable(state: State, seat: str) -> list[Child]:
    """Children of ``seat`` that may still move this turn."""
    return [c for c in state.on_map(seat) if c.id not in state.moved]


def legal(state: State, seat: str) -> list[Action]:
    """The movement phase's legal actions (4.2 Movement)."""
    if seat != state.active or state.step != "move":
        return []
    ctx = context(state, seat)
    out = [action("move", args) for c in movable(state, seat) for args in move_args(ctx, c)]
    out += gods.transform_legal(state, seat) + gods.flee_legal(state, seat)
    return out + [action("end")]


def apply_move(state: State, seat: str, action: Action, dice: Dice) -> tuple[State, list[Event]]:
    """Move one Child (6.x), rolling for each Fault crossed (5.4, 13.2, RULINGS 7)."""
    child = state.child(str(action.args["child"]))
    assert child is not None
    ctx = context(state, seat)
    wanted = {k: str(v) for k, v in action.args.items()}
    args, route = next(
        (a, r) for a, r in move_options(ctx, child) if {k: str(v) for k, v in a.items()} == wanted
    )
    b = ctx.b
    start = child.hex
    events: list[Event] = []
    moved = state.moved + (child.id,)
    path_names = [b.name(h) for h in route.path]
    stops = state.stops
    if "steps" in args:
        stops = dict(stops)
        stops[path_names[-1]] = stops.get(path_names[-1], 0) + 1
    for a, n in route.faults:
        roll = dice.roll(6, f"{child.id} crosses the Fault of Chaos {b.name(a)}/{b.name(n)} (rule 5.4)")
        if roll <= 2:  # 13.2: 1 or 2, the Child is eliminated
            text = (
                f"{child.aspect} {child.id} crosses the Fault of Chaos between {b.name(a)} and {b.name(n)}, "
                f"rolls {roll} and dissolves into existencelessness; it goes under {seat}'s Tower (rules 5.4, 13.2)"
            )
            new, lost = _removed(state, child, "tower", start, b.name(a), moved, stops, text)
            return new, events + lost
        events.append(
            Event(
                kind="roll",
                text=f"{child.id} crosses the Fault of Chaos between {b.name(a)} and "
                f"{b.name(n)}: rolls {roll}, no effect (rule 13.2)",
                hexes=(b.name(a), b.name(n)),
            )
        )
    if route.chaos:
        edge = path_names[-1] if path_names else start
        return _into_chaos(state, child, start, edge, moved, stops, events)
    end = path_names[-1]
    new_child = child.model_copy(update={"hex": end})
    changes = _note_move(state.changes, start, end)
    new = fork(
        state,
        children=replace_children(state, {child.id: new_child}),
        moved=moved,
        stops=stops,
        changes=changes,
    )
    via = f" via {', '.join(path_names[:-1])}" if len(path_names) > 1 else ""
    events.insert(
        0,
        Event(
            kind="move",
            text=f"{child.aspect} {child.id} moves from {start} to {end}{via}",
            hexes=(start, end),
        ),
    )
    if ctx.enemy_god is not None and end == b.name(ctx.enemy_god):
        new, more = gods.begin_accost(new, child.id, end)
        events += more
    return new, events


def _note_move(changes: Changes, start: str, end: str) -> Changes:
    return changes.model_copy(
        update={"moved": changes.moved + (start, end), "arrows": changes.arrows + ((start, end),)}
    )


def _removed(
    state: State,
    child: Child,
    where: str,
    start: str,
    at: str,
    moved: tuple[str, ...],
    stops: dict[str, int],
    text: str,
) -> tuple[State, list[Event]]:
    gone = child.model_copy(update={"where": where, "hex": ""})
    changes = state.changes.model_copy(update={"losses": state.changes.losses + (at,)})
    new = fork(
        state, children=replace_children(state, {child.id: gone}), moved=moved, stops=stops, changes=changes
    )
    return new, [Event(kind="loss", text=text, hexes=(start, at))]


def _into_chaos(
    state: State,
    child: Child,
    start: str,
    edge: str,
    moved: tuple[str, ...],
    stops: dict[str, int],
    events: list[Event],
) -> tuple[State, list[Event]]:
    # 5.6 and RULINGS 6: lost for good; 12.0 Chaos Gambit I: under the Tower instead.
    if state.options.chaos_gambit_1:
        text = (
            f"{child.aspect} {child.id} travels from {start} into Chaos Itself and goes under {child.side}'s "
            "Tower (rule 12.0 Chaos Gambit I)"
        )
        new, more = _removed(state, child, "tower", start, edge, moved, stops, text)
    else:
        text = (
            f"{child.aspect} {child.id} runs from {start} off the map into Chaos Itself and is lost for good "
            "(rules 5.6, 6.3)"
        )
        new, more = _removed(state, child, "lost", start, edge, moved, stops, text)
    return new, events + more


# --- end of movement: reinforcement (9.2) and the combat phase (8.x) -------------------------------------


def end_movement(state: State, dice: Dice) -> tuple[State, list[Event]]:
    """4.2: movement is over; reinforcement, then every combat of the turn."""
    new, events = reinforce(state, state.active, dice)
    fights = tuple(combat.contested(new))
    new = fork(new, fights=fights)
    new, more = next_fight(new, dice)
    return new, events + more


def reinforce(state: State, seat: str, dice: Dice) -> tuple[State, list[Event]]:
    """9.2: one Child a turn from beneath the Tower, its aspect from the Tower Chart (13.3)."""
    if not state.options.towers:
        return state, []
    dead = sorted(
        (c for c in state.children if c.side == seat and c.where == "tower"), key=lambda c: int(c.id[1:])
    )
    if not dead or len(state.on_map(seat)) >= 13:
        return state, []
    if state.options.more_balance and len(state.on_map(seat)) >= len(state.on_map(other(seat))):
        return state, [
            Event(
                kind="reinforce",
                text=f"{seat} has no fewer Children on the map than {other(seat)}: "
                "no reinforcement (rule 12.0 More Balance)",
            )
        ]
    tower = state.tower_hex[seat]
    if state.options.non_aligned_towers:
        roll = dice.roll(6, "which Tower reinforces (rule 12.0 Non-aligned Towers)")
        west, east = sorted(state.tower_hex.values(), key=_column)
        tower = west if roll % 2 else east
    here = sum(1 for c in state.in_hex(tower) if c.side == seat)
    if here >= state.stacking:
        return state, [
            Event(
                kind="reinforce",
                text=f"{seat}'s Tower at {tower} already holds {children(here)}: "
                "no room for a reinforcement (rules 7.2, 9.2)",
                hexes=(tower,),
            )
        ]
    roll = dice.roll(6, f"{seat} Tower of Balance Chart (rule 13.3)")
    aspect = TOWER_CHART[roll]
    child = dead[0].model_copy(update={"where": "map", "hex": tower, "aspect": aspect})
    changes = state.changes.model_copy(update={"moved": state.changes.moved + (tower,)})
    new = fork(state, children=replace_children(state, {child.id: child}), changes=changes)
    text = f"{seat}'s Tower of Balance at {tower} rolls {roll}: {aspect} {child.id} appears on the Tower (rules 9.2, 13.3)"
    return new, [Event(kind="reinforce", text=text, hexes=(tower,))]


def _column(name: str) -> int:
    return int(name[:2])


def next_fight(state: State, dice: Dice) -> tuple[State, list[Event]]:
    """Start the next combat: the only one, or ask the mover to pick (RULINGS 3); or end the turn."""
    if len(state.fights) > 1:
        text = (
            f"{state.active} chooses the order of the combats in " + ", ".join(state.fights) + " (rule 8.1)"
        )
        return fork(state, step="fight", fight=None), [Event(kind="combat", text=text, hexes=state.fights)]
    if state.fights:
        return combat.start(state, state.fights[0])
    return end_turn(state)


def end_turn(state: State) -> tuple[State, list[Event]]:
    """4.3 (RULINGS 2): the turn ends after combat; Moving Towers move; the other player's turn begins."""
    events: list[Event] = []
    if state.options.moving_towers != "off" and state.options.towers:
        state, events = move_tower(state, state.active)
    drawn = _stalemate(state)
    if drawn:
        end = fork(state, step="over", fight=None, winner="", end_reason=drawn)
        # 12.0 Tower Elimination: "may end in a tie from loss of Children"; with Towers, RULINGS OneWorld 8.
        rule = "rule 12.0 Tower Elimination" if not state.options.towers else "RULINGS OneWorld 8"
        return end, events + [Event(kind="end", text=f"The game is drawn: {drawn} ({rule})")]
    seat = other(state.active)
    new = fork(
        state,
        step="move",
        active=seat,
        turn=state.turn + 1,
        moved=(),
        stops={},
        accosted=False,
        god_moved=False,
        transforms=0,
        fights=(),
        fight=None,
        changes=Changes(),
        previous=state.changes,
    )
    return new, events + [Event(kind="phase", text=f"Turn {new.turn}: {seat} moves (rule 4.1)")]


def _stalemate(state: State) -> str:
    def can_fight(seat: str) -> bool:
        waiting = any(c.side == seat and c.where == "tower" for c in state.children)
        return bool(state.on_map(seat)) or (state.options.towers and waiting)

    if not can_fight("BORG") and not can_fight("CHEZ"):
        return "neither god has a Child left to fight"
    return ""


def move_tower(state: State, seat: str) -> tuple[State, list[Event]]:
    """12.0 Moving Towers: after his turn a player moves his Tower to the next free hex along the edge."""
    b = board()
    ring = b.perimeter
    here = b.parse(state.tower_hex[seat])
    if here not in ring:
        return state, []
    step = 1 if state.options.moving_towers == "cw" else -1
    taken = {c.hex for c in state.children if c.where == "map"} | set(state.god_hex.values())
    taken |= {t for s, t in state.tower_hex.items() if s != seat}
    i = ring.index(here)
    for k in range(1, len(ring)):
        cand: Hex = ring[(i + step * k) % len(ring)]
        if b.name(cand) not in taken:
            towers = dict(state.tower_hex)
            towers[seat] = b.name(cand)
            text = f"{seat} moves its Tower of Balance along the edge from {b.name(here)} to {b.name(cand)} (rule 12.0 Moving Towers)"
            return fork(state, tower_hex=towers), [
                Event(kind="move", text=text, hexes=(b.name(here), b.name(cand)))
            ]
    return state, []


DIRECTIONS_HELP = ", ".join(DIRECTION_NAMES)
