"""Components, set-up and stacking in impact hexes: rules 2.1-2.2.2, 4.1, 4.2, 6.0."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core.dice import FixedDice
from engine.core.errors import IllegalAction
from engine.core.hexes import distance, neighbors
from engine.games.annihilator import RULES, data
from engine.games.annihilator.board import base_types
from tests.annihilator.helpers import CORES, A, M, config, hexes_of, landed, legal, play, position, step_from


def test_2_1_map_is_a_hexagon_with_an_armored_hull():
    m = data.game_map()
    centre = m.named["brain core 1"]
    assert len(m.hexes) == 3 * 12 * 13 + 1
    hull = {h for h in m.hexes if distance(h, centre) == 12}
    assert {data.hex_numbers()[h] for h in hull} == set(hexes_of("armor"))


def test_2_1_two_brain_cores_at_the_centre_ringed_by_auto_defend_hexes():
    by_no = data.hexes_by_number()
    cores = [by_no[c] for c in CORES]
    assert distance(*cores) == 1
    ring = {data.hex_numbers()[n] for c in cores for n in neighbors(c)} - set(CORES)
    assert ring == set(hexes_of("autodefend"))


def test_2_1_map_has_passageways_impassable_masses_and_obstructed_fill():
    kinds = Counter(base_types().values())
    assert kinds["passage"] > 50 and kinds["impassable"] > 20 and kinds["obstructed"] > 50


def test_2_1_humans_can_walk_from_every_impact_hex_to_the_core_ring():
    types = data.hex_types().types
    open_hexes = {h for h, t in base_types().items() if types[t].human is not None}
    by_no, nums = data.hexes_by_number(), data.hex_numbers()
    start = hexes_of("autodefend")[0]
    seen, todo = {start}, [start]
    while todo:
        for n in neighbors(by_no[todo.pop()]):
            k = nums.get(n)
            if k in open_hexes and k not in seen:
                seen.add(k)
                todo.append(k)
    assert seen == open_hexes
    for side in range(1, 7):
        for number in range(2, 13):
            impact = by_no[data.impact_hex(side, number)]
            assert any(nums.get(n) in open_hexes for n in neighbors(impact)), (side, number)


def test_2_2_unit_values_follow_the_printed_numbers_and_rulings():
    t = data.units().types
    assert t["assault"].attack == 4 and t["security"].defence == 2  # printed (7.1)
    assert t["assault"].movement == t["demolition"].movement == 4  # printed (5.2)
    assert (t["demolition"].attack, t["demolition"].defence) == (2, 2)
    assert (t["security"].attack, t["repair"].attack, t["repair"].defence) == (3, 0, 1)


def test_2_2_1_forces_six_assault_three_demolition_ten_security_six_repairbots():
    s = RULES.setup(config(), FixedDice([]))
    kinds = Counter(u.kind for u in s.units.values())
    assert kinds == {"assault": 6, "demolition": 3, "security": 10, "repair": 6}
    assert {u.side for u in s.units.values() if u.kind in ("assault", "demolition")} == {M}


def test_2_2_2_reference_markers_show_in_the_view():
    s = landed()
    s = s.clone()
    s.markers = {hexes_of("obstructed")[0]: "clear", hexes_of("impassable")[0]: "obpas"}
    kinds = {m.kind for m in RULES.view(s, None).markers}
    assert {"clear", "obpas", "impact", "charges"} <= kinds


def test_4_1_annihilator_sets_up_first_anywhere_robots_may_go():
    s = RULES.setup(config(), FixedDice([]))
    assert [p.seat for p in RULES.pending(s)] == [A]
    hexes = {str(a.args["at"]) for a in legal(s, A, "place") if a.args["unit"] == "R1"}
    assert hexes_of("impassable")[0] in hexes and hexes_of("passage")[0] in hexes
    assert not hexes & (set(hexes_of("armor")) | set(CORES))
    with pytest.raises(IllegalAction, match=r"Security Robot R1 cannot enter brain core hex .* \(rule 5.2"):
        play(s, A, "place", unit="R1", at=CORES[0])


def test_4_1_default_deployment_can_be_edited_before_ready():
    s = RULES.setup(config(), FixedDice([]))
    with pytest.raises(IllegalAction, match=r"set up every robot first .*rule 4.1"):
        play(s, A, "ready")
    s, _ = play(s, A, "place", unit="R1", at=hexes_of("impassable")[0])
    s, _ = play(s, A, "autodeploy")
    assert s.unit("R1").hex == hexes_of("impassable")[0]
    assert s.unit("R2").hex == data.deployment().units["R2"]
    s, _ = play(s, A, "lift", unit="R2")
    assert not s.unit("R2").hex and not legal(s, A, "ready")
    with pytest.raises(IllegalAction, match=r"Security Robot R2 is not on the map; /place it \(rule 4.1\)"):
        play(s, A, "lift", unit="R2")
    s, _ = play(s, A, "place", unit="R2", at=hexes_of("passage")[3])
    s, _ = play(s, A, "ready")
    assert s.step == "land"


def test_4_1_six_robots_at_most_in_a_hex():
    s = RULES.setup(config(), FixedDice([]))
    spot = hexes_of("passage")[0]
    for i in range(1, 7):
        s, _ = play(s, A, "place", unit=f"R{i}", at=spot)
    with pytest.raises(IllegalAction, match=rf"hex {spot} already holds six Annihilator units.*rule 6.0"):
        play(s, A, "place", unit="R7", at=spot)


def test_4_2_each_side_numbers_its_hull_hexes_2_to_12():
    armor = set(hexes_of("armor"))
    for side in range(1, 7):
        hexes = [data.impact_hex(side, n) for n in range(2, 13)]
        assert len(set(hexes)) == 11 and set(hexes) <= armor
        # Consecutive numbers are neighbours along the hull.
        by_no = data.hexes_by_number()
        assert all(distance(by_no[a], by_no[b]) == 1 for a, b in zip(hexes, hexes[1:], strict=False))


def test_4_2_impacts_one_die_for_the_side_two_for_the_hex():
    s = landed([1, 3, 4, 3, 2, 5, 6, 6, 6])
    assert s.impacts == [data.impact_hex(1, 7), data.impact_hex(3, 7), data.impact_hex(6, 12)]
    where = {uid: s.unit(uid).hex for uid in ("A1", "A2", "D1", "A3", "A4", "D2", "A5", "A6", "D3")}
    assert where["A1"] == where["A2"] == where["D1"] == s.impacts[0]
    assert where["A5"] == where["A6"] == where["D3"] == s.impacts[2]
    assert s.step == "h_move" and s.turn == 1


def test_6_0_stacking_may_be_broken_in_an_impact_hex_only():
    s = landed([2, 3, 4, 2, 4, 3, 5, 6, 6])  # two impacts in the same hull hex
    assert len(s.impacts) == 2
    assert len([u for u in s.at(s.impacts[0]) if u.human]) == 6
    impact = data.impact_hex(1, 7)
    inside = step_from(impact, 3)  # the hex just inside the hull
    s = position(units={"A1": impact, "A2": impact, "A3": impact, "A4": inside, "A5": inside, "A6": inside,
                        "D1": inside}, impacts=[impact])
    s, _ = play(s, M, "move", unit="A4", to=impact)  # a fourth may join in an impact hex
    assert len(s.at(impact)) == 4
    with pytest.raises(IllegalAction, match=rf"hex {inside} already holds three Marines units.*rule 6.0"):
        play(s, M, "move", unit="A1", to=inside)
