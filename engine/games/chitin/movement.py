"""Ground and air movement (6.0, 8.011, 8.02, 8.03) and overruns (7.07)."""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.hexes import Hex
from engine.core.movement import reachable
from engine.core.protocol import Event
from engine.games.chitin.board import (
    DIRS,
    Index,
    T,
    defence,
    describe,
    geo,
    in_front,
    is_combat,
    is_ground,
    role,
)
from engine.games.chitin.combat import stack_attack
from engine.games.chitin.data import unit_type
from engine.games.chitin.food import kill
from engine.games.chitin.state import Counter, State

MAX_UNITS = 3  # 6.05


def natural(c: Counter) -> tuple[int, str]:
    """Sort key for counter ids: R2 before R10."""
    return int(c.id[1:]), c.id


def group_id(members: list[Counter]) -> str:
    """The id players write for a group of counters: ``R3`` or ``R3+R7``."""
    return "+".join(c.id for c in sorted(members, key=natural))


def enemy_of(state: State, seat: str) -> str:
    """The other seat."""
    return next(s for s in state.ends if s != seat)


def fits(idx: Index, seat: str, members: list[Counter], h: Hex) -> bool:
    """Stacking: at most three units, one warrior type (6.05, 6.051)."""
    if h not in idx.ground:
        return True  # a group always comes from one legal stack (or alone from reserve)
    ids = {c.id for c in members}
    st = [c for c in idx.stack(h, seat) if c.id not in ids] + [c for c in members if is_ground(c)]
    if sum(c.units for c in st) > MAX_UNITS:
        return False
    return len({c.type for c in st if role(c) == "warrior"}) <= 1


_REACH: dict[tuple[object, ...], dict[Hex, int]] = {}


def reach(state: State, idx: Index, seat: str, members: list[Counter], start: Hex | None, bonus: int = 0) -> dict[str, int]:
    """Where a group may end its move and what it costs; ``off`` means leaving by its own end (6.0)."""
    raw = _paths(state, idx, seat, members, start, bonus)
    off = geo().off[state.ends[seat]]
    out: dict[str, int] = {}
    for h, cost in raw.items():
        if h in off:
            if start is not None:
                out["off"] = min(out.get("off", 99), cost)
        elif fits(idx, seat, members, h):
            out[T(h)] = cost
    return out


def _paths(state: State, idx: Index, seat: str, members: list[Counter], start: Hex | None, bonus: int) -> dict[Hex, int]:
    """Cheapest cost to every hex a group can reach, before stacking at the end of the move is checked.

    The search depends only on the enemy's ground units, the group's make-up and, for Workers
    alone, where friendly combat units stand; a phase re-asks it for every group after every move,
    so the answers are kept.
    """
    g = geo()
    enemy = tuple(sorted((T(h), any(role(c) != "worker" for c in st)) for h, st in idx.ground.items() if st[0].side != seat))
    escorted = any(is_combat(c) for c in members)
    friends = () if escorted else tuple(sorted(T(h) for h, st in idx.ground.items() if any(c.side == seat and is_combat(c) for c in st)))
    disrupted = any(c.disrupted for c in members)
    allowance = min(c.mp for c in members) + bonus
    key = (seat, state.ends[seat], enemy, friends, start, tuple(sorted({c.type for c in members})), allowance, disrupted, escorted)
    hit = _REACH.get(key)
    if hit is not None:
        return hit
    zoc = idx.zoc(enemy_of(state, seat))
    off = g.off[state.ends[seat]]
    costs = [g.terrain_cost(code) for code in {c.type for c in members}]
    ground = idx.ground

    def step(a: Hex, b: Hex) -> float | None:
        if b in off:
            if start is None:
                return 0 if a in off else None  # 6.01: waiting beyond the end, entering where they like
            return 1 if a in g.text else None  # 6.07: one point to leave by their own end
        if b not in g.text or (a in off and start is not None):
            return None
        st = ground.get(b)
        if st and st[0].side != seat:
            return None  # 6.09: never onto or through enemy ground units
        if disrupted:
            return None if b in zoc else 1  # 7.064 (a), (b)
        if not escorted and b in zoc and not any(is_combat(c) for c in idx.stack(b, seat)):
            return None  # 6.082: a Worker enters an enemy zone only with a combat unit
        return max(cost[b] for cost in costs) + (1 if b in zoc else 0)  # 6.03, 6.031, 6.04

    origin = start if start is not None else min(off)
    found = reachable(
        origin,
        allowance,
        step,
        stops=lambda h: start is not None and h in off,
        max_steps=1 if disrupted else None,
    )
    result = {h: int(r.cost) for h, r in found.items()}
    if len(_REACH) > 4096:
        _REACH.clear()
    _REACH[key] = result
    return result


def movable(state: State, idx: Index, seat: str) -> list[tuple[list[Counter], Hex | None]]:
    """Groups that may still move: each counter alone, and all unmoved counters of a hex together."""
    out: list[tuple[list[Counter], Hex | None]] = []
    for h, st in sorted(idx.ground.items()):
        mine = sorted((c for c in st if c.side == seat and not c.moved), key=natural)
        out.extend(([c], h) for c in mine)
        if len(mine) > 1:
            out.append((mine, h))
    for c in sorted(state.counters.values(), key=natural):
        if c.side == seat and c.where == "reserve" and is_ground(c) and not c.moved and c.ready_turn <= state.turn:
            out.append(([c], None))
    return out


def can_charge(state: State, members: list[Counter]) -> bool:
    """8.02, 8.025, 8.034: Gantuas or Phlanx of one type, not disrupted when their move began."""
    if not state.advanced:
        return False
    types = {c.type for c in members}
    return (
        len(types) == 1
        and unit_type(members[0].type).charge
        and not any(c.began_disrupted or c.disrupted or c.moved for c in members)
    )


def next_to_enemy(idx: Index, seat: str, h: Hex) -> bool:
    """Whether an enemy ground unit is adjacent to ``h``."""
    return any(idx.side_at(n) not in (None, seat) for n in geo().nbrs[h])


def ground_moves(state: State, idx: Index, seat: str) -> list[tuple[str, str, str]]:
    """Every (verb, group, destination) of ground movement, charges included."""
    out: list[tuple[str, str, str]] = []
    profile_cache: dict[tuple[object, ...], dict[str, int]] = {}
    near_enemy: set[str] | None = None
    for members, start in movable(state, idx, seat):
        gid = group_id(members)
        if start is None:
            c = members[0]
            key = (c.type, c.disrupted, c.mp, c.units)
            if key not in profile_cache:
                profile_cache[key] = reach(state, idx, seat, members, None)
            dests = profile_cache[key]
        else:
            dests = reach(state, idx, seat, members, start)
        out.extend(("move", gid, d) for d in sorted(dests))
        if can_charge(state, members):
            if near_enemy is None:
                g = geo()
                near_enemy = {T(n) for h, st in idx.ground.items() if st[0].side != seat for n in g.nbrs[h]}
            for d in sorted(reach(state, idx, seat, members, start, bonus=2)):
                if d in near_enemy:
                    out.append(("charge", gid, d))
    return out


def air_reach(state: State, seat: str, c: Counter) -> list[str]:
    """Megahexes an air unit may fly to (8.011), named by the hex it stands on; ``off`` to leave."""
    g = geo()
    end = state.ends[seat]
    if c.where == "reserve":
        frontier, left = set(g.edge_megas[end]), c.mp - 1
        seen = set(frontier)
    else:
        here = g.mega[g.hex_of[c.hex]]
        frontier, left, seen = {here}, c.mp, {here}
    dist0 = set(seen)
    for _ in range(max(left, 0)):
        frontier = {n for m in frontier for n in g.mega_nbrs[m]} - seen
        seen |= frontier
    out = sorted(T(g.anchor[m]) for m in seen if c.where == "reserve" or m not in dist0)
    if c.where == "map" and c.mp >= 1 and g.mega[g.hex_of[c.hex]] in g.edge_megas[end]:
        out.append("off")
    return out if c.mp >= 1 else []


def overruns(state: State, idx: Index, seat: str) -> list[tuple[str, str]]:
    """Overruns open to ``seat``: (own hex, enemy hex) at 6 to 1 or better with the points to go on (7.07)."""
    g = geo()
    out = []
    for h, st in sorted(idx.ground.items()):
        mine = [c for c in st if c.side == seat and is_combat(c)]
        if not mine or any(c.disrupted for c in mine):
            continue
        for n in g.nbrs[h]:
            if idx.side_at(n) in (None, seat) or not in_front(h, mine[0].facing, n):
                continue
            cost = 2 + max(g.terrain_cost(c.type)[n] for c in mine)
            if min(c.mp for c in mine) < cost:
                continue
            attack, _ = stack_attack(state, idx, seat, T(h), [T(n)])
            dfn = sum(defence(c) for c in idx.ground[n])
            if attack >= 6 * dfn:
                out.append((T(h), T(n)))
    return out


def facing_choices(state: State, idx: Index, seat: str) -> list[int]:
    """Facings allowed for the stack that just moved: a charging stack must face an enemy (8.021)."""
    h = geo().hex_of[state.face_hex]
    if not state.face_charge:
        return list(range(6))
    ok = [d for d in range(6) if any(in_front(h, d, n) and idx.side_at(n) not in (None, seat) for n in geo().nbrs[h])]
    return ok or list(range(6))


def do_move(state: State, seat: str, gid: str, to: str, charge: bool, events: list[Event]) -> None:
    """Move a group (already checked legal) and pick up chits (6.081)."""
    idx = Index(state)
    members = [state.counters[i] for i in gid.split("+")]
    start = geo().hex_of[members[0].hex] if members[0].where == "map" else None
    cost = reach(state, idx, seat, members, start, bonus=2 if charge else 0)[to]
    src = members[0].hex or "reserve"
    names = ", ".join(describe(c) for c in members)
    if to == "off":
        for c in members:
            leave_map(state, seat, c, events)
        return
    join = [c for c in idx.stack(geo().hex_of[to], seat) if c not in members]
    for c in members:
        c.where, c.hex, c.moved, c.charging = "map", to, True, charge
        if join:
            c.facing = join[0].facing  # 6.06: one facing per hex until the stack is faced
        c.mp = max(c.mp + (2 if charge else 0) - cost, 0)
        if role(c) == "worker" and not c.chit:
            pick_up(state, c, events)
    verb = "charges" if charge else "moves"
    events.append(Event(kind="move", text=f"{seat}: {names} {verb} {src} to {to}", hexes=(to,) if start is None else (src, to)))
    state.moved_hexes.append(to)
    state.step, state.face_hex, state.face_charge = "face", to, charge


def pick_up(state: State, worker: Counter, events: list[Event]) -> None:
    """6.081: a Worker moving into a chit's hex picks it up; one chit per Worker."""
    for ch in sorted(state.chits.values(), key=lambda x: x.letter):
        if ch.hex == worker.hex and not ch.carrier and not ch.off_by:
            ch.carrier, ch.hex, worker.chit = worker.id, "", ch.letter
            events.append(Event(kind="chit", text=f"{worker.side}'s Worker {worker.id} picks up chit {ch.letter} ({ch.value}) in {worker.hex}", hexes=(worker.hex,)))
            return


def leave_map(state: State, seat: str, c: Counter, events: list[Event]) -> None:
    """6.07: leaving by its own end; a Worker may come back, others may not; a carried chit scores."""
    src = c.hex
    if c.chit:
        ch = state.chits[c.chit]
        ch.carrier, ch.off_by, c.chit = "", seat, ""
        events.append(Event(kind="score", text=f"{seat}'s Worker {c.id} carries chit {ch.letter} ({ch.value}) off the map", hexes=(src,)))
    c.hex, c.moved, c.mp = "", True, 0
    c.where = "reserve" if role(c) == "worker" else "exited"
    events.append(Event(kind="move", text=f"{seat}: {describe(c)} leaves the map from {src}", hexes=(src,)))


def do_fly(state: State, seat: str, c: Counter, to: str, events: list[Event]) -> None:
    """8.011: air movement by megahexes; entering enemy air units' megahex obliges combat (8.014)."""
    g = geo()
    if to == "off":
        c.mp = 0
        leave_map(state, seat, c, events)
        return
    src = c.hex or "reserve"
    dest = g.mega[g.hex_of[to]]
    if c.where == "reserve":
        used = 1 + _mega_distance(set(g.edge_megas[state.ends[seat]]), dest)
    else:
        used = _mega_distance({g.mega[g.hex_of[c.hex]]}, dest)
    c.where, c.hex, c.moved, c.mp, c.entered = "map", to, True, max(c.mp - used, 0), True
    events.append(Event(kind="move", text=f"{seat}: {describe(c)} flies {src} to megahex {to}", hexes=(to,)))
    state.moved_hexes.append(to)


def _mega_distance(starts: set[Hex], dest: Hex) -> int:
    g = geo()
    frontier, seen, n = set(starts), set(starts), 0
    while dest not in frontier:
        frontier = {x for m in frontier for x in g.mega_nbrs[m]} - seen
        seen |= frontier
        n += 1
    return n


def face(state: State, seat: str, hex_text: str, d: int, events: list[Event]) -> None:
    """6.06: every unit in a hex shares the facing chosen at the end of a move."""
    for c in state.counters.values():
        if c.side == seat and c.where == "map" and c.hex == hex_text and is_ground(c):
            c.facing = d
    events.append(Event(kind="face", text=f"{seat}: the stack in {hex_text} faces {DIRS[d]}", hexes=(hex_text,)))


def turn_in_place_hexes(idx: Index, seat: str) -> list[str]:
    """Hexes whose stack has not moved and may turn where it stands, using up its move (6.02, 6.06)."""
    return [T(h) for h, st in sorted(idx.ground.items()) if any(c.side == seat and not c.moved for c in st)]


def start_movement(state: State, seat: str, events: list[Event]) -> None:
    """Begin ``seat``'s movement phase: fresh movement points, command control (8.031-8.033)."""
    g = geo()
    idx = Index(state)
    basics = {g.mega[h] for h, st in idx.ground.items() for c in st if c.side == seat and role(c) == "basic"}
    lost_control = []
    for c in state.counters.values():
        if c.side != seat:
            continue
        c.mp, c.moved, c.charging, c.entered = unit_type(c.type).move, False, False, False
        if state.advanced and c.where == "map" and role(c) == "warrior" and g.mega[g.hex_of[c.hex]] not in basics:
            c.disrupted = True  # 8.033: no Basic in its megahex
            lost_control.append(c.id)
        c.began_disrupted = c.disrupted
    if lost_control:
        events.append(Event(kind="control", text=f"{seat}: out of command control, disrupted this move: {', '.join(sorted(lost_control))} (rule 8.033)"))


def overrun(state: State, seat: str, src: str, dst: str, dice: Dice, events: list[Event]) -> None:
    """7.07: the defenders die in the movement phase; the stack goes on through their hex."""
    g = geo()
    idx = Index(state)
    mine = [c for c in idx.stack(g.hex_of[src], seat) if is_combat(c)]
    for c in list(idx.ground[g.hex_of[dst]]):
        kill(state, c, c.units, dice, events, "overrun, rule 7.07")
    cost = 2 + max(g.terrain_cost(c.type)[g.hex_of[dst]] for c in mine)
    for c in mine:
        c.hex, c.mp, c.moved = dst, c.mp - cost, False  # it may move on with what is left
    events.append(Event(kind="overrun", text=f"{seat} overruns the enemy in {dst} from {src} and moves on through it (rule 7.07)", hexes=(src, dst)))
    state.moved_hexes.append(dst)
    state.step, state.face_hex, state.face_charge = "face", dst, False
