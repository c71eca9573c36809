"""A per-member token bucket: a member who sends commands or clicks too fast gets a cooldown notice."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class _Bucket:
    tokens: float
    at: float


class RateLimiter:
    """``burst`` actions at once, then one every ``1 / rate`` seconds; the clock is injected for tests."""

    def __init__(self, burst: int = 8, rate: float = 0.5, clock: Callable[[], float] = time.monotonic) -> None:
        self.burst = burst
        self.rate = rate
        self.clock = clock
        self._buckets: dict[str, _Bucket] = {}

    def hit(self, user: str) -> float:
        """Take one token for ``user``: 0.0 when allowed, else the seconds to wait before the next action."""
        now = self.clock()
        b = self._buckets.get(user)
        if b is None:
            b = self._buckets[user] = _Bucket(float(self.burst), now)
        b.tokens = min(float(self.burst), b.tokens + (now - b.at) * self.rate)
        b.at = now
        if b.tokens >= 1.0:
            b.tokens -= 1.0
            return 0.0
        return (1.0 - b.tokens) / self.rate

    def forget_idle(self) -> None:
        """Drop buckets that have refilled completely (keeps memory flat on a busy server)."""
        now = self.clock()
        full = [u for u, b in self._buckets.items() if b.tokens + (now - b.at) * self.rate >= self.burst]
        for u in full:
            del self._buckets[u]


def cooldown_notice(wait: float) -> str:
    """The polite private reply to someone going too fast."""
    secs = max(1, round(wait))
    return (f"You are sending commands faster than the games can follow; please wait {secs} "
            f"second{'s' if secs != 1 else ''} and try again. Nothing was done.")
