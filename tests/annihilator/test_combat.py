"""Close combat, the Mind Weapon and the tables: rules 7.1, 7.2, the CRT and the Combat Effect Table."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction
from engine.core.odds import odds
from engine.games.annihilator import data
from tests.annihilator.helpers import A, M, hexes_of, legal, play, position

HERE = hexes_of("passage")[10]
THERE = hexes_of("passage")[40]


def test_7_1_crt_printed_rows_and_reconstructed_rows():
    t = data.crt()
    assert t.columns == ["1-2", "1-1", "2-1", "3-1", "4-1"]
    assert t.rows[1] == ["NE", "NE", "NE", "D", "D"]
    assert t.rows[2] == ["NE", "NE", "D", "D", "X"]
    assert t.rows[3] == ["NE", "D", "D", "X", "X"]
    assert t.rows[4] == ["D", "D", "X", "X", "X"]
    assert t.rows[5][0] == "D"  # the last printed cell
    assert t.rows[5] == ["D", "X", "X", "X", "X"] and t.rows[6] == ["X"] * 5  # RULINGS 2
    assert t.source == "partly reconstructed" and t.printed_cells[5] == 1


def test_7_1_example_assault_squad_against_security_robot_is_2_1():
    assert odds(data.crt(), 4, 2).column == "2-1"
    s = position(step="h_combat", units={"A1": HERE, "R1": HERE})
    s, ev = play(s, M, "attack", [1], at=HERE)
    assert ev[0].data["odds"] == "2-1" and ev[0].data["result"] == "NE"
    assert "A1 (4) against R1 (2) at 2-1" in ev[0].text


def test_7_1_example_two_assault_squads_against_three_robots_is_1_1():
    assert odds(data.crt(), 8, 6).column == "1-1"
    s = position(step="h_combat", units={"A1": HERE, "A2": HERE, "R1": HERE, "R2": HERE, "R3": HERE})
    s, ev = play(s, M, "attack", [3], at=HERE)  # 1-1, die 3: D
    assert ev[0].data == {"odds": "1-1", "die": 3, "result": "D"}
    # The result applies to every defending unit; disrupted robots are eliminated.
    assert not any(s.unit(r).alive for r in ("R1", "R2", "R3"))


def test_7_1_attacking_is_voluntary_and_once_a_hex():
    s = position(step="h_combat", units={"A1": HERE, "R1": HERE})
    assert {a.verb for a in legal(s, M)} == {"attack", "done"}
    s, _ = play(s, M, "attack", [1], at=HERE)
    assert not legal(s, M, "attack")
    with pytest.raises(IllegalAction, match=rf"your units in {HERE} have already fought this phase \(rule 7.1\)"):
        play(s, M, "attack", at=HERE)


def test_7_1_robots_disrupt_humans_who_then_may_not_move_or_fire():
    s = position(step="a_combat", units={"A1": HERE, "A2": HERE, "R1": HERE, "R2": HERE, "R3": HERE,
                                         "R4": HERE, "R5": HERE, "R6": THERE})
    s, ev = play(s, A, "attack", [2], at=HERE)  # 15 against 8: 1-1, die 2... NE
    assert ev[0].data["odds"] == "1-1"
    s = position(step="a_combat", units={"A1": HERE, "A2": HERE, "A3": THERE, "R1": HERE, "R2": HERE,
                                         "R3": HERE, "R4": HERE, "R5": HERE, "R6": HERE})
    s, ev = play(s, A, "attack", [2], at=HERE)  # 18 against 8: 2-1, die 2: D
    assert ev[0].data == {"odds": "2-1", "die": 2, "result": "D"}
    assert s.unit("A1").disrupted and s.unit("A2").disrupted and s.unit("A1").alive
    s, _ = play(s, A, "done")
    assert (s.turn, s.step) == (2, "h_move")
    assert {a.args["unit"] for a in legal(s, M, "move")} == {"A3"}
    with pytest.raises(IllegalAction, match=r"Assault Squad A1 is disrupted and may not move this turn"):
        play(s, M, "move", unit="A1", to=THERE)
    s, _ = play(s, M, "done")
    # The disrupted squads may not fire, so close combat is passed over; they stay disrupted for a whole
    # game turn, so they set no charge either (RULINGS Annihilator 6).
    assert s.step == "h_demo"
    assert s.unit("A1").disrupted and {a.args["unit"] for a in legal(s, M, "charge")} == {"A3"}


def test_7_1_disrupted_units_may_not_fire_and_recover_after_a_turn():
    s = position(step="h_combat", units={"A1": HERE, "R1": HERE})
    s = s.clone()
    s.units["A1"].disrupted = True
    assert not legal(s, M, "attack")
    with pytest.raises(IllegalAction, match=r"none of your units in .* can attack.*rule 7.1"):
        play(s, M, "attack", at=HERE)
    s, _ = play(s, M, "done")
    assert not s.unit("A1").disrupted


def test_7_1_odds_worse_than_1_2_no_effect_better_than_4_1_as_4_1():
    s = position(step="a_combat", units={"A1": HERE, "A2": HERE, "A3": HERE, "R1": HERE})
    s, ev = play(s, A, "attack", [], at=HERE)  # 3 against 12: no die is rolled
    assert ev[0].data["result"] == "NE" and ev[0].data["die"] is None
    assert odds(data.crt(), 30, 2).column == "4-1"
    s = position(step="h_combat", units={"A1": HERE, "A2": HERE, "A3": HERE, "B1": HERE})
    s, ev = play(s, M, "attack", [1], at=HERE)  # 12 against 1 is resolved at 4-1
    assert ev[0].data == {"odds": "4-1", "die": 1, "result": "D"} and not s.unit("B1").alive


def test_7_1_repairbots_alone_cannot_attack():
    s = position(step="a_combat", units={"A1": HERE, "B1": HERE, "B2": HERE})
    assert not legal(s, A, "attack")


def test_7_2_mind_weapon_strikes_any_hex_at_1_2_once_a_turn():
    s = position(step="a_combat", units={"A1": THERE, "A2": THERE, "D1": HERE})
    assert {str(a.args["at"]) for a in legal(s, A, "mind")} == {HERE, THERE}
    s, ev = play(s, A, "mind", [4], at=THERE)  # 1-2, die 4: D
    assert s.unit("A1").disrupted and s.unit("A2").disrupted and not s.unit("D1").disrupted
    assert "at 1-2" in ev[0].text and "rule 7.2" in ev[0].text
    with pytest.raises(IllegalAction, match=r"the Mind Weapon has already struck this turn \(rule 7.2\)"):
        play(s, A, "mind", at=HERE)
    s = position(step="a_combat", units={"A1": THERE})
    s, _ = play(s, A, "mind", [6], at=THERE)  # die 6: X
    assert s.step == "over" and s.winner == A


def test_7_1_combat_effect_table_rows():
    eff = data.effects().results
    assert (eff["NE"].units, eff["D"].units, eff["X"].units) == (None, "disrupt", "eliminate")
    assert eff["D"].units_demolition == "eliminate"
    assert eff["D"].hex == {"armor": "obpas", "other": "clear"}
    assert eff["X"].hex == {"armor": "clear", "other": "clear"}
