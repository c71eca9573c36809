"""Every worked example of step-reduction-combat.txt, with the dice falling as the text says."""

from __future__ import annotations

from engine.combat.stepdice import (
    StepOptions,
    choose_attack,
    choose_defence,
    counter_strength,
    half_strength,
    open_exchange,
    place_hit,
    reduced_hits,
    roll_hits,
)
from engine.combat.steps import Stack, Unit, begin_hits, land_all
from engine.core.dice import FixedDice
from tests.combat.helpers import faces, stack


def test_combat_sequence_each_six_is_one_hit() -> None:
    volley = roll_hits(FixedDice([6, 5, 4, 6, 3, 2, 1, 6]), 8)
    assert volley.passes == ((6, 5, 4, 6, 3, 2, 1, 6),)
    assert volley.hits == 3


def test_rerolls_gamer_garry_gets_four_hits_from_six() -> None:
    # Six dice, two hits; the four misses re-rolled give one more; the three left give one more.
    dice = FixedDice([6, 6, 2, 3, 4, 5] + [6, 1, 2, 3] + [6, 2, 2])
    volley = roll_hits(dice, 6, advantages=2)
    assert [len(p) for p in volley.passes] == [6, 4, 3]
    assert volley.hits == 4


def test_rerolls_every_die_says_why_it_was_rolled() -> None:
    dice = FixedDice([6, 2, 6])
    roll_hits(dice, 2, advantages=1, why="attack")
    assert [r.why for r in dice.rolls] == [
        "attack, die 1 of 2",
        "attack, die 2 of 2",
        "attack, re-roll 1, die 1 of 1",
    ]


def test_rerolls_lucky_larry_has_nothing_to_reroll() -> None:
    dice = FixedDice([6] * 6)
    volley = roll_hits(dice, 6, advantages=2)
    assert volley.passes == ((6,) * 6,)
    assert volley.hits == 6
    assert len(dice.rolls) == 6


def test_rerolls_loser_luigi_rerolls_all_six_twice_for_nothing() -> None:
    dice = FixedDice([1, 2, 3, 4, 5, 5] * 3)
    volley = roll_hits(dice, 6, advantages=2)
    assert [len(p) for p in volley.passes] == [6, 6, 6]
    assert volley.hits == 0


def test_extra_attack_strength_ivan_counter_attacks_with_eleven() -> None:
    ivan = stack(6, prefix="ivan", redoubt=5)
    francois = stack(8, prefix="fr")
    dice = FixedDice(faces(0, 8) + faces(0, 11))
    ex = open_exchange(francois, ivan, StepOptions(), dice)
    assert ex.attack.strength == 8 and len(ex.attack.passes[0]) == 8
    ex = choose_defence(ex, "accept_and_counter", dice)
    assert ex.counter is not None and ex.counter.strength == 11
    assert len(ex.counter.passes[0]) == 11
    assert counter_strength(ivan, retreating=False) == 11


def test_extra_attack_strength_further_hits_wear_the_redoubt_down() -> None:
    # "additional hits reduce the intrinsic strength of the redoubt"
    ivan = stack(2, prefix="ivan", redoubt=5)
    francois = stack(8, prefix="fr")
    dice = FixedDice(faces(5, 8) + faces(0, 7))
    ex = choose_defence(open_exchange(francois, ivan, StepOptions(), dice), "accept_and_counter", dice)
    ex = choose_attack(ex, "accept")
    assert ex.defender.units == ()
    assert ex.defender.redoubt == 2
    assert ex.tallies["defender"].redoubt_lost == 3


def test_extra_defense_rolf_armor_loses_one_of_three_hits_nigel_takes_one() -> None:
    nigel = Stack(units=(Unit(id="nigel", strength=12),))
    rolf = Stack(units=(Unit(id="rolf", strength=4, extra_defence=True),))
    dice = FixedDice(faces(3, 12) + faces(1, 4))
    ex = open_exchange(nigel, rolf, StepOptions(), dice)
    ex = choose_defence(ex, "accept_and_counter", dice)
    ex = choose_attack(ex, "accept")
    assert ex.attack.hits == 3 and ex.counter is not None and ex.counter.hits == 1
    assert ex.defender.strength == 3  # half of three hits, fraction dropped
    assert ex.attacker.strength == 11
    assert ex.step == "done"


def test_extra_defense_a_city_gives_infantry_the_armor_advantage() -> None:
    city = stack(4, prefix="inf", cover=True)
    after, tally = land_all(*begin_hits(city, 3, in_redoubt=True, redoubt_absorbs=False))
    assert after.strength == 3
    assert tally.wasted == 1


def test_extra_defense_a_redoubt_absorbs_its_strength_in_hits_undamaged() -> None:
    held = stack(6, redoubt=5)
    after, tally = land_all(*begin_hits(held, 7, in_redoubt=True, redoubt_absorbs=True))
    assert tally.absorbed == 5
    assert after.redoubt == 5  # without being damaged
    assert after.strength == 4


def test_soft_units_strength_eight_steps_six_four_two_then_gone() -> None:
    soft = Stack(units=(Unit(id="soft", strength=8, soft=True),))
    seen = []
    for _ in range(4):
        soft, _tally = land_all(*begin_hits(soft, 1, in_redoubt=False, redoubt_absorbs=False))
        seen.append(soft.strength)
    assert seen == [6, 4, 2, 0]
    assert soft.units == ()


def test_note_1_six_or_seven_points_taking_five_hits_ignore_three() -> None:
    assert reduced_hits(5, 6) == 2
    assert reduced_hits(5, 7) == 2
    assert reduced_hits(5, 8) == 1
    assert reduced_hits(1, 6) == 0


def test_note_1_in_play_a_retreating_stack_of_seven_takes_two_of_five() -> None:
    dice = FixedDice(faces(5, 8))
    ex = open_exchange(stack(8, prefix="a"), stack(4, 3, prefix="d"), StepOptions(), dice)
    ex = choose_defence(ex, "retreat", dice)
    assert ex.hits_on["defender"] == 2
    assert ex.step == "hits" and ex.chooser() == "defender"
    ex = place_hit(place_hit(ex, "d1"), "d1")
    assert ex.defender.strength == 5


def test_note_2_seven_or_eight_retreating_points_counter_attack_with_four() -> None:
    assert half_strength(7) == 4
    assert half_strength(8) == 4
    for strengths in ((4, 3), (4, 4)):
        dice = FixedDice(faces(0, 6) + faces(0, 4))
        ex = open_exchange(stack(6, prefix="a"), stack(*strengths, prefix="d"), StepOptions(), dice)
        ex = choose_defence(ex, "retreat_and_counter", dice)
        assert ex.counter is not None and ex.counter.strength == 4


def test_soft_units_a_game_may_count_a_whole_unit_as_one_step() -> None:
    # A counter of three strength-4 units where one hit removes one unit.
    units = tuple(Unit(id=f"g{i}", strength=4, step_points=4) for i in range(3))
    after, tally = land_all(*begin_hits(Stack(units=units), 2, in_redoubt=False, redoubt_absorbs=False))
    assert [u.id for u in after.units] == ["g2"]
    assert tally.eliminated == ("g0", "g1")
