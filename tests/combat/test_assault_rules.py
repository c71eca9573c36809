"""Close assault: the five outcomes, pairing, outnumbering, lowest results first, opportunity fire."""

from __future__ import annotations

import pytest

from engine.combat.assault import Figure, assault_result, pair_up, resolve_assault, weapon_factor
from engine.core.dice import FixedDice
from engine.core.errors import IllegalAction


@pytest.mark.parametrize(
    ("attack", "defence", "result"),
    [
        (8, 4, "defender_breaks"),  # twice
        (9, 4, "defender_breaks"),  # more than twice
        (7, 4, "defender_killed"),  # more, but less than twice
        (5, 5, "attacker_forced_back"),  # equal
        (5, 7, "attacker_killed"),  # defender greater
        (4, 8, "attacker_falls_back"),  # defender twice or more
        (0, 0, "attacker_forced_back"),
        (-3, 2, "attacker_falls_back"),  # a total below zero counts as zero
    ],
)
def test_close_assault_five_outcomes_by_totals(attack: int, defence: int, result: str) -> None:
    assert assault_result(attack, defence) == result


def test_close_assault_a_broken_defender_that_cannot_move_away_is_killed_or_captured() -> None:
    trapped = Figure(id="D", can_move_away=False)
    fight = resolve_assault([Figure(id="A", weapon=3)], [trapped], FixedDice([6, 1]))
    assert fight.combats[0].result == "defender_breaks"
    assert fight.fates["D"] == "killed_or_captured"
    free = resolve_assault([Figure(id="A", weapon=3)], [Figure(id="D")], FixedDice([6, 1]))
    assert free.fates["D"] == "broken"


def test_close_assault_pairing_every_figure_faces_at_least_one_opponent() -> None:
    assert pair_up(["a1", "a2", "a3"], ["d1", "d2"]) == (("a1", "d1"), ("a2", "d2"), ("a3", "d1"))
    assert pair_up(["a1"], ["d1", "d2"]) == (("a1", "d1"), ("a1", "d2"))
    for a in range(1, 6):
        for d in range(1, 6):
            pairs = pair_up([f"a{i}" for i in range(a)], [f"d{i}" for i in range(d)])
            faced = {x for p in pairs for x in p}
            assert len(faced) == a + d
            assert len(pairs) == max(a, d)


def test_close_assault_outnumbered_minus_one_for_each_opponent_after_the_first() -> None:
    fight = resolve_assault([Figure(id=f"a{i}") for i in range(3)], [Figure(id="d")], FixedDice([1, 1, 1, 6]))
    assert fight.roll_of("d").total == 6 - 2
    assert all(fight.roll_of(f"a{i}").total == 1 for i in range(3))


def test_close_assault_table_5_modifiers_add_to_the_die() -> None:
    fig = Figure(id="x", weapon=weapon_factor("melee"), modifiers=("warriors", "wounded", "monsters"))
    fight = resolve_assault([fig], [Figure(id="y", modifiers=("prepared_position",))], FixedDice([2, 2]))
    assert fight.roll_of("x").total == 2 + 3 + 2 - 2 + 6
    assert fight.roll_of("y").total == 2 + 2
    assert weapon_factor("improvised") == 1 and weapon_factor("+4") == 4


def test_close_assault_ruling_lowest_results_first_a_break_before_contact_comes_before_a_kill() -> None:
    # d totals 3 - 1 = 2. Against a1's 5 it breaks; against a2's 3 it would be killed. RULINGS:
    # results before contact first, so d breaks and takes no part in its pairing with a2.
    fight = resolve_assault([Figure(id="a1"), Figure(id="a2")], [Figure(id="d")], FixedDice([5, 3, 3]))
    assert fight.roll_of("d").total == 2
    assert [(c.attacker, c.result) for c in fight.combats] == [("a1", "defender_breaks"), ("a2", None)]
    assert fight.fates == {"a1": "fights_on", "a2": "fights_on", "d": "broken"}


def test_close_assault_ruling_an_attacker_that_falls_back_takes_no_part_in_its_other_pairings() -> None:
    # a totals 4 - 1 = 3: d1's 5 + 2 = 7 makes it fall back (7 >= 6) before contact, so its lower
    # pairing with d2 (2 against 3, which would kill d2) never comes to blows.
    fight = resolve_assault([Figure(id="a")], [Figure(id="d1", weapon=2), Figure(id="d2")], FixedDice([4, 5, 2]))
    assert [r.total for r in fight.rolls] == [3, 7, 2]
    assert [(c.defender, c.result) for c in fight.combats] == [("d1", "attacker_falls_back"), ("d2", None)]
    assert fight.fates == {"a": "fell_back", "d1": "fights_on", "d2": "fights_on"}


def test_close_assault_ruling_after_contact_results_go_from_the_lowest_total_up() -> None:
    # No result before contact: a1 4 kills d (3 < 4 < 6) in the pairing with the lower totals,
    # so a2's pairing (5 against 3) finds d gone.
    fight = resolve_assault([Figure(id="a1", weapon=1), Figure(id="a2", weapon=2)], [Figure(id="d", weapon=1)],
                            FixedDice([3, 3, 3]))
    assert [r.total for r in fight.rolls] == [4, 5, 3]
    assert [(c.attacker, c.result) for c in fight.combats] == [("a1", "defender_killed"), ("a2", None)]


def test_close_assault_lowest_results_first_orders_pairings_by_their_lowest_total() -> None:
    fight = resolve_assault(
        [Figure(id="high", weapon=4), Figure(id="low")],
        [Figure(id="d1"), Figure(id="d2")],
        FixedDice([5, 1, 3, 3]),
    )
    assert [c.attacker for c in fight.combats] == ["low", "high"]
    assert fight.fates == {"high": "fights_on", "low": "fell_back", "d1": "broken", "d2": "fights_on"}


def test_close_assault_a_defender_already_killed_leaves_its_other_attacker_without_combat() -> None:
    fight = resolve_assault(
        [Figure(id="a1", weapon=2), Figure(id="a2", weapon=2)], [Figure(id="d")], FixedDice([4, 5, 3])
    )
    # d: 3 - 1 = 2; a1 6 breaks it first (lowest 2, then 6 before 7), a2's pairing finds it gone.
    assert fight.combats[0].attacker == "a1" and fight.combats[0].result == "defender_breaks"
    assert fight.combats[1].result is None
    assert "no combat" in fight.combats[1].text()


def test_close_assault_opportunity_fire_casualties_are_removed_before_contact() -> None:
    fight = resolve_assault(
        [Figure(id="a1"), Figure(id="a2")], [Figure(id="d")], FixedDice([4, 4]), opportunity_fire=("a1",)
    )
    assert fight.fates["a1"] == "shot_down"
    assert fight.pairs == (("a2", "d"),)
    assert fight.roll_of("d").opponents == 1 and fight.roll_of("d").total == 4


def test_close_assault_opportunity_fire_only_if_the_defender_has_not_attacked_this_round() -> None:
    with pytest.raises(IllegalAction, match="already made an attack this round"):
        resolve_assault(
            [Figure(id="a")],
            [Figure(id="d")],
            FixedDice([1, 1]),
            opportunity_fire=("a",),
            defender_has_fired=True,
        )


def test_close_assault_opportunity_fire_that_downs_every_attacker_ends_the_assault() -> None:
    fight = resolve_assault([Figure(id="a")], [Figure(id="d")], FixedDice([]), opportunity_fire=("a",))
    assert fight.combats == () and fight.fates == {"a": "shot_down", "d": "fights_on"}


def test_close_assault_pairings_given_must_cover_every_figure() -> None:
    with pytest.raises(IllegalAction, match="unpaired: a2"):
        resolve_assault(
            [Figure(id="a1"), Figure(id="a2")], [Figure(id="d")], FixedDice([1] * 3), pairs=[("a1", "d")]
        )
    with pytest.raises(IllegalAction, match="must name a fighting attacker"):
        resolve_assault([Figure(id="a1")], [Figure(id="d")], FixedDice([1] * 2), pairs=[("d", "a1")])


def test_close_assault_prepared_position_is_for_defenders_only() -> None:
    with pytest.raises(IllegalAction, match="only a defender"):
        resolve_assault(
            [Figure(id="a", modifiers=("prepared_position",))], [Figure(id="d")], FixedDice([1, 1])
        )


def test_close_assault_figure_names_must_differ() -> None:
    with pytest.raises(IllegalAction, match="used more than once: x"):
        resolve_assault([Figure(id="x")], [Figure(id="x")], FixedDice([1, 1]))
