"""Each option of step-reduction-combat.txt, by its name in ``StepOptions``."""

from __future__ import annotations

import pytest

from engine.combat.retreats import HexFacts, check_split, judge_retreat, may_advance
from engine.combat.stepdice import (
    StepOptions,
    choose_advance,
    choose_attack,
    choose_defence,
    open_exchange,
    place_hit,
)
from engine.combat.steps import Stack, Unit, begin_hits, land_all
from engine.core.dice import FixedDice
from engine.core.errors import IllegalAction
from tests.combat.helpers import faces, stack


def order_hits(s: Stack, hits: int) -> Stack:
    return land_all(*begin_hits(s, hits, in_redoubt=False, redoubt_absorbs=False))[0]


# -- the combat sequence ------------------------------------------------------------------------


def test_combat_sequence_defender_has_three_choices_attacker_two() -> None:
    dice = FixedDice(faces(0, 4) + faces(0, 4))
    ex = open_exchange(stack(4, prefix="a"), stack(4, prefix="d"), StepOptions(), dice)
    assert ex.defender_options() == ["accept_and_counter", "retreat", "retreat_and_counter"]
    ex = choose_defence(ex, "accept_and_counter", dice)
    assert ex.attacker_options() == ["accept", "retreat"]


def test_combat_sequence_no_retreat_choices_when_no_retreat_is_open() -> None:
    dice = FixedDice(faces(0, 4) + faces(0, 4))
    ex = open_exchange(
        stack(4, prefix="a"),
        stack(4, prefix="d"),
        StepOptions(),
        dice,
        defender_can_retreat=False,
        attacker_can_retreat=False,
    )
    assert ex.defender_options() == ["accept_and_counter"]
    with pytest.raises(IllegalAction, match="the choices are: accept_and_counter"):
        choose_defence(ex, "retreat", dice)
    ex = choose_defence(ex, "accept_and_counter", dice)
    assert ex.attacker_options() == ["accept"]


def test_combat_sequence_plain_retreat_has_no_counter_attack_and_the_attacker_may_advance() -> None:
    dice = FixedDice(faces(2, 6))
    ex = choose_defence(
        open_exchange(stack(6, prefix="a"), stack(4, prefix="d"), StepOptions(), dice), "retreat", dice
    )
    assert ex.counter is None
    assert ex.defender.strength == 4 - (2 - 2)
    assert ex.step == "advance" and ex.advancing == "attacker"
    ex = choose_advance(ex, True)
    assert ex.step == "done" and ex.advanced == ("attacker",)


def test_combat_sequence_counter_attack_uses_original_strength_before_the_hits() -> None:
    dice = FixedDice(faces(3, 6) + faces(0, 5))
    ex = open_exchange(stack(6, prefix="a"), stack(5, prefix="d"), StepOptions(), dice)
    ex = choose_defence(ex, "accept_and_counter", dice)
    assert ex.counter is not None and ex.counter.strength == 5


def test_combat_sequence_attacker_retreating_lets_the_defending_stack_move_in() -> None:
    dice = FixedDice(faces(0, 4) + faces(3, 6))
    ex = choose_defence(
        open_exchange(stack(4, prefix="a"), stack(6, prefix="d"), StepOptions(), dice),
        "accept_and_counter",
        dice,
    )
    ex = choose_attack(ex, "retreat")
    assert ex.attacker.strength == 4 - (3 - 2)
    assert ex.advancing == "defender"
    assert choose_advance(ex, False).advanced == ()


def test_combat_sequence_a_game_may_count_the_dice_its_own_way() -> None:
    # A charge doubling the attack, and a defence counted apart from the units' strength.
    dice = FixedDice(faces(0, 12) + faces(0, 3))
    ex = open_exchange(
        stack(6, prefix="a"), stack(3, prefix="d"), StepOptions(), dice, attack_dice=12, defence_dice=5
    )
    assert ex.attack.strength == 12 and ex.counter_dice(False) == 5
    ex = choose_defence(ex, "retreat_and_counter", dice)
    assert ex.counter is not None and ex.counter.strength == 3  # note [2]: half of 5, rounded up


def test_rerolls_counter_attacker_advantages_reroll_its_misses() -> None:
    dice = FixedDice(faces(0, 4) + [1, 1, 1, 1] + [6, 1, 1, 1])
    ex = open_exchange(stack(4, prefix="a"), stack(4, prefix="d", advantages=1), StepOptions(), dice)
    ex = choose_defence(ex, "accept_and_counter", dice)
    assert ex.counter is not None and ex.counter.hits == 1 and len(ex.counter.passes) == 2


# -- taking hits ----------------------------------------------------------------------------------


def test_taking_hits_1_hit_allocation_attacker_the_side_that_rolled_chooses() -> None:
    dice = FixedDice(faces(1, 6) + faces(1, 4))
    options = StepOptions(hit_allocation="attacker")
    ex = choose_defence(
        open_exchange(stack(6, prefix="a"), stack(2, 2, prefix="d"), options, dice),
        "accept_and_counter",
        dice,
    )
    ex = choose_attack(ex, "accept")
    assert ex.placing == "defender" and ex.chooser() == "attacker"
    ex = place_hit(ex, "d2")
    assert [u.strength for u in ex.defender.units] == [2, 1]
    assert ex.attacker.strength == 5  # one unit: no choice to make


def test_taking_hits_2_hit_allocation_defender_the_owner_chooses() -> None:
    ex = open_exchange(stack(6, prefix="a"), stack(3, 3, prefix="d"), StepOptions(), FixedDice(faces(2, 6)))
    ex = choose_attack(choose_defence(ex, "accept_and_counter", FixedDice(faces(0, 6))), "accept")
    assert ex.placing == "defender" and ex.chooser() == "defender" and ex.targets() == ["d1", "d2"]
    with pytest.raises(IllegalAction, match="no unit 'zz'"):
        place_hit(ex, "zz")
    ex = place_hit(place_hit(ex, "d2"), "d2")
    assert [(u.id, u.strength) for u in ex.defender.units] == [("d1", 3), ("d2", 1)]
    assert ex.step == "done"


def test_taking_hits_2_armored_hits_come_in_pairs_halves_fraction_dropped() -> None:
    armor = Stack(
        units=(
            Unit(id="t1", strength=3, extra_defence=True),
            Unit(id="t2", strength=3, extra_defence=True),
            Unit(id="inf", strength=3),
        )
    )
    ex = open_exchange(stack(9, prefix="a"), armor, StepOptions(), FixedDice(faces(3, 9)))
    ex = choose_attack(choose_defence(ex, "accept_and_counter", FixedDice(faces(0, 9))), "accept")
    ex = place_hit(ex, "t1")
    assert ex.targets() == ["t1", "inf"]
    with pytest.raises(IllegalAction, match="t1 has taken the first of two hits"):
        place_hit(ex, "t2")
    ex = place_hit(ex, "t1")
    assert ex.defender.unit("t1").strength == 2
    ex = place_hit(ex, "t2")  # a lone hit on armor: fraction dropped
    assert ex.step != "hits"
    assert ex.defender.strength == 8
    assert ex.tallies["defender"].wasted == 1


def test_taking_hits_3_stacking_order_top_down_then_over_again() -> None:
    s = stack(2, 2, 2)
    assert [u.strength for u in order_hits(s, 2).units] == [1, 1, 2]
    after = order_hits(s, 4)
    assert [(u.id, u.strength) for u in after.units] == [("u2", 1), ("u3", 1)]


def test_taking_hits_3_stacking_order_armor_takes_two_hits_for_one_step() -> None:
    s = Stack(units=(Unit(id="tank", strength=3, extra_defence=True), Unit(id="inf", strength=3)))
    after = order_hits(s, 3)
    assert [(u.id, u.strength) for u in after.units] == [("tank", 2), ("inf", 2)]


def test_taking_hits_3_stacking_order_a_lone_last_hit_on_armor_has_no_effect() -> None:
    s = Stack(units=(Unit(id="inf", strength=3), Unit(id="tank", strength=3, extra_defence=True)))
    after, tally = land_all(*begin_hits(s, 2, in_redoubt=False, redoubt_absorbs=False))
    assert [(u.id, u.strength) for u in after.units] == [("inf", 2), ("tank", 3)]
    assert tally.wasted == 1


def test_taking_hits_3_stacking_order_in_an_exchange_needs_no_choice() -> None:
    options = StepOptions(hit_allocation="stacking_order")
    ex = open_exchange(stack(6, prefix="a"), stack(2, 2, prefix="d"), options, FixedDice(faces(3, 6)))
    ex = choose_attack(choose_defence(ex, "accept_and_counter", FixedDice(faces(0, 4))), "accept")
    assert ex.step == "done"
    assert [(u.id, u.strength) for u in ex.defender.units] == [("d2", 1)]  # d1 2, 1, gone; d2 2, 1


def test_soft_units_with_armor_still_two_points_a_step() -> None:
    s = Stack(units=(Unit(id="x", strength=6, soft=True, extra_defence=True),))
    assert order_hits(s, 4).units[0].strength == 2


# -- note [1] and extra defense options -----------------------------------------------------------


def test_note_1_reduce_per_units_counts_retreating_units() -> None:
    by_units = StepOptions(reduce_per="units")
    ex = open_exchange(stack(8, prefix="a"), stack(3, 3, 3, 3, prefix="d"), by_units, FixedDice(faces(4, 8)))
    ex = choose_defence(ex, "retreat", FixedDice([]))
    assert ex.hits_on["defender"] == 2  # four units: two hits ignored
    by_points = open_exchange(
        stack(8, prefix="a"), stack(3, 3, 3, 3, prefix="d"), StepOptions(), FixedDice(faces(4, 8))
    )
    assert choose_defence(by_points, "retreat", FixedDice([])).hits_on["defender"] == 0


def test_extra_defense_redoubt_absorbs_only_while_the_stack_holds_the_redoubt() -> None:
    options = StepOptions(redoubt_absorbs=True)
    held = stack(4, prefix="d", redoubt=2)
    ex = open_exchange(stack(8, prefix="a"), held, options, FixedDice(faces(3, 8)))
    ex = choose_attack(choose_defence(ex, "accept_and_counter", FixedDice(faces(0, 6))), "accept")
    assert ex.tallies["defender"].absorbed == 2 and ex.defender.strength == 3
    ex = open_exchange(stack(8, prefix="a"), held, options, FixedDice(faces(5, 8)))
    ex = choose_defence(ex, "retreat", FixedDice([]))
    assert ex.tallies["defender"].absorbed == 0 and ex.defender.strength == 1


def test_extra_defense_without_the_option_a_redoubt_absorbs_nothing() -> None:
    after, tally = begin_hits(stack(4, redoubt=3), 2, in_redoubt=True, redoubt_absorbs=False)
    assert tally.absorbed == 0 and tally.remaining == 2


# -- stacking --------------------------------------------------------------------------------------


def test_stacking_limit_in_units() -> None:
    options = StepOptions(stacking="units", stacking_limit=3)
    open_exchange(stack(1, 1, 1, prefix="a"), stack(4, prefix="d"), options, FixedDice(faces(0, 3)))
    with pytest.raises(IllegalAction, match="4 units, over the stacking limit of 3 units"):
        open_exchange(stack(1, 1, 1, 1, prefix="a"), stack(4, prefix="d"), options, FixedDice([]))


def test_stacking_limit_in_strength_points() -> None:
    options = StepOptions(stacking="strength", stacking_limit=12)
    open_exchange(stack(4, 4, 4, prefix="a"), stack(4, prefix="d"), options, FixedDice(faces(0, 12)))
    with pytest.raises(IllegalAction, match="defender's stack has 13 strength points"):
        open_exchange(stack(4, prefix="a"), stack(12, 1, prefix="d"), options, FixedDice([]))


# -- retreating ------------------------------------------------------------------------------------

VACANT = HexFacts(name="0506")
FRIENDS = HexFacts(name="0507", friendly_units=2, friendly_strength=8)
FRIENDS_IN_ZOC = HexFacts(name="0508", friendly_units=1, friendly_strength=4, enemy_zoc=True)
ZOC = HexFacts(name="0509", enemy_zoc=True)


def test_retreating_1_only_to_a_vacant_adjacent_hex_not_in_an_enemy_zone() -> None:
    o = StepOptions(retreat_path="vacant_adjacent")
    assert judge_retreat([VACANT], stack(4), o).ok
    assert "zone of control" in judge_retreat([ZOC], stack(4), o).reason
    assert not judge_retreat([FRIENDS, VACANT], stack(4), o).ok
    assert not judge_retreat([FRIENDS], stack(4), o).ok
    assert not judge_retreat([HexFacts(enemy=True)], stack(4), o).ok


def test_retreating_2_across_friendly_stacks_not_in_enemy_zones() -> None:
    o = StepOptions(retreat_path="across_friends")
    assert judge_retreat([FRIENDS, VACANT], stack(4), o).ok
    assert not judge_retreat([FRIENDS_IN_ZOC, VACANT], stack(4), o).ok
    assert "is empty" in judge_retreat([VACANT, VACANT], stack(4), o).reason


def test_retreating_3_across_friendly_stacks_even_in_enemy_zones() -> None:
    o = StepOptions(retreat_path="across_friends_in_zoc")
    assert judge_retreat([FRIENDS_IN_ZOC, VACANT], stack(4), o).ok
    assert not judge_retreat([FRIENDS_IN_ZOC, ZOC], stack(4), o).ok


def test_retreating_4_onto_friendly_stacks_within_stacking_limits() -> None:
    o = StepOptions(retreat_onto="within_limits", stacking="strength", stacking_limit=12)
    assert judge_retreat([FRIENDS], stack(4), o).ok
    verdict = judge_retreat([FRIENDS], stack(4, 1), o)
    assert not verdict.ok and "stacking limit (Retreating 4)" in verdict.reason


def test_retreating_5_onto_friendly_stacks_overstacked_until_the_first_opportunity() -> None:
    o = StepOptions(retreat_onto="overstack", stacking="units", stacking_limit=3)
    verdict = judge_retreat([FRIENDS], stack(1, 1), o)
    assert verdict.ok and verdict.overstacked
    assert not judge_retreat([FRIENDS], stack(1), o).overstacked


def test_retreating_6_the_stack_stays_together() -> None:
    with pytest.raises(IllegalAction, match="Retreating 6"):
        check_split({"u1": "0506", "u2": "0507"}, StepOptions(retreat_stack="together"))
    check_split({"u1": "0506", "u2": "0506"}, StepOptions(retreat_stack="together"))


def test_retreating_7_the_stack_may_split_up() -> None:
    check_split({"u1": "0506", "u2": "0507"}, StepOptions(retreat_stack="split"))


# -- advancing -------------------------------------------------------------------------------------


def test_advancing_1_only_when_the_defender_retreats() -> None:
    o = StepOptions(advance="on_retreat")
    assert may_advance(o, enemy_retreated=True, enemy_eliminated=False, retreated=False, survivors=True)
    assert not may_advance(o, enemy_retreated=False, enemy_eliminated=True, retreated=False, survivors=True)
    ex = open_exchange(stack(6, prefix="a"), stack(1, prefix="d"), o, FixedDice(faces(1, 6)))
    ex = choose_attack(choose_defence(ex, "accept_and_counter", FixedDice(faces(0, 1))), "accept")
    assert ex.defender.units == () and ex.step == "done"


def test_advancing_2_also_when_the_defender_is_eliminated_in_place() -> None:
    o = StepOptions(advance="on_retreat_or_elimination")
    ex = open_exchange(stack(6, prefix="a"), stack(1, prefix="d"), o, FixedDice(faces(1, 6)))
    ex = choose_attack(choose_defence(ex, "accept_and_counter", FixedDice(faces(0, 1))), "accept")
    assert ex.step == "advance" and ex.advancing == "attacker"
    assert not may_advance(o, enemy_retreated=True, enemy_eliminated=True, retreated=False, survivors=False)
