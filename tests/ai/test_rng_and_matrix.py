"""The player's seeded generator and the matrix-game solver for simultaneous secret choices."""

from __future__ import annotations

import pytest

from engine.ai.matrix import exploitability, sample, solve
from engine.ai.rng import Rng, seed_for

RPS = [[0.5, 1.0, 0.0], [0.0, 0.5, 1.0], [1.0, 0.0, 0.5]]


def test_same_seed_same_stream_other_seed_other_stream() -> None:
    a, b, c = Rng("x"), Rng("x"), Rng("y")
    xs = [a.next64() for _ in range(5)]
    assert xs == [b.next64() for _ in range(5)]
    assert xs != [c.next64() for _ in range(5)]


def test_below_is_uniform_enough() -> None:
    r = Rng(3)
    counts = [0] * 6
    for _ in range(6000):
        counts[r.below(6)] += 1
    assert all(800 < n < 1200 for n in counts), counts


def test_seed_for_depends_on_game_seed_and_action_number() -> None:
    assert seed_for("s", 4) == seed_for("s", 4)
    assert len({seed_for("s", 4), seed_for("s", 5), seed_for("t", 4), seed_for("s", 4, "Red")}) == 4
    assert "gameseed" not in seed_for("gameseed", 1)


def test_rock_paper_scissors_equilibrium_is_a_third_each() -> None:
    strategy, value = solve(RPS)
    assert all(abs(p - 1 / 3) < 0.02 for p in strategy), strategy
    assert abs(value - 0.5) < 0.01
    assert exploitability(RPS, strategy) < 0.02
    assert exploitability(RPS, [1.0, 0.0, 0.0]) > 0.4  # a fixed habit is punished


def test_a_saddle_point_is_solved_exactly() -> None:
    m = [[0.3, 0.6], [0.4, 0.9], [0.2, 0.1]]
    strategy, value = solve(m)
    assert strategy == [0.0, 1.0, 0.0]
    assert value == pytest.approx(0.4)


def test_unequal_matrix_mixes_in_the_right_proportions() -> None:
    # row 0 wins 1 against column 0, row 1 wins 2 against column 1 (values scaled to 0..1):
    # the equilibrium plays row 0 two thirds of the time
    m = [[1.0, 0.0], [0.0, 0.5]]
    strategy, _ = solve(m, iterations=5000)
    assert strategy[0] == pytest.approx(1 / 3, abs=0.02)


def test_sampling_follows_the_strategy_and_the_seed() -> None:
    picks = [sample([0.2, 0.8], Rng(i)) for i in range(500)]
    assert 60 < picks.count(0) < 140
    assert [sample([0.5, 0.5], Rng(7)) for _ in range(3)] == [sample([0.5, 0.5], Rng(7)) for _ in range(3)]
