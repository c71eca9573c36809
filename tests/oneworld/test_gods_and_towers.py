"""Towers of Balance (9.1, 9.2), the gods (10.1-10.4, appendix C), the end (11.1, 11.2), the charts (13.x), the turn (4.x)."""

from __future__ import annotations

import pytest

from engine.core.protocol import Action
from engine.games.oneworld.state import BEATS
from engine.games.oneworld.turn import TOWER_CHART
from tests.oneworld.positions import RULES, act, destinations, legal, position, refusal, where

GODS = {"BORG": "0702", "CHEZ": "0720"}


def _accost(**kw):
    # A CHEZ Stone next to BORG's gods in 0702.
    s = position("C1 Stone 0703", "C2 Fog 0704", gods=GODS, active="CHEZ", rest="lost", **kw)
    return act(s, "CHEZ", "move", child="C1", to="0702")


def test_appendix_c_combat_versus_a_god():
    s, events = _accost()
    assert s.step == "accost_child" and "accosts BORG's god in 0702" in events[-1].text
    # Transformation of the Child: Blade, in secret.
    [prompt] = RULES.pending(s)
    assert prompt.seat == "CHEZ" and prompt.secret
    s, events = act(s, "CHEZ", "aspect", aspect="Blade")
    assert [e.text for e in events if e.public] == ["CHEZ has chosen the aspect of C1"]
    assert "Blade" not in RULES.view(s, "BORG").model_dump_json()
    # Transformation of the God: "Stone", says BORG.
    [prompt] = RULES.pending(s)
    assert prompt.seat == "BORG" and prompt.secret and prompt.rule == "10.4"
    s, events = act(s, "BORG", "aspect", aspect="Stone")
    reveal = [e for e in events if e.kind == "reveal"][0]
    assert reveal.data == {"child": "C1", "child_aspect": "Blade", "god_aspect": "Stone", "life_lost": False}
    # Stone defeats Blade: no life lost; the Child is destroyed and goes under its Tower.
    assert s.lives["BORG"] == 3
    assert where(s, "C1") == "tower"
    assert s.step == "move" and s.active == "CHEZ"


def test_10_1_there_are_two_gods_borg_and_chez():
    s = position(gods=GODS)
    gods = [c for c in RULES.view(s, None).counters if c.id.endswith("god")]
    assert {(g.side, g.hex) for g in gods} == {("BORG", "0702"), ("CHEZ", "0720")}


def test_10_2_a_won_accost_takes_one_of_three_lives():
    s, _ = _accost()
    s, _ = act(s, "CHEZ", "aspect", aspect="Fog")
    s, events = act(s, "BORG", "aspect", aspect="Stone")
    assert s.lives["BORG"] == 2 and where(s, "C1") == "tower"
    [reveal] = [e for e in events if e.kind == "reveal"]
    assert "loses a life, 2 left" in reveal.text
    assert [e.text for e in events if e.kind == "committed"] == ["BORG has chosen the aspect of its god"]
    assert RULES.outcome(s) is None


def test_10_3_the_gods_never_move():
    s = position("B1 Stone 0703", gods=GODS)
    assert not legal(s, "BORG", "flee")
    assert "never want to move" in RULES.explain_illegal(s, "BORG", Action(verb="flee", args={"to": "0701"}))


def test_10_4_only_one_child_a_turn_may_accost_the_enemy_god():
    s, _ = _accost()
    s, _ = act(s, "CHEZ", "aspect", aspect="Fog")
    s, _ = act(s, "BORG", "aspect", aspect="Fog")
    assert "0702" not in destinations(s, "C2")
    msg = refusal(s, "CHEZ", "move", child="C2", to="0702")
    assert "only one Child a turn may accost the enemy god" in msg and "rule 10.4" in msg


def test_10_4_the_child_always_dies_even_when_it_wins():
    s, _ = _accost()
    s, _ = act(s, "CHEZ", "aspect", aspect="Stone")
    s, _ = act(s, "BORG", "aspect", aspect="Blade")
    assert s.lives["BORG"] == 2 and where(s, "C1") == "tower"


def test_10_4_a_blade_stops_on_entering_the_enemy_gods_hex():
    s = position("C1 Blade 0707", gods=GODS, active="CHEZ", rest="lost")
    s, _ = act(s, "CHEZ", "move", child="C1", dir="N")
    assert where(s, "C1") == "0702" and s.step == "accost_child"


def test_11_1_and_11_2_the_game_ends_the_moment_the_last_life_goes():
    s, _ = _accost(lives={"BORG": 1, "CHEZ": 3})
    s, _ = act(s, "CHEZ", "aspect", aspect="Blade")
    s, events = act(s, "BORG", "aspect", aspect="Fog")
    assert s.step == "over" and RULES.pending(s) == []
    outcome = RULES.outcome(s)
    assert outcome.winner == "CHEZ" and outcome.score == {"BORG": 0, "CHEZ": 3}
    assert events[-1].kind == "end" and "rule 11.2" in events[-1].text
    with pytest.raises(Exception, match="over"):
        act(s, "CHEZ", "end")


def test_9_1_and_9_2_the_tower_brings_back_one_child_a_turn():
    s = position("B1 Stone 0606", gods=GODS)  # twelve BORG Children lie under the Tower
    s, events = act(s, "BORG", "end", dice=[4])
    [back] = [c for c in s.children if c.side == "BORG" and c.where == "map" and c.id != "B1"]
    assert back.hex == "0111" and back.aspect == "Blade"
    assert any("rolls 4" in e.text and "rules 9.2, 13.3" in e.text for e in events)
    assert len([c for c in s.children if c.side == "BORG" and c.where == "tower"]) == 11


def test_9_2_never_more_than_thirteen_on_the_map_and_nothing_without_the_dead():
    units = [f"B{i} Stone 06{i + 2:02d}" for i in range(1, 14)]
    s = position(*units, gods=GODS)
    s, events = act(s, "BORG", "end", dice=[])
    assert not [e for e in events if e.kind == "reinforce"]


def test_9_2_a_full_tower_hex_gives_no_reinforcement():
    s = position(*[f"B{i} Fog 0111" for i in range(1, 5)], gods=GODS)
    s, events = act(s, "BORG", "end", dice=[])
    assert any("no room" in e.text for e in events)


def test_13_1_stone_defeats_blade_blade_defeats_fog_fog_defeats_stone():
    assert BEATS == {"Stone": "Blade", "Blade": "Fog", "Fog": "Stone"}


@pytest.mark.parametrize(
    "roll,survives", [(1, False), (2, False), (3, True), (4, True), (5, True), (6, True)]
)
def test_13_2_fault_chart(roll, survives):
    s = position("B1 Blade 0406", gods={"BORG": "1302", "CHEZ": "1320"})
    s, _ = act(s, "BORG", "move", child="B1", dir="SE", dice=[roll])
    assert (where(s, "B1") == "0909") is survives


def test_13_3_tower_chart():
    assert TOWER_CHART == {1: "Stone", 2: "Stone", 3: "Blade", 4: "Blade", 5: "Fog", 6: "Fog"}
    for roll, aspect in TOWER_CHART.items():
        s = position("B1 Stone 0606", gods=GODS)
        s, _ = act(s, "BORG", "end", dice=[roll])
        assert [c.aspect for c in s.in_hex("0111")] == [aspect]


def test_4_1_players_alternate_turns():
    s = position("B1 Stone 0606", "C1 Stone 0616", gods=GODS, rest="lost")
    s, events = act(s, "BORG", "end")
    assert s.active == "CHEZ" and s.turn == 2 and events[-1].kind == "phase"
    s, _ = act(s, "CHEZ", "end")
    assert s.active == "BORG" and s.turn == 3


def test_4_2_movement_then_reinforcement_then_combat():
    s = position("B1 Stone 0606", "C1 Fog 0605", gods=GODS)
    s, _ = act(s, "BORG", "move", child="B1", to="0605")
    s, events = act(s, "BORG", "end", dice=[5])
    kinds = [e.kind for e in events]
    assert kinds.index("reinforce") < kinds.index("combat")
    assert s.step == "combat"


def test_4_3_the_turn_ends_after_combat_and_nothing_else_happens():
    # RULINGS OneWorld 2: the printed 4.3 is missing; after the combat phase the other player moves.
    s = position("B1 Stone 0606", "C1 Fog 0605", gods=GODS, rest="lost")
    s, _ = act(s, "BORG", "move", child="B1", to="0605")
    s, _ = act(s, "BORG", "end")
    s, _ = act(s, "BORG", "aspects", stone=0, blade=1, fog=0)
    s, events = act(s, "CHEZ", "aspects", stone=1, blade=0, fog=0)
    assert s.step == "move" and s.active == "CHEZ" and s.moved == () and s.accosted is False
    assert events[-1].text == "Turn 2: CHEZ moves (rule 4.1)"


def test_10_4_a_second_sealed_aspect_is_told_to_wait_for_the_reveal():
    s, _ = _accost()
    s, _ = act(s, "CHEZ", "aspect", aspect="Blade")
    msg = refusal(s, "CHEZ", "aspect", aspect="Fog")
    assert msg == "You have already chosen the aspect of C1; wait for the reveal (rule 10.4)"
    assert RULES.view(s, None).active == "BORG"
