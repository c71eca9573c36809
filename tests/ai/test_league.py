"""The series behind ``make soak`` and ``make bench-ai``: the same figures over any number of
processes, and the interval each win rate is printed with."""

from __future__ import annotations

import pytest

from tests.ai.league import series, wilson


def test_a_series_over_two_processes_gives_the_figures_of_one() -> None:
    one = series("toy", "", {}, "easy", "random", 6, processes=1)
    two = series("toy", "", {}, "easy", "random", 6, processes=2)
    assert one.games == two.games == 6 and not one.errors and not two.errors
    assert len(set(one.lengths)) > 1  # the games differ, so an order mixed up would show
    assert (one.natural, one.a_wins, one.draws, one.lengths, one.longest) == (
        two.natural, two.a_wins, two.draws, two.lengths, two.longest)
    assert one.line() == two.line()


def test_a_series_tells_the_wins_by_the_seat_held() -> None:
    # seats alternate game by game, so each seat is held in half the games, and the wins by seat
    # add up to the series' wins
    s = series("toy", "", {}, "easy", "random", 6, processes=1)
    assert sorted(s.by_seat) == ["A", "B"]
    assert [n for _, n in s.by_seat.values()] == [3, 3]
    assert sum(w for w, _ in s.by_seat.values()) == s.a_wins
    assert f"as A {s.by_seat['A'][0]}/3, as B {s.by_seat['B'][0]}/3" in s.line()


def test_the_win_rate_interval_is_wilsons() -> None:
    # Wilson (1927); 6 of 10: 0.313 to 0.832 (the textbook figures), 0 of 10: 0 to 0.278
    assert wilson(6, 10) == pytest.approx((0.3127, 0.8318), abs=1e-4)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(150, 200) == pytest.approx((0.6857, 0.8049), abs=1e-4)
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(1 - hi)
