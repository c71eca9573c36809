"""The option close_combat:assault: close combat (7.1) by the close assault system (RULINGS)."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction
from engine.games.annihilator import RULES, data
from tests.annihilator.helpers import A, M, config, hexes_of, play, position

HERE = hexes_of("passage")[10]


def test_7_1_assault_option_is_chosen_at_set_up():
    assert RULES.setup(config(close_combat="assault"), None).close_combat == "assault"
    assert data.figures().source == "reconstructed"


def test_7_1_assault_marine_breaks_a_security_robot():
    s = position(step="h_combat", units={"A1": HERE, "R1": HERE}, close_combat="assault")
    s, ev = play(s, M, "attack", [5, 1], at=HERE)  # A1 5+3+1+1 = 10 against R1 1+4 = 5: breaks
    assert "A1 rolls 5 + 3 (rifle-type weapon) + 1 (armoured infantry) + 1 (veterans) = 10" in ev[0].text
    assert "R1 rolls 1 + 4 (aliens) = 5" in ev[0].text
    assert not s.unit("R1").alive and s.unit("A1").alive  # a broken robot is a disrupted robot: eliminated


def test_7_1_assault_attacker_killed_and_demolition_squad_leaves_its_charges():
    s = position(step="h_combat", units={"D1": HERE, "R1": HERE}, close_combat="assault")
    s, ev = play(s, M, "attack", [1, 6], at=HERE)  # D1 1+3+1 = 5 against R1 6+4 = 10: falls back
    assert s.unit("D1").alive and s.unit("D1").disrupted and s.unit("R1").alive
    s = position(step="h_combat", units={"D1": HERE, "R1": HERE}, close_combat="assault")
    s, ev = play(s, M, "attack", [2, 3], at=HERE)  # 6 against 7: the attacker is killed
    assert not s.unit("D1").alive and s.caches == {HERE: 3}  # 8.5 still applies


def test_7_1_assault_two_robots_outnumber_a_marine():
    s = position(step="a_combat", units={"A1": HERE, "R1": HERE, "R2": HERE, "B1": HERE},
                 close_combat="assault")
    s, ev = play(s, A, "attack", [3, 3, 4], at=HERE)  # R1 7, R2 7; A1 4+5-1 = 8: both attackers killed
    assert "A1 rolls 4 + 3 (rifle-type weapon) + 1 (armoured infantry) + 1 (veterans) - 1 (outnumbered) = 8" \
        in ev[0].text
    assert not s.unit("R1").alive and not s.unit("R2").alive and s.unit("B1").alive  # Repairbots do not attack


def test_7_2_mind_weapon_keeps_the_odds_table_under_the_assault_option():
    s = position(step="a_combat", units={"A1": HERE}, close_combat="assault")
    s, ev = play(s, A, "mind", [4], at=HERE)
    assert "at 1-2" in ev[0].text and s.unit("A1").disrupted


def test_7_1_assault_ruling_the_default_pairing_is_offered_as_the_legal_attack():
    s = position(step="h_combat", units={"A1": HERE, "A2": HERE, "D1": HERE, "R1": HERE, "R2": HERE},
                 close_combat="assault")
    attacks = [a for a in RULES.legal_actions(s, M) if a.verb == "attack"]
    assert [a.args for a in attacks] == [{"at": HERE, "pairs": "A1-R1,A2-R2,D1-R1"}]
    s2, ev = play(s, M, "attack", [1, 1, 1, 1, 1], at=HERE)  # no pairs given: the default pairing
    assert ev[0].data["pairs"] == [["A1", "R1"], ["A2", "R2"], ["D1", "R1"]]


def test_7_1_assault_ruling_the_attacker_chooses_which_units_attack():
    s = position(step="h_combat", units={"A1": HERE, "A2": HERE, "D1": HERE, "R1": HERE},
                 close_combat="assault")
    s, ev = play(s, M, "attack", [4, 3], at=HERE, pairs="A1-R1")  # A1 4+5 = 9 against R1 3+4 = 7: killed
    assert "A1 rolls 4" in ev[0].text and "A2 rolls" not in ev[0].text and "D1 rolls" not in ev[0].text
    assert not s.unit("R1").alive and s.unit("A2").alive and not s.unit("A2").disrupted


def test_7_1_assault_ruling_a_bad_pairing_is_refused_and_changes_nothing():
    s = position(step="h_combat", units={"A1": HERE, "A2": HERE, "R1": HERE, "R2": HERE},
                 close_combat="assault")
    before = s.model_dump_json()
    for pairs, words in [("A1-R1", "every figure must face at least one opponent.*R2"),
                         ("A1-R9", "must name a fighting attacker"),
                         ("A1", "attacker-defender, like A1-R1"),
                         ("R1-A1", "must name a fighting attacker")]:
        with pytest.raises(IllegalAction, match=words):
            play(s, M, "attack", at=HERE, pairs=pairs)
    assert s.model_dump_json() == before
    crt = position(step="h_combat", units={"A1": HERE, "R1": HERE})
    with pytest.raises(IllegalAction, match="close_combat:assault only"):
        play(crt, M, "attack", at=HERE, pairs="A1-R1")
