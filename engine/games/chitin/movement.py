"""Ground and air movement (6.0, 8.011, 8.02, 8.03) and overruns (7.07)."""

from __future__ import annotations

from functools import cache

from engine.core.dice import Dice
from engine.core.hexes import Hex
from engine.core.movement import cheapest
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
    strength,
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


def allowance(members: list[Counter], charge: bool = False) -> int:
    """The points a group may spend: its slowest member's; chargers get two more (8.021), Basics
    moving with them keep their own (8.02)."""
    return min(c.mp + (2 if charge and unit_type(c.type).charge else 0) for c in members)


def reach(
    state: State, idx: Index, seat: str, members: list[Counter], start: Hex | None, bonus: int = 0, charge: bool = False
) -> dict[str, int]:
    """Where a group may end its move and what it costs; ``off`` means leaving by its own end (6.0)."""
    raw = _paths(state, idx, seat, members, start, bonus, charge)
    off = geo().off[state.ends[seat]]
    out: dict[str, int] = {}
    # fits() for a hex other than the group's own, from the hex's counters worked out once (6.05, 6.051)
    stacking = idx.stacking(seat)
    moving = [c for c in members if is_ground(c)]
    units = sum(c.units for c in moving)
    kinds = frozenset(c.type for c in moving if role(c) == "warrior")
    for h, cost in raw.items():
        if h in off:
            if start is not None:
                out["off"] = min(out.get("off", 99), cost)
            continue
        there = stacking.get(h)
        if there is None and h not in idx.ground:
            ok = True
        elif h == start or there is None:
            ok = fits(idx, seat, members, h)
        else:
            ok = there[0] + units <= MAX_UNITS and len(there[1] | kinds) <= 1
        if ok:
            out[T(h)] = cost
    return out


def _paths(
    state: State, idx: Index, seat: str, members: list[Counter], start: Hex | None, bonus: int, charge: bool = False
) -> dict[Hex, int]:
    """Cheapest cost to every hex a group can reach, before stacking at the end of the move is checked.

    The search depends only on the enemy's ground units, the group's make-up and, for Workers
    alone, where friendly combat units stand; a phase re-asks it for every group after every move,
    so the answers are kept.
    """
    g = geo()
    enemy, combat_hexes = idx.layout(seat)
    escorted = any(is_combat(c) for c in members)
    friends = () if escorted else combat_hexes
    disrupted = any(c.disrupted for c in members)
    points = allowance(members, charge) + bonus
    ids = {c.id for c in members}
    # 7.07: a stack that took part in an overrun passes through the hex at 2, +1 rough, +1 zone:
    # one more than entering it normally
    through = tuple(sorted(h for h, by in state.overrun_by.items() if ids & set(by)))
    types = tuple(sorted({c.type for c in members}))
    key = (seat, state.ends[seat], enemy, friends, start, types, points, disrupted, escorted, through)
    hit = _REACH.get(key)
    if hit is not None:
        return hit
    off = g.off[state.ends[seat]]
    enter = _entering(idx, seat, enemy_of(state, seat), (seat, enemy, friends, types, disrupted, escorted, through))

    def step(a: Hex, b: Hex) -> float | None:
        if b in off:
            if start is None:
                return 0 if a in off else None  # 6.01: waiting beyond the end, entering where they like
            return 1 if a in g.text else None  # 6.07: one point to leave by their own end
        if a in off and start is not None:
            return None
        return enter.get(b)

    origin = start if start is not None else min(off)
    found = cheapest(
        origin,
        points,
        step,
        stops=lambda h: start is not None and h in off,
        max_steps=1 if disrupted else None,
    )
    result = {h: int(c) for h, c in found.items()}
    if len(_REACH) > 4096:
        _REACH.clear()
    _REACH[key] = result
    return result


_ENTER: dict[tuple[object, ...], dict[Hex, int]] = {}

Shape = tuple[str, tuple[tuple[str, bool], ...], tuple[str, ...], tuple[str, ...], bool, bool, tuple[str, ...]]
"""What entering a hex costs a group depends on: its seat, the enemy's stacks, where its own combat
units stand (for Workers alone), its types, whether it is disrupted or escorted, and the hexes
of its overruns."""


def _entering(idx: Index, seat: str, foe: str, shape: Shape) -> dict[Hex, int]:
    """What entering each map hex costs a group of that ``shape`` (absent: it may not). The same
    for every group of that make-up, wherever it stands and whatever its points, so kept."""
    hit = _ENTER.get(shape)
    if hit is not None:
        return hit
    g = geo()
    _, _, friends, types, disrupted, escorted, through = shape
    zoc = idx.zoc(foe)
    if disrupted:
        out = dict.fromkeys(g.text, 1)  # 7.064 (a), (b): one hex, never into an enemy zone
        for b in zoc:
            del out[b]
    else:
        out = dict(_terrain(types))  # 6.03, 6.031
        for b in zoc:
            if escorted or g.text[b] in friends:
                out[b] += 1  # 6.04
            else:
                del out[b]  # 6.082: a Worker enters an enemy zone only with a combat unit
        for h in through:
            b = g.hex_of[h]
            if b in out:
                out[b] += 1  # 7.07, RULINGS Chitin 9
    for b, st in idx.ground.items():
        if st[0].side != seat:
            out.pop(b, None)  # 6.09: never onto or through enemy ground units
    if len(_ENTER) > 256:
        _ENTER.clear()
    _ENTER[shape] = out
    return out


@cache
def _terrain(types: tuple[str, ...]) -> dict[Hex, int]:
    """What the terrain of each map hex costs a group of these types: its dearest (6.03, 6.031)."""
    g = geo()
    costs = [g.terrain_cost(code) for code in types]
    return {b: max(cost[b] for cost in costs) for b in g.text}


def movable(state: State, idx: Index, seat: str) -> list[tuple[list[Counter], Hex | None]]:
    """Groups that may still move: each counter alone, and all unmoved counters of a hex together."""
    out: list[tuple[list[Counter], Hex | None]] = []
    for h, st in sorted(idx.ground.items()):
        mine = sorted((c for c in st if c.side == seat and not c.moved), key=natural)
        out.extend(([c], h) for c in mine)
        if len(mine) > 1:
            out.append((mine, h))
        # 6.081: Workers carrying one chit together move as a stack
        for letter in sorted({c.chit for c in mine if c.chit}):
            carriers = [c for c in mine if c.chit == letter]
            if 1 < len(carriers) < len(mine):
                out.append((carriers, h))
    for c in sorted(state.counters.values(), key=natural):
        if c.side == seat and c.where == "reserve" and is_ground(c) and not c.moved and c.ready_turn <= state.turn:
            out.append(([c], None))
    return out


def can_charge(state: State, members: list[Counter]) -> bool:
    """8.02, 8.025, 8.034: Gantuas or Phlanx of one type, not disrupted when their move began,
    perhaps with the Basics of their stack (which move at their own allowance, 8.02)."""
    if not state.advanced:
        return False
    chargers = [c for c in members if unit_type(c.type).charge]
    rest = [c for c in members if not unit_type(c.type).charge]
    return (
        bool(chargers)
        and len({c.type for c in chargers}) == 1
        and all(role(c) == "basic" for c in rest)
        and not any(c.began_disrupted or c.disrupted or c.moved or c.charging for c in members)
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
            here = [T(start)] if start is not None and T(start) in near_enemy else []  # 6.06: charge where it stands
            for d in sorted(here + list(reach(state, idx, seat, members, start, charge=True))):
                if d in near_enemy:
                    out.append(("charge", gid, d))
    return out


# -- air movement (8.011, 8.014, RULINGS Chitin 10) ---------------------------------------------


def _air_strength(units: list[Counter]) -> int:
    return sum(strength(c) for c in units)


def air_hold(idx: Index, seat: str, mega: Hex, leaving: Counter | None = None) -> str:
    """Why an air unit may not fly out of (or over) ``mega`` now, or '' (8.014, RULINGS Chitin 10).

    Air units entering a megahex that holds enemy air units must stop there and attack them with at
    least equal strength (all of them when they are weaker); the rest may go on. So one may leave
    only when the others that entered this turn and stay have at least the enemy's strength.
    """
    units = idx.air.get(mega, [])
    theirs = _air_strength([c for c in units if c.side != seat])
    if not theirs or (leaving is not None and not leaving.entered):
        return ""
    staying = _air_strength([c for c in units if c.side == seat and c.entered and c is not leaving])
    if staying >= theirs:
        return ""
    return (
        f"the enemy air units in megahex {T(geo().anchor[mega])} ({theirs}) must first be matched by air units "
        f"that entered it and stay to attack them ({staying} do) (rule 8.014)"
    )


def _air_paths(state: State, idx: Index, seat: str, c: Counter) -> dict[Hex, int]:
    """Megahexes an air unit can reach and how many megahexes of movement each costs (8.011, 8.014)."""
    g = geo()
    if c.where == "reserve":
        best = {m: 1 for m in g.edge_megas[state.ends[seat]]}  # 6.01: entering from beyond the end
    else:
        here = g.mega[g.hex_of[c.hex]]
        if air_hold(idx, seat, here, c):
            return {}
        best = {here: 0}
    frontier = sorted(best)
    while frontier:
        nxt = []
        for m in frontier:
            if best[m] >= c.mp or (best[m] > 0 and air_hold(idx, seat, m)):
                continue  # out of movement, or it must stop here and fight (8.014)
            for n in g.mega_nbrs[m]:
                if n not in best:
                    best[n] = best[m] + 1
                    nxt.append(n)
        frontier = nxt
    return {m: d for m, d in best.items() if d <= c.mp}


def air_reach(state: State, seat: str, c: Counter, idx: Index | None = None) -> list[str]:
    """Megahexes an air unit may fly to (8.011), named by the hex it stands on; ``off`` to leave."""
    if c.mp < 1:
        return []
    g = geo()
    idx = idx or Index(state)
    paths = _air_paths(state, idx, seat, c)
    here = g.mega[g.hex_of[c.hex]] if c.where == "map" else None
    out = sorted(T(g.anchor[m]) for m in paths if m != here)
    if here is not None and here in paths and here in g.edge_megas[state.ends[seat]]:
        out.append("off")
    return out


def split(state: State, seat: str, c: Counter, events: list[Event]) -> Counter:
    """RULINGS Chitin 10: a Plunge counter splits in two (4 into 2 + 2, 2 into 1 + 1) during its move."""
    half = c.units // 2
    n = state.next_id[seat]
    state.next_id[seat] = n + 1
    new = c.model_copy(update={"id": f"{c.id[0]}{n}", "units": half})
    c.units -= half
    state.counters[new.id] = new
    where = c.hex or "beyond the end"
    events.append(Event(kind="split", text=f"{seat}: {describe(c)} splits, {describe(new)} flies on its own from {where} (RULINGS Chitin 10)", hexes=(c.hex,) if c.hex else ()))
    return new


def splittable(state: State, seat: str) -> list[Counter]:
    """Plunge counters of ``seat`` that may split now: 2 or 4 units, with movement left."""
    return [
        c for c in sorted(state.mine(seat), key=natural)
        if c.type == "PL" and c.units >= 2 and c.where in ("map", "reserve") and c.mp >= 1
    ]


def do_fly(state: State, seat: str, c: Counter, to: str, events: list[Event]) -> None:
    """8.011: air movement megahex by megahex; entering enemy air units' megahex obliges combat (8.014)."""
    g = geo()
    if to == "off":
        c.mp = 0
        leave_map(state, seat, c, events)
        return
    src = c.hex or "reserve"
    dest = g.mega[g.hex_of[to]]
    used = _air_paths(state, Index(state), seat, c)[dest]
    c.where, c.hex, c.moved, c.mp, c.entered = "map", to, True, max(c.mp - used, 0), True
    events.append(Event(kind="move", text=f"{seat}: {describe(c)} flies {src} to megahex {to}", hexes=(to,)))
    state.moved_hexes.append(to)


# -- overruns (7.07, RULINGS Chitin 9) ----------------------------------------------------------


def overrun_parts(state: State, idx: Index, seat: str, dst: Hex) -> tuple[list[str], list[str]]:
    """Who may take part in an overrun of ``dst``: own ground stacks with it in front, air units in its megahex."""
    g = geo()
    ground = []
    for h in g.nbrs[dst]:
        mine = [c for c in idx.stack(h, seat) if is_combat(c)]
        if mine and not any(c.disrupted for c in mine) and in_front(h, mine[0].facing, dst):
            ground.append(T(h))
    air = [c.id for c in sorted(idx.air.get(g.mega[dst], []), key=natural) if c.side == seat]
    return sorted(ground), air


def overrun_key(ground: list[str], air: list[str]) -> str:
    """How an overrun's attackers are written: their hexes, then the air units' ids, joined by +."""
    return "+".join(sorted(ground) + sorted(air, key=lambda i: (int(i[1:]), i)))


def overrun_odds(state: State, idx: Index, seat: str, keys: list[str], dst: str) -> tuple[int, int]:
    """Attack (all adds, as for a normal attack) and defence of an overrun (7.07, RULINGS Chitin 9)."""
    attack = sum(stack_attack(state, idx, seat, k, [dst])[0] for k in keys)
    dfn = sum(defence(c) for c in idx.ground.get(geo().hex_of[dst], []))
    return attack, dfn


def overruns(state: State, idx: Index, seat: str) -> list[tuple[str, str]]:
    """Overruns open to ``seat``: (attackers, enemy hex) at 6 to 1 or better (7.07)."""
    out = []
    for dst, st in sorted(idx.ground.items()):
        if st[0].side == seat:
            continue
        ground, air = overrun_parts(state, idx, seat, dst)
        if not ground:
            continue
        strengths = {k: stack_attack(state, idx, seat, k, [T(dst)])[0] for k in ground + air}
        air = sorted(air, key=lambda k: -strengths[k])[: max(0, 10 - len(ground))]
        dfn = sum(defence(c) for c in st)
        if sum(strengths.values()) < 6 * dfn:
            continue
        for gm in range(1, 1 << len(ground)):
            gs = [k for i, k in enumerate(ground) if gm >> i & 1]
            for am in range(1 << len(air)):
                ks = gs + [k for i, k in enumerate(air) if am >> i & 1]
                if sum(strengths[k] for k in ks) >= 6 * dfn:
                    out.append((overrun_key(gs, [k for k in ks if k not in gs]), T(dst)))
    return sorted(out)


def overrun(state: State, seat: str, key: str, dst: str, dice: Dice, events: list[Event]) -> None:
    """7.07: the defenders die in the movement phase; each ground stack that took part may go on
    through their hex, paying 2, +1 where it is rough for that stack, +1 in another enemy zone."""
    g = geo()
    idx = Index(state)
    keys = key.split("+")
    attack, dfn = overrun_odds(state, idx, seat, keys, dst)
    for c in list(idx.ground[g.hex_of[dst]]):
        kill(state, c, c.units, dice, events, "overrun, rule 7.07")
    took_part = [c for k in keys if k in g.hex_of for c in idx.stack(g.hex_of[k], seat)]
    for c in took_part:
        c.moved = False  # made during its move: it may go on with what it has left
    state.overrun_by[dst] = sorted(c.id for c in took_part)
    events.append(Event(kind="overrun", text=f"{seat} overruns the enemy in {dst}, {attack} to {dfn}, with {', '.join(keys)}; the stacks may go on through it (rule 7.07)", hexes=tuple(k for k in keys if k in g.hex_of) + (dst,)))
    state.moved_hexes.append(dst)


# -- ground moves, facing, chits -----------------------------------------------------------------


def facing_choices(state: State, idx: Index, seat: str, hex_text: str | None = None, charge: bool | None = None) -> list[int]:
    """Facings allowed for a stack that just moved: a charging stack must face an enemy (8.021)."""
    hex_text = hex_text or state.face_hex
    charge = state.face_charge if charge is None else charge
    h = geo().hex_of[hex_text]
    if not charge:
        return list(range(6))
    ok = [d for d in range(6) if any(in_front(h, d, n) and idx.side_at(n) not in (None, seat) for n in geo().nbrs[h])]
    return ok or list(range(6))


def do_move(state: State, seat: str, gid: str, to: str, charge: bool, events: list[Event], facing: int | None = None) -> None:
    """Move a group (already checked legal), pick up chits (6.081) and face it (6.06)."""
    idx = Index(state)
    members = [state.counters[i] for i in gid.split("+")]
    start = geo().hex_of[members[0].hex] if members[0].where == "map" else None
    in_place = start is not None and to == T(start)
    cost = 0 if in_place else reach(state, idx, seat, members, start, charge=charge)[to]
    src = members[0].hex or "reserve"
    names = ", ".join(describe(c) for c in members)
    ids = {c.id for c in members}
    for c in members:
        if c.chit:
            # 6.081: carriers move as a stack; one moving off without the others takes the chit along
            ch = state.chits[c.chit]
            for other in ch.carriers:
                if other not in ids:
                    state.counters[other].chit = ""
            ch.carriers = [x for x in ch.carriers if x in ids]
    if to == "off":
        for c in members:
            leave_map(state, seat, c, events)
        return
    join = [c for c in idx.stack(geo().hex_of[to], seat) if c not in members]
    going_on = []
    for c in members:
        # a charger going on after an overrun is still charging, its two points already given (8.021)
        was = c.charging
        charging = (charge or was) and unit_type(c.type).charge
        c.where, c.hex, c.moved, c.charging = "map", to, True, charging
        if join:
            c.facing = join[0].facing  # 6.06: one facing per hex until the stack is faced
        c.mp = max(c.mp + (2 if charging and not was else 0) - cost, 0)
        if role(c) == "worker" and not c.chit and pick_up(state, c, events):
            going_on.append(c)
    for c in going_on:
        c.moved = c.mp == 0  # 6.081: it goes on moving with what it has left
    verb = "charges" if charge else "moves"
    where = f"in {to}" if in_place else f"{src} to {to}"
    events.append(Event(kind="move", text=f"{seat}: {names} {verb} {where}", hexes=(to,) if start is None or in_place else (src, to)))
    state.moved_hexes.append(to)
    if facing is None:
        state.step, state.face_hex, state.face_charge = "face", to, charge
    else:
        face(state, seat, to, facing, events)


def pick_up(state: State, worker: Counter, events: list[Event]) -> bool:
    """6.081, RULINGS Chitin 7: a Worker in a chit's hex picks it up, or helps carry one a friend carries."""
    free = sorted((ch for ch in state.chits.values() if ch.hex == worker.hex and not ch.carriers and not ch.off_by), key=lambda x: x.letter)
    if free:
        ch = free[0]
        ch.carriers, ch.hex, worker.chit = [worker.id], "", ch.letter
        events.append(Event(kind="chit", text=f"{worker.side}'s Worker {worker.id} picks up chit {ch.letter} ({ch.value}) in {worker.hex} (rule 6.081)", hexes=(worker.hex,)))
        return True
    for ch in sorted(state.chits.values(), key=lambda x: x.letter):
        if ch.carriers and not ch.off_by and state.counters[ch.carriers[0]].side == worker.side and state.counters[ch.carriers[0]].hex == worker.hex:
            ch.carriers.append(worker.id)
            worker.chit = ch.letter
            events.append(Event(kind="chit", text=f"{worker.side}'s Worker {worker.id} helps carry chit {ch.letter} ({ch.value}) in {worker.hex} (rule 6.081)", hexes=(worker.hex,)))
            return True
    return False


def leave_map(state: State, seat: str, c: Counter, events: list[Event]) -> None:
    """6.07: leaving by its own end; a Worker may come back, others may not; a carried chit scores."""
    src = c.hex
    if c.chit:
        ch = state.chits[c.chit]
        if not ch.off_by:
            events.append(Event(kind="score", text=f"{seat}'s Worker {c.id} carries chit {ch.letter} ({ch.value}) off the map", hexes=(src,)))
        ch.carriers, ch.off_by, c.chit = [], seat, ""
    c.hex, c.moved, c.mp = "", True, 0
    c.where = "reserve" if role(c) == "worker" else "exited"
    events.append(Event(kind="move", text=f"{seat}: {describe(c)} leaves the map from {src}", hexes=(src,)))


def face(state: State, seat: str, hex_text: str, d: int, events: list[Event]) -> None:
    """6.06: every unit in a hex shares the facing chosen at the end of a move."""
    for c in state.counters.values():
        if c.side == seat and c.where == "map" and c.hex == hex_text and is_ground(c):
            c.facing = d
    events.append(Event(kind="face", text=f"{seat}: the stack in {hex_text} faces {DIRS[d]}", hexes=(hex_text,)))


def turn_in_place_hexes(idx: Index, seat: str) -> list[tuple[str, int]]:
    """Stacks that have not moved and may turn where they stand, free (6.06, RULINGS Chitin 8), with their facing.

    Turning twice in place is turning once to the final facing, so a stack turns in place once a phase.
    """
    return [
        (T(h), st[0].facing)
        for h, st in sorted(idx.ground.items())
        if st[0].side == seat and any(not c.moved for c in st) and not any(c.turned for c in st)
    ]


def turn_in_place(state: State, seat: str, hex_text: str, d: int, events: list[Event]) -> None:
    """6.06: a stack that has not moved changes its facing; it uses no movement points."""
    face(state, seat, hex_text, d, events)
    for c in state.mine(seat):
        if c.where == "map" and c.hex == hex_text and is_ground(c):
            c.turned = True


def start_movement(state: State, seat: str, events: list[Event]) -> None:
    """Begin ``seat``'s movement phase: fresh movement points, command control (8.031-8.033), chits picked up (6.081)."""
    g = geo()
    idx = Index(state)
    basics = {g.mega[h] for h, st in idx.ground.items() for c in st if c.side == seat and role(c) == "basic"}
    lost_control = []
    state.overrun_by = {}
    for c in state.counters.values():
        if c.side != seat:
            continue
        c.mp, c.moved, c.charging, c.entered, c.turned = unit_type(c.type).move, False, False, False, False
        if state.advanced and c.where == "map" and role(c) == "warrior" and g.mega[g.hex_of[c.hex]] not in basics:
            c.disrupted = True  # 8.033: no Basic in its megahex
            lost_control.append(c.id)
        c.began_disrupted = c.disrupted
    if lost_control:
        events.append(Event(kind="control", text=f"{seat}: out of command control, disrupted this move: {', '.join(sorted(lost_control))} (rule 8.033)"))
    # RULINGS Chitin 7: a Worker standing in a chit's hex picks it up as its move starts
    for c in sorted(state.mine(seat), key=natural):
        if c.where == "map" and role(c) == "worker" and not c.chit:
            pick_up(state, c, events)
