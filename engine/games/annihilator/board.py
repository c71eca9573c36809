"""Terrain as it stands now, movement costs, stacking and reachable hexes (2.1, 5.0, 6.0).

Reachable sets are cached by everything they depend on (start, allowance, terrain,
enemy positions): within a movement phase most units' options do not change from
one order to the next.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import cache
from typing import NamedTuple

from engine.core.hexes import Hex
from engine.core.movement import Reach, reachable
from engine.games.annihilator import data
from engine.games.annihilator.state import State, Unit

# 6.0: three human units and six Annihilator units may be in a single hex.
STACK_LIMIT = {data.MARINES: 3, data.ANNIHILATOR: 6}

TerrainKey = tuple[tuple[tuple[str, str], ...], tuple[str, ...], tuple[str, ...]]


class Route(NamedTuple):
    """The cost of a move and the hexes it passes, the start left out."""

    cost: float
    path: tuple[str, ...]


class CostTable(NamedTuple):
    human: dict[Hex, float]
    robot: dict[Hex, float]
    auto_defend: frozenset[Hex]


@cache
def base_types() -> dict[str, str]:
    """The printed terrain of every hex (2.1)."""
    m = data.game_map()
    return {n: next(iter(m.terrain(h))) for n, h in data.hexes_by_number().items()}


def hex_type(state: State, hex_no: str) -> str:
    """The hex's type now: markers (2.2.2) and impacts change the printed terrain."""
    if hex_no in state.destroyed:
        return "destroyed"
    marker = state.markers.get(hex_no)
    if marker == "clear":
        return "clear"  # 8.2: units move through clear hexes as if they are passageways
    if marker == "obpas":
        return "obstructed"
    if hex_no in state.impacts:
        return "breach"
    return base_types()[hex_no]


def move_cost(state: State, human: bool, hex_no: str) -> float | None:
    """Movement points to enter a hex (5.2, Hex Type Chart); None when not allowed."""
    ht = data.hex_types().types[hex_type(state, hex_no)]
    return ht.human if human else ht.robot


def is_auto_defend(state: State, hex_no: str) -> bool:
    """Whether entering the hex brings the 1-1 automatic attack on humans (7.3)."""
    return data.hex_types().types[hex_type(state, hex_no)].auto_defend is not None


def terrain_key(state: State) -> TerrainKey:
    """Everything besides the printed map that decides movement costs."""
    return tuple(sorted(state.markers.items())), tuple(sorted(state.impacts)), tuple(sorted(state.destroyed))


_COSTS: dict[TerrainKey, CostTable] = {}
_REACH: dict[tuple[object, ...], dict[Hex, Reach]] = {}


def cost_table(state: State, key: TerrainKey) -> CostTable:
    """Entry costs of every hex for each side, for the terrain as it stands."""
    table = _COSTS.get(key)
    if table is None:
        if len(_COSTS) > 256:
            _COSTS.clear()
        human: dict[Hex, float] = {}
        robot: dict[Hex, float] = {}
        auto: set[Hex] = set()
        types = data.hex_types().types
        for n, h in data.hexes_by_number().items():
            ht = types[hex_type(state, n)]
            if ht.human is not None:
                human[h] = ht.human
            if ht.robot is not None:
                robot[h] = ht.robot
            if ht.auto_defend is not None:
                auto.add(h)
        table = _COSTS[key] = CostTable(human, robot, frozenset(auto))
    return table


class Board:
    """Who stands where, for stacking (6.0) and enemy stops (5.4)."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.count: Counter[tuple[str, str]] = Counter()
        for u in state.units.values():
            if u.on_map:
                self.count[(u.hex, u.side)] += 1
        self._tkey: TerrainKey | None = None
        self._full_cache: dict[str, frozenset[str]] = {}
        self._enemies: dict[str, frozenset[str]] = {}
        self._closed: frozenset[str] | None = None

    def enemy_in(self, hex_no: str, side: str) -> bool:
        """Whether units of the other side stand in the hex."""
        other = data.ANNIHILATOR if side == data.MARINES else data.MARINES
        return self.count[(hex_no, other)] > 0

    def room(self, hex_no: str, side: str, extra: int = 1) -> bool:
        """Whether ``extra`` more units of ``side`` may end in the hex (6.0)."""
        if side == data.MARINES and hex_no in self.state.impacts:
            return True  # 6.0: the human player may break the limit in an impact hex
        return self.count[(hex_no, side)] + extra <= STACK_LIMIT[side]

    def route(self, unit: Unit, allowance: float, to: str, only: Iterable[str] | None = None) -> Route:
        """The cheapest route to one hex within ``allowance`` (5.1-5.4, 7.3).

        ``only`` limits the hexes that may be entered (8.3 advance). Humans take the
        cheapest route that avoids auto-defend hexes before the last one where such a
        route exists, so a player is never led through an automatic attack needlessly.
        """
        nums = data.hex_numbers()
        r = self._raw(unit, allowance, only)[data.hexes_by_number()[to]]
        return Route(r.cost, tuple(nums[x] for x in r.path))

    def destinations(self, unit: Unit, allowance: float, only: Iterable[str] | None = None) -> list[str]:
        """Every hex the unit may move to within ``allowance`` and end in (5.3, 6.0)."""
        nums = data.hex_numbers()
        full = self._full(unit.side)
        return [n for h in self._raw(unit, allowance, only) if (n := nums[h]) not in full]

    def _full(self, side: str) -> frozenset[str]:
        """Hexes where ``side`` may not add a unit (6.0)."""
        full = self._full_cache.get(side)
        if full is None:
            limit = STACK_LIMIT[side]
            exempt = self.state.impacts if side == data.MARINES else []
            full = frozenset(h for (h, s), n in self.count.items() if s == side and n >= limit and h not in exempt)
            self._full_cache[side] = full
        return full

    def _raw(self, unit: Unit, allowance: float, only: Iterable[str] | None) -> dict[Hex, Reach]:
        if self._tkey is None:
            self._tkey = terrain_key(self.state)
        other = data.ANNIHILATOR if unit.human else data.MARINES
        enemies = self._enemies.get(other)
        if enemies is None:  # the same for every unit of a side: worked out once a board
            enemies = self._enemies[other] = frozenset(h for (h, s), n in self.count.items() if s == other and n > 0)
        allowed = frozenset(only) if only is not None else None
        # RULINGS Annihilator 10 (6.0 with 7.3): a human crossing an auto-defend hex may be stopped
        # there by a D, so one that could not stop in it (three humans already) may not enter it.
        if unit.human and self._closed is None:
            table = cost_table(self.state, self._tkey)
            self._closed = frozenset(h for h in self._full(data.MARINES) if data.hexes_by_number()[h] in table.auto_defend)
        closed = self._closed if unit.human and self._closed is not None else frozenset()
        key = (unit.hex, unit.human, allowance, allowed, self._tkey, enemies, closed)
        raw = _REACH.get(key)
        if raw is None:
            if len(_REACH) > 20_000:
                _REACH.clear()
            if closed:
                allowed = (allowed if allowed is not None else frozenset(data.hexes_by_number())) - closed
            raw = _REACH[key] = self._search(unit, allowance, allowed, enemies)
        return raw

    def _search(
        self, unit: Unit, allowance: float, allowed: frozenset[str] | None, enemies: frozenset[str]
    ) -> dict[Hex, Reach]:
        assert self._tkey is not None
        table = cost_table(self.state, self._tkey)
        costs = table.human if unit.human else table.robot
        if allowed is not None:
            by_no = data.hexes_by_number()
            costs = {by_no[n]: costs[by_no[n]] for n in allowed if by_no[n] in costs}
        by_number = data.hexes_by_number()
        stop_at = frozenset(by_number[h] for h in enemies)
        start = by_number[unit.hex]

        def cost(a: Hex, b: Hex) -> float | None:
            return costs.get(b)

        found = reachable(start, allowance, cost, stop_at.__contains__)  # 5.4: enemies stop a move
        if unit.human:
            careful_stop = stop_at | table.auto_defend
            found.update(reachable(start, allowance, cost, careful_stop.__contains__))
        return found
