"""Properties that hold after any legal sequence of orders (6.0 stacking, 8.4 supplies, 10.0 end)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.dice import SeededDice
from engine.games.annihilator import RULES
from engine.games.annihilator.state import State
from tests.annihilator.helpers import M, config


def check(s: State) -> None:
    stacks = Counter((u.hex, u.side) for u in s.units.values() if u.on_map)
    for (hex_no, side), n in stacks.items():
        if side == M:
            assert n <= 3 or hex_no in s.impacts, f"{n} human units in {hex_no} (rule 6.0)"
        else:
            assert n <= 6, f"{n} robots in {hex_no} (rule 6.0)"
    for u in s.units.values():
        assert 0 <= u.charges <= 3  # 8.4, 8.5
        assert u.mp >= 0
    assert len(set(s.destroyed)) == len(s.destroyed) <= 2
    assert (RULES.outcome(s) is None) == bool(RULES.pending(s))  # 10.0: no prompt once it is over


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32), hidden=st.booleans())
def test_6_0_no_sequence_of_orders_breaks_stacking_or_supplies(seed, hidden):
    rng = random.Random(seed)
    s = RULES.setup(config(hidden_charges=hidden), SeededDice(str(seed), 0))
    for n in range(1, 300):
        prompts = RULES.pending(s)
        if not prompts:
            break
        seat = prompts[0].seat
        legal = RULES.legal_actions(s, seat)
        assert legal, f"{seat} must '{prompts[0].text}' but has no legal order"
        s, _ = RULES.apply(s, seat, rng.choice(legal), SeededDice(str(seed), n))
        check(s)
