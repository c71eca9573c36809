"""Series of seeded games between players, with the figures ``make soak`` and ``make bench-ai`` print.

Players: the bot at a level (``easy``, ``normal``, ``hard``: it sees its ``Information`` only),
``greedy`` (the policies of tests/support, which read the whole state: an opponent, not the
bot) and ``random`` (uniform over the legal actions). Seats alternate game by game.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from dataclasses import dataclass, field
from types import SimpleNamespace

from engine.ai.selfplay import Decider, Table, bot, play, uniform
from engine.core.protocol import Action
from tests.support import annihilator_policy, chitin_policy, make_script


def greedy(seed: int) -> Decider:
    """The greedy players of tests/support (make_script's choice for OneWorld)."""
    rng = random.Random(seed)

    def decide(table: Table, seat: str) -> Action:
        legal = table.rules.legal_now(table.state, seat)
        name = table.rules.name
        if name == "chitin":
            return chitin_policy.choose(table.state, seat, legal)  # type: ignore[arg-type]
        if name == "annihilator":
            return annihilator_policy.choose(table.state, seat, legal)  # type: ignore[arg-type]
        g = SimpleNamespace(rules=table.rules, state=table.state)
        return make_script.choose(g, seat, legal, rng, len(table.log) + 1)  # type: ignore[arg-type]

    return decide


def clock() -> float:
    """The clock decision times are read by: wall time, or with ``AI_BENCH_CLOCK=process`` this
    process's processor time (on a shared machine wall time also counts the other work running)."""
    return time.process_time() if os.environ.get("AI_BENCH_CLOCK") == "process" else time.perf_counter()


def make(kind: str, seed: int, times: list[float] | None = None) -> Decider:
    if kind == "greedy":
        return greedy(seed)
    if kind == "random":
        return uniform(seed)
    inner = bot(kind, seed)
    if times is None:
        return inner

    def timed(table: Table, seat: str) -> Action:
        t0 = clock()
        a = inner(table, seat)
        times.append(clock() - t0)
        return a

    return timed


@dataclass
class Series:
    game: str
    scenario: str
    options: dict[str, str]
    a: str
    b: str
    games: int = 0
    natural: int = 0
    a_wins: int = 0
    draws: int = 0
    lengths: list[int] = field(default_factory=list)
    longest: int = 0
    a_times: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def line(self) -> str:
        n = max(self.games, 1)
        lengths = sorted(self.lengths) or [0]
        p95 = _p95(self.a_times)
        opts = " ".join(f"{k}:{v}" for k, v in self.options.items())
        return (f"{self.game:11} {self.scenario:12} {opts:22} {self.a:6} vs {self.b:6} games {self.games:4} "
                f"natural {100 * self.natural / n:5.1f}%  {self.a} wins {100 * self.a_wins / n:5.1f}% "
                f"draws {self.draws:3}  length median {lengths[len(lengths) // 2]:5} longest {self.longest:5}"
                + (f"  {self.a} decision p95 {p95:.2f}s" if self.a_times else "")
                + (f"  ERRORS {len(self.errors)}: {self.errors[0]}" if self.errors else ""))


def _p95(xs: list[float]) -> float:
    if not xs:
        return 0.0
    if len(xs) < 20:
        return max(xs)
    return statistics.quantiles(xs, n=20)[-1]


def series(game: str, scenario: str, options: dict[str, str], a: str, b: str, games: int,
           cap: int = 6000, first_seed: int = 0, time_a: bool = False) -> Series:
    """``games`` games of ``a`` against ``b``, ``a`` taking each seat in turn."""
    out = Series(game, scenario, options, a, b)
    for i in range(first_seed, first_seed + games):
        table = Table(game, scenario, options, dice_seed=f"league-{game}-{scenario}-{i}")
        seats = table.rules.seats
        seat_a = seats[i % 2]
        seat_b = seats[1 - i % 2]
        deciders = {seat_a: make(a, 2 * i, out.a_times if time_a else None), seat_b: make(b, 2 * i + 1)}
        try:
            res = play(table, deciders, seed=i, max_actions=cap)
        except Exception as exc:  # a crash is a finding of the soak, reported with its seed
            out.errors.append(f"seed {i}: {type(exc).__name__}: {exc}"[:200])
            out.games += 1
            continue
        out.games += 1
        out.lengths.append(res.actions)
        out.longest = max(out.longest, res.actions)
        if not res.capped and res.outcome is not None:
            out.natural += 1
            if res.outcome.winner == seat_a:
                out.a_wins += 1
            elif not res.outcome.winner:
                out.draws += 1
    return out
