"""Dice: seeded, recorded, replayed, verifiable."""

from __future__ import annotations

import hashlib
import hmac

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.dice import (
    DiceExhausted,
    FixedDice,
    RecordedDice,
    Roll,
    SeededDice,
    derive,
    seed_hash,
    verify_rolls,
)

# Upper 0.1% points of the chi-square distribution (standard tables).
CHI2_999 = {5: 20.515, 9: 27.877, 19: 43.820}


def chi_square(values: list[int], sides: int) -> float:
    expected = len(values) / sides
    counts = [0] * sides
    for v in values:
        counts[v - 1] += 1
    return sum((c - expected) ** 2 / expected for c in counts)


def roll_many(seed: str, n: int, sides: int, key: str = "main") -> list[int]:
    out: list[int] = []
    action = 0
    while len(out) < n:
        dice = SeededDice(seed, action, key)
        out.extend(dice.roll(sides) for _ in range(50))
        action += 1
    return out[:n]


def test_seeded_dice_are_deterministic() -> None:
    d1, d2 = SeededDice("s3cret", 4), SeededDice("s3cret", 4)
    seq1 = [d1.roll(6, f"roll {i}") for i in range(30)]
    seq2 = [d2.roll(6) for _ in range(30)]
    assert seq1 == seq2  # the reason given does not change the value
    assert SeededDice("s3cret", 4).roll(6) == seq1[0]


def test_seeded_dice_differ_across_seeds_keys_and_actions() -> None:
    def seq(seed: str, action: int, key: str = "main") -> list[int]:
        d = SeededDice(seed, action, key)
        return [d.roll(6) for _ in range(40)]

    base = seq("alpha", 1)
    assert seq("beta", 1) != base
    assert seq("alpha", 2) != base
    assert seq("alpha", 1, key="rollback-1") != base


def test_rolls_within_one_action_are_not_all_the_same() -> None:
    d = SeededDice("x", 0)
    assert len({d.roll(6) for _ in range(60)}) == 6


@pytest.mark.parametrize("sides", [1, 2, 3, 6, 7, 10, 20, 100, 1000])
def test_values_in_range(sides: int) -> None:
    values = roll_many(f"range{sides}", 600, sides)
    assert all(1 <= v <= sides for v in values)
    if sides <= 20:
        assert set(values) == set(range(1, sides + 1))


def test_derive_serves_huge_dice_and_refuses_impossible_ones() -> None:
    assert all(1 <= derive("s", "main", 1, n, 2**40 + 3) <= 2**40 + 3 for n in range(50))
    for sides in (0, -6, 10**30):  # 10**30 would never draw: the rejection limit is 0
        with pytest.raises(ValueError, match="sides"):
            derive("s", "main", 1, 0, sides)


@pytest.mark.parametrize("sides, value", [(0, 1), (10**30, 5), (1001, 3), (6, 7), (6, 0)])
def test_a_recorded_roll_is_on_a_real_die(sides: int, value: int) -> None:
    with pytest.raises(ValueError):
        Roll(sides=sides, value=value)


@given(st.text(max_size=20), st.text(max_size=10), st.integers(0, 10**6), st.integers(0, 50), st.integers(1, 1000))
def test_derive_in_range(seed: str, key: str, action: int, roll: int, sides: int) -> None:
    assert 1 <= derive(seed, key, action, roll, sides) <= sides


@pytest.mark.parametrize(("sides", "seed"), [(6, "one"), (6, "two"), (10, "three"), (20, "four")])
def test_roughly_uniform(sides: int, seed: str) -> None:
    values = roll_many(seed, 400 * sides, sides)
    assert chi_square(values, sides) < CHI2_999[sides - 1]


def test_chi_square_check_catches_a_loaded_die() -> None:
    fair = [1, 2, 3, 4, 5, 6] * 400
    loaded = fair + [6] * 150  # one face 15% more often
    assert chi_square(fair, 6) == 0
    assert chi_square(loaded, 6) > CHI2_999[5]


def test_derive_is_the_published_hmac_construction() -> None:
    # anyone holding the revealed seed must be able to recompute a roll from this description
    seed, key, action, roll = "published-seed", "main", 12, 3
    digest = hmac.new(seed.encode(), f"{key}:{action}:{roll}:0".encode(), hashlib.sha256).digest()
    x = int.from_bytes(digest[:8], "big")
    assert x < (2**64 // 6) * 6  # this draw is not in the rejected tail
    assert derive(seed, key, action, roll, 6) == x % 6 + 1
    d = SeededDice(seed, action, key)
    rolls = [d.roll(6) for _ in range(roll + 1)]
    assert rolls[roll] == x % 6 + 1


def test_seeded_dice_record_every_roll() -> None:
    d = SeededDice("rec", 7)
    v1 = d.roll(6, "fault crossing 0507/0508")
    v2 = d.roll(10, "morale")
    assert d.rolls == [Roll(sides=6, value=v1, why="fault crossing 0507/0508"), Roll(sides=10, value=v2, why="morale")]
    d.rolls.clear()  # a copy: the record is not changed
    assert len(d.rolls) == 2


def test_verify_rolls_true() -> None:
    d = SeededDice("verify-me", 5, "main")
    for sides in (6, 6, 20, 2):
        d.roll(sides)
    assert verify_rolls("verify-me", "main", 5, d.rolls)
    assert verify_rolls("verify-me", "main", 5, [])


def test_verify_rolls_false() -> None:
    d = SeededDice("verify-me", 5, "main")
    for _ in range(12):
        d.roll(6)
    rolls = d.rolls
    assert not verify_rolls("another-seed", "main", 5, rolls)
    assert not verify_rolls("verify-me", "other", 5, rolls)
    assert not verify_rolls("verify-me", "main", 6, rolls)
    tampered = list(rolls)
    tampered[2] = Roll(sides=6, value=rolls[2].value % 6 + 1)
    assert not verify_rolls("verify-me", "main", 5, tampered)
    i = next(i for i in range(1, len(rolls)) if rolls[i].value != rolls[0].value)
    swapped = list(rolls)
    swapped[0], swapped[i] = swapped[i], swapped[0]
    assert not verify_rolls("verify-me", "main", 5, swapped)


def test_recorded_dice_replay() -> None:
    live = SeededDice("game", 3)
    values = [live.roll(6, "a"), live.roll(10, "b"), live.roll(6, "c")]
    replay = RecordedDice(live.rolls)
    assert replay.unused == 3
    assert [replay.roll(6, "a"), replay.roll(10, "b")] == values[:2]
    assert replay.unused == 1
    assert replay.rolls == live.rolls[:2]
    assert replay.roll(6) == values[2]
    assert replay.unused == 0


def test_recorded_dice_missing_roll() -> None:
    replay = RecordedDice([Roll(sides=6, value=4)])
    replay.roll(6)
    with pytest.raises(DiceExhausted, match="no roll left for 'second attack'"):
        replay.roll(6, "second attack")


def test_recorded_dice_mismatched_roll() -> None:
    replay = RecordedDice([Roll(sides=6, value=4)])
    with pytest.raises(DiceExhausted, match="d6 where the rules ask a d10"):
        replay.roll(10, "morale")


def test_fixed_dice() -> None:
    d = FixedDice([3, 1, 6])
    assert [d.roll(), d.roll(6, "x"), d.roll(10)] == [3, 1, 6]
    assert d.rolls == [Roll(sides=6, value=3), Roll(sides=6, value=1, why="x"), Roll(sides=10, value=6)]
    with pytest.raises(DiceExhausted):
        d.roll()


def test_seed_hash_is_sha256_hex() -> None:
    # FIPS 180-2 test vector for "abc"
    assert seed_hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    h = seed_hash("some game seed")
    assert len(h) == 64 and set(h) <= set("0123456789abcdef")
    assert h == hashlib.sha256(b"some game seed").hexdigest()
    assert seed_hash("some game seed!") != h
