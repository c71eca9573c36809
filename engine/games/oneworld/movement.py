"""Movement of the Children (5.x, 6.x, 7.x, 12.0): where each aspect may go and why not.

One function decides each step (``step_problem``); the legal moves and the
explanations of refused moves both come from it, so they cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from engine.core.hexes import DIRECTION_NAMES, Hex
from engine.games.oneworld.board import Board, board
from engine.games.oneworld.state import Child, State, children, other


@dataclass
class Ctx:
    """The position as movement sees it: who stands where."""

    state: State
    b: Board
    seat: str
    friends: dict[Hex, int] = field(default_factory=dict)
    friendly_stones: dict[Hex, int] = field(default_factory=dict)
    enemies: set[Hex] = field(default_factory=set)
    own_god: Hex | None = None
    enemy_god: Hex | None = None
    towers: frozenset[Hex] = frozenset()
    blocked: frozenset[Hex] = frozenset()
    """Hexes no step of this side may enter now: Towers (5.5), its own god (7.3), the enemy god once accosted (10.4)."""

    @property
    def wrap(self) -> bool:
        return self.state.options.chaos_gambit_2

    @property
    def pylon_rule(self) -> bool:
        return self.state.options.pylon_movement


def context(state: State, seat: str) -> Ctx:
    """Build the movement context of ``seat``."""
    b = board()
    ctx = Ctx(state, b, seat)
    for c in state.children:
        if c.where != "map":
            continue
        h = b.parse(c.hex)
        assert h is not None
        if c.side == seat:
            ctx.friends[h] = ctx.friends.get(h, 0) + 1
            if c.aspect == "Stone":
                ctx.friendly_stones[h] = ctx.friendly_stones.get(h, 0) + 1
        else:
            ctx.enemies.add(h)
    if seat in state.god_hex:
        ctx.own_god = b.parse(state.god_hex[seat])
    if other(seat) in state.god_hex:
        ctx.enemy_god = b.parse(state.god_hex[other(seat)])
    ctx.towers = frozenset(h for h in (b.parse(t) for t in state.tower_hex.values() if t) if h is not None)
    blocked = set(ctx.towers) | {ctx.own_god}
    if state.accosted:
        blocked.add(ctx.enemy_god)
    ctx.blocked = frozenset(h for h in blocked if h is not None)
    return ctx


@cache
def static_steps(
    aspect: str, mode: bool | None, wrap: bool, pylon_rule: bool
) -> dict[Hex, tuple[tuple[Hex, bool], ...]]:
    """The steps the map alone allows an aspect (5.1, 5.3, 12.0 Pylon Movement), each with whether it crosses a Fault.

    Built from ``step_problem`` on an empty board, so the two cannot disagree; what the
    position adds (Towers, gods) is ``Ctx.blocked``.
    """
    from engine.games.oneworld.options import Options

    b = board()
    empty = Ctx(State(options=Options(pylon_movement=pylon_rule)), b, "BORG")
    child = Child(id="X", side="BORG", aspect=aspect)
    return {
        h: tuple(
            (n, b.is_fault(h, n))
            for n in b.nexts(h, wrap)
            if n is not None and step_problem(empty, child, h, n, mode) is None
        )
        for h in b.hexes
    }


def step_problem(ctx: Ctx, child: Child, a: Hex, n: Hex, pylon_mode: bool | None = None) -> str | None:
    """Why ``child`` may not step from ``a`` into the adjacent ``n`` (None when it may)."""
    b, aspect = ctx.b, child.aspect
    pylons = b.pylons
    if n in ctx.towers:
        return f"{_who(child)} cannot enter the Tower of Balance at {b.name(n)}: its ectoplasm keeps every being out (rule 5.5)"
    if n == ctx.own_god:
        return f"{_who(child)} may never enter {b.name(n)}, the hex of its own god (rule 7.3)"
    if n == ctx.enemy_god and ctx.state.accosted:
        return (
            f"{_who(child)} cannot enter {b.name(n)}: only one Child a turn may accost the enemy god, "
            "and one already has (rule 10.4)"
        )
    if aspect != "Stone" and n in pylons and a not in pylons:
        return (
            f"{_who(child)} cannot move from the flatland at {b.name(a)} up onto the Pylon at {b.name(n)}; "
            "only Stone can (rule 5.1)"
        )
    if aspect != "Blade" and b.is_runeline(a, n):
        rule = "6.2" if aspect == "Stone" else "6.4"
        return (
            f"{_who(child)} cannot cross the Runeline between {b.name(a)} and {b.name(n)} (rules 5.3, {rule})"
        )
    if pylon_mode is not None and ctx.pylon_rule and a in pylons:
        p2p = n in pylons
        if p2p and not pylon_mode:
            return (
                f"{_who(child)} cannot mix Pylon-to-Pylon movement with other movement ({b.name(a)} to "
                f"{b.name(n)}) (rule 12.0 Pylon Movement)"
            )
        if not p2p and pylon_mode:
            return (
                f"{_who(child)} is moving Pylon to Pylon and cannot step down to {b.name(n)} in the same turn "
                "(rule 12.0 Pylon Movement)"
            )
    return None


def _who(child: Child) -> str:
    return f"{child.aspect} {child.id}"


def end_problem(ctx: Ctx, child: Child, n: Hex) -> str | None:
    """Why ``child`` may not end its move in ``n`` (7.2 stacking)."""
    here = ctx.friends.get(n, 0)
    if here >= ctx.state.stacking:
        return (
            f"{child.aspect} {child.id} cannot end its move in {ctx.b.name(n)}: {children(here)} of {child.side} "
            f"{'is' if here == 1 else 'are'} there already and the limit is {ctx.state.stacking} (rule 7.2)"
        )
    return None


def halts(ctx: Ctx, n: Hex) -> bool:
    """Entering a hex of enemy Children or the enemy god ends a move (6.3, 8.2, 10.4)."""
    return n in ctx.enemies or n == ctx.enemy_god


@dataclass(frozen=True)
class Route:
    """A move worked out: the hexes entered, the Faults crossed, and whether it ends in Chaos."""

    path: tuple[Hex, ...]
    faults: tuple[tuple[Hex, Hex], ...] = ()
    chaos: bool = False
    steps_short: int = 0


def _faults(ctx: Ctx, start: Hex, path: tuple[Hex, ...]) -> tuple[tuple[Hex, Hex], ...]:
    out, here = [], start
    for n in path:
        if ctx.b.is_fault(here, n):
            out.append((here, n))
        here = n
    return tuple(out)


# --- Stone (6.2) and Fog (6.4): to a hex ---------------------------------------------------------


def walk_targets(ctx: Ctx, child: Child, start: Hex) -> dict[Hex, Route]:
    """Every hex a Stone or Fog may end in, with the route that crosses the fewest Faults."""
    routes: dict[Hex, Route] = {}
    modes: list[bool | None] = [None]
    if ctx.pylon_rule and start in ctx.b.pylons:
        modes = [False, True]
    for mode in modes:
        limit = _allowance(ctx, child, mode)
        for h, (faults, path) in _search(ctx, child, start, limit, mode).items():
            if end_problem(ctx, child, h):
                continue
            old = routes.get(h)
            if old is None or (len(faults), len(path)) < (len(old.faults), len(old.path)):
                routes[h] = Route(path, faults)
    return routes


def _allowance(ctx: Ctx, child: Child, pylon_mode: bool | None) -> int:
    if pylon_mode:
        return 3 if child.aspect == "Stone" else 1  # 12.0 Pylon Movement
    return 1 if child.aspect == "Stone" else 3  # 6.2, 6.4


Walk = tuple[tuple[tuple[Hex, Hex], ...], tuple[Hex, ...]]


def _search(ctx: Ctx, child: Child, start: Hex, limit: int, mode: bool | None) -> dict[Hex, Walk]:
    # Layered search: each layer holds, per hex, the path of that length crossing the fewest Faults.
    # Stone bounces over Faults (5.4, 6.2), so only Blade and Fog count them.
    counted = child.aspect != "Stone"
    steps = static_steps(child.aspect, mode, ctx.wrap, ctx.pylon_rule)
    blocked = ctx.blocked
    best: dict[Hex, Walk] = {}
    layer: dict[Hex, Walk] = {start: ((), ())}
    for _ in range(limit):
        nxt: dict[Hex, Walk] = {}
        for here, (faults, path) in layer.items():
            if path and halts(ctx, here):
                continue
            for n, fault in steps[here]:
                if n == start or n in blocked:
                    continue
                crossed = faults + ((here, n),) if counted and fault else faults
                old = nxt.get(n)
                if old is None or len(crossed) < len(old[0]):
                    nxt[n] = (crossed, path + (n,))
        for h, val in nxt.items():
            if h not in best or len(val[0]) < len(best[h][0]):
                best[h] = val
        layer = nxt
    return best


def walk_reach(ctx: Ctx, child: Child, start: Hex) -> set[Hex]:
    """The hexes of ``walk_targets`` without their routes: a quicker search for listing legal moves."""
    out: set[Hex] = set()
    modes: list[bool | None] = [None]
    if ctx.pylon_rule and start in ctx.b.pylons:
        modes = [False, True]
    blocked = ctx.blocked
    for mode in modes:
        steps = static_steps(child.aspect, mode, ctx.wrap, ctx.pylon_rule)
        frontier = {start}
        for _ in range(_allowance(ctx, child, mode)):
            nxt: set[Hex] = set()
            for here in frontier:
                if here != start and halts(ctx, here):
                    continue
                nxt.update(n for n, _ in steps[here] if n != start and n not in blocked)
            out |= nxt
            frontier = nxt
    return {h for h in out if end_problem(ctx, child, h) is None}


def edge_reachable(ctx: Ctx, child: Child, start: Hex) -> bool:
    """12.0 Chaos Gambit I: whether a Stone or Fog can step off the grid this turn (never on a curved map, Gambit II)."""
    if ctx.wrap:
        return False
    limit = _allowance(ctx, child, None)
    hexes = [start] + ([] if limit < 2 else list(_search(ctx, child, start, limit - 1, None)))
    return any(
        ctx.b.step(h, d, False) is None for h in hexes for d in range(6) if not (h != start and halts(ctx, h))
    )


# --- Blade (6.3): in a direction -------------------------------------------------------------------


def blade_run(ctx: Ctx, child: Child, start: Hex, d: int) -> tuple[Route, str]:
    """The straight run of a Blade in direction ``d`` (6.3), and why it stopped short if it did."""
    b, here = ctx.b, start
    path: list[Hex] = []
    pylon_hop = ctx.pylon_rule and start in b.pylons
    for i in range(5):
        n = b.step(here, d, ctx.wrap)
        if n is None:
            return Route(tuple(path), _faults(ctx, start, tuple(path)), chaos=True), ""
        problem = step_problem(ctx, child, here, n)
        if problem:
            return Route(tuple(path), _faults(ctx, start, tuple(path))), problem
        path.append(n)
        here = n
        if halts(ctx, n):
            what = "the enemy god" if n == ctx.enemy_god else "enemy Children"
            return Route(
                tuple(path), _faults(ctx, start, tuple(path))
            ), f"it stops on entering {what} at {b.name(n)}"
        if pylon_hop and i == 0 and n in b.pylons:
            # 12.0 Pylon Movement: Blade moves a single hex from Pylon to Pylon.
            return Route(tuple(path), _faults(ctx, start, tuple(path))), "Pylon to Pylon it moves one hex"
    return Route(tuple(path), _faults(ctx, start, tuple(path))), ""


def blade_options(ctx: Ctx, child: Child, start: Hex) -> list[tuple[dict[str, str | int], Route]]:
    """Every legal Blade move: direction, the Chaos confirmation and Friendly Obstacle stops."""
    out: list[tuple[dict[str, str | int], Route]] = []
    for d, name in enumerate(DIRECTION_NAMES):
        route, _ = blade_run(ctx, child, start, d)
        if route.chaos:
            out.append(({"dir": name, "confirm": "lost"}, route))
        elif route.path and not end_problem(ctx, child, route.path[-1]):
            out.append(({"dir": name}, route))
        if ctx.state.options.friendly_obstacle:
            out.extend(_obstacle_stops(ctx, child, name, route))
    return out


def _obstacle_stops(
    ctx: Ctx, child: Child, name: str, route: Route
) -> list[tuple[dict[str, str | int], Route]]:
    # 12.0 Friendly Obstacle: stop short in a hex with a friendly Stone, one Stone per Blade.
    out: list[tuple[dict[str, str | int], Route]] = []
    for k in range(1, len(route.path) + (1 if route.chaos else 0)):
        h = route.path[k - 1]
        stones = ctx.friendly_stones.get(h, 0)
        if stones > ctx.state.stops.get(ctx.b.name(h), 0) and not end_problem(ctx, child, h):
            path = route.path[:k]
            out.append(
                ({"dir": name, "steps": k}, Route(path, tuple(f for f in route.faults if f[1] in path)))
            )
    return out
