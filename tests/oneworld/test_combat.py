"""Encounters (7.1-7.3, 8.1-8.5) and the worked example of combat (appendix B)."""

from __future__ import annotations

from engine.core.dice import FixedDice
from engine.games.oneworld.combat import compositions, kills
from tests.oneworld.positions import RULES, act, destinations, legal, position, refusal, where

GODS = {"BORG": "1302", "CHEZ": "1320"}


def _aspects(state, hex_):
    return sorted((c.side, c.aspect) for c in state.in_hex(hex_))


def test_appendix_b_the_two_round_combat_exactly():
    s = position(
        "B1 Stone 0606",
        "B2 Fog 0606",
        "C1 Fog 0605",
        "C2 Fog 0607",
        "C3 Blade 0601",
        gods=GODS,
        active="CHEZ",
        rest="lost",
    )
    s, _ = act(s, "CHEZ", "move", child="C1", to="0606")
    s, _ = act(s, "CHEZ", "move", child="C2", to="0606")
    s, _ = act(s, "CHEZ", "move", child="C3", dir="S")
    assert where(s, "C3") == "0606"
    s, events = act(s, "CHEZ", "end")
    assert s.step == "combat" and s.fight.hex == "0606"
    prompts = RULES.pending(s)
    assert {p.seat for p in prompts} == {"BORG", "CHEZ"} and all(p.secret for p in prompts)
    assert len({p.group for p in prompts}) == 1
    # Transformation: BORG makes both Stone; CHEZ has Fog, Stone and Blade.
    s, events = act(s, "BORG", "aspects", stone=2, blade=0, fog=0)
    assert [e.text for e in events if e.public] == ["BORG has chosen the aspects for 0606 (round 1)"]
    s, events = act(s, "CHEZ", "aspects", stone=1, blade=1, fog=1)
    reveal = [e for e in events if e.kind == "reveal"]
    assert len(reveal) == 1
    assert "BORG hurls 2 Stone; CHEZ hurls 1 Stone, 1 Blade, 1 Fog" in reveal[0].text
    # First round: Fog kills Stone. Stone kills Blade.
    assert reveal[0].data["dead"] == {"BORG": ["B1"], "CHEZ": ["C3"]}
    assert _aspects(s, "0606") == [("BORG", "Stone"), ("CHEZ", "Fog"), ("CHEZ", "Stone")]
    assert s.fight.round == 2
    # Second round: BORG keeps the Stone; CHEZ chooses one Fog and one Stone.
    s, _ = act(s, "CHEZ", "aspects", stone=1, blade=0, fog=1)
    s, events = act(s, "BORG", "aspects", stone=1, blade=0, fog=0)
    reveal = [e for e in events if e.kind == "reveal"][0]
    assert reveal.data["dead"] == {"BORG": ["B2"]}
    # CHEZ is left with a Fog and Stone in that hex.
    assert _aspects(s, "0606") == [("CHEZ", "Fog"), ("CHEZ", "Stone")]
    assert where(s, "B1") == where(s, "B2") == "tower"
    assert any("over after 2 rounds" in e.text for e in events)
    assert s.step == "move" and s.active == "BORG"


def test_7_1_friendly_children_share_a_hex_without_combat():
    s = position("B1 Stone 0606", "B2 Fog 0605", gods=GODS, rest="lost")
    s, _ = act(s, "BORG", "move", child="B2", to="0606")
    s, events = act(s, "BORG", "end")
    assert s.step == "move" and s.active == "CHEZ"
    assert not [e for e in events if e.kind == "combat"]


def test_7_2_no_more_than_four_children_of_one_god_in_a_hex():
    s = position("B1 Stone 0606", "B2 Fog 0606", "B3 Fog 0606", "B4 Blade 0606", "B5 Stone 0605", gods=GODS)
    assert "0606" not in destinations(s, "B5")
    msg = refusal(s, "BORG", "move", child="B5", to="0606")
    assert "4 Children of BORG are there already and the limit is 4 (rule 7.2)" in msg


def test_7_2_a_blade_may_not_end_its_run_in_a_full_hex():
    s = position("B1 Stone 0602", "B2 Fog 0602", "B3 Fog 0602", "B4 Stone 0602", "B5 Blade 0607", gods=GODS)
    assert "N" not in {str(a.args["dir"]) for a in legal(s, "BORG", "move") if a.args["child"] == "B5"}
    assert "rule 7.2" in refusal(s, "BORG", "move", child="B5", dir="N")


def test_7_3_children_never_enter_their_own_gods_hex():
    s = position("B1 Stone 0703", "B2 Fog 0704", gods={"BORG": "0702", "CHEZ": "1320"})
    assert "0702" not in destinations(s, "B1") | destinations(s, "B2")
    msg = refusal(s, "BORG", "move", child="B1", to="0702")
    assert "may never enter 0702, the hex of its own god (rule 7.3)" in msg


def test_8_1_a_hostile_encounter_always_leads_to_combat():
    s = position("B1 Stone 0606", "C1 Fog 0605", gods=GODS, rest="lost")
    s, _ = act(s, "BORG", "move", child="B1", to="0605")
    s, _ = act(s, "BORG", "end")
    assert s.step == "combat" and s.fight.hex == "0605"


def test_8_1_the_mover_orders_several_combats_and_each_is_fought_to_its_end():
    s = position("B1 Stone 0606", "C1 Fog 0605", "B2 Stone 0610", "C2 Blade 0611", gods=GODS, rest="lost")
    s, _ = act(s, "BORG", "move", child="B1", to="0605")
    s, _ = act(s, "BORG", "move", child="B2", to="0611")
    s, _ = act(s, "BORG", "end")
    assert s.step == "fight" and legal(s, "CHEZ") == []
    assert {a.args["hex"] for a in legal(s, "BORG", "fight")} == {"0605", "0611"}
    s, _ = act(s, "BORG", "fight", hex="0611")
    assert s.fight.hex == "0611"
    s, _ = act(s, "BORG", "aspects", stone=1, blade=0, fog=0)
    s, _ = act(s, "CHEZ", "aspects", stone=0, blade=1, fog=0)
    assert where(s, "C2") == "tower"
    assert s.step == "combat" and s.fight.hex == "0605"  # the last one starts by itself


def test_8_2_both_choose_aspects_in_secret_and_every_composition_is_offered():
    s = position("B1 Stone 0606", "B2 Stone 0606", "C1 Fog 0605", gods=GODS, rest="lost")
    s, _ = act(s, "CHEZ" if False else "BORG", "end")  # no combat yet
    assert s.active == "CHEZ"
    s, _ = act(s, "CHEZ", "move", child="C1", to="0606")
    s, _ = act(s, "CHEZ", "end")
    assert len(legal(s, "BORG", "aspects")) == 6 and len(legal(s, "CHEZ", "aspects")) == 3
    msg = refusal(s, "BORG", "aspects", stone=3, blade=0, fog=0)
    assert msg == ("You gave stone 3, blade 0, fog 0, 3 in all, but you have 2 Children in 0606: give stone, blade "
                   "and fog as whole numbers that add up to 2 (rule 8.2)")


def test_8_2_aspects_left_out_count_as_none_and_the_refusal_says_so():
    s = position("B1 Stone 0606", "B2 Stone 0606", "B3 Stone 0606", "C1 Fog 0605", gods=GODS, rest="lost")
    s, _ = act(s, "BORG", "end")
    s, _ = act(s, "CHEZ", "move", child="C1", to="0606")
    s, _ = act(s, "CHEZ", "end")
    need = "you have 3 Children in 0606: give stone, blade and fog as whole numbers that add up to 3 (rule 8.2)"
    assert refusal(s, "BORG", "aspects", blade=2) == f"You gave blade 2 (stone and fog left out, so 0), 2 in all, but {need}"
    assert refusal(s, "BORG", "aspects", stone=-1, blade=4) == f"A number of Children cannot be below 0; {need}"
    digits = f"Counts are whole numbers written with the digits 0-9, as in stone:1 blade:1 fog:0; {need}"
    for odd in ("+1", "1_0", "\uff11", "1" * 4000, "x"):  # never read as a number, never echoed
        assert refusal(s, "BORG", "aspects", stone=0, blade=0, fog=odd) == digits
    assert refusal(s, "BORG", "aspects") == f"You gave no numbers; {need}"
    assert refusal(s, "BORG", "aspects", blade=3) == "Write it as /aspects stone:0 blade:3 fog:0 (every part named)"


def test_8_2_resolution_formula():
    assert kills(("Blade",), ("Fog", "Fog")) == {"Fog": 1}
    assert kills(("Fog", "Fog"), ("Stone",)) == {"Stone": 1}
    assert kills(("Stone",), ("Blade", "Fog")) == {"Blade": 1}
    assert kills(("Stone", "Stone"), ("Stone", "Fog")) == {}
    assert len(compositions(4)) == 15


def test_8_3_combat_goes_on_until_one_side_is_gone():
    s = position("B1 Stone 0606", "C1 Stone 0605", gods=GODS, rest="lost")
    s, _ = act(s, "BORG", "move", child="B1", to="0605")
    s, _ = act(s, "BORG", "end")
    for _ in range(5):  # Stone against Stone: nobody falls, round after round
        s, _ = act(s, "BORG", "aspects", stone=1, blade=0, fog=0)
        s, _ = act(s, "CHEZ", "aspects", stone=1, blade=0, fog=0)
    assert s.fight.round == 6
    s, _ = act(s, "BORG", "aspects", stone=0, blade=0, fog=1)
    s, events = act(s, "CHEZ", "aspects", stone=1, blade=0, fog=0)
    assert where(s, "C1") == "tower" and s.fight is None and s.longest_combat == 6


def test_8_4_the_dead_go_under_their_own_gods_tower():
    s = position("B1 Blade 0606", "C1 Fog 0605", gods=GODS, rest="lost")
    s, _ = act(s, "BORG", "end")
    s, _ = act(s, "CHEZ", "move", child="C1", to="0606")
    s, _ = act(s, "CHEZ", "end")
    s, _ = act(s, "BORG", "aspects", stone=0, blade=1, fog=0)
    s, _ = act(s, "CHEZ", "aspects", stone=0, blade=0, fog=1)
    assert where(s, "C1") == "tower"
    view = RULES.view(s, None)
    assert view.boxes["CHEZ Tower"] == ("C1",)


def test_8_5_the_largest_battle_is_four_against_four():
    units = [f"B{i} Stone 0606" for i in range(1, 5)] + [f"C{i} Fog 0605" for i in range(1, 6)]
    s = position(*units, gods=GODS, active="CHEZ", rest="lost")
    for i in range(1, 5):
        s, _ = act(s, "CHEZ", "move", child=f"C{i}", to="0606")
    assert "0606" not in destinations(s, "C5")
    s, _ = act(s, "CHEZ", "end")
    assert len(s.in_hex("0606")) == 8


def test_8_2_errors_never_echo_the_other_sides_secret_and_a_second_choice_waits_for_the_reveal():
    s = position("B1 Stone 0606", "C1 Fog 0605", gods=GODS, rest="lost")
    s, _ = act(s, "BORG", "move", child="B1", to="0605")
    s, _ = act(s, "BORG", "end")
    s, _ = act(s, "BORG", "aspects", stone=0, blade=1, fog=0)
    for seat in ("CHEZ", None):
        assert "Blade" not in RULES.view(s, seat).model_dump_json().replace('"label":"Blade"', "")
    again = refusal(s, "BORG", "aspects", stone=1, blade=0, fog=0)
    assert "You have already chosen for round 1 in 0605; wait for the reveal (rule 8.2)" == again
    from engine.core.protocol import Action

    msg = RULES.explain_illegal(s, "BORG", Action(verb="aspects", args={"stone": 1, "blade": 0, "fog": 0}))
    assert "already chosen" in msg
    msg = refusal(s, "CHEZ", "aspects", stone=2, blade=0, fog=0)
    assert "Blade" not in msg


def test_8_2_apply_checks_the_seat_that_answers():
    s = position("B1 Stone 0606", gods=GODS, rest="lost")
    try:
        RULES.apply(s, "CHEZ", legal(s, "BORG")[0], FixedDice([]))
    except Exception as exc:  # noqa: BLE001
        assert "waiting on BORG" in str(exc)
    else:
        raise AssertionError("CHEZ moved in BORG's turn")
