"""Simultaneous secret choices as games of their own: a zero-sum matrix game and its equilibrium.

``payoff[i][j]`` is the value (0..1) for the row player when it plays row ``i`` and the other
plays column ``j``. ``solve`` returns a mixed strategy for the rows that is a Nash equilibrium:
exactly when the matrix has a saddle point, otherwise approximately, by a fixed number of
regret-matching+ iterations (deterministic: the same matrix always gives the same strategy).
The move is then drawn from the strategy with the seeded generator, so nobody can count on a
fixed habit.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.ai.rng import Rng


def solve(payoff: Sequence[Sequence[float]], iterations: int = 3000) -> tuple[list[float], float]:
    """The row player's equilibrium strategy and the game's value (for the rows)."""
    rows = len(payoff)
    cols = len(payoff[0]) if rows else 0
    if rows == 0 or cols == 0:
        raise ValueError("a matrix game needs at least one row and one column")
    # a saddle point: the best worst-case row meets the best worst-case column
    maximin = max(range(rows), key=lambda i: (min(payoff[i]), -i))
    lower = min(payoff[maximin])
    upper = min(max(payoff[i][j] for i in range(rows)) for j in range(cols))
    if upper - lower < 1e-12:
        strategy = [0.0] * rows
        strategy[maximin] = 1.0
        return strategy, lower
    # regret matching+ with alternating updates and linear averaging
    reg_r = [0.0] * rows
    reg_c = [0.0] * cols
    avg_r = [0.0] * rows
    avg_c = [0.0] * cols
    for t in range(1, iterations + 1):
        sr = _normal(reg_r)
        sc = _normal(reg_c)
        row_vals = [sum(payoff[i][j] * sc[j] for j in range(cols)) for i in range(rows)]
        v = sum(sr[i] * row_vals[i] for i in range(rows))
        for i in range(rows):
            reg_r[i] = max(0.0, reg_r[i] + row_vals[i] - v)
        sr = _normal(reg_r)
        col_vals = [sum(payoff[i][j] * sr[i] for i in range(rows)) for j in range(cols)]
        w = sum(sc[j] * col_vals[j] for j in range(cols))
        for j in range(cols):
            reg_c[j] = max(0.0, reg_c[j] + w - col_vals[j])  # the columns minimise
        for i in range(rows):
            avg_r[i] += t * sr[i]
        for j in range(cols):
            avg_c[j] += t * sc[j]
    strategy = _normal(avg_r)
    col = _normal(avg_c)
    value = sum(strategy[i] * payoff[i][j] * col[j] for i in range(rows) for j in range(cols))
    return strategy, value


def exploitability(payoff: Sequence[Sequence[float]], strategy: Sequence[float]) -> float:
    """How much less than the game's value ``strategy`` can be held to (0 for an equilibrium)."""
    _, value = solve(payoff)
    worst = min(sum(strategy[i] * payoff[i][j] for i in range(len(payoff))) for j in range(len(payoff[0])))
    return max(0.0, value - worst)


def sample(strategy: Sequence[float], rng: Rng) -> int:
    """A row drawn from a mixed strategy (tiny weights under 0.5% are dropped as noise)."""
    cleaned = [p if p >= 0.005 else 0.0 for p in strategy]
    return rng.weighted(cleaned)


def _normal(xs: list[float]) -> list[float]:
    total = sum(xs)
    if total <= 0:
        return [1.0 / len(xs)] * len(xs)
    return [x / total for x in xs]
