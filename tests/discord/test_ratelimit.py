"""The per-member rate limit."""

from __future__ import annotations

from bot.ratelimit import RateLimiter, cooldown_notice


class Tick:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def test_a_burst_then_one_action_per_interval():
    clock = Tick()
    rl = RateLimiter(burst=3, rate=0.5, clock=clock)
    assert [rl.hit("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert rl.hit("a") == 2.0
    assert rl.hit("b") == 0.0
    clock.t = 2.0
    assert rl.hit("a") == 0.0
    assert rl.hit("a") > 0


def test_idle_members_are_forgotten():
    clock = Tick()
    rl = RateLimiter(burst=2, rate=1.0, clock=clock)
    rl.hit("a")
    clock.t = 10
    rl.forget_idle()
    assert rl._buckets == {}


def test_the_notice_is_polite_and_says_how_long():
    assert "wait 2 seconds" in cooldown_notice(1.6) and "Nothing was done" in cooldown_notice(1.6)
    assert "wait 1 second " in cooldown_notice(0.2)
