"""The Chitin policy of engine/games/chitin/ai.py (the ``easy`` level, the playouts, and the
greedy opponent of the series): what it remembers between decisions and how it plays."""

from __future__ import annotations

from engine.ai.selfplay import Table
from engine.games.chitin import ai as chitin_ai
from engine.games.chitin.state import State


def _attack_position(seed: str, actions: int) -> tuple[Table, str]:
    """The policy's own game ``seed`` after ``actions`` actions, at the start of an attack phase."""
    t = Table("chitin", "learning", {}, dice_seed=seed)
    for _ in range(actions):
        seat = t.rules.pending_now(t.state)[0].seat
        t.play(seat, chitin_ai.policy(t.state, seat, t.rules.legal_now(t.state, seat)))  # type: ignore[arg-type]
    s = t.state
    assert isinstance(s, State) and s.step == "attack" and not s.plan
    return t, t.rules.pending_now(s)[0].seat


def test_7_064_a_disrupted_defender_changes_the_attack_plan_even_where_a_plan_is_remembered() -> None:
    """The attack plan is remembered for the phase by where the counters stand; a disrupted
    defender (7.064c) stands in the same hex at half strength, so it must not be given the plan
    worked out for the undisrupted one."""
    t, seat = _attack_position("cache-0", 155)
    s = t.state
    assert isinstance(s, State)
    other = s.model_copy(deep=True)
    other.counters["R1"].disrupted = not other.counters["R1"].disrupted
    chitin_ai._PLANS.clear()
    fresh = chitin_ai.policy(other, seat, t.rules.legal_now(other, seat))
    chitin_ai._PLANS.clear()
    chitin_ai.policy(s, seat, t.rules.legal_now(s, seat))
    after = chitin_ai.policy(other, seat, t.rules.legal_now(other, seat))
    assert after == fresh
