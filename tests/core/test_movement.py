"""Movement search: cheapest paths within an allowance, checked by hand and against brute force."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.hexes import Hex, Hexside, distance, neighbor, neighbors, within
from engine.core.movement import Reach, cheapest, path_cost, reachable

ORIGIN = Hex(0, 0)
StepCost = Callable[[Hex, Hex], float | None]


def terrain_cost(costs: dict[Hex, float | None], default: float | None = 1.0, radius: int = 6) -> StepCost:
    """Entering ``b`` costs ``costs[b]`` (or ``default``); hexes farther than ``radius`` are off the map."""

    def step(a: Hex, b: Hex) -> float | None:
        if distance(ORIGIN, b) > radius:
            return None
        return costs.get(b, default)

    return step


def row(n: int, d: int = 2) -> list[Hex]:
    """``n`` hexes going straight from the origin in direction ``d`` (origin excluded)."""
    out, h = [], ORIGIN
    for _ in range(n):
        h = neighbor(h, d)
        out.append(h)
    return out


def check_paths(start: Hex, result: dict[Hex, Reach], step: StepCost, allowance: float,
                stops: Callable[[Hex], bool] = lambda h: False) -> None:
    for h, reach in result.items():
        assert reach.path[-1] == h
        assert reach.cost <= allowance + 1e-9
        cost = path_cost(start, list(reach.path), step, stops)
        assert cost == pytest.approx(reach.cost)


# --- by hand ------------------------------------------------------------------------------------


def test_uniform_costs_reach_a_disc() -> None:
    step = terrain_cost({})
    got = reachable(ORIGIN, 3, step)
    assert set(got) == set(within(ORIGIN, 3)) - {ORIGIN}
    for h, r in got.items():
        assert r.cost == distance(ORIGIN, h)
        assert len(r.path) == distance(ORIGIN, h)
    check_paths(ORIGIN, got, step, 3)


def test_start_is_not_included_and_zero_allowance_reaches_nothing() -> None:
    step = terrain_cost({})
    assert ORIGIN not in reachable(ORIGIN, 2, step)
    assert reachable(ORIGIN, 0, step) == {}


def test_per_hex_costs() -> None:
    a, b, c = row(3)
    step = terrain_cost({a: 1, b: 3, c: 1}, default=None)
    got = reachable(ORIGIN, 4, step)
    assert got == {a: Reach(1.0, (a,)), b: Reach(4.0, (a, b))}
    assert set(reachable(ORIGIN, 5, step)) == {a, b, c}
    assert reachable(ORIGIN, 5, step)[c].cost == 5


def test_cheapest_path_goes_round_the_rough() -> None:
    # two 2-step ways lead to Hex(2, -1); the one through the swamp costs 4 + 1, the other 1 + 1
    target = Hex(2, -1)
    swamp = Hex(1, -1)
    step = terrain_cost({swamp: 4})
    got = reachable(ORIGIN, 5, step)
    assert got[target] == Reach(2.0, (Hex(1, 0), target))
    assert got[swamp].cost == 4
    assert got[swamp].path == (swamp,)
    check_paths(ORIGIN, got, step, 5)


def test_fewest_steps_among_equally_cheap_paths() -> None:
    # Hex(2, -1) costs 2.5 both ways: 1.5 + 1 in two steps, or along a road 0.5 * 3 + 1 in four
    road = {Hex(0, -1): 0.5, Hex(1, -2): 0.5, Hex(2, -2): 0.5}
    step = terrain_cost({Hex(1, -1): 1.5, Hex(1, 0): 1.5, **road})
    got = reachable(ORIGIN, 3, step)
    assert got[Hex(2, -1)].cost == 2.5
    assert len(got[Hex(2, -1)].path) == 2
    assert got[Hex(2, -2)] == Reach(1.5, (Hex(0, -1), Hex(1, -2), Hex(2, -2)))


def test_hexside_prohibition() -> None:
    wall = {Hexside.of(ORIGIN, Hex(1, 0)), Hexside.of(ORIGIN, Hex(1, -1))}

    def step(a: Hex, b: Hex) -> float | None:
        if Hexside.of(a, b) in wall or distance(ORIGIN, b) > 4:
            return None
        return 1

    got = reachable(ORIGIN, 3, step)
    assert got[Hex(1, 0)].cost == 2  # round the wall through S
    assert got[Hex(1, -1)].cost == 2  # round it through N
    assert all(Hexside.of(a, b) not in wall for r in got.values() for a, b in zip((ORIGIN,) + r.path, r.path))
    check_paths(ORIGIN, got, step, 3)
    # with one point the walled hexes cannot be reached at all
    assert set(reachable(ORIGIN, 1, step)) == set(neighbors(ORIGIN)) - {Hex(1, 0), Hex(1, -1)}


def test_zone_of_control_costs_one_more_to_enter() -> None:
    enemy = Hex(3, 0)
    zoc = set(neighbors(enemy))

    def step(a: Hex, b: Hex) -> float | None:
        if b == enemy or distance(ORIGIN, b) > 6:
            return None
        return 1 + (1 if b in zoc else 0)

    got = reachable(ORIGIN, 4, step)
    assert enemy not in got
    assert got[Hex(2, 0)].cost == 3  # two steps, the second into the zone
    assert got[Hex(1, 0)].cost == 1
    check_paths(ORIGIN, got, step, 4)


def test_stop_on_entry() -> None:
    a, b, c = row(3)
    zoc = {b}
    step = terrain_cost({h: 1 for h in (a, b, c)}, default=None)
    got = reachable(ORIGIN, 5, step, stops=lambda h: h in zoc)
    assert set(got) == {a, b}  # b may be entered, not left
    assert got[b].cost == 2


def test_stop_hex_may_be_reached_but_not_passed_when_a_way_round_exists() -> None:
    zoc = {Hex(1, 0)}
    step = terrain_cost({})
    got = reachable(ORIGIN, 2, step, stops=lambda h: h in zoc)
    assert got[Hex(1, 0)].cost == 1
    assert got[Hex(2, -1)] == Reach(2.0, (Hex(1, -1), Hex(2, -1)))
    assert Hex(2, 0) not in got  # its only 2-step way is through the zone
    for r in got.values():
        assert not any(h in zoc for h in r.path[:-1])


def test_a_unit_that_starts_in_a_stop_hex_may_leave() -> None:
    step = terrain_cost({})
    got = reachable(ORIGIN, 2, step, stops=lambda h: True)
    assert set(got) == set(neighbors(ORIGIN))


def test_can_end_false_is_passed_through_but_not_listed() -> None:
    a, b, c = row(3)
    full = {b}
    step = terrain_cost({h: 1 for h in (a, b, c)}, default=None)
    got = reachable(ORIGIN, 3, step, can_end=lambda h: h not in full)
    assert set(got) == {a, c}
    assert got[c].path == (a, b, c)


def test_fractional_costs() -> None:
    hs = row(4)
    step = terrain_cost({h: 0.5 for h in hs}, default=None)
    got = reachable(ORIGIN, 1.5, step)
    assert set(got) == set(hs[:3])
    assert got[hs[2]].cost == 1.5


def test_tenths_add_up_to_the_allowance() -> None:
    hs = row(10)
    step = terrain_cost({h: 0.1 for h in hs}, default=None, radius=20)
    got = reachable(ORIGIN, 1, step)
    assert hs[-1] in got  # ten tenths are one point despite float rounding


def test_max_steps_limits_the_hexes_entered() -> None:
    step = terrain_cost({})
    got = reachable(ORIGIN, 10, step, max_steps=1)
    assert set(got) == set(neighbors(ORIGIN))
    got = reachable(ORIGIN, 10, step, max_steps=2)
    assert set(got) == set(within(ORIGIN, 2)) - {ORIGIN}
    assert all(len(r.path) <= 2 for r in got.values())
    assert reachable(ORIGIN, 10, step, max_steps=0) == {}


def test_max_steps_takes_a_dearer_but_shorter_way() -> None:
    # a -> b costs 5 directly, or 2 by way of c; only the direct way leaves a step for b -> d
    a, b, c, d = ORIGIN, Hex(1, -1), Hex(1, 0), Hex(2, -1)
    costs = {(a, b): 5, (a, c): 1, (c, b): 1, (b, d): 1}

    def step(x: Hex, y: Hex) -> float | None:
        return costs.get((x, y))

    got = reachable(a, 10, step, max_steps=2)
    assert got[b] == Reach(2.0, (c, b))
    assert got[d] == Reach(6.0, (b, d))
    assert reachable(a, 10, step)[d] == Reach(3.0, (c, b, d))


# --- path_cost -------------------------------------------------------------------------------


def test_path_cost() -> None:
    a, b, c = row(3)
    step = terrain_cost({a: 1, b: 2.5, c: None})
    assert path_cost(ORIGIN, [], step) == 0
    assert path_cost(ORIGIN, [a, b], step) == 3.5
    assert path_cost(ORIGIN, [a, b, c], step) is None
    assert path_cost(ORIGIN, [a, b], step, stops=lambda h: h == a) is None
    assert path_cost(ORIGIN, [a, b], step, stops=lambda h: h == b) == 3.5  # stopping at the end is fine
    assert path_cost(ORIGIN, [a], step, stops=lambda h: h == ORIGIN) == 1  # leaving the start is fine


def test_path_cost_refuses_a_jump() -> None:
    # the step cost here looks only at the hex entered, so path_cost must check adjacency itself
    step = terrain_cost({})
    assert path_cost(ORIGIN, [Hex(2, 0)], step) is None
    assert path_cost(ORIGIN, [Hex(1, 0), Hex(1, 0)], step) is None


# --- against brute force -------------------------------------------------------------------


def brute_force(
    start: Hex,
    allowance: float,
    step: StepCost,
    stops: Callable[[Hex], bool],
    can_end: Callable[[Hex], bool],
    max_steps: int | None,
    horizon: int,
) -> dict[Hex, tuple[float, int]]:
    """Cheapest cost, and fewest steps at that cost, by relaxing every walk of k steps for k = 1, 2, ..."""
    layer: dict[Hex, float] = {start: 0.0}
    best: dict[Hex, tuple[float, int]] = {}
    limit = horizon if max_steps is None else min(max_steps, horizon)
    for k in range(1, limit + 1):
        nxt: dict[Hex, float] = {}
        for here, cost in layer.items():
            if here != start and stops(here):
                continue
            for n in neighbors(here):
                price = step(here, n)
                if price is None or cost + price > allowance + 1e-9:
                    continue
                if n not in nxt or cost + price < nxt[n]:
                    nxt[n] = cost + price
        for h, cost in nxt.items():
            if h == start:
                continue
            if h not in best or cost < best[h][0] - 1e-9:
                best[h] = (cost, k)
        layer = nxt
    return {h: v for h, v in best.items() if can_end(h)}


GRID = list(within(ORIGIN, 3))
SIDES = sorted({Hexside.of(h, n) for h in GRID for n in neighbors(h) if n in GRID})


@st.composite
def movement_case(draw: st.DrawFn) -> tuple:
    cost = draw(st.lists(st.sampled_from([0.5, 1.0, 1.0, 1.5, 2.0, 3.0, None]), min_size=len(GRID), max_size=len(GRID)))
    terrain = dict(zip(GRID, cost))
    walls = set(draw(st.lists(st.sampled_from(SIDES), max_size=8)))
    zoc = set(draw(st.lists(st.sampled_from(GRID), max_size=4)))
    stop = set(draw(st.lists(st.sampled_from(GRID), max_size=4)))
    full = set(draw(st.lists(st.sampled_from(GRID), max_size=4)))
    start = draw(st.sampled_from(GRID))
    allowance = draw(st.integers(0, 14)) / 2
    max_steps = draw(st.none() | st.integers(0, 6))
    return terrain, walls, zoc, stop, full, start, allowance, max_steps


@settings(max_examples=300, deadline=None)
@given(movement_case())
def test_reachable_agrees_with_brute_force(case: tuple) -> None:
    terrain, walls, zoc, stop, full, start, allowance, max_steps = case

    def step(a: Hex, b: Hex) -> float | None:
        base = terrain.get(b)
        if base is None or Hexside.of(a, b) in walls:
            return None
        return base + (1 if b in zoc else 0)

    def stops(h: Hex) -> bool:
        return h in stop

    def can_end(h: Hex) -> bool:
        return h not in full

    got = reachable(start, allowance, step, stops, can_end, max_steps)
    # the cheapest step is half a point, so no walk within the allowance is longer than this
    horizon = int(allowance / 0.5) + 1
    want = brute_force(start, allowance, step, stops, can_end, max_steps, horizon)
    assert set(got) == set(want)
    for h, reach in got.items():
        cost, steps = want[h]
        assert reach.cost == pytest.approx(cost)
        assert len(reach.path) == steps
        assert reach.cost <= allowance + 1e-9
        assert path_cost(start, list(reach.path), step, stops) == pytest.approx(reach.cost)
        assert max_steps is None or len(reach.path) <= max_steps
        assert start not in reach.path


@settings(max_examples=300, deadline=None)
@given(movement_case(), st.sets(st.sampled_from(GRID), max_size=6))
def test_cheapest_gives_reachables_costs_free_steps_too(case: tuple, free: set[Hex]) -> None:
    """``cheapest`` is ``reachable`` without the paths: the same hexes at the same costs, also
    where some steps cost nothing (Chitin's counters waiting beyond their end, 6.01)."""
    terrain, walls, zoc, stop, _, start, allowance, max_steps = case

    def step(a: Hex, b: Hex) -> float | None:
        base = 0.0 if b in free else terrain.get(b)
        if base is None or Hexside.of(a, b) in walls:
            return None
        return base + (1 if b in zoc and b not in free else 0)

    def stops(h: Hex) -> bool:
        return h in stop

    for limit in (None, max_steps):  # its own search without a step limit; reachable's with one
        got = cheapest(start, allowance, step, stops, limit)
        assert got == {h: r.cost for h, r in reachable(start, allowance, step, stops, max_steps=limit).items()}
        want = brute_force(start, allowance, step, stops, lambda h: True, limit, len(GRID))
        assert got.keys() == want.keys()
        assert all(got[h] == pytest.approx(cost) for h, (cost, _) in want.items())
