"""Annihilator for the bot opponent: evaluation, move ordering, playout policy, hidden charges.

The playout policy (the ``easy`` level) is the purposeful greedy player that wrote the test
scripts, moved here from tests/support/annihilator_policy.py:

- Marines: every unit heads along the cheapest route for a firing spot, a hex from which a
  pattern A charge reaches a brain core; Assault Squads keep with the Demolition Squads and
  pick up the charges of a fallen one (8.5); charges are ordered where they are worth it (the
  cores first; spare charges blast obstructed hexes on the way); units stay out of the pattern of
  a charge about to go off, fight robots they can beat and attack them. The bot's own Marines
  (``bot_policy``) also end their moves apart, one unit a hex where they can (``APART``); the
  greedy player of tests/support keeps the policy without it.
- Annihilator: the default deployment; Security Robots close on the nearest Marines and gang up
  on them (Demolition Squads first), keeping clear of the charges they know of (with hidden
  charges, of the charge hex and the hexes around it); every attack is made; the Mind Weapon
  strikes the most valuable Marines; Repairbots go to markers and repair. The bot's own robots
  (``bot_policy``, its movement and combat at ``normal`` and ``hard``) first go in together, enough
  of them for 2-1 or better (1-2 near a firing spot) against the Marines who matter most
  (``_gang_move``), and its Mind Weapon weighs nearness to a firing spot (``_threat``); the greedy
  player, the bot's rollouts and ``easy`` (``rollout_policy``) keep the policy without them.

Evaluation (for the Marines; the Annihilator's is its complement): brain cores destroyed (10.0),
charges still to set and charges set within reach of a standing core, the Marines' strength
left against the robots', and how far the nearest Demolition Squad with a charge is from a
firing spot. Move ordering puts the policy's action first, then the other actions of the same
kind by the same measure (``/done`` last while the policy still moves a unit). The bot plays as a
rollout player (``candidates``): the policy's action and three others, each played on to the same
step of the next game turn (docs/ai.md, "The rollout player"). The Annihilator's movement and
close combat of both sides are the policy's, and the Security Robots set up round the brain
cores (``direct``; docs/ai-measurements.md, "The Annihilator: the policy where the search lost"),
except that at ``hard`` the Annihilator's movement is chosen among three postures of the policy
(``POSTURES``: the odds its Security Robots gang up for) by rollouts through the Marines' answer
(``posture_move``).

Hidden charges (option ``hidden_charges``, 8.1): the Annihilator sees a marker in each hex where a
charge was set, never its pattern or facing. A determinization samples, for each marked hex, a
charge order of a unit standing there (the policy's favourite half the time, else any legal one).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Sequence
from functools import cache
from typing import cast

from pydantic import BaseModel

from engine.ai.base import GameAI, first_of, squash
from engine.ai.info import Seen
from engine.ai.rng import Rng, RngDice
from engine.ai.search import _rollout
from engine.core.hexes import DIRECTION_NAMES, Hex, distance, neighbors
from engine.core.protocol import Action, GameRules
from engine.games.annihilator import data, flow
from engine.games.annihilator.board import STACK_LIMIT, Board, hex_type, move_cost, terrain_key
from engine.games.annihilator.demolition import pattern_hexes
from engine.games.annihilator.legal import placeable
from engine.games.annihilator.rules import initial_units
from engine.games.annihilator.state import Charge, State, Unit

MARINES, ROBOTS = data.MARINES, data.ANNIHILATOR
INF = 1e9
# Chance that a roll on an odds column gives D or X (CRT rows 1-6).
P_HIT = {"clear": 1.0, "1-2": 3 / 6, "1-1": 4 / 6, "2-1": 5 / 6, "3-1": 1.0, "4-1": 1.0}
CORE_VALUE = 100.0
WORTH = 10.0  # the least expected value a charge must bring


def _first(legal: list[Action], verb: str) -> Action | None:
    return next((a for a in legal if a.verb == verb), None)


# --- the map ---------------------------------------------------------------------------------


def _num(h: Hex) -> str:
    return data.hex_numbers()[h]


def _hex(n: str) -> Hex:
    return data.hexes_by_number()[n]


@cache
def _near(n: str) -> tuple[str, ...]:
    nums = data.hex_numbers()
    return tuple(nums[x] for x in neighbors(_hex(n)) if x in nums)


def _field(state: State, human: bool, sources: dict[str, float], extra: dict[str, float] | None = None) -> dict[str, float]:
    """Cheapest cost from every hex to the nearest source (sources carry a starting cost)."""
    extra = extra or {}
    best = dict(sources)
    todo = [(c, n) for n, c in sources.items()]
    heapq.heapify(todo)
    while todo:
        c, n = heapq.heappop(todo)
        if c > best.get(n, INF):
            continue
        step_in = move_cost(state, human, n)  # moving from a neighbour into n costs n's entry
        if step_in is None and n not in sources:
            continue
        for m in _near(n):
            if move_cost(state, human, m) is None:
                continue
            nc = c + (step_in or 0.0) + extra.get(n, 0.0)
            if nc < best.get(m, INF):
                best[m] = nc
                heapq.heappush(todo, (nc, m))
    return best


def _by_hex(state: State, side: str) -> dict[str, list[Unit]]:
    """A side's units on the map, by hex."""
    out: dict[str, list[Unit]] = {}
    for u in state.side_units(side):
        if u.hex:
            out.setdefault(u.hex, []).append(u)
    return out


def _blast(charge: Charge) -> list[tuple[str, str]]:
    """(hex, odds column) of each map hex a charge attacks."""
    nums = data.hex_numbers()
    return [(nums[h], col) for _, h, col in pattern_hexes(charge.pattern, _hex(charge.at), charge.facing) if h in nums]


def _danger(state: State, known: bool) -> set[str]:
    """Hexes a charge set (or ordered) may hit; ``known``: the patterns are known, else the charge hex and round it."""
    out: set[str] = set()
    for c in state.charges + state.orders:
        if known:
            out.update(h for h, _ in _blast(c))
        else:
            out.add(c.at)
            out.update(_near(c.at))
    return out


# --- Marines ---------------------------------------------------------------------------------


def _core_hits(state: State, charge: Charge) -> list[tuple[str, float]]:
    """Brain cores still standing that a charge attacks, with the chance of destroying each."""
    alive = set(data.core_hexes()) - set(state.destroyed)
    return [(h, P_HIT[col]) for h, col in _blast(charge) if h in alive]


_SPOTS: dict[tuple[object, ...], dict[str, float]] = {}


def _spots(state: State) -> dict[str, float]:
    """``_find_spots``, remembered for the terrain and the cores standing (they rarely change)."""
    key = terrain_key(state)
    found = _SPOTS.get(key)
    if found is None:
        if len(_SPOTS) > 256:
            _SPOTS.clear()
        found = _SPOTS[key] = _find_spots(state)
    return found


def _find_spots(state: State) -> dict[str, float]:
    """Firing spots: hexes a human may stand in whence a pattern A charge hits a standing core; both cores: better."""
    out: dict[str, float] = {}
    alive = set(data.core_hexes()) - set(state.destroyed)
    if not alive:
        return out
    for n in data.hexes_by_number():
        if move_cost(state, True, n) is None or hex_type(state, n) == "autodefend":
            continue
        if min(distance(_hex(n), _hex(c)) for c in alive) > 3:
            continue
        for f in range(6):
            hits = _core_hits(state, Charge(unit="", pattern="A", at=n, facing=f, turn=0))
            if hits:
                bonus = -3.0 * (len(hits) - 1)
                out[n] = min(out.get(n, INF), bonus)
    return out


def _marine_extra(state: State) -> dict[str, float]:
    """Extra cost of passing through a hex: auto-defend fire, robots in the way."""
    extra: dict[str, float] = {}
    for n in data.hexes_by_number():
        if hex_type(state, n) == "autodefend":
            extra[n] = 6.0
    for u in state.side_units(ROBOTS):
        if u.hex:
            extra[u.hex] = extra.get(u.hex, 0.0) + 1.0
    return extra


_MARCH: dict[tuple[object, ...], dict[str, float]] = {}


def _marine_field(state: State) -> dict[str, float]:
    """The Marines' cost to a firing spot past auto-defend hexes and robots, remembered while the terrain
    and the robots stay put (all the Marines' moves of a phase, and the search's many visits to them)."""
    robots = tuple(sorted(u.hex for u in state.side_units(ROBOTS) if u.hex))
    key = (terrain_key(state), robots)
    found = _MARCH.get(key)
    if found is None:
        if len(_MARCH) > 256:
            _MARCH.clear()
        found = _MARCH[key] = _field(state, True, _spots(state), _marine_extra(state))
    return found


def _marine_move(state: State, legal: list[Action], apart: float = 0.0) -> Action | None:
    """The move or advance that brings a unit most towards its firing spot; None: nothing worth it.

    ``apart``: what ending a move in a hex with another Marine costs (``APART`` for the bot).
    """
    field = _marine_field(state)
    danger = _danger(state, True)
    board = Board(state)
    demo_hexes = {u.hex for u in state.side_units(MARINES) if u.kind == "demolition" and u.hex}
    robots: dict[str, int] = {}
    for u in state.side_units(ROBOTS):
        if u.hex:
            robots[u.hex] = robots.get(u.hex, 0) + u.utype.defence
    mine: dict[str, int] = {}
    crowd: dict[str, int] = {}
    for u in state.side_units(MARINES):
        if u.hex:
            mine[u.hex] = mine.get(u.hex, 0) + u.utype.attack
            crowd[u.hex] = crowd.get(u.hex, 0) + 1

    def score(u: Unit, n: str, moving: bool) -> float:
        s = field.get(n, 200.0)
        if n in danger:
            s += 500.0
        if hex_type(state, n) == "autodefend":
            s += 8.0
        if u.kind == "assault" and u.charges == 0 and demo_hexes and n not in demo_hexes:
            s += 1.5  # an escort without a charge keeps with a Demolition Squad
        if u.kind == "assault" and n in state.caches:
            s -= 4.0  # charges left by a fallen Demolition Squad (8.5)
        if apart and crowd.get(n, 0) + (1 if moving else 0) >= 2:
            s += apart  # the Mind Weapon and the robots strike every Marine of a hex at once (7.1, 7.2)
        if n in robots:
            strength = mine.get(n, 0) + (u.utype.attack if moving else 0)
            if strength < robots[n]:
                s += 20.0  # too weak to fight them there
            else:
                s -= 6.0 if not moving else 2.0  # robots in reach of a good attack: fight them
        return s

    best, best_gain = None, 0.25
    for a in legal:
        if a.verb not in ("move", "advance"):
            continue
        u = state.unit(str(a.args["unit"]))
        to = str(a.args["to"])
        if to == u.hex:
            continue
        route = board.route(u, u.mp, to, only=state.fresh if a.verb == "advance" else None)
        through = [n for n in route.path[:-1] if hex_type(state, n) == "autodefend"]
        gain = score(u, u.hex, False) - score(u, to, True) - 8.0 * len(through)
        if u.leave and u.hex == u.leave:
            gain += 1000.0  # 8.1: it must leave the hex it set a charge in
        if gain > best_gain:
            best, best_gain = a, gain
    return best


def _charge(state: State, legal: list[Action]) -> Action | None:
    """The most valuable charge order left, if it is worth a charge."""
    survive: dict[str, float] = {h: 1.0 for h in data.core_hexes() if h not in state.destroyed}
    for c in state.charges + state.orders:
        for h, p in _core_hits(state, c):
            survive[h] *= 1 - p
    marines_at = _by_hex(state, MARINES)
    robots_at = {h: len(units) for h, units in _by_hex(state, ROBOTS).items()}
    spots = _spots(state)
    routes: dict[str, set[str]] = {}
    best, best_value = None, WORTH
    for a in legal:
        if a.verb != "charge":
            continue
        u = state.unit(str(a.args["unit"]))
        c = Charge(unit=u.id, pattern=str(a.args["pattern"]), at=u.hex,
                   facing=DIRECTION_NAMES.index(str(a.args["facing"])), turn=state.turn)
        value = 0.0
        for h, p in _core_hits(state, c):
            value += CORE_VALUE * survive[h] * p
        cores = value > 0
        path: set[str] = set()
        if not cores:
            if u.kind != "demolition" or u.charges < 2:
                continue  # charges for passages only from a Demolition Squad's spares
            if u.id not in routes:
                routes[u.id] = _route_to(state, u.hex, spots)
            path = routes[u.id]
        for h, col in _blast(c):
            p = P_HIT[col]
            for m in marines_at.get(h, []):
                if m.id != u.id:
                    value -= (60.0 if m.disrupted else 3.0) * p  # a disrupted unit could not get out in time
            value += 2.0 * p * robots_at.get(h, 0)
            if not cores and h in path and hex_type(state, h) == "obstructed":
                value += 6.0 * p  # an obstructed hex on the way becomes a passage
        if value > best_value:
            best, best_value = a, value
    return best


def _route_to(state: State, start: str, spots: dict[str, float]) -> set[str]:
    """Hexes on the cheapest route from ``start`` to a firing spot, counting obstructed hexes as if cleared."""
    field = _marine_field(state)
    path: set[str] = set()
    here = start
    for _ in range(40):
        if here in spots:
            break
        nxt = min(_near(here), key=lambda m: field.get(m, INF))
        if field.get(nxt, INF) >= field.get(here, INF):
            break
        path.add(nxt)
        here = nxt
    return path


# --- the Annihilator -------------------------------------------------------------------------


_HUNT: dict[tuple[object, ...], dict[str, float]] = {}


def _hunt_field(state: State, marine_hexes: dict[str, float]) -> dict[str, float]:
    """The robots' distance field to the Marines, remembered while terrain and Marines stay put."""
    key = (terrain_key(state), tuple(sorted(marine_hexes.items())))
    found = _HUNT.get(key)
    if found is None:
        if len(_HUNT) > 256:
            _HUNT.clear()
        found = _HUNT[key] = _field(state, False, marine_hexes)
    return found


_REPAIR: dict[tuple[object, ...], dict[str, float]] = {}


def _repair_field(state: State, markers: tuple[str, ...]) -> dict[str, float]:
    """A Repairbot's distance field to these markers, remembered while the terrain stays put."""
    key = (terrain_key(state), markers)
    found = _REPAIR.get(key)
    if found is None:
        if len(_REPAIR) > 256:
            _REPAIR.clear()
        found = _REPAIR[key] = _field(state, False, {h: 0.0 for h in markers})
    return found


def _robot_move(state: State, legal: list[Action], gang: bool = False,
                odds: tuple[float, float, float] | None = None) -> Action | None:
    """Security Robots close on the Marines, Repairbots on the markers; nothing into a known blast.
    ``gang`` (the bot): first the robots that gang up (``_gang_move``, for ``odds``, by default
    ``GANG``), then the Repairbots that stand in the Marines' way (``_block_move``)."""
    held: dict[str, float] = {}
    if gang:
        held = _in_the_way(state)
        pick = _gang_move(state, legal, odds or GANG) or _block_move(state, legal, held)
        if pick is not None:
            return pick
    danger = _danger(state, not state.hidden_charges)
    marine_hexes: dict[str, float] = {}
    for u in state.side_units(MARINES):
        if u.hex:
            w = 0.0 if u.kind == "demolition" and u.charges else 1.0
            marine_hexes[u.hex] = min(marine_hexes.get(u.hex, INF), w)
    hunt = _hunt_field(state, marine_hexes) if marine_hexes else {}
    near_marines = {m for h in marine_hexes for m in (h, *_near(h))}

    def repair_field(u: Unit) -> dict[str, float]:
        """Distances to the markers no other Repairbot stands on (one Repairbot a marker)."""
        taken = {b.hex for b in state.side_units(ROBOTS) if b.kind == "repair" and b.id != u.id}
        todo = tuple(sorted(h for h in state.markers if h not in taken and h not in near_marines))
        return _repair_field(state, todo) if todo else {}

    def score(field: dict[str, float] | None, n: str) -> float:
        """A hex's score for a Repairbot (going by ``field``) or, ``field`` None, for a Security Robot."""
        s = 0.0
        if n in danger:
            s += 500.0
        if field is not None:
            s += field.get(n, 0.0)
            if n in near_marines:
                s += 50.0
        else:
            s += hunt.get(n, 60.0)
        return s

    best, best_gain = None, 0.2
    # each unit once: where it stands, its score there and its field (a Repairbot's); the legal
    # moves list it with every hex it may reach
    here: dict[str, tuple[str, float, dict[str, float] | None] | None] = {}
    hunted: dict[str, float] = {}  # a Security Robot's score of a hex is every Security Robot's
    for a in legal:
        if a.verb not in ("move", "advance"):
            continue
        uid = str(a.args["unit"])
        if uid not in here:
            u = state.unit(uid)
            if u.kind == "repair":
                # a Repairbot in the Marines' way stays there (``_block_move``)
                field = None if u.hex in held else repair_field(u)
                here[uid] = None if field is None else (u.hex, score(field, u.hex), field)
            else:
                here[uid] = (u.hex, score(None, u.hex), None)
        mover = here[uid]
        if mover is None:
            continue
        at, now, field = mover
        to = str(a.args["to"])
        if to == at:
            continue
        if field is not None:
            gain = now - score(field, to)
        else:
            there = hunted.get(to)
            if there is None:
                there = hunted[to] = score(None, to)
            gain = now - there
        if gain > best_gain:
            best, best_gain = a, gain
    return best


def _mind(state: State, legal: list[Action], gang: bool = False) -> Action | None:
    """The Mind Weapon on the hex whose Marines matter most: charges carried, nearness to the cores.
    ``gang`` (the bot): by ``_threat``, nearness to a firing spot, the units already disrupted
    counting less."""
    cores = [_hex(h) for h in data.core_hexes()]
    spot = _spot_field(state) if gang else {}

    def worth(a: Action) -> float:
        h = str(a.args["at"])
        units = [u for u in state.at(h) if u.human]
        if gang:
            return _threat(units, spot.get(h, 60.0), disrupted=DISRUPTED)
        near = min(distance(_hex(h), c) for c in cores)
        return sum(1 + u.charges for u in units) * (1 + 5 / (1 + near))

    minds = [a for a in legal if a.verb == "mind"]
    return max(minds, key=worth) if minds else None


GANG = (3.0, 2.0, 0.5)
"""The odds the bot's Security Robots gang up for (``_gang_move``), as attack over defence: they go
in for up to 3-1, when at least 2-1 can be had, or 1-2 against Marines with a charge near a firing
spot (``URGENT``)."""
URGENT = 6.0
"""Against Marines with a charge this many movement points or fewer from a firing spot (a turn's
move of 4 and half the next) the robots go in at 1-2 or better (``GANG``)."""
DISRUPTED = 0.3
"""What a disrupted Marine counts for in the Mind Weapon's choice: it cannot move, attack or set a
charge until the same step of the next turn (RULINGS Annihilator 6)."""


def _threat(units: list[Unit], to_spot: float, disrupted: float = 1.0) -> float:
    """What stopping these Marines (one hex's) is worth to the Annihilator: each unit, and twice each
    charge it carries, the more the nearer they stand to a firing spot (``to_spot``, movement points)."""
    worth = sum((1 + 2 * u.charges) * (disrupted if u.disrupted else 1.0) for u in units)
    return worth * (1 + 5 / (1 + max(0.0, to_spot)))


def _gang_move(state: State, legal: list[Action], odds: tuple[float, float, float] = GANG) -> Action | None:
    """The bot's Security Robots gang up on the Marines who matter most (7.1); None: no such move.

    A robot alone attacks a lone Assault Squad at 1-2 (3 against 4) and falls to its answer at 2-1,
    and a D or X falls on every robot of the hex; robots that come together attack at 2-1 or 3-1.
    So the Marines' hexes, by ``_threat``, each get the robots that can reach it this phase (outside
    the known blasts), as many as 3-1 needs, if they make at least 2-1 (1-2 against Marines with a
    charge within ``URGENT`` of a firing spot); the robots with the fewest such hexes in reach go
    first. The plan is made again at each move, so the robots already in a hex count for it. Against
    the policy's Marines keeping apart, the set-up ring and the policy won 216 of 1,000 games, with
    this 458; against the greedy Marines 713 and 748 (docs/ai-measurements.md, "Robots that gang up").
    """
    danger = _danger(state, not state.hidden_charges)
    reach: dict[str, dict[str, Action]] = {}
    for a in legal:
        if a.verb in ("move", "advance") and str(a.args["to"]) not in danger:
            reach.setdefault(str(a.args["unit"]), {})[str(a.args["to"])] = a
    if not reach:
        return None
    spot = _spot_field(state)
    marines = _by_hex(state, MARINES)
    robots = _by_hex(state, ROBOTS)
    free = [u for units in robots.values() for u in units
            if u.kind == "security" and u.id in reach and u.hex not in marines]
    attack = data.units().types["security"].attack
    most, least, urgent = odds
    for h in sorted(marines, key=lambda h: (-_threat(marines[h], spot.get(h, 60.0)), h)):
        defence = sum(u.utype.defence for u in marines[h])
        have = sum(1 for u in robots.get(h, ()) if u.kind == "security")
        need = least
        if spot.get(h, 60.0) <= URGENT and any(u.charges for u in marines[h]):
            need = urgent
        can = [u for u in free if h in reach[u.id]]
        if attack * (have + len(can)) < need * defence:
            continue  # not enough robots in reach for the odds: leave it to the others' approach
        want = min(math.ceil(most * defence / attack - 1e-9) - have, len(can), STACK_LIMIT[ROBOTS] - len(robots.get(h, ())))
        if want <= 0:
            continue  # enough robots there already
        first = min(can, key=lambda u: (sum(1 for m in marines if m in reach[u.id]), u.id))
        return reach[first.id][h]
    return None


BLOCK = 10.0
"""How near a firing spot (the Marines' movement points) Marines with a charge must stand for a
Repairbot to step into their way (``_block_move``)."""


def _in_the_way(state: State) -> dict[str, float]:
    """The hexes a Repairbot would stop the Marines in (``_block_move``), with their ``_threat``."""
    danger = _danger(state, not state.hidden_charges)
    spot = _spot_field(state)
    marines = _by_hex(state, MARINES)
    threat: dict[str, float] = {}
    for h, units in marines.items():
        to_spot = spot.get(h, INF)
        if not any(u.charges for u in units) or not 0 < to_spot <= BLOCK:
            continue
        ahead = [n for n in _near(h) if spot.get(n, INF) < to_spot and n not in marines and n not in danger]
        if ahead:
            step = min(ahead, key=lambda n: (spot[n], n))
            threat[step] = max(threat.get(step, 0.0), _threat(units, to_spot))
    return threat


def _block_move(state: State, legal: list[Action], threat: dict[str, float]) -> Action | None:
    """A Repairbot steps into the way of the Marines with a charge who matter most; None: none does.

    A unit that enters a hex with an enemy unit ends its move there (5.4), so a Repairbot, which
    cannot attack (2.2.1, its attack is 0), still stops the Marines who walk into it for the rest of
    their turn's move, and the game is a race between their walk to a firing spot and the robots
    (10.0). For each hex of Marines carrying a charge within ``BLOCK`` of a firing spot (by
    ``_spot_field``, terrain only), its neighbour nearest a firing spot is their next step; a
    Repairbot that stands on no marker (those are its repairs, 9.0) and can reach that hex this
    phase, outside the known blasts and where no robot stands already, goes to the one whose
    Marines threaten most (``_threat``); ``threat``: those hexes (``_in_the_way``). A Repairbot in
    one of them stays there (``_robot_move``). See docs/ai-measurements.md, "Repairbots in the way".
    """
    if not threat:
        return None
    robots = _by_hex(state, ROBOTS)
    moves = []
    for a in legal:
        if a.verb not in ("move", "advance"):
            continue
        u = state.unit(str(a.args["unit"]))
        to = str(a.args["to"])
        if u.kind == "repair" and u.hex not in state.markers and u.hex not in threat and to in threat and to not in robots:
            moves.append((-threat[to], to, u.id, a))
    return min(moves, key=lambda m: m[:3])[3] if moves else None


RING = 4
"""How far from the nearer brain core the bot sets up its Security Robots (``ring_deployment``)."""


@cache
def ring_deployment(radius: int = RING) -> dict[str, str]:
    """The bot's set-up of the Security Robots (4.1): evenly spaced round the hexes ``radius``
    from the nearer brain core that robots may stand in, in the order round the cores; the
    Repairbots keep the default deployment's hexes beside the cores.

    The aim: near the cores the robots meet the Marines late but together, where the default
    deployment spreads them halfway to the hull. As the Annihilator against the greedy Marines it
    won 295 of 400 games, 255 with the default deployment (docs/ai-measurements.md, "The Annihilator: the
    policy where the search lost").
    """
    cores = [_hex(c) for c in data.core_hexes()]
    cq = sum(c.q for c in cores) / len(cores)
    cr = sum(c.r for c in cores) / len(cores)

    def angle(n: str) -> float:
        h = _hex(n)
        dq, dr = h.q - cq, h.r - cr
        return math.atan2(1.5 * dr, math.sqrt(3) * (dq + dr / 2))

    hexes = sorted((n for n in placeable() if min(distance(_hex(n), c) for c in cores) == radius),
                   key=lambda n: (angle(n), n))
    robots = [uid for uid, u in initial_units().items() if u.kind == "security"]
    step = len(hexes) / len(robots)
    return {u: hexes[int(i * step)] for i, u in enumerate(robots)}


def _deploy(state: State, legal: list[Action]) -> Action:
    """The next Security Robot to its ``ring_deployment`` hex; then the policy's (the default
    deployment for the Repairbots, and ready)."""
    ring = ring_deployment()
    for u in state.side_units(ROBOTS):
        if u.hex or u.id not in ring:
            continue
        a = next((a for a in legal if a.verb == "place" and a.args.get("unit") == u.id
                  and a.args.get("at") == ring[u.id]), None)
        if a is not None:
            return a
    return policy(state, ROBOTS, legal)


# --- the bot opponent's side -------------------------------------------------------------------


APART = 4.0
"""What ending a move in a hex with another Marine costs the bot's Marines, in the policy's movement
points to a firing spot (``bot_policy``). A Mind Weapon strike (7.2) or a robots' attack (7.1)
falls on every Marine of the hex, so Marines that keep apart lose one unit to a result where a
stack of three loses three. With it the policy's Marines won 1,526 of 2,000 games against the
greedy Annihilator, without it 563 (docs/ai-measurements.md, "The Marines apart")."""


def bot_policy(state: State, seat: str, legal: list[Action]) -> Action:
    """The bot's own policy: ``policy``, with the Marines keeping apart (``APART``) and the Security
    Robots ganging up (``_gang_move``, and the Mind Weapon by ``_threat``)."""
    return policy(state, seat, legal, apart=APART, gang=True)


def rollout_policy(state: State, seat: str, legal: list[Action]) -> Action:
    """The policy of the bot's rollouts and of ``easy``: the Marines keeping apart, the robots as the
    greedy player's. With robots ganging up inside its rollouts the bot as the Marines won 99 of 137
    games against greedy where it had won 112 (docs/ai-measurements.md, "Robots that gang up")."""
    return policy(state, seat, legal, apart=APART)


def policy(state: State, seat: str, legal: list[Action], apart: float = 0.0, gang: bool = False) -> Action:
    """The greedy action to take now: always one of ``legal``. ``apart``: see ``_marine_move``;
    ``gang``: see ``_robot_move`` and ``_mind``. The greedy player of tests/support plays without
    them, the bot with both (``bot_policy``), its rollouts with ``apart`` only (``rollout_policy``)."""
    verbs = {a.verb for a in legal}
    step = state.step
    pick: Action | None = None
    if step == "deploy":
        pick = _first(legal, "autodeploy") or _first(legal, "ready")
    elif step == "land":
        pick = _first(legal, "land")
    elif "recover" in verbs:
        pick = _first(legal, "recover")  # 8.5: always worth the try
    elif "charge" in verbs or step == "h_demo":
        pick = _charge(state, legal)
    elif "move" in verbs or "advance" in verbs:
        pick = _marine_move(state, legal, apart) if seat == MARINES else _robot_move(state, legal, gang)
    elif step == "a_combat":
        pick = _first(legal, "attack") or _mind(state, legal, gang)
    elif step == "h_combat":
        pick = _first(legal, "attack")
    elif step == "a_repair":
        pick = _first(legal, "repair")
    return pick or _first(legal, "done") or legal[0]


_HOME: dict[tuple[object, ...], dict[str, float]] = {}


def _spot_field(state: State) -> dict[str, float]:
    """Cost for a human unit from every hex to a firing spot (terrain only), remembered."""
    key = terrain_key(state)
    found = _HOME.get(key)
    if found is None:
        if len(_HOME) > 256:
            _HOME.clear()
        spots = _spots(state)
        found = _HOME[key] = _field(state, True, spots) if spots else {}
    return found


def marine_score(state: State) -> float:
    """The Marines' standing in points (positive: ahead); the Annihilator's is its negative."""
    cores = len(data.core_hexes())
    destroyed = len(set(state.destroyed))
    if destroyed >= cores:
        return 1000.0
    marines = state.side_units(MARINES)
    if state.turn >= 1 and not marines:
        return -1000.0
    score = 120.0 * destroyed
    survive = {h: 1.0 for h in data.core_hexes() if h not in state.destroyed}
    for c in state.charges + state.orders:
        for h, p in _core_hits(state, c):
            survive[h] *= 1 - p
    score += 80.0 * sum(1 - v for v in survive.values())
    score += 6.0 * sum(u.charges for u in marines)
    score += 2.0 * sum(u.utype.attack for u in marines if not u.disrupted)
    score += 1.0 * sum(u.utype.attack for u in marines if u.disrupted)
    score -= 1.2 * sum(u.utype.defence for u in state.side_units(ROBOTS) if u.hex)
    field = _spot_field(state)
    carriers = [u for u in marines if u.charges and u.hex]
    if carriers and field:
        near = sorted(field.get(u.hex, 60.0) for u in carriers)[:2]
        score -= 1.5 * sum(near)
    return score


_STEP_AT = {step: i for i, step in enumerate(flow.TURN_ORDER)}
COMBAT = ("a_combat", "h_combat")


class AnnihilatorAI(GameAI):
    playout_depth = 10
    width = 6
    node_cost = 3.0
    candidates = 4
    """The rollout player (``search.flat``): the policy's action and three others, each played on
    to the same step of the next game turn; against greedy it won 117 of 200 games, and 40 of 40
    against the random player (docs/ai-measurements.md, "The rollout player and /done"). It now decides the
    Marines' movement and the Annihilator's advances and repairs only (``direct``)."""

    def horizon(self, rules: GameRules, start: BaseModel, state: BaseModel, seat: str) -> bool:
        """A rollout stops one game turn after the decision, at the same step (3.0's sequence):
        the other side's movement and close combat in between, the opponent's answer, are seen."""
        s, s0 = cast(State, state), cast(State, start)
        if s.turn <= s0.turn:
            return False
        here = _STEP_AT.get(s.step, -1)
        return s.turn > s0.turn + 1 or here >= _STEP_AT.get(s0.step, 0)

    def direct(self, rules: GameRules, state: BaseModel, seat: str, legal: list[Action], rng: Rng,
               deadline: Callable[[], bool] | None = None) -> Action | None:
        """Not searched (docs/ai-measurements.md, "The Annihilator: the policy where the search lost"):

        - the Annihilator's set-up (4.1): the Security Robots round the cores
          (``ring_deployment``), the Repairbots as the default deployment;
        - the Annihilator's movement (5.0), by the policy: against the greedy Marines the rollout
          player won fewer games as the Annihilator than the policy alone;
        - close combat and the Mind Weapon, of both sides (7.1, 7.2), with the Combat Results
          Table: its results fall on the side attacked only, so the policy makes every attack,
          and the search's choices there (an attack left unmade, the Mind Weapon's target) cost
          the Annihilator most of its games lost to the search. With the close assault system
          (``close_combat:assault``) an attacker may fall, and the search decides.

        The search decides the rest: the Marines' movement, advances (8.3) and recoveries (8.5),
        the Annihilator's advances and repairs (9.0).
        """
        s = cast(State, state)
        if seat == ROBOTS and s.step == "deploy":
            return _deploy(s, legal)
        if (seat == ROBOTS and s.step == "a_move") or (s.step in COMBAT and s.close_combat == "crt"):
            return bot_policy(s, seat, legal)
        return None

    def evaluate(self, rules: GameRules, state: BaseModel, seat: str) -> float:
        s = cast(State, state)
        if s.step == "over":
            return 1.0 if s.winner == seat else 0.0 if s.winner else 0.5
        v = squash(marine_score(s), 40.0)
        return v if seat == MARINES else 1.0 - v

    def playout(self, rules: GameRules, state: BaseModel, seat: str, legal: list[Action], rng: Rng) -> Action:
        s = cast(State, state)
        if rng.random() < 0.05 and s.step not in ("deploy", "h_demo"):
            return rng.choice(legal)
        return rollout_policy(s, seat, legal)

    def order(self, rules: GameRules, state: BaseModel, seat: str, legal: list[Action], rng: Rng) -> list[Action]:
        s = cast(State, state)
        first = bot_policy(s, seat, legal)
        done = first_of(legal, "done")
        rest = [a for a in legal if a is not first and a is not done]
        if first.verb in ("move", "advance") and len(rest) > 1:
            # other moves of the same unit, and other units' best moves, by their gain
            scored = []
            for a in rest:
                if a.verb in ("move", "advance") and a.args.get("unit") != first.args.get("unit"):
                    continue
                trial, _ = rules.replay_step(s, seat, a, RngDice(rng))
                scored.append((-self.evaluate(rules, trial, seat), rng.random(), a))
            scored.sort(key=lambda t: (t[0], t[1]))
            rest = [a for _, _, a in scored]
        else:
            rng.shuffle(rest)
        if done is None or done is first:
            return [first] + rest
        if first.verb in ("move", "advance"):
            # /done ends the phase for every unit not yet moved (5.1), not only this one's move:
            # weighed among the first candidates against one unit's moves, with the robots' answer
            # inside the rollout and the way still to go mostly beyond it, it won for standing still
            # (docs/ai-measurements.md, "The rollout player and /done"); it stays in the ordering, last
            return [first] + rest + [done]
        return [first, done] + rest

    def secret(self, rules: GameRules, state: BaseModel, seat: str, legal: list[Action], rng: Rng) -> Action | None:
        """8.1: demolition orders by the policy (the charges worth most), a little varied by the seed."""
        s = cast(State, state)
        pick = bot_policy(s, seat, legal)
        if pick.verb == "charge" and rng.random() < 0.25:
            # the same unit, another facing of the same pattern now and then: less predictable
            same = [a for a in legal if a.verb == "charge" and a.args.get("unit") == pick.args.get("unit")
                    and a.args.get("pattern") == pick.args.get("pattern")
                    and _value(s, a) >= 0.8 * _value(s, pick)]
            if same:
                return rng.choice(same)
        return pick

    def certain(self, rules: GameRules, seat: str, seen: Sequence[Seen]) -> bool:
        """A demolition phase with no order given (no public "committed" event): only /done was said."""
        return not any(e.kind == "committed" for e in seen)

    def sample_sealed(self, rules: GameRules, state: BaseModel, seat: str, seen: Sequence[Seen],
                      rng: Rng) -> BaseModel | None:
        """Demolition orders matching the charge markers the Annihilator saw (8.1, hidden charges)."""
        s = cast(State, state)
        if self.certain(rules, seat, seen):
            done = first_of(rules.legal_now(s, seat), "done")
            return rules.replay_step(s, seat, done, RngDice(rng))[0] if done is not None else None
        marked = next((e.hexes for e in seen if e.kind == "charges"), None)
        if marked is None:
            return super().sample_sealed(rules, state, seat, seen, rng)
        for _ in range(6):
            trial: BaseModel = s
            ok = True
            for at in marked:
                legal = [a for a in rules.legal_now(trial, seat) if a.verb == "charge"
                         and cast(State, trial).unit(str(a.args["unit"])).hex == at]
                if not legal:
                    ok = False
                    break
                if rng.random() < 0.5:
                    a = max(legal, key=lambda x: (_value(cast(State, trial), x), -legal.index(x)))
                else:
                    a = rng.choice(legal)
                trial, _ = rules.replay_step(trial, seat, a, RngDice(rng))
            done = first_of(rules.legal_now(trial, seat), "done") if ok else None
            if done is not None:
                trial, _ = rules.replay_step(trial, seat, done, RngDice(rng))
                return trial
        return None

    def at(self, level: str) -> GameAI:
        """``hard`` has a player of its own: it weighs postures of the Annihilator's movement
        (``HardAnnihilatorAI``)."""
        return HARD_AI if level == "hard" else self


POSTURES: tuple[tuple[float, float, float], ...] = (GANG, (2.0, 1.0, 0.5), (4.0, 3.0, 1.0))
"""``hard``'s postures of the Annihilator's movement, as the odds its Security Robots gang up for
(``GANG``'s most, least and urgent): the bot's own first, then a bolder one (in at 1-1, for 2-1)
and a more careful one (in at 3-1, for up to 4-1, and 1-1 against Marines with a charge near a
firing spot)."""
POSTURE_SAMPLES = 16
"""Rollouts a posture at each move where the postures disagree, on common random numbers."""


class HardAnnihilatorAI(AnnihilatorAI):
    """``hard``: ``AnnihilatorAI``, except that the Annihilator's movement (5.0), which ``normal``
    plays by the policy, is chosen among ``POSTURES`` by rollouts (``posture_move``)."""

    def at(self, level: str) -> GameAI:
        return self

    def direct(self, rules: GameRules, state: BaseModel, seat: str, legal: list[Action], rng: Rng,
               deadline: Callable[[], bool] | None = None) -> Action | None:
        s = cast(State, state)
        if seat == ROBOTS and s.step == "a_move":
            return posture_move(self, rules, s, seat, legal, rng, deadline)
        return super().direct(rules, state, seat, legal, rng, deadline)


def _posture(state: State, legal: list[Action], odds: tuple[float, float, float]) -> Action:
    """The Annihilator's next move in a posture: the bot's movement with the robots ganging up for ``odds``."""
    return _robot_move(state, legal, True, odds) or _first(legal, "done") or legal[0]


def posture_move(ai: AnnihilatorAI, rules: GameRules, s: State, seat: str, legal: list[Action], rng: Rng,
                 deadline: Callable[[], bool] | None = None) -> Action:
    """The next move of the posture whose rollouts do best: when the postures' next moves differ,
    each posture plays the rest of the Annihilator's movement, then the playout policy plays on to
    the same step of the next game turn (the Marines' whole turn, their answer, ``horizon``), on
    ``POSTURE_SAMPLES`` common random numbers; ties keep the earlier posture (the bot's own). The
    caller's ``deadline`` is asked before each round of rollouts: once it is up, the rounds taken
    decide (none: the bot's own posture)."""
    firsts = [_posture(s, legal, odds) for odds in POSTURES]
    if all(a is firsts[0] for a in firsts):
        return firsts[0]
    sums = [0.0] * len(POSTURES)
    for m in range(POSTURE_SAMPLES):
        if deadline is not None and deadline():
            break
        base = rng.fork(f"posture{m}")
        for j, odds in enumerate(POSTURES):
            r = base.copy()
            x: BaseModel = s
            for _ in range(200):
                xs = cast(State, x)
                if xs.step != "a_move" or xs.turn != s.turn or not any(p.seat == seat for p in rules.pending_now(x)):
                    break
                here = rules.legal_now(x, seat)
                if not here:
                    break
                x, _ = rules.replay_step(x, seat, _posture(xs, here, odds), RngDice(r))

            def answered(y: BaseModel) -> bool:
                return ai.horizon(rules, s, y, seat)

            sums[j] += _rollout(rules, ai, x, seat, r, ai.horizon_cap, answered)
    best = 0
    for j in range(1, len(POSTURES)):
        if sums[j] > sums[best]:
            best = j
    return firsts[best]


def _value(state: State, a: Action) -> float:
    """What a charge order is worth to the Marines: cores it may destroy, robots, own units hit."""
    u = state.unit(str(a.args["unit"]))
    c = Charge(unit=u.id, pattern=str(a.args["pattern"]), at=u.hex,
               facing=DIRECTION_NAMES.index(str(a.args["facing"])), turn=state.turn)
    value = sum(CORE_VALUE * p for _, p in _core_hits(state, c))
    for h, col in _blast(c):
        for m in state.at(h):
            value += (-3.0 if m.human else 2.0) * P_HIT[col]
    return value


GAME_AI = AnnihilatorAI()
HARD_AI = HardAnnihilatorAI()
