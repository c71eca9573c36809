"""The Colonial Marine against two Bugs (close-assault.txt), with every number of the text."""

from __future__ import annotations

import pytest

from engine.combat.assault import Figure, resolve_assault
from engine.core.dice import FixedDice

MARINE = Figure(id="Marine", weapon=3, weapon_name="pulse rifle", modifiers=("veterans",))
BUGS = [Figure(id=f"Bug{n}", weapon=4, weapon_name="teeth, claws and tails") for n in (1, 2)]


def marine_fight(bug_one: int, bug_two: int, marine: int):
    # Dice fall attackers first (Bug One, Bug Two), then the defending Marine.
    return resolve_assault(BUGS, [MARINE], FixedDice([bug_one, bug_two, marine]))


def test_close_assault_marine_example_totals_eight_six_eight() -> None:
    fight = marine_fight(2, 4, 5)
    assert fight.roll_of("Marine").total == 8  # 5 + 1 + 3 - 1
    assert fight.roll_of("Marine").opponents == 2
    assert fight.roll_of("Bug1").total == 6  # 2 + 4
    assert fight.roll_of("Bug2").total == 8  # 4 + 4
    assert (
        fight.roll_of("Marine").text()
        == "Marine rolls 5 + 3 (pulse rifle) + 1 (veterans) - 1 (outnumbered) = 8"
    )


def test_close_assault_marine_example_bug_one_blown_away_bug_two_forced_back() -> None:
    fight = marine_fight(2, 4, 5)
    assert [(c.attacker, c.result) for c in fight.combats] == [
        ("Bug1", "attacker_killed"),
        ("Bug2", "attacker_forced_back"),
    ]
    assert fight.fates == {"Bug1": "killed", "Bug2": "forced_back", "Marine": "fights_on"}


@pytest.mark.parametrize("bugs", [(5, 4), (2, 5), (6, 4), (2, 6)])
def test_close_assault_marine_example_either_bug_rolling_five_or_better_kills_the_marine(bugs) -> None:
    fight = marine_fight(bugs[0], bugs[1], 5)
    assert fight.fates["Marine"] == "killed_or_captured"


def test_close_assault_marine_example_a_marine_six_kills_both_bugs() -> None:
    fight = marine_fight(2, 4, 6)
    assert fight.roll_of("Marine").total == 9
    assert fight.fates == {"Bug1": "killed", "Bug2": "killed", "Marine": "fights_on"}
