"""Properties of the dice and of hit placement over many seeded combats."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.combat.stepdice import roll_hits
from engine.combat.steps import Stack, Unit, begin_hits, capacity, hit_targets, land_all, land_hit
from engine.core.dice import SeededDice

# Binomial(n, 1/6): five standard deviations leave a false alarm about once in
# 1.7 million runs of one check, so a hundred examples stay sound.
SIGMAS = 5


def within_binomial(hits: int, dice: int, p: float = 1 / 6) -> bool:
    return abs(hits - dice * p) <= SIGMAS * math.sqrt(dice * p * (1 - p))


@settings(max_examples=60, deadline=None)
@given(
    seed=st.text(min_size=1, max_size=12),
    strengths=st.lists(st.integers(1, 12), min_size=150, max_size=200),
    advantages=st.integers(0, 2),
)
def test_rerolls_share_of_hits_per_die_is_one_in_six(
    seed: str, strengths: list[int], advantages: int
) -> None:
    dice_rolled = hits = 0
    for n, strength in enumerate(strengths):
        volley = roll_hits(SeededDice(seed, n), strength, advantages)
        dice_rolled += sum(len(p) for p in volley.passes)
        hits += volley.hits
    assert within_binomial(hits, dice_rolled), (hits, dice_rolled)


@settings(max_examples=150, deadline=None)
@given(
    seed=st.text(max_size=8),
    action=st.integers(0, 10**6),
    strength=st.integers(0, 30),
    advantages=st.integers(0, 4),
)
def test_rerolls_never_lower_the_number_of_hits(
    seed: str, action: int, strength: int, advantages: int
) -> None:
    fewer = roll_hits(SeededDice(seed, action), strength, advantages)
    more = roll_hits(SeededDice(seed, action), strength, advantages + 1)
    assert more.hits >= fewer.hits
    assert more.passes[: len(fewer.passes)] == fewer.passes
    assert more.hits <= strength
    for before, after in zip(more.passes, more.passes[1:]):
        assert len(after) == sum(d != 6 for d in before)


units = st.builds(
    Unit,
    id=st.just("x"),
    strength=st.integers(1, 8),
    extra_defence=st.booleans(),
    soft=st.booleans(),
)


def numbered(us: list[Unit]) -> Stack:
    return Stack(units=tuple(u.model_copy(update={"id": f"u{i}"}) for i, u in enumerate(us)))


@settings(max_examples=150, deadline=None)
@given(us=st.lists(units, min_size=1, max_size=5), hits=st.integers(0, 40), picks=st.lists(st.integers(0, 9)))
def test_taking_hits_each_hit_lowers_what_it_takes_to_eliminate_by_one(
    us: list[Unit], hits: int, picks: list[int]
) -> None:
    stack, tally = begin_hits(numbered(us), hits, in_redoubt=False, redoubt_absorbs=False)
    start = capacity(stack, tally)
    for pick in picks:
        targets = hit_targets(stack, tally)
        if not targets:
            break
        before = capacity(stack, tally)
        strength = stack.strength
        assert tally.wasted == 0
        stack, tally = land_hit(stack, tally, targets[pick % len(targets)])
        if not stack.units:
            assert before <= 1 + tally.wasted
        elif tally.remaining > 0:
            assert capacity(stack, tally) == before - 1
        else:  # the last hit: a lone hit on armor is dropped (extra defense)
            assert capacity(stack, tally) == before - 1 + tally.wasted
        assert stack.strength <= strength
    stack, tally = land_all(stack, tally)
    assert tally.remaining == 0
    assert (not stack.units) == (hits >= start)
