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

from engine.core.hexes import Hex, distance, neighbors


@dataclass(frozen=True)
class Reach:
    """How a hex is reached: the cost spent and the path from the start (start excluded)."""

    cost: float
    path: tuple[Hex, ...]


_EPS = 1e-9


def _better(cost: float, steps: int, old: Reach | None) -> bool:
    """Cheaper, or as cheap in fewer steps."""
    if old is None or cost < old.cost - _EPS:
        return True
    return abs(cost - old.cost) <= _EPS and steps < len(old.path)


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
    Among equally cheap paths the one with fewest steps is returned.
    """
    # With a step limit the cheapest way into a hex may use too many steps to go on
    # from it, so the search runs over (hex, steps taken); without one, over hexes.
    limited = max_steps is not None
    best: dict[tuple[Hex, int], tuple[float, tuple[Hex, ...]]] = {(start, 0): (0.0, ())}
    counter = 0
    frontier: list[tuple[float, int, int, Hex]] = [(0.0, 0, counter, start)]
    limit = allowance + _EPS
    while frontier:
        cost, steps, _, here = heapq.heappop(frontier)
        cur_cost, cur_path = best[(here, steps if limited else 0)]
        if cost != cur_cost or steps != len(cur_path):
            continue  # superseded by a better way in
        if here != start and stops(here):
            continue
        if limited and steps >= max_steps:  # type: ignore[operator]
            continue
        nsteps = steps + 1
        for nxt in _neighbors(here):
            if nxt == start:
                continue
            price = step_cost(here, nxt)
            if price is None:
                continue
            total = cost + price
            if total > limit:
                continue
            k = (nxt, nsteps if limited else 0)
            old = best.get(k)
            if old is None or total < old[0] - _EPS or (abs(total - old[0]) <= _EPS and nsteps < len(old[1])):
                best[k] = (total, cur_path + (nxt,))
                counter += 1
                heapq.heappush(frontier, (total, nsteps, counter, nxt))
    out: dict[Hex, Reach] = {}
    for (h, _), (c, p) in best.items():
        if h != start and can_end(h) and _better(c, len(p), out.get(h)):
            out[h] = Reach(c, p)
    return out


def cheapest(
    start: Hex,
    allowance: float,
    step_cost: Callable[[Hex, Hex], float | None],
    stops: Callable[[Hex], bool] = lambda h: False,
    max_steps: int | None = None,
) -> dict[Hex, float]:
    """The cost of every hex ``reachable`` finds (the start left out), without the paths.

    The same search, for a caller that needs only the costs: no path is built as it goes. The
    costs are ``reachable``'s exactly where sums of step costs are exact (whole and half points);
    with other fractions, where two ways into a hex cost the same within ``_EPS``, ``reachable``
    takes the one of fewer steps and this the first found, so the two may differ in a float's
    last digits.
    """
    if max_steps is not None:  # the search over (hex, steps taken): reachable's own
        return {h: r.cost for h, r in reachable(start, allowance, step_cost, stops, max_steps=max_steps).items()}
    best: dict[Hex, float] = {start: 0.0}
    counter = 0
    frontier: list[tuple[float, int, Hex]] = [(0.0, 0, start)]
    limit = allowance + _EPS
    while frontier:
        cost, _, here = heapq.heappop(frontier)
        if cost != best[here]:
            continue  # superseded by a cheaper way in
        if here != start and stops(here):
            continue
        for nxt in _neighbors(here):
            if nxt == start:
                continue
            price = step_cost(here, nxt)
            if price is None:
                continue
            total = cost + price
            if total > limit:
                continue
            old = best.get(nxt)
            if old is None or total < old - _EPS:
                best[nxt] = total
                counter += 1
                heapq.heappush(frontier, (total, counter, nxt))
    del best[start]
    return best


_NEIGHBOURS: dict[Hex, tuple[Hex, ...]] = {}


def _neighbors(h: Hex) -> tuple[Hex, ...]:
    """The six neighbours of ``h``, remembered: the search asks for the same hexes again and again."""
    n = _NEIGHBOURS.get(h)
    if n is None:
        if len(_NEIGHBOURS) > 200_000:
            _NEIGHBOURS.clear()
        n = _NEIGHBOURS[h] = tuple(neighbors(h))
    return n


def path_cost(
    start: Hex,
    path: list[Hex],
    step_cost: Callable[[Hex, Hex], float | None],
    stops: Callable[[Hex], bool] = lambda h: False,
) -> float | None:
    """The cost of following ``path`` from ``start`` step by step, or None if a step is illegal.

    Each hex of ``path`` must be adjacent to the one before it (the first to ``start``).
    """
    total = 0.0
    here = start
    for i, nxt in enumerate(path):
        if i > 0 and stops(here):
            return None
        if distance(here, nxt) != 1:
            return None
        price = step_cost(here, nxt)
        if price is None:
            return None
        total += price
        here = nxt
    return total
