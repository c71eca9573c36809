"""Terrain (5.1-5.6) and the Children's aspects (6.1-6.4) as they move."""

from __future__ import annotations

from tests.oneworld.positions import act, blade_dirs, destinations, legal, position, refusal, where

GODS = {"BORG": "1302", "CHEZ": "1320"}


def test_5_1_only_stone_climbs_from_flatland_onto_a_pylon():
    s = position("B1 Stone 0406", "B2 Fog 0406", "B3 Blade 0403", gods=GODS)
    assert "0405" in destinations(s, "B1")
    assert "0405" not in destinations(s, "B2") and "0404" not in destinations(s, "B2")
    msg = refusal(s, "BORG", "move", child="B2", to="0405")
    assert (
        "Fog B2 cannot move from the flatland at 0406 up onto the Pylon at 0405" in msg and "rule 5.1" in msg
    )


def test_5_1_all_beings_move_pylon_to_pylon_and_pylon_to_flatland():
    s = position("B1 Fog 0404", "B2 Blade 0403", "B3 Stone 0404", gods=GODS)
    assert {"0405", "0305", "0406", "0407"} <= destinations(s, "B1")
    s2 = position("B2 Blade 0404", gods=GODS)
    s2, _ = act(s2, "BORG", "move", child="B2", dir="S", dice=[6])  # 0405 pylon, then flatland, a Fault
    assert where(s2, "B2") == "0409"


def test_5_2_the_singing_grasses_are_no_obstacle():
    s = position("B1 Fog 0603", gods=GODS)
    assert {"0602", "0601", "0604", "0605", "0606"} <= destinations(s, "B1")


def test_5_3_runelines_stop_stone_and_fog_but_not_blade():
    s = position("B1 Stone 0608", "B2 Blade 0310", gods=GODS)
    assert "0509" not in destinations(s, "B1")
    msg = refusal(s, "BORG", "move", child="B1", to="0509")
    assert "Stone B1 cannot cross the Runeline between 0608 and 0509" in msg and "rules 5.3, 6.2" in msg
    s, events = act(s, "BORG", "move", child="B2", dir="NE")
    assert where(s, "B2") == "0807"  # 0409, 0509, across the Runeline to 0608, 0708, 0807


def test_5_4_crossing_a_fault_rolls_and_one_or_two_sends_the_child_under_its_tower():
    s = position("B1 Blade 0406", gods=GODS)
    gone, events = act(s, "BORG", "move", child="B1", dir="SE", dice=[2])
    assert where(gone, "B1") == "tower"
    assert any("rolls 2" in e.text and "rules 5.4, 13.2" in e.text for e in events)
    kept, events = act(s, "BORG", "move", child="B1", dir="SE", dice=[3])
    assert where(kept, "B1") == "0909"


def test_5_4_stone_bounces_over_faults_without_rolling():
    s = position("B1 Stone 0106", gods=GODS)
    s, events = act(s, "BORG", "move", child="B1", to="0107", dice=[])  # FixedDice([]) would fail on a roll
    assert where(s, "B1") == "0107" and not any(e.kind == "roll" for e in events)


def test_5_5_no_being_enters_a_tower_but_all_may_leave_it():
    s = position("B1 Stone 0211", "B2 Fog 0110", "B3 Blade 0112", "B4 Fog 0111", gods=GODS)
    assert "0111" not in destinations(s, "B1") | destinations(s, "B2")
    assert "N" not in blade_dirs(s, "B3")  # blocked at once by the Tower
    msg = refusal(s, "BORG", "move", child="B1", to="0111")
    assert "Tower of Balance at 0111" in msg and "rule 5.5" in msg
    assert {"0110", "0112", "0211"} <= destinations(s, "B4")


def test_5_6_stone_and_fog_cannot_move_into_chaos_itself():
    s = position("B1 Stone 0103", "B2 Fog 0103", gods=GODS)
    assert not any(a.args.get("to") == "chaos" for a in legal(s, "BORG", "move"))
    msg = refusal(s, "BORG", "move", child="B1", to="chaos")
    assert "cannot move into Chaos Itself" in msg and "5.6" in msg


def test_5_6_a_blade_sent_into_chaos_is_out_of_play_for_good():
    s = position("B1 Blade 0103", gods=GODS)
    s, events = act(s, "BORG", "move", child="B1", dir="SW", confirm="lost")
    assert where(s, "B1") == "lost"
    assert "lost for good" in events[-1].text
    s, _ = act(s, "BORG", "end", dice=[1])  # the Tower brings back the dead, never the lost
    assert where(s, "B1") == "lost"


def test_6_1_each_child_is_stone_blade_or_fog_and_moves_once_a_turn():
    s = position("B1 Stone 0606", "B2 Fog 0806", gods=GODS)
    s, _ = act(s, "BORG", "move", child="B1", to="0605")
    assert not any(a.args["child"] == "B1" for a in legal(s, "BORG", "move"))
    msg = refusal(s, "BORG", "move", child="B1", to="0604")
    assert "Stone B1 has already moved this turn" in msg and "rule 4.2" in msg
    assert {c.aspect for c in s.children} <= {"Stone", "Blade", "Fog"}


def test_6_2_stone_moves_one_hex():
    s = position("B1 Stone 0606", gods=GODS)
    assert destinations(s, "B1") == {"0605", "0706", "0707", "0607", "0507", "0506"}
    msg = refusal(s, "BORG", "move", child="B1", to="0604")
    assert "Stone moves one hex a turn; 0604 is 2 hexes from B1 in 0606 (rule 6.2)" in msg


def test_6_3_blade_moves_exactly_five_in_a_straight_line():
    s = position("B1 Blade 0607", gods=GODS)
    moves = legal(s, "BORG", "move")
    assert len(moves) == 6  # one run per direction, never shorter
    s, _ = act(s, "BORG", "move", child="B1", dir="N")
    assert where(s, "B1") == "0602"


def test_6_3_a_blades_move_is_a_direction_not_a_hex():
    s = position("B1 Blade 0607", gods=GODS)
    msg = refusal(s, "BORG", "move", child="B1", to="0602")
    assert "direction" in msg and "rule 6.3" in msg
    msg = refusal(s, "BORG", "move", child="B1", dir="UP")
    assert "'UP' is not a direction" in msg


def test_6_3_blade_cannot_climb_onto_a_pylon_and_stops_before_it():
    s = position("B1 Blade 0715", gods=GODS)
    s, _ = act(s, "BORG", "move", child="B1", dir="N")
    assert where(s, "B1") == "0713"


def test_6_3_blade_off_the_map_needs_confirmation():
    s = position("B1 Blade 0103", gods=GODS)
    assert "SW" not in blade_dirs(s, "B1") or blade_dirs(s, "B1")["SW"].args.get("confirm") == "lost"
    msg = refusal(s, "BORG", "move", child="B1", dir="SW")
    assert "lost in Chaos Itself" in msg and "confirm:lost" in msg and "6.3" in msg


def test_6_4_fog_moves_one_to_three_hexes_by_any_path():
    s = position("B1 Fog 0607", gods=GODS)
    dest = destinations(s, "B1")
    assert {"0606", "0605", "0604", "0507", "0407"} <= dest
    assert "0603" not in dest  # four hexes away
    s, _ = act(s, "BORG", "move", child="B1", to="0605")
    assert where(s, "B1") == "0605"


def test_6_4_fog_takes_the_path_that_crosses_the_fewest_faults():
    # 0106 to 0107 straight across the Fault, or round by 0206 and 0207? both are Faults;
    # round by the east end of the Fault line at 0506 it is too far. One roll at most.
    s = position("B1 Fog 0106", gods=GODS)
    s, events = act(s, "BORG", "move", child="B1", to="0107", dice=[5])
    assert [e.kind for e in events].count("roll") == 1
    assert where(s, "B1") == "0107"


def test_6_4_fog_cannot_cross_runelines_and_goes_round():
    # The Runeline runs between columns 05 and 06 from 0508/0607 down to 0511/0611.
    s = position("B1 Fog 0608", gods=GODS)
    assert "0509" not in destinations(s, "B1")
    msg = refusal(s, "BORG", "move", child="B1", to="0509")
    assert "Fog B1 cannot cross the Runeline between 0608 and 0509 (rules 5.3, 6.4)" in msg
    s, events = act(s, "BORG", "move", child="B1", to="0508")
    assert where(s, "B1") == "0508"
    assert "from 0608 to 0508 via 0607, 0507" in events[0].text


def test_5_4_one_roll_for_each_fault_crossed_in_a_move():
    # RULINGS OneWorld 7: 0105 south runs across the Faults at 0106/0107 and 0108/0109.
    s = position("B1 Blade 0105", gods=GODS)
    both, events = act(s, "BORG", "move", child="B1", dir="S", dice=[4, 5])
    assert where(both, "B1") == "0110" and [e.kind for e in events].count("roll") == 2
    second, events = act(s, "BORG", "move", child="B1", dir="S", dice=[4, 1])
    assert where(second, "B1") == "tower" and "0108 and 0109" in events[-1].text
    assert "0106 and 0107: rolls 4, no effect" in events[0].text
    first, events = act(s, "BORG", "move", child="B1", dir="S", dice=[2])  # no second roll is asked for
    assert where(first, "B1") == "tower" and "0106 and 0107" in events[-1].text
