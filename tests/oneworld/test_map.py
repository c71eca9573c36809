"""The mapsheet (2.1) and the components (2.2, 2.3): our reconstructed map is fair and drawable."""

from __future__ import annotations

import json

from engine.core.hexes import Hexside, half_turn, to_offset
from engine.core.maps import DATA_DIR, load_map
from engine.games.oneworld.board import board

MAP = load_map("oneworld")


def test_2_1_map_is_reconstructed_and_says_what_is_printed_and_what_is_ours():
    raw = json.loads((DATA_DIR / "maps" / "oneworld.json").read_text())
    assert raw["source"] == "reconstructed"
    assert "Printed" in raw["notes"] and "Ours" in raw["notes"]


def test_2_1_map_is_thirteen_columns_by_twenty_one_rows_with_short_ends():
    cols = {to_offset(h)[0] for h in MAP.hexes}
    rows = {to_offset(h)[1] for h in MAP.hexes}
    assert cols == set(range(1, 14)) and rows == set(range(1, 22))
    assert len(MAP.edges["north end"]) == 13 and len(MAP.edges["south end"]) == 13
    assert len(MAP.edges["west side"]) == 21 and len(MAP.edges["east side"]) == 21


def test_2_1_map_is_fair_under_a_half_turn():
    b = board()
    centre = b.centre
    assert {half_turn(h, centre) for h in MAP.hexes} == set(MAP.hexes)
    for h in MAP.hexes:
        assert MAP.terrain(half_turn(h, centre)) == MAP.terrain(h)
    sides = MAP.hexside_features()
    for side, kinds in sides.items():
        image = Hexside.of(half_turn(side.a, centre), half_turn(side.b, centre))
        assert sides.get(image) == kinds
    west, east = MAP.named["west tower"], MAP.named["east tower"]
    assert half_turn(west, centre) == east
    north, south = MAP.edges["north end"], MAP.edges["south end"]
    assert {half_turn(h, centre) for h in north} == set(south)


def test_2_1_towers_sit_midway_between_the_ends_near_each_long_edge():
    for name, side in (("west tower", "west side"), ("east tower", "east side")):
        h = MAP.named[name]
        assert h in MAP.edges[side]
        assert to_offset(h)[1] == 11


def test_2_1_terrain_and_hexside_styles_are_ones_the_renderer_draws():
    styles = MAP.data
    assert styles.terrain_types["flatland"].pattern == "grass"
    assert styles.terrain_types["pylon"].pattern == "crystal"
    assert styles.hexside_types["fault"].pattern == "hollow"
    assert styles.hexside_types["runeline"].pattern == "runes"
    b = board()
    assert len(b.pylons) >= 12 and len(b.faults) >= 12 and len(b.runelines) >= 12
    assert not (b.faults & b.runelines)
    assert not (set(b.sites.values()) & b.pylons)


def test_2_1_pylons_stand_in_clusters():
    b = board()
    lonely = [b.name(p) for p in b.pylons if not any(n in b.pylons for n in b.nexts(p, False))]
    assert lonely == []


def test_2_2_each_side_has_thirteen_children_three_god_lives_and_a_tower():
    from tests.oneworld.positions import new_game

    s = new_game()
    for seat in ("BORG", "CHEZ"):
        ids = [c.id for c in s.children if c.side == seat]
        assert ids == [f"{seat[0]}{i}" for i in range(1, 14)]
        assert s.lives[seat] == 3


def test_2_3_one_die_is_all_the_game_rolls():
    from engine.core.dice import FixedDice
    from engine.core.protocol import GameConfig
    from tests.oneworld.positions import PLAYERS, RULES

    dice = FixedDice([4, 4, 6, 1])
    RULES.setup(GameConfig(game="oneworld", players=PLAYERS), dice)
    assert {r.sides for r in dice.rolls} == {6}
