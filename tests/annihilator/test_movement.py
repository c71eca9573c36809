"""Movement and stacking: rules 5.1-5.4, 6.0, the Hex Type Chart, auto-defend entry (7.3)."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction
from engine.core.hexes import DIRECTIONS, distance, format_ccrr, neighbor, neighbors
from engine.core.movement import path_cost
from engine.games.annihilator import data
from engine.games.annihilator.board import base_types, move_cost
from tests.annihilator.helpers import CORES, A, M, destinations, hexes_of, legal, play, position

CENTRE = data.hexes_by_number()[CORES[0]]


def ring_side(radius: int, corner_dir: int, walk_dir: int, length: int) -> list[str]:
    """Hexes from the corner of a corridor ring, walking straight along its side."""
    h = CENTRE + DIRECTIONS[corner_dir].scale(radius)
    out = [format_ccrr(h)]
    for _ in range(length):
        h = neighbor(h, walk_dir)
        out.append(format_ccrr(h))
    return out


# The side of the radius-10 corridor from its south-west corner going north: all passageway.
SIDE = ring_side(10, 4, 0, 10)


def test_5_1_corridor_used_by_the_tests_is_passageway():
    assert all(base_types()[h] == "passage" for h in SIDE)


def test_5_2_hex_type_chart_costs():
    s = position()
    cost = {t: (move_cost(s, True, hexes_of(t)[0]), move_cost(s, False, hexes_of(t)[0]))
            for t in ("armor", "impassable", "obstructed", "core", "autodefend", "passage")}
    assert cost == {"armor": (None, None), "impassable": (None, 1), "obstructed": (2, 1), "core": (None, None),
                    "autodefend": (2, 1), "passage": (1, 0.5)}


def test_5_2_example_human_four_passageways_but_not_five():
    s = position(units={"A1": SIDE[0]})
    reach = destinations(s, "A1")
    assert SIDE[4] in reach
    assert SIDE[5] not in reach  # five hexes away: at least 5 MP for a human
    s, _ = play(s, M, "move", unit="A1", to=SIDE[4])
    assert s.unit("A1").mp == 0


def test_5_2_example_two_obstructed_or_one_obstructed_and_two_passageways():
    s = position()
    by_no = data.hexes_by_number()

    def step(a, b):
        c = move_cost(s, True, format_ccrr(b))
        return c

    obstructed = set(hexes_of("obstructed"))
    two = next((a, b, c) for a in hexes_of("obstructed") for b in _nbrs(a) if b in obstructed
               for c in _nbrs(b) if c in obstructed and c != a)
    assert path_cost(by_no[two[0]], [by_no[two[1]], by_no[two[2]]], step) == 4
    passage = set(hexes_of("passage"))
    mixed = next((a, b, c, d) for a in hexes_of("passage") for b in _nbrs(a) if b in obstructed
                 for c in _nbrs(b) if c in passage for d in _nbrs(c) if d in passage and d != b)
    assert path_cost(by_no[mixed[0]], [by_no[x] for x in mixed[1:]], step) == 4
    s = position(units={"A1": two[0], "A2": mixed[0]})
    assert two[2] in destinations(s, "A1") and mixed[3] in destinations(s, "A2")


def _nbrs(hex_no: str) -> list[str]:
    nums = data.hex_numbers()
    return [nums[n] for n in neighbors(data.hexes_by_number()[hex_no]) if n in nums]


def test_5_2_robot_pays_half_in_passageway():
    s = position(step="a_move", units={"R1": SIDE[0]})
    reach = destinations(s, "R1")
    assert SIDE[8] in reach and SIDE[9] not in reach  # eight passageways for four points
    s, _ = play(s, A, "move", unit="R1", to=SIDE[4])
    assert s.unit("R1").mp == 2.0


def test_5_2_robot_enters_impassable_humans_do_not():
    blocked = hexes_of("impassable")[0]
    beside = next(n for n in _nbrs(blocked) if base_types()[n] in ("obstructed", "passage"))
    s = position(units={"A1": beside})
    assert blocked not in destinations(s, "A1")
    with pytest.raises(IllegalAction, match=rf"Assault Squad A1 cannot enter impassable hex {blocked} \(rule 5.2"):
        play(s, M, "move", unit="A1", to=blocked)
    s = position(step="a_move", units={"R1": beside})
    assert blocked in destinations(s, "R1")


def test_5_2_nobody_enters_the_hull_or_a_brain_core():
    ring = [n for n in _nbrs(CORES[0]) if n not in CORES]
    s = position(step="a_move", units={"R1": ring[0]})
    assert CORES[0] not in destinations(s, "R1")
    assert not set(hexes_of("armor")) & destinations(position(step="a_move", units={"R1": SIDE[3]}), "R1")


def test_5_1_unused_movement_is_kept_within_the_phase_but_not_saved():
    s = position(units={"A1": SIDE[0]})
    s, _ = play(s, M, "move", unit="A1", to=SIDE[1])
    assert s.unit("A1").mp == 3
    s, _ = play(s, M, "move", unit="A1", to=SIDE[3])
    assert s.unit("A1").mp == 1 and SIDE[5] not in destinations(s, "A1")
    s, _ = play(s, M, "done")
    assert s.unit("A1").mp == 0 and not legal(s, M, "move")  # gone at the end of the phase
    s, _ = play(s, M, "done")  # no demolition orders
    assert s.step == "a_combat"  # no robots to move; the Mind Weapon may still strike
    s, _ = play(s, A, "done")
    assert (s.turn, s.step) == (2, "h_move")
    assert s.unit("A1").mp == 4  # a fresh Movement Factor, nothing saved


def test_5_3_moving_through_friends_but_not_ending_over_the_limit():
    s = position(units={"A1": SIDE[0], "A2": SIDE[2], "A3": SIDE[2], "A4": SIDE[2]})
    reach = destinations(s, "A1")
    assert SIDE[3] in reach  # through the full hex
    assert SIDE[2] not in reach
    s = position(step="a_move", units={"R1": SIDE[0], **{f"R{i}": SIDE[1] for i in range(2, 8)}})
    assert SIDE[1] not in destinations(s, "R1") and SIDE[2] in destinations(s, "R1")


def test_5_4_entering_a_hex_with_enemy_units_ends_the_move():
    s = position(units={"A1": SIDE[0], "R1": SIDE[2]})
    reach = destinations(s, "A1")
    assert SIDE[2] in reach and SIDE[3] not in reach
    s, _ = play(s, M, "move", unit="A1", to=SIDE[2])
    assert s.unit("A1").mp == 0
    assert not destinations(s, "A1")


def test_6_0_three_humans_and_six_robots_share_a_hex():
    spot = SIDE[2]
    units = {"A1": spot, "A2": spot, "A3": SIDE[0], **{f"R{i}": spot for i in range(1, 7)}}
    s = position(units=units)
    assert spot in destinations(s, "A3")
    s, _ = play(s, M, "move", unit="A3", to=spot)
    assert len(s.at(spot)) == 9


def test_7_3_auto_defend_hex_attacks_a_human_entering_it_at_1_1():
    ring = sorted(n for n in _nbrs(CORES[0]) if n not in CORES)
    target = ring[0]
    start = next(n for n in _nbrs(target) if base_types()[n] == "passage")
    s = position(units={"A1": start})
    s1, ev = play(s, M, "move", [1], unit="A1", to=target)  # 1-1, die 1: NE
    assert s1.unit("A1").alive and not s1.unit("A1").disrupted
    assert any("at 1-1" in e.text and "rule 7.3" in e.text for e in ev)
    s2, _ = play(s, M, "move", [3], unit="A1", to=target)  # die 3: D
    assert s2.unit("A1").disrupted and s2.unit("A1").mp == 0
    s3, _ = play(s, M, "move", [5], unit="A1", to=target)  # die 5: X
    assert not s3.unit("A1").alive
    r = position(step="a_move", units={"R1": start})
    r, _ = play(r, A, "move", [], unit="R1", to=target)  # robots are never attacked
    assert r.unit("R1").hex == target


def test_7_3_a_route_avoids_auto_defend_hexes_when_it_can():
    ring = sorted(n for n in _nbrs(CORES[0]) if n not in CORES)
    a, b = next((x, y) for x in ring for y in ring if distance(data.hexes_by_number()[x],
                                                               data.hexes_by_number()[y]) == 2)
    outer = [n for n in _nbrs(a) if base_types()[n] == "passage"]
    s = position(units={"A1": outer[0]})
    # The cheapest way to b may cross a; the move goes round by the corridor instead.
    assert b in destinations(s, "A1")
    s2, ev = play(s, M, "move", [1, 1], unit="A1", to=b)
    assert [e.hexes for e in ev if "rule 7.3" in e.text] == [(b,)]


def test_8_2_cleared_hexes_are_moved_through_as_passageways():
    blocked = hexes_of("impassable")[0]
    s = position(markers={blocked: "clear"})
    assert (move_cost(s, True, blocked), move_cost(s, False, blocked)) == (1, 0.5)
    s = position(markers={blocked: "obpas"})
    assert (move_cost(s, True, blocked), move_cost(s, False, blocked)) == (2, 1)


def test_7_3_auto_defend_results_are_spelled_out_never_ne():
    ring = sorted(n for n in _nbrs(CORES[0]) if n not in CORES)
    target = ring[0]
    start = next(n for n in _nbrs(target) if base_types()[n] == "passage")
    s = position(units={"A1": start})
    _, ev = play(s, M, "move", [1], unit="A1", to=target)  # 1-1, die 1: no effect
    line = next(e.text for e in ev if "at 1-1" in e.text)
    assert "die 1: no effect" in line and ": NE" not in line
    _, ev = play(s, M, "move", [3], unit="A1", to=target)
    assert "die 3: result D" in next(e.text for e in ev if "at 1-1" in e.text)
