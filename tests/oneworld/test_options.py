"""The optional rules of 12.0, each a game option that is off by default."""

from __future__ import annotations

import pytest

from engine.core.errors import BadArguments
from engine.games.oneworld.options import OPTIONS_HELP, Options, parse_options
from tests.oneworld.positions import (
    RULES,
    act,
    blade_dirs,
    destinations,
    legal,
    new_game,
    position,
    refusal,
    where,
)

GODS = {"BORG": "1302", "CHEZ": "1320"}


def test_12_0_every_option_is_documented_and_off_by_default():
    assert set(OPTIONS_HELP) == set(Options.model_fields)
    assert set(RULES.options_help) == set(OPTIONS_HELP)
    default = parse_options({})
    assert default == Options() and default.lives() == {"BORG": 3, "CHEZ": 3}
    assert not any(v is True for v in default.model_dump().values())
    assert default.moving_towers == default.god_powers == "off" and default.stacking_limit == "4"


def test_12_0_options_arrive_as_strings_and_bad_values_are_named():
    opts = parse_options(
        {"frustration_clause": "on", "god_lives": "2", "moving_towers": "CW", "stacking_limit": "3"}
    )
    assert opts.frustration_clause and opts.lives() == {"BORG": 2, "CHEZ": 2}
    assert opts.moving_towers == "cw" and opts.stacking_limit == "3"
    with pytest.raises(BadArguments, match="option singing_grasses takes on or off"):
        parse_options({"singing_grasses": "loud"})
    with pytest.raises(BadArguments, match="moving_towers"):
        parse_options({"moving_towers": "sideways"})
    with pytest.raises(BadArguments, match="stacking_limit"):
        parse_options({"stacking_limit": "0"})


def test_12_0_singing_grasses_adds_a_line_of_atmosphere():
    quiet = RULES.view(position(gods=GODS), None).caption
    singing = RULES.view(position(gods=GODS, options={"singing_grasses": True}), None).caption
    from engine.games.oneworld.view import GRASSES

    assert len(singing) == len(quiet) + 1 and singing[-1] in GRASSES


def test_12_0_friendly_obstacle_lets_a_blade_stop_on_a_friendly_stone():
    units = ("B1 Blade 0607", "B2 Blade 0608", "B3 Stone 0604")
    plain = position(*units, gods=GODS)
    assert not [a for a in legal(plain, "BORG", "move") if "steps" in a.args]
    s = position(*units, gods=GODS, options={"friendly_obstacle": True})
    stops = [a.args for a in legal(s, "BORG", "move") if "steps" in a.args]
    assert {"child": "B1", "dir": "N", "steps": 3} in stops
    s, _ = act(s, "BORG", "move", child="B1", dir="N", steps=3)
    assert where(s, "B1") == "0604"
    # one Stone for every Blade that stops there: the Stone in 0604 has already stopped B1
    s2 = position(
        "B1 Blade 0607", "B2 Blade 0609", "B3 Stone 0604", gods=GODS, options={"friendly_obstacle": True}
    )
    s2, _ = act(s2, "BORG", "move", child="B1", dir="N", steps=3)
    assert {"child": "B2", "dir": "N", "steps": 5} not in [a.args for a in legal(s2, "BORG", "move")]
    assert "friendly Stone" in refusal(s2, "BORG", "move", child="B2", dir="N", steps=5)


def test_12_0_pylon_movement_stone_three_blade_and_fog_one_never_mixed():
    assert "0405" not in destinations(position("B1 Stone 0304", gods=GODS), "B1")
    s = position("B1 Stone 0304", "B2 Blade 0404", "B3 Fog 0305", gods=GODS, options={"pylon_movement": True})
    assert "0405" in destinations(s, "B1")  # two hexes, Pylon to Pylon
    assert "0303" in destinations(s, "B1") and "0306" not in destinations(s, "B1")  # 0305 then 0306 mixes
    s, _ = act(s, "BORG", "move", child="B2", dir="S")
    assert where(s, "B2") == "0405"  # a single hex Pylon to Pylon
    fog = destinations(s, "B3")
    assert "0304" in fog and "0306" in fog  # one hex Pylon to Pylon, or flatland moves


def test_12_0_flee_while_you_can_lets_a_wounded_god_move_one_hex():
    gods = {"BORG": "0702", "CHEZ": "0720"}
    s = position("C1 Stone 0601", gods=gods, options={"flee_while_you_can": True})
    assert not legal(s, "BORG", "flee")
    s = position(
        "C1 Stone 0601", gods=gods, options={"flee_while_you_can": True}, lives={"BORG": 2, "CHEZ": 3}
    )
    hexes = {a.args["to"] for a in legal(s, "BORG", "flee")}
    assert "0601" not in hexes and "0701" in hexes and "0703" in hexes
    s, _ = act(s, "BORG", "flee", to="0703")
    assert s.god_hex["BORG"] == "0703" and not legal(s, "BORG", "flee")


def test_12_0_god_lives_one_two_or_three_per_side():
    assert new_game({"god_lives": 1}).lives == {"BORG": 1, "CHEZ": 1}
    assert new_game({"god_lives": "2/3"}).lives == {"BORG": 2, "CHEZ": 3}


def test_12_0_tower_elimination_no_towers_one_life_and_a_possible_tie():
    s = new_game({"tower_elimination": True})
    assert s.lives == {"BORG": 1, "CHEZ": 1}
    s, _ = act(s, "BORG", "order", setup="first")
    s, _ = act(s, "BORG", "defend", end="north")
    s, _ = act(s, "BORG", "gods", hex="0702")
    s, _ = act(s, "BORG", "place_all")
    s, _ = act(s, "BORG", "done")
    assert s.step == "gods" and s.active == "CHEZ" and s.tower_hex == {}
    t = position("B1 Stone 0606", "C1 Stone 0605", gods=GODS, options={"tower_elimination": True})
    t, _ = act(t, "BORG", "move", child="B1", to="0605")
    t, _ = act(t, "BORG", "end", dice=[])  # no Tower, no reinforcement roll
    for _ in range(2):
        t, _ = act(t, "BORG", "aspects", stone=1, blade=0, fog=0)
        t, _ = act(t, "CHEZ", "aspects", stone=1, blade=0, fog=0)
    t, _ = act(t, "BORG", "aspects", stone=0, blade=0, fog=1)
    t, events = act(t, "CHEZ", "aspects", stone=0, blade=1, fog=0)
    # Blade kills Fog: BORG's only Child is gone for good, CHEZ's remains; the game goes on
    assert where(t, "B1") == "tower" and where(t, "C1") == "0605"
    assert t.step == "move" and t.active == "CHEZ"
    u = position(
        "B1 Stone 0606",
        "C1 Fog 0605",
        gods=GODS,
        options={"tower_elimination": True, "frustration_clause": True},
    )
    u, _ = act(u, "BORG", "move", child="B1", to="0605")
    u, _ = act(u, "BORG", "end", dice=[])
    for _ in range(3):
        u, _ = act(u, "BORG", "aspects", stone=1, blade=0, fog=0)
        u, events = act(u, "CHEZ", "aspects", stone=1, blade=0, fog=0)
    assert u.step == "over" and RULES.outcome(u).winner is None
    assert "drawn" in events[-1].text


def test_12_0_frustration_clause_three_quiet_rounds_eliminate_both_sides():
    s = position(
        "B1 Stone 0606",
        "B2 Fog 0606",
        "C1 Stone 0605",
        gods=GODS,
        rest="lost",
        options={"frustration_clause": True},
    )
    s, _ = act(s, "BORG", "move", child="B1", to="0605")
    s, _ = act(s, "BORG", "end")
    for _ in range(3):
        s, _ = act(s, "BORG", "aspects", stone=1, blade=0, fog=0)
        s, events = act(s, "CHEZ", "aspects", stone=1, blade=0, fog=0)
    assert where(s, "B1") == where(s, "C1") == "tower" and where(s, "B2") == "0606"
    assert "Frustration Clause" in [e for e in events if e.kind == "reveal"][0].text


def test_12_0_moving_towers_go_round_the_edge_after_each_turn():
    cw = position("B1 Stone 0606", gods=GODS, options={"moving_towers": "cw"}, rest="lost")
    cw, events = act(cw, "BORG", "end")
    assert cw.tower_hex["BORG"] == "0110" and cw.tower_hex["CHEZ"] == "1311"
    ccw = position("B1 Stone 0112", gods=GODS, options={"moving_towers": "ccw"}, rest="lost")
    ccw, _ = act(ccw, "BORG", "end")
    assert ccw.tower_hex["BORG"] == "0113"  # 0112 is occupied, so the Tower goes on to the next hex


def test_12_0_new_geography_gods_at_the_tower_sites_towers_at_the_ends():
    s, _ = act(new_game({"new_geography": True}), "BORG", "order", setup="first")
    assert {a.args["end"] for a in legal(s, "BORG", "defend")} == {"west", "east"}
    s, _ = act(s, "BORG", "defend", end="west")
    assert "0111" in {a.args["hex"] for a in legal(s, "BORG", "gods")}
    s, _ = act(s, "BORG", "gods", hex="0111")
    s, _ = act(s, "BORG", "place_all")
    s, _ = act(s, "BORG", "done")
    assert {a.args["hex"] for a in legal(s, "CHEZ", "tower")} == {"0701", "0721"}
    s, _ = act(s, "CHEZ", "tower", hex="0721")
    assert s.tower_hex == {"CHEZ": "0721", "BORG": "0701"}
    s, _ = act(s, "CHEZ", "gods", hex="1311")
    enemy = {c.hex for c in s.children if c.side == "BORG" and c.where == "map"}
    assert not enemy & {a.args["hex"] for a in legal(s, "CHEZ", "place")}


def test_12_0_more_balance_reinforces_only_the_side_with_fewer_children():
    opts = {"more_balance": True}
    even = position("B1 Stone 0606", "C1 Stone 0616", gods=GODS, options=opts)
    even, events = act(even, "BORG", "end", dice=[])
    assert where(even, "B2") == "tower" and "More Balance" in events[0].text
    fewer = position("B1 Stone 0606", "C1 Stone 0616", "C2 Stone 0617", gods=GODS, options=opts)
    fewer, _ = act(fewer, "BORG", "end", dice=[1])
    assert where(fewer, "B2") == "0111"


def test_12_0_variant_stacking_limit_a_number_or_a_roll():
    s = position("B1 Stone 0606", "B2 Stone 0606", "B3 Stone 0605", gods=GODS, options={"stacking_limit": 2})
    assert s.stacking == 2 and "0606" not in destinations(s, "B3")
    assert new_game({"stacking_limit": "roll"}, rolls=(5, 2, 3)).stacking == 3


def test_12_0_chaos_gambit_1_children_into_chaos_go_under_the_tower():
    s = position("B1 Stone 0103", "B2 Blade 0104", gods=GODS, options={"chaos_gambit_1": True})
    assert "chaos" in destinations(s, "B1")
    s, _ = act(s, "BORG", "move", child="B1", to="chaos")
    s, events = act(s, "BORG", "move", child="B2", dir="SW", confirm="lost")
    assert where(s, "B1") == where(s, "B2") == "tower"
    assert "Chaos Gambit I" in events[-1].text


def test_12_0_chaos_gambit_2_the_universe_is_curved():
    s = position("B1 Blade 0103", "B2 Stone 0101", gods=GODS, options={"chaos_gambit_2": True})
    assert set(blade_dirs(s, "B1")["SW"].args) == {"child", "dir"}  # no confirmation: nothing is lost
    s, _ = act(s, "BORG", "move", child="B2", to="0121")
    assert where(s, "B2") == "0121"
    s, _ = act(s, "BORG", "move", child="B1", dir="SW")
    assert where(s, "B1") not in ("lost", "tower")


def test_12_0_non_aligned_towers_odd_west_even_east():
    opts = {"non_aligned_towers": True}
    odd = position("B1 Stone 0606", gods=GODS, options=opts)
    odd, _ = act(odd, "BORG", "end", dice=[3, 1])
    assert where(odd, "B2") == "0111"
    even = position("B1 Stone 0606", gods=GODS, options=opts)
    even, _ = act(even, "BORG", "end", dice=[4, 1])
    assert where(even, "B2") == "1311"


def test_12_0_god_powers_transform_one_child_not_in_combat_a_turn():
    s = position("B1 Stone 0606", "B2 Fog 0605", "C1 Fog 0604", gods=GODS, options={"god_powers": "on"})
    assert not legal(position("B1 Stone 0606", gods=GODS), "BORG", "transform")
    s, _ = act(s, "BORG", "move", child="B2", to="0604")
    assert {a.args["child"] for a in legal(s, "BORG", "transform")} == {"B1"}  # B2 is in combat
    s, events = act(s, "BORG", "transform", child="B1", aspect="Blade")
    assert s.child("B1").aspect == "Blade" and "God Powers" in events[0].text
    assert not legal(s, "BORG", "transform")
    scenario = new_game({"god_powers": "scenario"})
    assert scenario.lives == {"BORG": 1, "CHEZ": 3}
    assert scenario.options.transforms("BORG") == 2 and scenario.options.transforms("CHEZ") == 0


def test_12_0_chaos_gambits_together_the_curved_map_has_no_edge_to_leave():
    s = position(
        "B1 Stone 0103", "B2 Blade 0103", gods=GODS, options={"chaos_gambit_1": True, "chaos_gambit_2": True}
    )
    assert "chaos" not in destinations(s, "B1")
    assert all("confirm" not in a.args for a in legal(s, "BORG", "move"))
