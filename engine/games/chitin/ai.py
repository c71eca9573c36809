"""Chitin: I for the bot opponent: evaluation, move ordering, playout policy, army selection.

The policy (``policy``) is the purposeful greedy player that wrote the test scripts, moved here
from tests/support/chitin_policy.py, and the greedy opponent of the strength series:

- force selection: an army within the scenario's points (3.03), then /ready;
- first move: the high roller takes the first move, the other player the north end;
- movement: Workers head for the nearest free Harvest Chit (one Worker a chit, the chits of the
  setup first), pick it up by ending on it, and carry it to their own end and off the map,
  going round enemy zones of control and keeping clear of enemy fighters; warriors close on
  the nearest enemy stack and face it (charging when they may); Basics follow the warriors'
  megahex so that they stay under command control; Plunge units fly at the enemy; overruns
  are always taken;
- attacks: the whole plan is chosen at once, and the engine's own check says it stands:
  every obligation of 7.02, 7.03, 8.014 and 8.021 met, nothing worse than 1-5, the best odds
  otherwise;
- combat results: losses fall on the weakest unit (a chit carrier last), enemy stacks retreat
  away from their own end, winners advance to face an enemy when they can.

The bot's own moves (``tactics``) are the policy's, except when it moved second (3.02) or plays an
advanced scenario: then the patient player waits out of contact unless it is much the stronger,
and moves several warriors at once against one enemy stack when together they have the odds
(``gang_up``). Moving second it starts from the south end (3.02, ``SECOND_END``). The bot's
playouts and the first action of its ordering are ``tactics``; the greedy opponent of the series
stays the policy. At ``hard``, in Learning and Basic, the choice of 3.02 is weighed by whole games
(``deep``, ``game_cost``): against a player that answers the first move with the south end, as
``tactics`` does, the high roller does better to take the south end and move second. At ``hard``,
wherever it moves by the patient player (moving second in Basic; in the advanced scenarios),
movement is chosen among three postures of the patient player (``POSTURES``: how strong a warrior
must be to stand next to an enemy stack, and a gang to go at it) by rollouts through the other
side's answer (``posture_move``); in Learning it moves by ``tactics`` (``PLAIN_SCENARIOS``).

Evaluation (for a seat): Harvest Chits carried off (the victory condition, 4.01-4.04; in the
advanced scenarios their point values, 4.02), chits carried and how far their carriers still have
to go, combat strength left on each side, and Workers left. Move ordering: the bot's own action
first, then the other moves of the same counter by the evaluation of the position after each; in
the attack phase only the policy's next declaration towards its plan, or /done (7.03: declaring
and cancelling could otherwise go on without end).

Army selection (3.03, secret): one of a few armies within the scenario's points, the standard one
or a variant with one counter swapped for another of the same size, drawn with the seeded
generator at the first pick and kept to (each later pick takes the army that still fits what has
been picked). The other player's picks are sealed and play no part.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from functools import cache
from typing import cast

from pydantic import BaseModel

from engine.ai.base import GameAI, first_of, squash
from engine.ai.rng import Rng, RngDice
from engine.ai.search import _rollout
from engine.core.hexes import Hex, direction, distance
from engine.core.protocol import Action, GameRules
from engine.games.chitin import flow, movement
from engine.games.chitin.board import (
    DIRS,
    Index,
    T,
    defence,
    geo,
    in_front,
    is_combat,
    role,
    strength,
)
from engine.games.chitin.combat import adds, attack_choices, battle_odds, battles, enemies_in_front, unmet
from engine.games.chitin.data import unit_type
from engine.games.chitin.state import Counter, Pair, State

# Armies for the scenarios where players choose (rule 3.03); each spends exactly the scenario's points.
ARMIES: dict[str, list[str]] = {
    "basic": ["GT3", "GT3", "PX3", "TR3", "LR3", "PX1"],  # 48
    "small": ["B", "B", "B", "GT3", "GT3", "PX3", "TR3", "LR1", "PL2"],  # 48, Plunge 4
    "intermediate": ["B", "B", "B", "B", "GT3", "GT3", "PX3", "PX3", "TR3", "LR2", "PL2"],  # 60, Plunge 4
    "advanced": ["B"] * 6 + ["GT3", "GT3", "GT3", "PX3", "PX3", "TR3", "LR3", "LR1", "PL2"],  # 78, Plunge 4
}

CENTRE = "0811"
# The attack plan chosen for an attack phase, by turn, seat and the counters as they stand.
_PLANS: dict[tuple[object, ...], list[Pair]] = {}


# -- static distances ----------------------------------------------------------------------


@cache
def _to_target(code: str, target: str) -> dict[Hex, int]:
    """Cost for a counter of type ``code`` to walk from every hex to ``target``, ignoring units."""
    g = geo()
    cost = g.terrain_cost(code)
    start = g.hex_of[target]
    best = {start: 0}
    todo = [(0, start)]
    while todo:
        d, h = heapq.heappop(todo)
        if d > best[h]:
            continue
        for n in g.nbrs[h]:
            nd = d + cost[h]  # stepping from n into h
            if nd < best.get(n, 1 << 30):
                best[n] = nd
                heapq.heappush(todo, (nd, n))
    return best


@cache
def _to_end(code: str, end: str) -> dict[Hex, int]:
    """Cost for a counter of type ``code`` to leave the map by ``end`` from every hex."""
    g = geo()
    cost = g.terrain_cost(code)
    best = {h: 1 for h in g.edge[end]}
    todo = [(1, h) for h in g.edge[end]]
    heapq.heapify(todo)
    while todo:
        d, h = heapq.heappop(todo)
        if d > best[h]:
            continue
        for n in g.nbrs[h]:
            nd = d + cost[h]
            if nd < best.get(n, 1 << 30):
                best[n] = nd
                heapq.heappush(todo, (nd, n))
    return best


# _walk's answers: a movement phase asks the same walks again after every move that leaves the
# blocked hexes as they were (some four times in five in whole games)
_WALKS: dict[tuple[object, ...], dict[Hex, int]] = {}


def _walk(sources: dict[Hex, int], code: str, blocked: set[Hex]) -> dict[Hex, int]:
    """Cheapest cost for a counter of type ``code`` from every hex to one of ``sources`` (each with
    its own starting cost), avoiding ``blocked``. The answer is shared: not to be changed."""
    key = (code, tuple(sorted(sources.items())), frozenset(blocked))
    hit = _WALKS.get(key)
    if hit is None:
        if len(_WALKS) > 256:
            _WALKS.clear()
        hit = _WALKS[key] = _search(sources, geo().terrain_cost(code), blocked)
    return hit


def _search(sources: dict[Hex, int], cost: dict[Hex, int], blocked: set[Hex]) -> dict[Hex, int]:
    g = geo()
    best = {h: v for h, v in sources.items() if h not in blocked}
    todo = [(v, h) for h, v in best.items()]
    heapq.heapify(todo)
    while todo:
        d, h = heapq.heappop(todo)
        if d > best[h]:
            continue
        for n in g.nbrs[h]:
            if n in blocked:
                continue
            nd = d + cost[h]
            if nd < best.get(n, 1 << 30):
                best[n] = nd
                heapq.heappush(todo, (nd, n))
    return best


def _from_reserve(table: dict[Hex, int], end: str, code: str) -> int:
    """What a table's distance is for a counter still beyond its end (6.01)."""
    cost = geo().terrain_cost(code)
    return min(table[h] + cost[h] for h in geo().edge[end])


# -- the policy ----------------------------------------------------------------------------


def policy(state: State, seat: str, legal: list[Action]) -> Action:
    """One legal action for ``seat``."""
    if state.step == "forces":
        return _forces(state, seat, legal)
    if state.step in ("order", "order2"):
        for pick in ("first", "north", "south"):
            for a in legal:
                if a.args.get("pick") == pick:
                    return a
    if state.step == "move":
        return _move(state, seat, legal)
    if state.step == "face":
        return _face(state, seat, legal)
    if state.step == "attack":
        return _attack(state, seat, legal)
    if state.step == "combat":
        return _combat(state, seat, legal)
    return legal[0]


def _forces(state: State, seat: str, legal: list[Action]) -> Action:
    want = list(ARMIES.get(state.scenario, []))
    for kind in state.picks.get(seat, []):
        if kind in want:
            want.remove(kind)
    for kind in want:
        for a in legal:
            if a.verb == "pick" and a.args.get("kind") == kind:
                return a
    return next(a for a in legal if a.verb == "ready")


def _enemy(state: State, seat: str) -> str:
    return next(s for s in state.ends if s != seat)


def _enemy_stacks(idx: Index, seat: str) -> list[Hex]:
    return [h for h, st in idx.ground.items() if st[0].side != seat]


def _chit_hexes(state: State) -> set[str]:
    return {ch.hex for ch in state.chits.values() if ch.hex and not ch.carriers and not ch.off_by}


def _claims(state: State, idx: Index, seat: str) -> dict[str, str]:
    """Which of ``seat``'s free Workers goes for which free chit: the nearest pairs first."""
    end = state.ends[seat]
    enemy_hexes = {T(h) for h in _enemy_stacks(idx, seat)}
    chits = [ch for ch in state.chits.values() if ch.hex and not ch.carriers and not ch.off_by and ch.hex not in enemy_hexes]
    workers = [
        c for c in state.mine(seat)
        if c.type == "W" and not c.chit and (c.where == "map" or (c.where == "reserve" and c.ready_turn <= state.turn))
    ]
    pairs = []
    for c in workers:
        for ch in chits:
            table = _to_target("W", ch.hex)
            d = table[geo().hex_of[c.hex]] if c.where == "map" else _from_reserve(table, end, "W") + 2
            # the original chits end the game: take them first
            pairs.append((d + (0 if ch.original else 8), c.id, ch.hex))
    pairs.sort()
    out: dict[str, str] = {}
    taken: set[str] = set()
    for _, wid, hx in pairs:
        if wid not in out and hx not in taken:
            out[wid] = hx
            taken.add(hx)
    return out


def _move(state: State, seat: str, legal: list[Action], standoff: float = 0.0) -> Action:
    """The policy's next move. With ``standoff``, a warrior does not end its move next to an enemy
    stack unless its own strength is at least ``standoff`` times that stack's defence, up to
    player-turn ``STALL`` (the patient player's waiting, ``tactics``)."""
    g = geo()
    idx = Index(state)
    overruns = [a for a in legal if a.verb == "overrun"]
    if overruns:
        return overruns[0]
    singles: dict[str, list[Action]] = {}
    for a in legal:
        if a.verb in ("move", "charge") and "+" not in str(a.args["stack"]):
            singles.setdefault(str(a.args["stack"]), []).append(a)
        elif a.verb == "fly":
            singles.setdefault(str(a.args["unit"]), []).append(a)
    claims = _claims(state, idx, seat)
    enemies = _enemy_stacks(idx, seat)
    chit_hexes = _chit_hexes(state)
    end = state.ends[seat]

    fighters = [h for h, st in idx.ground.items() if st[0].side != seat and any(is_combat(x) for x in st)]

    # Where a lone Worker may walk now: not through enemy stacks, nor into their zone of control
    # unless friendly fighters stand there (6.082).
    friendly = {h for h, st in idx.ground.items() if st[0].side == seat and any(is_combat(x) for x in st)}
    blocked = set(_enemy_stacks(idx, seat)) | (set(idx.zoc(_enemy(state, seat))) - friendly)
    home = _walk({h: 1 for h in g.edge[end]}, "W", blocked)
    walks: dict[str, dict[Hex, int]] = {}

    def worker_left(table: dict[Hex, int], live: dict[Hex, int], to: str) -> float:
        """The way still to go from ``to``: by the open path when there is one, else a detour penalty."""
        here = g.hex_of[to]
        return float(live[here]) if here in live else float(table[here]) + 30

    dangers: dict[str, float] = {}

    def danger(to: str) -> float:
        """A Worker ending its move next to enemy fighters is likely to die there."""
        if to not in dangers:
            here = g.hex_of[to]
            dangers[to] = 4.0 * sum(1 for e in fighters if distance(here, e) <= 1)
        return dangers[to]

    # a Basic goes with the warriors (one per warrior on the map, so a stack counts as often as it
    # holds warriors): how many share the destination's megahex, how near the nearest is; the
    # patient player's Basics also spread over the warriors' megahexes (``COVER``) and keep out of
    # the enemy's reach (``BASIC_SAFE``)
    warrior_hexes = [g.hex_of[x.hex] for x in state.mine(seat) if role(x) == "warrior" and x.where == "map"]
    escort: dict[tuple[str, Hex], float] = {}
    basic_megas: dict[Hex, int] = {}
    for x in state.mine(seat):
        if x.type == "B" and x.where == "map":
            m = g.mega[g.hex_of[x.hex]]
            basic_megas[m] = basic_megas.get(m, 0) + 1
    exposed: list[set[Hex]] = []

    def in_reach(here: Hex) -> bool:
        """Whether an enemy warrior stack could reach ``here`` or a hex next to it next turn."""
        if not exposed:
            exposed.append(enemy_reach(state, idx, seat))
        return here in exposed[0]

    # the hex distance from a destination to the nearest enemy stack (the centre when there is
    # none), asked for every move of every fighter: worked out once a destination
    if standoff and state.turn > LATE:
        # a long game: the patient player's warriors go for enemy fighters and chit carriers, not
        # for the Workers entering by the enemy's end, which are replaced as fast (6.083)
        worthy = [h for h in enemies if any(is_combat(x) or x.chit for x in idx.ground[h])]
        target_hexes = worthy or enemies or [g.hex_of[CENTRE]]
    else:
        target_hexes = enemies or [g.hex_of[CENTRE]]
    nearest: dict[Hex, int] = {}

    def to_enemy(here: Hex) -> int:
        d = nearest.get(here)
        if d is None:
            d = nearest[here] = min(distance(here, e) for e in target_hexes)
        return d

    def score(c: Counter, to: str, verb: str) -> float:
        """Lower is better; ``to`` may be the counter's own hex (staying)."""
        if c.type == "W":
            if c.chit:
                if to == "off":
                    return -100.0
                return worker_left(_to_end("W", end), home, to) + danger(to)
            target = claims.get(c.id)
            if to == "off":
                return 1000.0
            if target is None:
                return 0.0 if to == "" else 1.0  # a spare Worker waits
            table = _to_target("W", target)
            if not to:
                return float(_from_reserve(table, end, "W") + 2)
            if standoff and state.turn > LATE and not state.advanced and c.where == "reserve" and any(
                    distance(g.hex_of[to], e) <= ENTRY for e in fighters):
                return 1000.0  # it would enter (6.01) only to be overrun (7.07): it waits
            if target not in walks:
                walks[target] = _walk({g.hex_of[target]: 0}, "W", blocked - {g.hex_of[target]})
            return worker_left(table, walks[target], to) + danger(to)
        if to == "off":
            return 1000.0
        if c.type == "B":
            if not warrior_hexes:
                return 0.0 if to == "" else 1.0
            here = g.hex_of[to] if to else None
            if here is None:
                return 50.0
            key = (c.id if standoff else "", here)
            if key not in escort:
                mega = g.mega[here]
                # another of seat's Basics already in that megahex (this one's own hex aside)
                others = basic_megas.get(mega, 0) - (1 if c.where == "map" and g.mega[g.hex_of[c.hex]] == mega else 0)
                weight = COVER if key[0] and others > 0 else 1.0
                near = weight * sum(1 for x in warrior_hexes if g.mega[x] == mega)
                spread = min(distance(here, x) for x in warrior_hexes)
                escort[key] = -10.0 * near + spread
            safe = BASIC_SAFE if standoff and state.advanced and state.turn <= LATE and in_reach(here) and not any(
                role(x) == "warrior" for x in idx.stack(here, seat)) else 0.0
            return escort[key] + safe + (3 if to in chit_hexes else 0)
        if not to:
            return 100.0
        here = g.hex_of[to]
        if c.type == "PL":
            return float(to_enemy(here))
        d = to_enemy(here)
        if not enemies:
            d = max(d, 2)
        bonus = -0.5 if verb == "charge" else 0.0
        if standoff and d == 1 and state.turn <= STALL and strength(c) < standoff * min(
                sum(defence(x) for x in idx.ground[e]) for e in enemies if distance(here, e) == 1):
            bonus += 5.0  # 7.02: next to it, it must attack it, and at poor odds
        return d + (3 if to in chit_hexes else 0) + bonus

    # Chit carriers first, then the fighters, then the Basics, then the Workers going for chits.
    def order(cid: str) -> tuple[int, int]:
        c = state.counters[cid]
        rank = 0 if c.chit else 1 if role(c) in ("warrior", "air") else 2 if c.type == "B" else 3
        return rank, int(cid[1:])

    for cid in sorted(singles, key=order):
        c = state.counters[cid]
        stay = score(c, c.hex if c.where == "map" else "", "stay")
        best, best_score = None, stay - 0.5
        for a in singles[cid]:
            sc = score(c, str(a.args["to"]), a.verb)
            if sc < best_score:
                best, best_score = a, sc
        if best is not None:
            return best
    # A fighting stack next to an enemy it does not face turns in place.
    for a in legal:
        if a.verb == "face":
            h = g.hex_of[str(a.args["stack"])]
            mine = idx.stack(h, seat)
            if mine and any(is_combat(x) for x in mine) and not enemies_in_front(idx, seat, h):
                d = DIRS.index(str(a.args["dir"]))
                if any(in_front(h, d, n) and idx.side_at(n) not in (None, seat) for n in g.nbrs[h]):
                    return a
    return next(a for a in legal if a.verb == "done")


def enemy_reach(state: State, idx: Index, seat: str) -> set[Hex]:
    """The hexes the enemy's warrior stacks could move to in their next movement phase (their
    full allowance, a charge's two more where they may charge: 8.021), and the hexes next to
    those: where a unit of ``seat`` may be attacked or overrun (7.07) next turn."""
    g = geo()
    enemy = _enemy(state, seat)
    out: set[Hex] = set()
    for e, st in idx.ground.items():
        ws = [c.model_copy(update={"mp": unit_type(c.type).move}) for c in st if c.side == enemy and role(c) == "warrior"]
        if not ws:
            continue
        charge = not any(c.disrupted for c in ws) and all(unit_type(c.type).charge for c in ws)
        for to in movement.reach(state, idx, enemy, ws, e, charge=charge):
            if to != "off":
                h = g.hex_of[to]
                out.add(h)
                out.update(g.nbrs[h])
    return out


def _face(state: State, seat: str, legal: list[Action]) -> Action:
    """Face the most enemy stacks, else the nearest enemy, else the enemy's end."""
    g = geo()
    idx = Index(state)
    h = g.hex_of[state.face_hex]
    enemies = _enemy_stacks(idx, seat)
    towards = "S" if state.ends[seat] == "north" else "N"

    def key(a: Action) -> tuple[int, int, int]:
        d = DIRS.index(str(a.args["dir"]))
        front = sum(1 for n in g.nbrs[h] if in_front(h, d, n) and idx.side_at(n) not in (None, seat))
        step = h + direction(d)
        near = min((distance(step, e) for e in enemies), default=0)
        return -front, near, 0 if a.args["dir"] == towards else 1

    return min(legal, key=key)


def _plan_ok(state: State, idx: Index, seat: str, plan: list[Pair]) -> tuple[bool, float, int]:
    """Whether a whole attack plan stands (7.02, 7.03, 7.06, 8.014, 8.021), how good it looks, its faults."""
    trial = state.model_copy(update={"plan": plan})
    faults = len(unmet(trial, idx, seat))
    value = 0.0
    for b in battles(trial, idx, seat):
        lookup, _ = battle_odds(trial, idx, seat, b)
        value += min(lookup.attack / max(lookup.defence, 1), 5.0) - 1.5
    return faults == 0, value, faults


def _plan_value(state: State, idx: Index, seat: str, plan: list[Pair],
                known: dict[tuple[tuple[tuple[str, str], ...], tuple[str, ...]], float]) -> float:
    """How good a plan looks (``_plan_ok``'s value), each combat's odds looked up once in ``known``."""
    value = 0.0
    for b in battles(state, idx, seat, plan):
        key = (tuple((p.by, p.on) for p in b.pairs), tuple(b.defenders))
        part = known.get(key)
        if part is None:
            lookup, _ = battle_odds(state, idx, seat, b)
            part = known[key] = min(lookup.attack / max(lookup.defence, 1), 5.0) - 1.5
        value += part
    return value


def _best_plan(state: State, idx: Index, seat: str, pairs: list[Pair], fixed: tuple[Pair, ...] = ()) -> list[Pair]:
    """The attack plan to declare: every obligation met, the best odds otherwise (small sets exhaustively).
    ``fixed``: attacks in every plan weighed exhaustively (the air combats of a wide front, 8.014)."""
    if len(pairs) <= 10:
        # Every plan's value first (each combat's odds looked up once), then the obligations of the
        # best ones until one stands: the same plan as checking them all, for far fewer checks.
        odds: dict[tuple[tuple[tuple[str, str], ...], tuple[str, ...]], float] = {}
        ranked: list[tuple[float, int, list[Pair]]] = []
        for mask in range(1 << len(pairs)):
            plan = [*fixed, *(p for i, p in enumerate(pairs) if mask >> i & 1)]
            flyers = [p.by for p in plan if p.by in state.counters]
            if len(flyers) != len(set(flyers)):
                continue  # an air unit makes one attack
            ranked.append((_plan_value(state, idx, seat, plan, odds), mask, plan))
        ranked.sort(key=lambda t: (-t[0], t[1]))
        for _, _, plan in ranked:
            if not unmet(state.model_copy(update={"plan": plan}), idx, seat):
                return plan
    # Larger fronts: start from every attack and drop the one whose loss mends the most faults.
    plan = [*fixed, *pairs]
    ok, value, faults = _plan_ok(state, idx, seat, plan)
    while not ok and plan:
        trials: list[tuple[bool, int, float, int, list[Pair]]] = []
        for p in plan:
            rest = [q for q in plan if q != p]
            r_ok, r_value, r_faults = _plan_ok(state, idx, seat, rest)
            trials.append((not r_ok, r_faults, -r_value, len(trials), rest))
        trials.sort(key=lambda t: t[:4])
        _, new_faults, _, _, rest = trials[0]
        if new_faults > faults:
            break
        plan, faults = rest, new_faults
        ok = trials[0][0] is False
    return plan


def _with_air_strike(state: State, idx: Index, seat: str, plan: list[Pair], pairs: list[Pair]) -> list[Pair]:
    """``plan`` or, better, ``plan`` with every air unit it leaves free attacking one ground
    target together (8.015): on a wide front the air units' attacks on the ground are weighed
    a target at a time, all of them on it, where weighing every split of them would cost too much.
    Without this, a front of air units over enemy stacks was never attacked from the air, and
    both sides could pass for good (Armageddon, the soak's seed 49)."""
    busy = {p.by for p in plan}
    strikes: dict[str, list[Pair]] = {}
    for p in pairs:
        if p.by in state.counters and p.on != "air" and p.by not in busy:
            strikes.setdefault(p.on, []).append(p)
    if not strikes:
        return plan
    ok, value, _ = _plan_ok(state, idx, seat, plan)
    best, rank = plan, (ok, value)
    for group in strikes.values():
        trial = [*plan, *group]
        ok, value, _ = _plan_ok(state, idx, seat, trial)
        if ok and (ok, value) > rank:  # a plan that stands before one that does not (7.02, 7.06)
            best, rank = trial, (ok, value)
    return best


def _attack(state: State, seat: str, legal: list[Action]) -> Action:
    idx = Index(state)
    # everything the plan depends on: where each counter stands and faces, its units, whether it is
    # disrupted (7.064c) or charging (8.022), an air unit's entry (8.014)
    key = (state.turn, seat, tuple(sorted(
        (c.id, c.where, c.hex, c.units, c.facing, c.disrupted, c.charging, c.entered) for c in state.counters.values())))
    target = _PLANS.get(key)
    if target is None:
        # every attack the phase allows (7.03), whatever is declared so far: an air unit in the plan
        # hides its other targets, and the plan aimed at must not depend on the declarations made
        pairs = attack_choices(state.model_copy(update={"plan": []}), idx, seat)
        if len(pairs) > 10:
            # a wide front: air units fight only the enemy air units (8.014), and the ground attacks
            # are weighed exhaustively where they are few: dropping them one at a time from all of
            # them can drop a stack's whole attack where one of its attacks alone met 7.02 and 7.06
            air = tuple(p for p in pairs if p.by in state.counters and p.on == "air")
            ground = [p for p in pairs if p.by not in state.counters]
            if len(ground) <= 10:
                target = _with_air_strike(state, idx, seat, _best_plan(state, idx, seat, ground, air), pairs)
            else:
                target = _best_plan(state, idx, seat, ground + list(air))
        else:
            target = _best_plan(state, idx, seat, pairs)
        _PLANS[key] = target
        while len(_PLANS) > 16:
            del _PLANS[next(iter(_PLANS))]
    for a in legal:
        if a.verb == "cancel" and Pair(by=str(a.args["by"]), on=str(a.args["on"])) not in target:
            return a
    for a in legal:
        if a.verb == "attack" and Pair(by=str(a.args["by"]), on=str(a.args["on"])) in target:
            return a
    done = [a for a in legal if a.verb == "done"]
    if done:
        return done[0]
    raise RuntimeError(f"no attack plan meets the obligations: {unmet(state, idx, seat)}")


def _combat(state: State, seat: str, legal: list[Action]) -> Action:
    g = geo()
    t = state.queue[0]
    if t.kind == "loss":
        def cost(a: Action) -> tuple[int, int, int]:
            c = state.counters[str(a.args["unit"])]
            per = strength(c) // max(c.units, 1)
            return (1 if c.chit else 0, 1 if c.type == "B" else 0, per)

        return min(legal, key=cost)
    if t.kind == "retreat":
        owner = state.counters[t.units[0]].side
        table = _to_end("W", state.ends[owner])
        return max(legal, key=lambda a: (table[g.hex_of[str(a.args["to"])]], str(a.args["to"])))
    if t.kind == "advance":
        idx = Index(state)
        chit_hexes = _chit_hexes(state)
        for a in legal:
            if a.verb == "advance" and str(a.args["to"]) not in chit_hexes:
                h = g.hex_of[str(a.args["to"])]
                d = DIRS.index(str(a.args["dir"]))
                if any(in_front(h, d, n) and idx.side_at(n) not in (None, seat) for n in g.nbrs[h]):
                    return a
        done = [a for a in legal if a.verb == "done"]
        if done:
            return done[0]
    if t.kind in ("defend", "press"):
        for want in ("accept_and_counter", "accept"):
            for a in legal:
                if a.args.get("choice") == want:
                    return a
    return legal[0]


# -- the patient player: the bot's tactics moving second, and in the advanced scenarios ---------

# In the Learning and Basic scenarios the policy racing for the centre wins nearly every game it
# moves first and loses nearly every game it moves second: the first mover's warriors reach the
# chits a player-turn earlier, and the second mover walks into them and must attack what stands
# in front of it (7.02) at whatever odds it gets. The patient player (``tactics``) waits instead
# (``WAIT``), and moves several warriors at once against one enemy stack (``gang_up``, ``GANG``),
# facing them at it. The figures were chosen by series against the policy (docs/ai-measurements.md, "The
# patient player").

WAIT = 1.5
"""A warrior ends its move next to an enemy stack only with at least this times its defence."""
GANG = 2.25
"""Warriors go at an enemy stack together when their strength with the adds for the rear (7.041)
and for class (7.042) reaches this times its defence."""
LATE = 40
"""The player-turn after which it no longer chases lone Workers (``_move``): when each side has a
warrior left at the other's end killing every Worker that enters there, no chit is ever fetched."""
STALL = 100
"""The player-turn after which the patient player's warriors no longer wait for odds (``WAIT``)
before ending a move next to an enemy stack (``_move``; its other ways of waiting stay): with both sides' last warriors
waiting beside the last chit, whose zones of control kept each side's Workers from it (6.082),
both sides passed for ever and the game (it ends when the chits are off the map, 4.04) never
ended (docs/ai-measurements.md, "Chitin Advanced: the game that did not end")."""
ENTRY = 6
"""After ``LATE``, in Learning and Basic, a Worker waits beyond its end while an enemy fighter
stands within this many hexes of where it would enter (6.01), a move and an overrun (7.07) away;
otherwise an enemy warrior left at its end kills each one as it enters, and the game never ends.
In the advanced scenarios waiting made such games more common (3 of 60 Small games against 1), so
it is not done there."""
CARRIER = 4.0
"""What an enemy chit carrier is worth as a target, over its strength."""
COVER = 0.2
"""In the advanced scenarios (command control, 8.03), what a warrior counts for a Basic moving
into its megahex when another Basic is there already (a warrior with no Basic counts 1): the
Basics spread over the warriors' megahexes instead of joining the most crowded one."""
BASIC_SAFE = 15.0
"""In the advanced scenarios, up to player-turn ``LATE``, what a Basic pays for ending its move
where an enemy warrior could attack or overrun it next turn (``enemy_reach``), unless it stands
with a warrior: one warrior fewer controlled is 10. Later it pays nothing: a lone warrior left
without control, next to a chit, with disrupted enemies that could not close on it, held the
chit for ever (docs/ai-measurements.md, "Chitin Advanced: the Basics")."""


def attack_strength(idx: Index, seat: str, stack: list[Counter], at: Hex, target: Hex) -> int:
    """What ``stack`` would add standing in ``at`` to an attack on ``target`` alone: its strength
    (7.01), one a unit from the rear (7.041), one a warrior unit of the class it is best against
    (7.042). A charge (8.02) is not counted."""
    units = [c for c in stack if is_combat(c)]
    enemy = [c for c in idx.ground.get(target, []) if c.side != seat]
    rear, cls = adds(units, at, [(target, enemy)] if enemy else [])
    return sum(strength(c) for c in units) + rear + cls


def gang_up(state: State, seat: str, legal: list[Action], idx: Index, gang: float = GANG) -> dict[str, str]:
    """Where ``seat``'s warriors should stand to attack enemy stacks together, as counter id ->
    printed hex (its own hex when it is already in place): each enemy stack in turn that enough of
    them can reach (``GANG``), the most worth a warrior used first, each warrior and hex used once."""
    g = geo()
    reach: dict[str, set[str]] = {}
    for a in legal:
        if a.verb in ("move", "charge") and "+" not in str(a.args["stack"]):
            reach.setdefault(str(a.args["stack"]), set()).add(str(a.args["to"]))
    stacks: dict[str, list[Counter]] = {}
    for c in state.mine(seat):
        if c.where == "map" and role(c) == "warrior":
            stacks.setdefault(c.hex, []).append(c)
    # each of seat's warrior stacks: the hexes it may stand in (its own, and where it may move)
    free: dict[str, tuple[list[Counter], list[str]]] = {}
    for hx, cs in sorted(stacks.items()):
        more = reach.get(cs[0].id, set()) if len(cs) == 1 else set()
        free[hx] = (cs, sorted(more | {hx}))
    enemies = {h: st for h, st in sorted(idx.ground.items()) if st[0].side != seat}
    occupied = {T(h) for h in idx.ground}
    taken: set[str] = set()
    plan: dict[str, str] = {}
    while True:
        best: tuple[float, Hex, list[tuple[str, str]]] | None = None
        for e, est in enemies.items():
            if state.turn > LATE and not any(is_combat(x) or x.chit for x in est):
                continue
            need = gang * sum(defence(x) for x in est)
            around = {T(n) for n in g.nbrs[e]}
            # each stack's hexes next to the target, its best first; the strongest stacks choose first
            offers = []
            for hx, (cs, spots) in free.items():
                mine = sorted(
                    ((attack_strength(idx, seat, cs, g.hex_of[to], e), to) for to in spots
                     if to in around and (to == hx or (to not in occupied and to not in taken))),
                    key=lambda o: (-o[0], o[1]))
                if mine:
                    offers.append((hx, mine))
            offers.sort(key=lambda o: (-o[1][0][0], o[0]))
            total, chosen, spots_used = 0, [], set()
            for hx, mine in offers:
                pick = next(((v, to) for v, to in mine if to not in spots_used), None)
                if pick is not None:
                    chosen.append((hx, pick[1]))
                    spots_used.add(pick[1])
                    total += pick[0]
                    if total >= need:
                        break
            if chosen and total >= need:
                worth = sum(strength(x) if is_combat(x) else 1 for x in est) + CARRIER * sum(1 for x in est if x.chit)
                value = worth / len(chosen)
                if best is None or value > best[0]:
                    best = (value, e, chosen)
        if best is None:
            return plan
        _, e, chosen = best
        for hx, to in chosen:
            for c in free[hx][0]:
                plan[c.id] = to
            taken.add(to)
            del free[hx]
        del enemies[e]


def _patient_move(state: State, seat: str, legal: list[Action], wait: float = WAIT, gang: float = GANG) -> Action:
    """An overrun when there is one (7.07), else the next warrior of ``gang_up``'s plan still to
    move, else the policy's move for the others, waiting (``WAIT``). ``wait`` and ``gang`` are
    ``hard``'s other postures (``POSTURES``)."""
    if any(a.verb == "overrun" for a in legal):
        return _move(state, seat, legal)
    idx = Index(state)
    plan = gang_up(state, seat, legal, idx, gang)
    for cid, to in plan.items():
        if state.counters[cid].hex != to:
            for a in legal:
                if a.verb in ("move", "charge") and str(a.args["stack"]) == cid and str(a.args["to"]) == to:
                    return a
    # the warriors already in place stay there, facing as they are: neither their /move (named by
    # counter) nor their /face (named by hex) is considered
    stay = {cid for cid, to in plan.items() if state.counters[cid].hex == to}
    stay |= {state.counters[cid].hex for cid in stay}
    rest = [a for a in legal if not (a.verb in ("move", "charge", "face") and str(a.args.get("stack")) in stay)]
    return _move(state, seat, rest or legal, standoff=wait)


def _patient_face(state: State, seat: str, legal: list[Action]) -> Action:
    """A warrior stack next to enemies faces the one its neighbours can attack at the best odds
    (the others in front as few as may be: 7.02 obliges it to attack all of them)."""
    g = geo()
    idx = Index(state)
    h = g.hex_of[state.face_hex]
    near = [n for n in g.nbrs[h] if idx.side_at(n) not in (None, seat)]
    if not near or not any(role(c) == "warrior" for c in idx.stack(h, seat)):
        return _face(state, seat, legal)

    def odds(e: Hex) -> tuple[float, int, str]:
        dfn = max(1, sum(defence(x) for x in idx.ground[e]))
        total = sum(attack_strength(idx, seat, idx.stack(n, seat), n, e) for n in g.nbrs[e] if idx.side_at(n) == seat)
        return total / dfn, -dfn, T(e)

    target = max(near, key=odds)
    facing = [a for a in legal if in_front(h, DIRS.index(str(a.args["dir"])), target)]
    if not facing:
        return _face(state, seat, legal)

    def others(a: Action) -> tuple[int, str]:
        d = DIRS.index(str(a.args["dir"]))
        return sum(1 for n in near if n != target and in_front(h, d, n)), str(a.args["dir"])

    return min(facing, key=others)


SECOND_END = "south"
"""3.02: the end the bot takes when the other player chose to move first (the policy takes the
north). On our map (data/maps, reconstructed) the second mover does far better from the south
end. Against the policy moving first the patient player won, from the south end and from the
north: 188 and 85 of 204 Learning games, 92 and 62 of 110 Basic games, 54 and 34 of 106 Advanced
games; the policy itself, moving second in Learning, 29 and 0 of 100 (docs/ai-measurements.md, "The end of the
map"). The other scenarios were not measured cleanly; the map is the same."""


def patient(state: State, seat: str) -> bool:
    """Whether the bot moves ``seat`` by the patient player: moving second (3.02), or in the
    advanced scenarios (8.00), once the first move is decided."""
    return bool(state.first) and (state.first != seat or state.advanced)


def tactics(state: State, seat: str, legal: list[Action]) -> Action:
    """The bot's own play: the patient player's moves and facings when it moved second (3.02) or
    in the advanced scenarios (8.00), where the policy's race for the centre does not pay even to
    the first mover; the policy's otherwise. Moving second it takes the end of ``SECOND_END``."""
    if state.step == "order2":
        for a in legal:
            if a.args.get("pick") == SECOND_END:
                return a
    if patient(state, seat):
        if state.step == "move":
            return _patient_move(state, seat, legal)
        if state.step == "face":
            return _patient_face(state, seat, legal)
    return policy(state, seat, legal)


# -- the bot opponent's side -------------------------------------------------------------------

_SIZE3 = ("GT3", "PX3", "TR3", "LR3")


def armies(state: State) -> list[list[str]]:
    """The armies the bot may field in this scenario (3.03): the standard one and legal variants."""
    base = ARMIES.get(state.scenario, [])
    if not base:
        return []
    sc = flow.scenario(state)
    kinds = set(flow.pick_kinds(state))
    out = [sorted(base)]
    for i, k in enumerate(base):
        for alt in _SIZE3:
            if k in _SIZE3 and alt != k and alt in kinds:
                trial = sorted(base[:i] + [alt] + base[i + 1:])
                total, plunge = flow.army_points(trial)
                # RULINGS Chitin 11: an army is ready only when it spends exactly the scenario's points.
                if total == sc.points and (not sc.plunge_limit or plunge <= sc.plunge_limit) and trial not in out:
                    out.append(trial)
    return out


def _army_pick(state: State, seat: str, legal: list[Action], rng: Rng) -> Action:
    """3.03: the next counter of an army that still fits the picks so far (drawn at the first pick)."""
    picked = sorted(state.picks.get(seat, []))
    fits = []
    for army in armies(state):
        left = list(army)
        ok = True
        for k in picked:
            if k in left:
                left.remove(k)
            else:
                ok = False
                break
        if ok:
            fits.append(left)
    if fits:
        left = fits[rng.below(len(fits))]
        for kind in sorted(left):
            for a in legal:
                if a.verb == "pick" and a.args.get("kind") == kind:
                    return a
    return _forces(state, seat, legal)


def chitin_score(state: State, seat: str) -> float:
    """``seat``'s standing in points (positive: ahead)."""
    opp = next(s for s in flow.SEATS if s != seat)
    if state.advanced:
        got = {s: sum(ch.value for ch in state.chits.values() if ch.off_by == s) - 2 * state.lost.get(s, 0)
               for s in (seat, opp)}
        unit = 3.0
    else:
        got = {s: sum(1 for ch in state.chits.values() if ch.off_by == s) for s in (seat, opp)}
        unit = 40.0
    score = unit * (got[seat] - got[opp])
    for s, sign in ((seat, 1.0), (opp, -1.0)):
        end = state.ends.get(s, "")
        part = 0.0
        for c in state.counters.values():
            if c.side != s or c.where == "dead" or c.where == "exited":
                continue
            if c.type == "W":
                part += 3.0
                if c.chit and c.where == "map" and end:
                    value = state.chits[c.chit].value if state.advanced else 1
                    dist = _to_end("W", end).get(geo().hex_of[c.hex], 30)
                    part += (0.5 * unit * value if state.advanced else 0.5 * unit) * max(0.2, 1 - dist / 30)
            else:
                part += 1.5 * strength(c)
        score += sign * part
    return score


class ChitinAI(GameAI):
    playout_depth = 10
    width = 6
    node_cost = 2.5
    armed = 30
    """Counters in play above which a position's iterations cost more (``cost``)."""
    game_cost = 3.0
    """3.02 at ``hard``: its 144 iterations in Learning and Basic pay for 48 whole games, up to 16 a
    choice of the high roller's three (first move, the north end, the south end), up to 24 an end of
    the low roller's two (with 8 a choice the south end's edge was missed one time in three); a
    choice that can no longer catch up is played no further (``search.flat``), which saved 30% of
    the games on 21 positions (a third on ``make bench``'s); ``normal``'s 28 pay for 9, fewer than
    ``deep_least`` a choice, so it takes ``tactics``'s."""

    def deep(self, rules: GameRules, state: BaseModel, seat: str) -> bool:
        """3.02, first move or an end, is weighed by whole games: ``tactics``'s choice (the first
        move, or ``SECOND_END``) was measured against the policy, which answers the first move with
        the north end; against a player that answers it with the south end, as ``tactics`` does,
        moving first is worth far less (docs/ai-measurements.md, "`hard` and the first move"). Not in the
        advanced scenarios: a whole game there costs several times more, and the end mattered
        little (the choice of first move won 20 of 40 such games, the south end 22 of 40)."""
        s = cast(State, state)
        return s.step in ("order", "order2") and not s.advanced

    def cost(self, rules: GameRules, state: BaseModel) -> float:
        """``node_cost``, times the counters in play over ``armed`` when there are more: the rules'
        list of legal moves, the policy's weighing of them and its attack plans grow with the
        armies, so a large position gets proportionally fewer iterations and a decision takes
        about as long as in the smaller scenarios (docs/ai.md, "Budgets")."""
        s = cast(State, state)
        live = sum(1 for c in s.counters.values() if c.where not in ("dead", "exited"))
        return self.node_cost * max(1.0, live / self.armed)

    def horizon(self, rules: GameRules, start: BaseModel, state: BaseModel, seat: str) -> bool:
        """A rollout stops when ``seat``'s next player-turn begins: after the rest of its own turn
        and the opponent's whole turn, so the opponent's answer (its moves and attacks) is seen."""
        s, s0 = cast(State, state), cast(State, start)
        return s.step == "move" and s.active == seat and s.turn != s0.turn

    def evaluate(self, rules: GameRules, state: BaseModel, seat: str) -> float:
        s = cast(State, state)
        if s.step == "over":
            return 1.0 if s.winner == seat else 0.0 if s.winner else 0.5
        if not s.ends:
            return 0.5
        return squash(chitin_score(s, seat), 30.0)

    def playout(self, rules: GameRules, state: BaseModel, seat: str, legal: list[Action], rng: Rng) -> Action:
        s = cast(State, state)
        if s.step == "forces":
            return _army_pick(s, seat, legal, rng)
        if s.step in ("move", "face") and rng.random() < 0.03:
            return rng.choice(legal)
        return tactics(s, seat, legal)

    def direct(self, rules: GameRules, state: BaseModel, seat: str, legal: list[Action], rng: Rng,
               deadline: Callable[[], bool] | None = None) -> Action | None:
        """Movement and facing (6.0, 7.02) are ``tactics``'s, not searched: a move's worth shows in
        the other side's answer, a whole player-turn later, beyond a playout's 10 actions, and the
        tree's choices there were worse than ``tactics`` (docs/ai-measurements.md, "The search and Chitin's
        movement"). So is the choice of first move and end (3.02), whose worth shows only over a
        whole game (``SECOND_END``), below ``hard``, where whole games weigh it (``deep``). The
        search decides attacks and combat results."""
        s = cast(State, state)
        if s.step in ("order", "order2", "move", "face"):
            return tactics(s, seat, legal)
        return None

    def secret(self, rules: GameRules, state: BaseModel, seat: str, legal: list[Action], rng: Rng) -> Action | None:
        s = cast(State, state)
        if s.step == "forces":
            return _army_pick(s, seat, legal, rng)
        return None

    def order(self, rules: GameRules, state: BaseModel, seat: str, legal: list[Action], rng: Rng) -> list[Action]:
        s = cast(State, state)
        first = tactics(s, seat, legal)
        done = first_of(legal, "done")
        if s.step == "attack":
            # 7.03: an attack may be declared and cancelled again without end, and the evaluation
            # cannot tell two plans apart before they are fought, so a search over every /attack
            # and /cancel went round in circles for hundreds of actions. The search chooses between
            # the next step towards the policy's plan (every obligation met, the best odds) and
            # ending the phase with the plan as it stands: each action brings the plan nearer
            # that one, and the phase ends within one action a possible attack, plus the /done.
            return [first] + ([done] if done is not None and done is not first else [])
        rest = [a for a in legal if a is not first and a is not done]
        if s.step == "move" and first.verb in ("move", "charge", "fly"):
            who = first.args.get("stack", first.args.get("unit"))
            same = [a for a in rest if a.args.get("stack", a.args.get("unit")) == who]
            scored = []
            for a in same[:24]:
                trial, _ = rules.replay_step(s, seat, a, RngDice(rng))
                scored.append((-self.evaluate(rules, trial, seat), rng.random(), a))
            scored.sort(key=lambda t: (t[0], t[1]))
            taken = {id(a) for a in same}
            others = [a for a in rest if id(a) not in taken]
            rng.shuffle(others)
            rest = [a for _, _, a in scored] + others
        else:
            rng.shuffle(rest)
        return [first] + ([done] if done is not None and done is not first else []) + rest

    def at(self, level: str) -> GameAI:
        """``hard`` has a player of its own: moving by the patient player, outside Learning, it
        weighs postures of its movement (``HardChitinAI``)."""
        return HARD_AI if level == "hard" else self


POSTURES: tuple[tuple[float, float], ...] = ((WAIT, GANG), (1.0, 1.5), (2.5, 3.0))
"""``hard``'s postures of the patient player, as (``wait``, ``gang``) of ``_patient_move``:
``tactics``'s own first, then a bolder one (warriors stand next to an enemy stack at even odds
and go at it together at one and a half times its defence) and a more careful one."""
POSTURE_SAMPLES = 8
"""Rollouts a posture at each move where the postures disagree, on common random numbers."""
PLAIN_SCENARIOS = ("learning",)
"""Scenarios where ``hard`` moves by ``tactics`` as ``normal`` does, postures untried: in Learning
``hard`` won 173 of 200 games against ``normal`` without them (docs/ai-measurements.md, "Chitin
Learning `hard` against `normal`: 200 games"). In Basic, moving second, the postures won 176 of
200 games where ``tactics`` had won 133 of the same seeds (docs/ai-measurements.md,
"Chitin Basic `hard`: its line made whole, 200 games")."""


class HardChitinAI(ChitinAI):
    """``hard``: ``ChitinAI``, except that wherever it moves by the patient player (moving second,
    3.02, and in the advanced scenarios; not in ``PLAIN_SCENARIOS``) its movement (6.0) is chosen
    among ``POSTURES`` by rollouts (``posture_move``). ``normal`` and ``hard`` moved alike there,
    and in Advanced five times the budget of attacks and combat results bought nothing measurable
    (docs/ai-measurements.md, "Chitin Advanced `hard` against `normal`: played on to 181 games").
    Moving first in Learning and Basic both race for the centre by the policy, which has no postures."""

    def at(self, level: str) -> GameAI:
        return self

    def direct(self, rules: GameRules, state: BaseModel, seat: str, legal: list[Action], rng: Rng,
               deadline: Callable[[], bool] | None = None) -> Action | None:
        s = cast(State, state)
        if patient(s, seat) and s.scenario not in PLAIN_SCENARIOS and s.step == "move" and s.active == seat:
            return posture_move(self, rules, s, seat, legal, rng, deadline)
        return super().direct(rules, state, seat, legal, rng, deadline)


def posture_move(ai: ChitinAI, rules: GameRules, s: State, seat: str, legal: list[Action], rng: Rng,
                 deadline: Callable[[], bool] | None = None) -> Action:
    """The next move of the posture whose rollouts do best: when the postures' next moves differ,
    each posture plays the rest of the movement (facing as ``tactics`` does), then the playout
    policy plays on to the side's next movement (the other side's whole turn, its answer), on
    ``POSTURE_SAMPLES`` common random numbers; ties keep the earlier posture (``tactics``'s). The
    caller's ``deadline`` is asked before each round of rollouts: once it is up, the rounds taken
    decide (none: ``tactics``'s move)."""
    firsts = [_patient_move(s, seat, legal, w, g) for w, g in POSTURES]
    if all(a is firsts[0] for a in firsts):
        return firsts[0]
    sums = [0.0] * len(POSTURES)
    for m in range(POSTURE_SAMPLES):
        if deadline is not None and deadline():
            break
        base = rng.fork(f"posture{m}")
        for j, (w, g) in enumerate(POSTURES):
            r = base.copy()
            x: BaseModel = s
            for _ in range(400):
                xs = cast(State, x)
                if xs.step not in ("move", "face") or xs.active != seat or xs.turn != s.turn:
                    break
                if not any(p.seat == seat for p in rules.pending_now(x)):
                    break
                here = rules.legal_now(x, seat)
                if not here:
                    break
                a = _patient_move(xs, seat, here, w, g) if xs.step == "move" else tactics(xs, seat, here)
                x, _ = rules.replay_step(x, seat, a, RngDice(r))

            def answered(y: BaseModel) -> bool:
                return ai.horizon(rules, s, y, seat)

            sums[j] += _rollout(rules, ai, x, seat, r, ai.horizon_cap, answered)
    best = 0
    for j in range(1, len(POSTURES)):
        if sums[j] > sums[best]:
            best = j
    return firsts[best]


GAME_AI = ChitinAI()
HARD_AI = HardChitinAI()
