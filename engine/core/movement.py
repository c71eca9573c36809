"""Movement search shared by every game: cheapest paths within an allowance.

The game supplies the costs: ``step_cost(a, b)`` is the whole price of stepping
from ``a`` into the adjacent ``b`` (terrain, hexside, zone of control) or None
when the step is forbidden (off the map, a prohibited hexside, an occupied hex).
``stops(b)`` says a unit that enters ``b`` must stop there (enemy units, a zone of
control that ends movement). Costs may be fractions (half-point passageways).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass

from engine.core.hexes import Hex, neighbors


@dataclass(frozen=True)
class Reach:
    """How a hex is reached: the cost spent and the path from the start (start excluded)."""

    cost: float
    path: tuple[Hex, ...]


def reachable(
    start: Hex,
    allowance: float,
    step_cost: Callable[[Hex, Hex], float | None],
    stops: Callable[[Hex], bool] = lambda h: False,
    can_end: Callable[[Hex], bool] = lambda h: True,
    max_steps: int | None = None,
) -> dict[Hex, Reach]:
    """Every hex reachable from ``start`` within ``allowance``, with its cheapest path.

    The start hex is not included. Hexes a unit may pass through but not end in
    (``can_end`` false, e.g. a full stack) are searched through but left out.
    """
    best: dict[Hex, Reach] = {start: Reach(0.0, ())}
    counter = 0
    frontier: list[tuple[float, int, Hex]] = [(0.0, counter, start)]
    while frontier:
        cost, _, here = heapq.heappop(frontier)
        if cost > best[here].cost:
            continue
        if here != start and stops(here):
            continue
        path = best[here].path
        if max_steps is not None and len(path) >= max_steps:
            continue
        for nxt in neighbors(here):
            price = step_cost(here, nxt)
            if price is None:
                continue
            total = cost + price
            if total > allowance + 1e-9:
                continue
            old = best.get(nxt)
            if old is None or total < old.cost - 1e-9 or (abs(total - old.cost) < 1e-9 and len(path) + 1 < len(old.path)):
                best[nxt] = Reach(total, path + (nxt,))
                counter += 1
                heapq.heappush(frontier, (total, counter, nxt))
    del best[start]
    return {h: r for h, r in best.items() if can_end(h)}


def path_cost(
    start: Hex,
    path: list[Hex],
    step_cost: Callable[[Hex, Hex], float | None],
    stops: Callable[[Hex], bool] = lambda h: False,
) -> float | None:
    """The cost of following ``path`` from ``start`` step by step, or None if a step is illegal."""
    total = 0.0
    here = start
    for i, nxt in enumerate(path):
        if i > 0 and stops(here):
            return None
        price = step_cost(here, nxt)
        if price is None:
            return None
        total += price
        here = nxt
    return total
