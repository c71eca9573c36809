"""Advanced rules (8.0): air units, charges, command control and the food value of the dead."""

from __future__ import annotations

import pytest

from engine.core.dice import FixedDice
from engine.core.errors import IllegalAction
from engine.games.chitin import movement
from engine.games.chitin.board import Index, defence, geo
from engine.games.chitin.combat import battle_odds, battles
from engine.games.chitin.food import add_body, kill
from engine.games.chitin.state import Pair, State
from tests.chitin.positions import RULES, act, begin, destinations, legal, nb, position, put

X = "0811"  # centre of megahex A
B_CENTRE = "1007"


def plan_odds(state: State, pairs: list[tuple[str, str]]) -> list[tuple[list[str], int, int, str]]:
    state = state.model_copy(deep=True)
    state.plan = [Pair(by=a, on=b) for a, b in pairs]
    idx = Index(state)
    out = []
    for b in battles(state, idx, "Red"):
        lookup, _ = battle_odds(state, idx, "Red", b)
        out.append((sorted(b.defenders), lookup.attack, lookup.defence, lookup.label))
    return out


def fight() -> State:
    return position("small", step="attack")


def test_8_01_and_8_011_a_plunge_flies_two_megahexes_over_any_terrain() -> None:
    s = position("small")
    put(s, "R1", "PL2", X)
    s = begin(s)
    dests = {a["to"] for a in legal(s, "Red", "fly", unit="R1")}
    assert B_CENTRE in dests and "0811" not in dests
    assert "1003" in dests or len(dests) >= 12  # two megahexes out in every direction
    s, _ = act(s, "Red", "fly", unit="R1", to=B_CENTRE)
    assert s.counters["R1"].hex == B_CENTRE and s.counters["R1"].mp == 1


def test_8_011_air_units_enter_from_their_end_in_megahexes() -> None:
    s = position("small")
    put(s, "R1", "PL1")
    s = begin(s)
    dests = {a["to"] for a in legal(s, "Red", "fly", unit="R1")}
    assert B_CENTRE in dests and X not in dests


def test_8_011_air_units_attack_ground_units_anywhere_in_their_megahex() -> None:
    s = fight()
    put(s, "R1", "PL2", X)
    for i, h in enumerate(("0809", "0912", "0612", "0614")):
        put(s, f"B{i + 1}", "W", h)
    targets = {a["on"] for a in legal(s, "Red", "attack", by="R1")}
    assert targets == {"0809", "0912", "0612"}  # 0614 lies in the next megahex


def test_8_012_no_limit_on_air_units_in_a_megahex() -> None:
    s = position("small")
    for i in range(6):
        put(s, f"R{i + 1}", "PL4", nb(X, "N"))
    put(s, "R9", "PL4", B_CENTRE)
    s = begin(s)
    assert legal(s, "Red", "fly", unit="R9", to=X)


def test_8_013_air_units_are_never_disrupted_they_retreat_a_megahex() -> None:
    s = fight()
    put(s, "R1", "PL4", X).entered = True
    put(s, "B1", "PL1", X)
    s, _ = act(s, "Red", "attack", by="R1", on="air")
    s, _ = act(s, "Red", "done", dice=[3])  # 8 to 2: 4-1, a 3 gives DD
    assert s.combats[0].result == "DD" and not s.counters["B1"].disrupted
    choices = {a["to"] for a in legal(s, "Red", "retreat")}
    assert B_CENTRE in choices and len(choices) == 6
    s, _ = act(s, "Red", "retreat", stack="B1", to=B_CENTRE)
    assert s.counters["B1"].hex == B_CENTRE and s.counters["R1"].hex == X  # air units never advance


def test_8_013_no_facing_or_class_adds_for_air_units_and_dead_ones_are_food() -> None:
    s = fight()
    put(s, "R1", "PL2", X)
    put(s, "B1", "GT1", nb(X, "N"), face="N")
    assert plan_odds(s, [("R1", nb(X, "N"))]) == [([nb(X, "N")], 4, 4, "1-1")]
    s = position("small", chits=True)
    put(s, "B1", "PL1", X)
    kill(s, s.counters["B1"], 1, FixedDice([]), [], "test")
    assert s.chits["A"].bodies == 1 and s.lost["Blue"] == 1


def test_2_01_forest_halves_air_units_attacking_ground_units() -> None:
    s = fight()
    put(s, "R1", "PL4", B_CENTRE)
    put(s, "B1", "TR2", "0909")
    assert plan_odds(s, [("R1", "0909")])[0][1:3] == (4, 4)


def test_8_014_entering_air_units_must_fight_enemy_air_with_equal_strength() -> None:
    s = position("small")
    put(s, "R1", "PL4", B_CENTRE)
    put(s, "R2", "PL1", B_CENTRE)
    put(s, "B1", "PL2", X)
    put(s, "B2", "PL1", X)
    put(s, "B3", "W", "0809")
    s = begin(s)
    s, _ = act(s, "Red", "fly", unit="R1", to=X)
    s, _ = act(s, "Red", "fly", unit="R2", to=X)
    s, _ = act(s, "Red", "done")
    assert s.step == "attack" and not legal(s, "Red", "done")
    s, _ = act(s, "Red", "attack", by="R2", on="air")
    with pytest.raises(IllegalAction, match="rule 8.014"):
        act(s, "Red", "done")
    s, _ = act(s, "Red", "attack", by="R1", on="air")
    s, _ = act(s, "Red", "cancel", by="R2", on="air")
    assert legal(s, "Red", "done")  # four units (8) against three (6): the fifth is free
    assert legal(s, "Red", "attack", by="R2", on="0809")


def test_8_014_fewer_entering_air_units_must_all_attack() -> None:
    s = position("small")
    put(s, "R1", "PL1", B_CENTRE)
    put(s, "B1", "PL4", X)
    s = begin(s)
    s, _ = act(s, "Red", "fly", unit="R1", to=X)
    s, _ = act(s, "Red", "done")
    assert not legal(s, "Red", "done")
    s, _ = act(s, "Red", "attack", by="R1", on="air")
    assert legal(s, "Red", "done")


def _example_8_016(s: State) -> dict[str, str]:
    g = {"gt": X, "px1": nb(X, "N"), "px2": nb(X, "NW"), "tr": nb(X, "SE")}
    g["lr"] = nb(g["tr"], "SE")
    g["w1"] = nb(nb(X, "N"), "N")
    g["basic"] = nb(g["w1"], "SE")
    g["w2"] = nb(g["basic"], "SE")
    put(s, "B1", "GT3", g["gt"], face="N")
    put(s, "R1", "PX3", g["px1"], face="S").charging = True
    put(s, "R2", "PX3", g["px2"], face="SE").charging = True
    put(s, "R3", "PL2", X)
    put(s, "R4", "PL1", X)
    put(s, "B2", "TR3", g["tr"], face="SE")
    put(s, "R5", "LR3", g["lr"], face="NW")
    put(s, "R6", "PL1", X)
    put(s, "B3", "W", g["w1"])
    put(s, "B4", "B", g["basic"])
    put(s, "B5", "W", g["w2"])
    return g


def test_8_016_the_three_air_ground_combats_of_the_example() -> None:
    s = fight()
    g = _example_8_016(s)
    got = plan_odds(s, [
        (g["px1"], g["gt"]), (g["px2"], g["gt"]), ("R3", g["gt"]), ("R4", g["gt"]),
        (g["lr"], g["tr"]),
        ("R6", g["w1"]),
    ])
    assert ([g["gt"]], 48, 12, "4-1") in got  # (9 x 2) + 3 twice, plus 6 for three Plunge units
    assert ([g["tr"]], 6, 6, "1-1") in got  # the Termagants are not drawn in: the Low Renders attack them
    assert (sorted([g["w1"], g["basic"]]), 2, 2, "1-1") in got  # the Basic next to the Worker comes along


def test_8_015_attacking_the_basic_draws_in_both_workers() -> None:
    s = fight()
    g = _example_8_016(s)
    got = plan_odds(s, [("R6", g["basic"])])
    assert (sorted([g["w1"], g["basic"], g["w2"]]), 2, 3, "2-3") in got


def test_8_02_and_8_021_a_charge_gives_two_more_points_and_must_end_by_an_enemy() -> None:
    s = position("small")
    put(s, "R1", "GT3", "0806", face="S")
    put(s, "R9", "B", "0907")  # same megahex: in command control
    put(s, "B1", "TR1", "0810", face="N")
    s = begin(s)
    normal = destinations(s, "Red", "R1")
    charge = destinations(s, "Red", "R1", verb="charge")
    assert charge - normal  # some hexes only a charge reaches
    assert all(any(nb(h, d) == "0810" for d in ("N", "NE", "SE", "S", "SW", "NW")) for h in charge)
    to = sorted(charge - normal)[0]
    s, _ = act(s, "Red", "charge", stack="R1", to=to)
    dirs = {a["dir"] for a in legal(s, "Red", "face")}
    assert len(dirs) <= 3  # 8.021: it must face an enemy it will attack
    s, _ = act(s, "Red", "face", stack=to, dir=sorted(dirs)[0])
    s, _ = act(s, "Red", "done")
    assert not legal(s, "Red", "done")  # the charging stack must attack
    with pytest.raises(IllegalAction, match="rule 8.021"):
        act(s, "Red", "done")


def test_8_022_charge_doubles_strength_before_adds_and_8_026_the_illustration() -> None:
    s = position("small")
    put(s, "R1", "GT3", "0808", face="S")
    put(s, "R9", "B", "0907")
    put(s, "B1", "TR2", "0811", face="S")
    s = begin(s)
    assert s.counters["R1"].mp == 4 and not s.counters["R1"].disrupted  # 8.026: under command control
    assert "0810" in destinations(s, "Red", "R1", verb="charge")
    reach = movement.reach(s, Index(s), "Red", [s.counters["R1"]], geo().hex_of["0808"], bonus=2)
    assert max(reach.values()) == 6  # its normal move of 4 plus 2 for the charge
    assert [h for h, cost in reach.items() if cost > 4 and h in destinations(s, "Red", "R1", verb="charge")]
    s, _ = act(s, "Red", "charge", stack="R1", to="0810")
    s, _ = act(s, "Red", "face", stack="0810", dir="S")
    s, _ = act(s, "Red", "done")
    s, ev = act(s, "Red", "attack", by="0810", on="0811")
    assert any("30 to 4" in e.text and "24 (charging, doubled" in e.text for e in ev)  # 24, +3 rear, +3 class
    s, _ = act(s, "Red", "done", dice=[1])  # 5-1 or better: all defenders eliminated
    assert s.combats[0].result == "DE" and not s.counters["R1"].disrupted
    s, _ = act(s, "Red", "done")  # no advance
    assert s.counters["R1"].disrupted and s.active == "Blue"  # 8.024: disrupted after the charge
    assert defence(s.counters["R1"]) == 6  # 8.026: it defends at its disrupted strength
    s, _ = act(s, "Blue", "done")
    assert s.active == "Red" and s.counters["R1"].began_disrupted and not legal(s, "Red", "charge")


def test_8_023_chargers_take_results_normally_and_8_024_are_disrupted_after() -> None:
    s = fight()
    put(s, "R1", "PX1", X, face="S").charging = True
    put(s, "B1", "GT3", nb(X, "S"), face="N")
    s, _ = act(s, "Red", "attack", by=X, on=nb(X, "S"))
    s, _ = act(s, "Red", "done", dice=[1])  # 6+1 to 12: 1-2, a 1 gives A-2
    assert s.combats[0].result == "A-2" and s.counters["R1"].where == "dead"
    s = fight()
    put(s, "R1", "PX3", X, face="S").charging = True
    put(s, "B1", "GT1", nb(X, "S"), face="N")
    s, _ = act(s, "Red", "attack", by=X, on=nb(X, "S"))
    s, _ = act(s, "Red", "done", dice=[1])
    assert s.combats[0].result == "DE" and not s.counters["R1"].disrupted  # advance first, then disruption
    s, _ = act(s, "Red", "advance", stack=X, to=nb(X, "S"), dir="S")
    assert s.counters["R1"].disrupted and not s.counters["R1"].charging


def test_8_025_a_unit_disrupted_when_its_move_began_may_not_charge() -> None:
    s = position("small")
    put(s, "R1", "GT3", "0806", face="S", disrupted=True)
    put(s, "R9", "B", "0907")
    put(s, "B1", "TR1", "0808", face="N")
    s = begin(s)
    assert not legal(s, "Red", "charge")
    with pytest.raises(IllegalAction, match="rules 8.025, 8.034"):
        act(s, "Red", "charge", stack="R1", to="0807")


def test_8_03_8_031_8_032_units_with_a_basic_in_their_megahex_are_in_control() -> None:
    s = position("small")
    put(s, "R1", "GT3", X)
    put(s, "R2", "B", nb(nb(X, "S"), "S"))  # same megahex
    put(s, "R3", "TR3", B_CENTRE)  # no Basic there
    put(s, "R4", "W", B_CENTRE)
    put(s, "R5", "PL1", B_CENTRE)
    s = begin(s)
    assert not s.counters["R1"].disrupted and s.counters["R3"].disrupted
    assert not s.counters["R4"].disrupted and not s.counters["R5"].disrupted


def test_8_033_out_of_control_warriors_move_disrupted() -> None:
    s = position("small")
    put(s, "R3", "TR3", B_CENTRE)
    s = begin(s)
    assert len(destinations(s, "Red", "R3")) <= 6  # one hex only (7.064)
    s, _ = act(s, "Red", "done")
    assert not s.counters["R3"].disrupted  # right side up once movement ends; it attacks normally


def test_8_034_no_charge_out_of_control_even_if_a_basic_arrives() -> None:
    s = position("small")
    put(s, "R1", "GT3", B_CENTRE)
    put(s, "R2", "B", nb(B_CENTRE, "N"), face="N")
    put(s, "B1", "TR1", nb(nb(B_CENTRE, "S"), "S"))
    s.counters["R2"].hex = "0101"  # far away when the move begins
    s = begin(s)
    assert s.counters["R1"].began_disrupted and not legal(s, "Red", "charge")


def test_8_035_units_may_move_out_of_control_and_disrupt_next_move() -> None:
    s = position("small")
    put(s, "R1", "GT1", X, face="S")
    put(s, "R2", "B", X)
    s = begin(s)
    to = sorted(destinations(s, "Red", "R1"), key=lambda h: -int(h[2:]))[0]
    s, _ = act(s, "Red", "move", stack="R1", to=to)
    s, _ = act(s, "Red", "face", stack=to, dir="S")
    assert not s.counters["R1"].disrupted
    s, _ = act(s, "Red", "done")
    s, _ = act(s, "Blue", "done")
    assert s.active == "Red" and s.counters["R1"].disrupted == (s.counters["R1"].hex != X)


def test_8_04_and_8_041_a_body_feeds_the_nearest_chit_in_its_megahex() -> None:
    s = position("small", chits=True)
    add_body(s, nb(X, "N"), FixedDice([]), [])
    assert s.chits["A"].bodies == 1 and s.chits["A"].value == 21


def test_8_041_equally_close_chits_are_chosen_by_die_roll() -> None:
    s = position("small", chits=True)
    s.chits["C"].hex = nb(nb(X, "N"), "N")
    s.chits["A"].hex = nb(nb(X, "S"), "S")
    add_body(s, X, FixedDice([5]), [])
    assert (s.chits["A"].bodies, s.chits["C"].bodies) == (0, 1)
    add_body(s, X, FixedDice([2]), [])
    assert (s.chits["A"].bodies, s.chits["C"].bodies) == (1, 1)


def test_8_402_a_body_with_no_chit_in_its_megahex_starts_a_new_chit() -> None:
    s = position("small", chits=True)
    ev: list = []
    add_body(s, "0101", FixedDice([]), ev)
    new = [c for c in s.chits.values() if not c.original]
    assert len(new) == 1 and new[0].hex == "0101" and new[0].value == 1 and new[0].letter == "H"
    assert "rule 8.402" in ev[0].text
    add_body(s, "0102", FixedDice([]), [])
    assert new[0].letter == "H" and s.chits["H"].value == 2


def test_8_403_no_chit_is_worth_more_than_30() -> None:
    s = position("small", chits=True)
    s.chits["A"].bodies = 9
    add_body(s, nb(X, "N"), FixedDice([]), [])
    assert s.chits["A"].value == 30
    add_body(s, nb(X, "N"), FixedDice([]), [])
    assert s.chits["A"].value == 30
    extra = [c for c in s.chits.values() if not c.original]
    assert len(extra) == 1 and extra[0].hex == nb(X, "N") and extra[0].value == 1
    add_body(s, nb(X, "N"), FixedDice([]), [])
    assert s.chits[extra[0].letter].value == 2


def test_8_04_the_loser_is_charged_two_points_per_unit_in_the_view() -> None:
    s = position("small", chits=True)
    put(s, "R1", "GT3", X)
    kill(s, s.counters["R1"], 2, FixedDice([]), [], "test")
    caption = " ".join(RULES.view(s, None).caption)
    assert "Red -4" in caption
