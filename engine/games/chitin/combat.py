"""Ground and air combat (7.0, 8.013-8.016): attack strengths, the attack plan, obligations."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core.hexes import Hex
from engine.core.odds import OddsLookup, distribution, odds
from engine.games.chitin.board import (
    Index,
    T,
    defence,
    describe,
    geo,
    in_front,
    in_rear,
    is_combat,
    role,
    strength,
)
from engine.games.chitin.data import counters as counter_data
from engine.games.chitin.data import crt, unit_type
from engine.games.chitin.state import Counter, Pair, State


@dataclass
class Battle:
    """One combat of the plan: the declared pairs joined into a connected group (7.03)."""

    pairs: list[Pair]
    attackers: list[str] = field(default_factory=list)
    """Attacker keys: hex numbers of ground stacks, ids of air units."""
    defenders: list[str] = field(default_factory=list)
    """Defender keys: hex numbers, or ``air@<hex>`` for the air units of a megahex."""
    extra: list[str] = field(default_factory=list)
    """Hexes drawn in by 8.015 (stacks next to a stack that air units attack)."""


def attacking_stack(idx: Index, seat: str, h: Hex) -> list[Counter]:
    """The counters of ``seat`` that attack from ``h``: warriors and Basics (7.01)."""
    return [c for c in idx.stack(h, seat) if is_combat(c)]


def air_key(idx: Index, c: Counter) -> str:
    """The defender key of the enemy air units in the megahex of air unit ``c``."""
    g = geo()
    return "air@" + T(g.anchor[g.mega[g.hex_of[c.hex]]])


def defenders_of(state: State, idx: Index, seat: str, key: str) -> list[Counter]:
    """The enemy counters behind a defender key (``seat`` is the attacker)."""
    g = geo()
    if key.startswith("air@"):
        mega = g.mega[g.hex_of[key[4:]]]
        return [c for c in idx.air.get(mega, []) if c.side != seat]
    return [c for c in idx.ground.get(g.hex_of[key], []) if c.side != seat]


def attackers_of(state: State, idx: Index, seat: str, key: str) -> list[Counter]:
    """The counters behind an attacker key."""
    if key in state.counters:
        return [state.counters[key]]
    return attacking_stack(idx, seat, geo().hex_of[key])


def target_key(state: State, idx: Index, p: Pair) -> str:
    """The defender key a pair names."""
    return air_key(idx, state.counters[p.by]) if p.on == "air" else p.on


def battles(state: State, idx: Index, seat: str, plan: list[Pair] | None = None) -> list[Battle]:
    """The plan's pairs joined into combats, with 8.015's adjacent stacks drawn in."""
    plan = state.plan if plan is None else plan
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    for p in plan:
        a, d = "A:" + p.by, "D:" + target_key(state, idx, p)
        parent[find(a)] = find(d)
    groups: dict[str, Battle] = {}
    for p in plan:
        b = groups.setdefault(find("A:" + p.by), Battle(pairs=[]))
        b.pairs.append(p)
        d = target_key(state, idx, p)
        if p.by not in b.attackers:
            b.attackers.append(p.by)
        if d not in b.defenders:
            b.defenders.append(d)
    out = list(groups.values())
    attacked = {target_key(state, idx, p) for p in plan}
    g = geo()
    for b in out:
        for p in b.pairs:
            if p.by in state.counters and p.on != "air":
                # 8.015: stacks next to the one air units attack come along unless something else attacks them.
                for n in g.nbrs[g.hex_of[p.on]]:
                    t = T(n)
                    st = idx.ground.get(n, [])
                    if st and st[0].side != seat and t not in attacked:
                        attacked.add(t)
                        b.defenders.append(t)
                        b.extra.append(t)
    return out


def stack_parts(state: State, idx: Index, seat: str, key: str, targets: list[str]) -> tuple[int, int, int, list[str]]:
    """One attacking stack or air unit: its strength (charge doubled), rear add, class add, and the reasons."""
    g = geo()
    units = attackers_of(state, idx, seat, key)
    if not units:
        return 0, 0, 0, []
    if role(units[0]) == "air":
        c = units[0]
        s = strength(c)
        ground = [t for t in targets if not t.startswith("air@")]
        # 2.01: forest halves air units attacking ground units (the stacks they attack, not those drawn in)
        if any(g.map.has(g.hex_of[t], "forest") for t in ground):
            return s // 2, 0, 0, [f"{describe(c)} {s // 2} (halved over forest, rule 2.01)"]
        return s, 0, 0, [f"{describe(c)} {s}"]
    base = sum(strength(c) * (2 if c.charging else 1) for c in units)
    notes = [f"stack in {key} {base}" + (" (charging, doubled, rule 8.022)" if any(c.charging for c in units) else "")]
    here = g.hex_of[key]
    ground_targets = [g.hex_of[t] for t in targets if not t.startswith("air@")]
    # each target hex with the enemy units in it; a hex with none left adds nothing
    pairs = [(t, [c for c in idx.ground.get(t, []) if c.side != seat]) for t in ground_targets]
    rear, cls = adds(units, here, [(t, e) for t, e in pairs if e])
    if rear:
        notes.append(f"+{rear} from the rear (rule 7.041)")
    if cls:
        notes.append(f"+{cls} class adds (rules 7.042, 7.043)")
    return base, rear, cls, notes


def adds(units: list[Counter], here: Hex, targets: list[tuple[Hex, list[Counter]]]) -> tuple[int, int]:
    """The adds of an attacking ground stack in ``here`` against enemy stacks (hex, counters): one a
    unit when it is in the rear of them all (7.041), one a warrior unit when every warrior attacked
    is of the class it is best against (7.042, 7.043)."""
    rear = cls = 0
    if targets and all(in_rear(t, e[0].facing, here) for t, e in targets):
        rear = sum(c.units for c in units)
    warriors = [c for c in units if role(c) == "warrior"]
    if warriors:
        best = counter_data().class_adds.get(unit_type(warriors[0].type).cls)
        theirs = [c for _, e in targets for c in e if role(c) == "warrior"]
        if theirs and all(unit_type(c.type).cls == best for c in theirs):
            cls = sum(c.units for c in warriors)
    return rear, cls


def stack_attack(state: State, idx: Index, seat: str, key: str, targets: list[str]) -> tuple[int, list[str]]:
    """Attack strength of one attacking stack or air unit against its targets, with the reasons (7.04)."""
    base, rear, cls, notes = stack_parts(state, idx, seat, key, targets)
    return base + rear + cls, notes


def battle_dice(state: State, idx: Index, seat: str, b: Battle) -> tuple[int, int, int, list[str]]:
    """Under ``combat: dice``: attack dice, re-roll advantages (rear, class) and defence strength."""
    dice, rear, cls, notes = 0, False, False, []
    for key in b.attackers:
        targets = [target_key(state, idx, p) for p in b.pairs if p.by == key]
        base, r, c, why = stack_parts(state, idx, seat, key, targets)
        dice, rear, cls = dice + base, rear or r > 0, cls or c > 0
        notes.extend(why)
    dfn = sum(defence(c) for key in b.defenders for c in defenders_of(state, idx, seat, key))
    return dice, int(rear) + int(cls), dfn, notes


def allowed(state: State, idx: Index, seat: str, b: Battle) -> bool:
    """Whether a combat may be fought: odds of 1-5 or better on the CRT (7.06); any under the dice."""
    return state.combat == "dice" or battle_odds(state, idx, seat, b)[0].allowed


def battle_odds(state: State, idx: Index, seat: str, b: Battle) -> tuple[OddsLookup, list[str]]:
    """Total attack and defence of a combat and where they fall on the table (7.061)."""
    attack, notes = 0, []
    for key in b.attackers:
        targets = [target_key(state, idx, p) for p in b.pairs if p.by == key]
        s, why = stack_attack(state, idx, seat, key, targets)
        attack += s
        notes.extend(why)
    dfn = sum(defence(c) for key in b.defenders for c in defenders_of(state, idx, seat, key))
    return odds(crt(), attack, dfn), notes


def preview(state: State, idx: Index, seat: str, b: Battle) -> str:
    """The odds of a combat and the chance of each result, before the attacker commits."""
    if state.combat == "dice":
        dice, rerolls, dfn, notes = battle_dice(state, idx, seat, b)
        mean = dice * (1 - (5 / 6) ** (rerolls + 1))
        return f"{dice} dice, {rerolls} re-roll(s), against {dfn}: about {mean:.1f} hits [{'; '.join(notes)}]"
    lookup, notes = battle_odds(state, idx, seat, b)
    if not lookup.allowed:
        return f"{lookup.attack} to {lookup.defence}: worse than 1-5, not allowed (rule 7.06)"
    dist = distribution(crt(), lookup)
    chances = ", ".join(f"{r} {float(p) * 100:.0f}%" for r, p in sorted(dist.items(), key=lambda kv: -kv[1]))
    return f"{lookup.attack} to {lookup.defence} = {lookup.label}: {chances} [{'; '.join(notes)}]"


def enemies_in_front(idx: Index, seat: str, h: Hex) -> list[Hex]:
    """Hexes in front of ``seat``'s stack in ``h`` holding enemy ground units (7.02)."""
    st = idx.stack(h, seat)
    if not st:
        return []
    f = st[0].facing
    key = (seat, h, f)
    hit = idx.fronts.get(key)
    if hit is None:
        hit = idx.fronts[key] = [n for n in geo().nbrs[h] if in_front(h, f, n) and idx.side_at(n) not in (None, seat)]
    return list(hit)


def attack_choices(state: State, idx: Index, seat: str) -> list[Pair]:
    """Every attack ``seat`` may still declare (7.02, 7.03, 8.014, 8.015)."""
    g = geo()
    have = {(p.by, p.on) for p in state.plan}
    out: list[Pair] = []
    for h, st in sorted(idx.ground.items()):
        if any(is_combat(c) and c.side == seat for c in st):
            for n in enemies_in_front(idx, seat, h):
                out.append(Pair(by=T(h), on=T(n)))
    for c in sorted(state.counters.values(), key=lambda c: c.id):
        if c.side != seat or c.where != "map" or role(c) != "air":
            continue
        if any(p.by == c.id for p in state.plan):
            continue  # an air unit makes one attack: on one stack (with 8.015's neighbours) or on the air units
        mega = g.mega[g.hex_of[c.hex]]
        for h in sorted(x for x in idx.ground if g.mega[x] == mega and idx.side_at(x) != seat):
            out.append(Pair(by=c.id, on=T(h)))
        if any(e.side != seat for e in idx.air.get(mega, [])):
            out.append(Pair(by=c.id, on="air"))
    return [p for p in out if (p.by, p.on) not in have]


def _allowed_with(state: State, idx: Index, seat: str, extra: list[Pair], key: str) -> bool:
    plan = state.plan + [p for p in extra if p not in state.plan]
    for b in battles(state, idx, seat, plan):
        if key in b.defenders or key in b.attackers:
            return allowed(state, idx, seat, b)
    return False


def unmet(state: State, idx: Index, seat: str) -> list[str]:
    """Why the attack plan cannot stand yet, as lines a player can act on; empty when it can."""
    out: list[str] = []
    bs = battles(state, idx, seat)
    for b in bs:
        if allowed(state, idx, seat, b):
            continue
        lookup, _ = battle_odds(state, idx, seat, b)
        out.append(
            f"The attack on {', '.join(b.defenders)} is {lookup.attack} to {lookup.defence}, worse than 1-5, "
            "which is not allowed (rule 7.06): add attackers or cancel it"
        )
    attacked = {d for b in bs for d in b.defenders}
    attackers = {a for b in bs for a in b.attackers}
    for h in sorted(idx.ground):
        st = attacking_stack(idx, seat, h)
        if not st:
            continue
        for n in enemies_in_front(idx, seat, h):
            t = T(n)
            if t in attacked:
                continue
            joiners = [Pair(by=T(x), on=t) for x in sorted(idx.ground) if n in enemies_in_front(idx, seat, x)]
            if _allowed_with(state, idx, seat, joiners, t):
                out.append(
                    f"The enemy stack in {t} is in front of your stack in {T(h)} and must be attacked (rules 7.02, 7.03)"
                )
                attacked.add(t)
        if any(c.charging for c in st) and T(h) not in attackers:
            front = enemies_in_front(idx, seat, h)
            if front and _allowed_with(state, idx, seat, [Pair(by=T(h), on=T(front[0]))], T(h)):
                out.append(f"The charging stack in {T(h)} must attack at the end of its move (rule 8.021)")
    out.extend(_air_obligations(state, idx, seat))
    return out


def _air_obligations(state: State, idx: Index, seat: str) -> list[str]:
    """8.014: air units entering a megahex with enemy air units must attack them with at least equal strength."""
    g = geo()
    out = []
    for mega, units in sorted(idx.air.items()):
        mine = [c for c in units if c.side == seat and c.entered]
        theirs = sum(strength(c) for c in units if c.side != seat)
        if not mine or not theirs:
            continue
        need = min(theirs, sum(strength(c) for c in mine))
        committed = sum(strength(c) for c in mine if any(p.by == c.id and p.on == "air" for p in state.plan))
        if committed >= need:
            continue
        if not _allowed_with(state, idx, seat, [Pair(by=c.id, on="air") for c in mine], mine[0].id):
            continue
        out.append(
            f"Your air units that entered megahex {T(g.anchor[mega])} must attack the enemy air units there "
            f"with at least {need} strength; {committed} is committed (rule 8.014)"
        )
    return out
