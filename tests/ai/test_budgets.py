"""Search budgets follow what a position costs, so that `normal` answers in about the same time in
a small and a large scenario (issue 15: `normal`'s p95 at most 1.5 s; docs/ai.md, "Budgets")."""

from __future__ import annotations

from engine.ai import decide
from engine.ai.selfplay import Table
from tests.ai.helpers import drive, searched


def _iterations(scenario: str) -> int:
    t = drive(Table("chitin", scenario, dice_seed="budget"), searched)
    seat = t.rules.pending_now(t.state)[0].seat
    _, stats = decide("chitin", t.information(seat), "normal", "s")
    return int(stats["iterations"])  # type: ignore[call-overload]


def test_chitin_armageddon_112_counters_get_fewer_iterations_than_learning() -> None:
    # normal is 72 iterations over Chitin's cost: 2.5 up to 30 counters in play, then in
    # proportion (Armageddon's 112: 2.5 x 112 / 30 = 9.33, so 7 iterations)
    assert _iterations("learning") == 28
    assert _iterations("armageddon") == 7
