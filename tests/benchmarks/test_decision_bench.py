"""The bot opponent's slowest decisions at `hard`, as a member waits for them (run with `make bench`).

Goal (issue 15): `hard` answers in about five seconds, its decision p95 at most 6 s on a 2-core
machine. Two kinds of decision are measured here one by one:

- Chitin's choice of first move or end (3.02), once a game and far above the p95: `hard` plays
  whole games of each choice (docs/ai.md, "Whole games").
- A Marines' movement decision in the Annihilator, the kind that makes up `hard`'s slow
  decisions there: its rollouts play the Security Robots and Repairbots to the same step of the
  next game turn.

Each round runs in a process of its own, started afresh (spawned), so the engine's kept answers
(paths, walks, actions) start empty, as in a new worker after a restart; the round is timed in that
process, around the decision alone.
"""

from __future__ import annotations

import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor

import pytest

from engine.ai.info import Information
from engine.ai.player import decide
from engine.ai.selfplay import Table
from engine.games.chitin import ai as chitin_ai


def _chitin_at_first_move(scenario: str) -> tuple[Information, str]:
    """A game of ``scenario`` at the roll for first move (3.02), the armies chosen by the policy."""
    t = Table("chitin", scenario, {}, dice_seed="ends-0")
    while t.state.step != "order":  # type: ignore[attr-defined]
        s = t.state
        seat = t.rules.pending_now(s)[0].seat
        t.play(seat, chitin_ai.policy(s, seat, t.rules.legal_now(s, seat)))  # type: ignore[arg-type]
    return t.information(t.state.high), "t:order"  # type: ignore[attr-defined]


def _marines_moving() -> tuple[Information, str]:
    """The Annihilator (dice seed of the bench line's game 4) played by `normal` for both sides up
    to the Marines' third movement decision."""
    t = Table("annihilator", "", {}, dice_seed="league-annihilator-standard-4")
    moves = 0
    for n in range(400):
        p = t.rules.pending_now(t.state)
        seat = p[0].seat
        if seat == "Marines" and t.state.step == "h_move":  # type: ignore[attr-defined]
            moves += 1
            if moves == 3:
                return t.information(seat), f"b:{n}"
        action, _ = decide("annihilator", t.information(seat), "normal", f"b:{n}")
        t.play(seat, action)
    raise AssertionError("no third movement decision of the Marines")


def _decide(job: tuple[str, Information, str]) -> tuple[float, float, str]:
    game, info, key = job
    wall, cpu = time.perf_counter(), time.process_time()
    action, _ = decide(game, info, "hard", key)
    return time.perf_counter() - wall, time.process_time() - cpu, action.text()


def _in_a_new_process(job: tuple[str, Information, str]) -> tuple[float, float, str]:
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(_decide, job).result()


@pytest.mark.parametrize("case", ["chitin-learning-3.02", "chitin-basic-3.02", "annihilator-marines-move"])
def test_hard_slowest_decisions(benchmark, case: str) -> None:
    if case.startswith("chitin"):
        info, key = _chitin_at_first_move(case.split("-")[1])
        job = ("chitin", info, key)
    else:
        info, key = _marines_moving()
        job = ("annihilator", info, key)
    got: list[tuple[float, float, str]] = []
    benchmark.pedantic(lambda: got.append(_in_a_new_process(job)), rounds=2, iterations=1)
    answers = {text for _, _, text in got}
    assert len(answers) == 1  # the same position and seed give the same decision
    print(f"\n{case}: {' '.join(f'{w:.1f} s ({c:.1f} s processor)' for w, c, _ in got)} for {answers.pop()}")
