"""The ``combat: dice`` option: step-reduction dice in place of the CRT of rule 7.06 (RULINGS)."""

from __future__ import annotations

import pytest

from engine.core.dice import FixedDice
from engine.core.errors import BadArguments
from engine.core.protocol import GameConfig
from engine.games.chitin.state import State
from tests.chitin.positions import RULES, act, legal, nb, position, put

X = "0811"


def dice_fight(scenario: str = "learning") -> State:
    s = position(scenario, step="attack")
    s.combat = "dice"
    return s


def test_7_06_dice_option_is_chosen_at_creation() -> None:
    cfg = GameConfig(game="chitin", scenario="learning", options={"combat": "dice"})
    s = RULES.setup(cfg, FixedDice([3, 1]))
    assert isinstance(s, State) and s.combat == "dice"
    with pytest.raises(BadArguments, match="crt"):
        RULES.setup(GameConfig(game="chitin", scenario="learning", options={"combat": "cards"}), FixedDice([]))


def test_7_041_and_7_042_rear_and_class_adds_become_rerolls_and_8_022_charge_doubles_the_dice() -> None:
    s = dice_fight("small")
    put(s, "R1", "GT2", nb(X, "N"), face="S").charging = True
    put(s, "B1", "TR2", X, face="S")  # the Gantuas are behind it, and Smashers beat Hackers
    s, ev = act(s, "Red", "attack", by=nb(X, "N"), on=X)
    assert any("16 dice, 2 re-roll(s), against 4" in e.text for e in ev)
    misses = [1] * 16
    s, ev = act(s, "Red", "done", dice=misses + misses + [6] * 16)  # two re-rolls of all misses
    assert s.combats[0].dice == 16 and s.combats[0].rerolls == 2
    assert s.combats[0].result.startswith("16 hits")


def test_7_063_dice_hits_remove_units_chosen_by_the_owner_and_the_counter_attack() -> None:
    s = dice_fight()
    put(s, "R1", "GT2", X, face="S")
    put(s, "R2", "W", X)
    put(s, "B1", "PX2", nb(X, "S"), face="N")
    put(s, "B2", "W", nb(X, "S"))
    s, _ = act(s, "Red", "attack", by=X, on=nb(X, "S"))
    s, _ = act(s, "Red", "done", dice=[6, 1, 1, 1, 1, 1, 1, 1])  # 8 dice, no adds: one hit
    assert [p.seat for p in RULES.pending(s)] == ["Blue"]
    assert {a["choice"] for a in legal(s, "Blue", "defend")} == {"accept_and_counter", "retreat", "retreat_and_counter"}
    s, ev = act(s, "Blue", "defend", choice="accept_and_counter", dice=[6, 6, 1, 1, 1, 1, 1])  # 6 + 1 dice
    assert RULES.pending(s)[0].verbs == ("lose",) and RULES.pending(s)[0].seat == "Blue"
    s, _ = act(s, "Blue", "lose", unit="B2")
    assert RULES.pending(s)[0].verbs == ("press",)
    s, _ = act(s, "Red", "press", choice="accept")
    assert s.counters["R1"].where == "dead"  # two hits on two Gantua units: no choice left
    assert s.counters["B1"].units == 2 and not s.counters["B1"].disrupted


def test_7_066_dice_retreat_ignores_a_hit_per_two_units_and_the_attacker_advances() -> None:
    s = dice_fight()
    put(s, "R1", "GT3", X, face="S")
    put(s, "B1", "PX3", nb(X, "S"), face="N")
    s, _ = act(s, "Red", "attack", by=X, on=nb(X, "S"))
    s, _ = act(s, "Red", "done", dice=[6, 6] + [1] * 10)
    s, ev = act(s, "Blue", "defend", choice="retreat")
    assert any("taking 1 of 2 hits" in e.text for e in ev)
    assert s.counters["B1"].units == 2
    assert RULES.pending(s)[0].seat == "Red" and RULES.pending(s)[0].verbs == ("retreat",)
    to = legal(s, "Red", "retreat")[0]["to"]
    s, _ = act(s, "Red", "retreat", stack="B1", to=to)
    assert RULES.pending(s)[0].verbs == ("advance", "face", "done")
    s, _ = act(s, "Red", "advance", stack=X, to=nb(X, "S"), dir="S")
    assert s.counters["R1"].hex == nb(X, "S") and s.active == "Blue"


def test_8_024_under_the_dice_only_chargers_are_disrupted() -> None:
    s = dice_fight()
    put(s, "R1", "PX1", X, face="S").charging = True
    put(s, "B1", "GT3", nb(X, "S"), face="N")
    s, _ = act(s, "Red", "attack", by=X, on=nb(X, "S"))
    s, _ = act(s, "Red", "done", dice=[1] * 6 + [1] * 6)  # 3 x 2 dice, one class re-roll: no hits
    s, _ = act(s, "Blue", "defend", choice="accept_and_counter", dice=[1] * 12)
    assert s.counters["R1"].disrupted and not s.counters["B1"].disrupted
