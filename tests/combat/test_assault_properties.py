"""Properties of close assault over many seeded rounds."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.combat.assault import MODIFIERS, Combat, Figure, assault_result, resolve_assault
from engine.core.dice import SeededDice

modifiers = st.lists(st.sampled_from(sorted(set(MODIFIERS) - {"prepared_position"})), max_size=3, unique=True)


def figures(prefix: str) -> st.SearchStrategy[list[Figure]]:
    one = st.builds(lambda w, m: (w, tuple(m)), st.integers(-2, 6), modifiers)
    return st.lists(one, min_size=1, max_size=5).map(
        lambda fs: [Figure(id=f"{prefix}{i}", weapon=w, modifiers=m) for i, (w, m) in enumerate(fs)]
    )


@settings(max_examples=200, deadline=None)
@given(attackers=figures("a"), defenders=figures("d"), seed=st.integers(0, 10**6))
def test_close_assault_lowest_results_first_and_each_result_follows_the_totals(
    attackers: list[Figure], defenders: list[Figure], seed: int
) -> None:
    fight = resolve_assault(attackers, defenders, SeededDice(str(seed), 0))
    totals = {r.id: r.total for r in fight.rolls}
    assert all(1 <= r.die <= 6 for r in fight.rolls)
    assert {x for p in fight.pairs for x in p} == set(totals)  # every figure faces an opponent
    # RULINGS, close assault: results before contact (breaks, falls back) first, then the rest, each
    # group from the lowest total up.
    def before_contact(c: Combat) -> bool:
        return assault_result(c.attack_total, c.defence_total) in ("defender_breaks", "attacker_falls_back")

    keys = [
        (not before_contact(c), min(c.attack_total, c.defence_total), max(c.attack_total, c.defence_total))
        for c in fight.combats
    ]
    assert keys == sorted(keys)
    out: set[str] = set()
    for c in fight.combats:
        if c.result is None:
            assert c.attacker in out or c.defender in out
            continue
        assert c.result == assault_result(totals[c.attacker], totals[c.defender])
        out.add(c.defender if c.result.startswith("defender") else c.attacker)
    assert {f for f, fate in fight.fates.items() if fate != "fights_on"} == out
