"""Appendix A, Movement of the Children: one test for each caption of the two printed example maps."""

from __future__ import annotations

from tests.oneworld.positions import act, blade_dirs, destinations, legal, position, refusal, where

GODS = {"BORG": "1302", "CHEZ": "1320"}


# --- the Blade example map -------------------------------------------------------------------


def test_appendix_a_blade_stopped_by_pylon():
    s = position("B1 Blade 0715", gods=GODS)
    s, _ = act(s, "BORG", "move", child="B1", dir="N")
    assert where(s, "B1") == "0713"  # 0712 is a Pylon


def test_appendix_a_blade_freely_crosses_runelines():
    s = position("B1 Blade 0310", gods=GODS)
    s, events = act(s, "BORG", "move", child="B1", dir="NE")
    assert where(s, "B1") == "0807"
    assert "via 0409, 0509, 0608, 0708" in events[0].text


def test_appendix_a_blade_cannot_stop_from_moving_all_five_hexes_unless_blocked():
    s = position("B1 Blade 0607", gods=GODS)
    runs = [a for a in legal(s, "BORG", "move") if a.args["child"] == "B1"]
    assert all(set(a.args) == {"child", "dir"} for a in runs)
    msg = refusal(s, "BORG", "move", child="B1", dir="N", steps=2)
    assert "must move the entire five hexes unless blocked" in msg and "rule 6.3" in msg


def test_appendix_a_blade_must_stop_if_it_enters_a_hex_containing_enemy_children():
    s = position("B1 Blade 0607", "C1 Fog 0604", gods=GODS)
    s, events = act(s, "BORG", "move", child="B1", dir="N")
    assert where(s, "B1") == "0604"


def test_appendix_a_blade_must_roll_on_fault_chart_when_crossing():
    s = position("B1 Blade 0406", gods=GODS)
    s, events = act(s, "BORG", "move", child="B1", dir="SE", dice=[4])
    assert where(s, "B1") == "0909"
    rolls = [e for e in events if e.kind == "roll"]
    assert len(rolls) == 1 and "0808 and 0909" in rolls[0].text


def test_appendix_a_blade_cannot_travel_in_this_direction_because_it_cannot_avoid_chaos_itself():
    s = position("B1 Blade 0103", gods=GODS)
    assert blade_dirs(s, "B1")["SW"].args["confirm"] == "lost"
    msg = refusal(s, "BORG", "move", child="B1", dir="SW")
    assert "would reach the edge with movement left and be lost in Chaos Itself" in msg


# --- the Fog/Stone example map ----------------------------------------------------------------


def test_appendix_a_fog_must_stop_if_it_enters_a_hex_containing_enemy_children():
    # The corner 0101 touches only 0102 and 0201; enemies there keep Fog from going further.
    s = position("B1 Fog 0101", "C1 Stone 0102", "C2 Stone 0201", gods=GODS)
    assert destinations(s, "B1") == {"0102", "0201"}


def test_appendix_a_fog_and_stone_cannot_cross_a_runeline():
    s = position("B1 Stone 0609", "B2 Fog 0609", gods=GODS)
    assert "0509" not in destinations(s, "B1")
    assert "0510" not in destinations(s, "B2") and "0509" not in destinations(s, "B2")


def test_appendix_a_fog_and_stone_cannot_move_into_chaos_itself():
    s = position("B1 Stone 0101", "B2 Fog 0102", gods=GODS)
    for child in ("B1", "B2"):
        assert "chaos" not in destinations(s, child)
        assert "cannot move into Chaos Itself" in refusal(s, "BORG", "move", child=child, to="chaos")


def test_appendix_a_fog_cannot_move_from_flatland_to_pylon():
    s = position("B1 Fog 0306", gods=GODS)
    assert not {"0305", "0304", "0404", "0405"} & destinations(s, "B1")


def test_appendix_a_fog_when_crossing_a_fault_must_roll_on_fault_chart():
    s = position("B1 Fog 0306", gods=GODS)
    s, events = act(s, "BORG", "move", child="B1", to="0307", dice=[1])
    assert where(s, "B1") == "tower"
    assert "rolls 1" in events[-1].text


def test_appendix_a_fog_does_not_have_to_move_all_3_possible_hexes():
    s = position("B1 Fog 0606", gods=GODS)
    assert {"0605", "0604", "0603"} <= destinations(s, "B1")
    assert "0606" not in destinations(s, "B1")


def test_appendix_a_stone_can_move_into_pylons_from_flatlands():
    s = position("B1 Stone 0306", gods=GODS)
    s, _ = act(s, "BORG", "move", child="B1", to="0305")
    assert where(s, "B1") == "0305"


def test_appendix_a_stone_has_no_need_to_roll_on_fault_chart():
    s = position("B1 Stone 0306", gods=GODS)
    s, events = act(s, "BORG", "move", child="B1", to="0307", dice=[])
    assert where(s, "B1") == "0307" and not [e for e in events if e.kind == "roll"]
