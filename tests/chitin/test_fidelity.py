"""Rules fidelity, round two: Workers and chits (6.081), free facing (6.06), overruns (7.07),
air movement megahex by megahex (8.011, 8.014), charges with Basics (8.02), army selection (3.03),
the dice option's Workers and dice (RULINGS Chitin 12) and turn numbers as printed (5.00).

Each test is written from the rule text and RULINGS Chitin 7-12.
"""

from __future__ import annotations

import pytest

from engine.core.dice import FixedDice
from engine.core.errors import IllegalAction
from engine.core.protocol import Action, GameConfig, Player
from engine.games.chitin.board import DIRS, Index, geo
from engine.games.chitin.combat import attack_choices
from engine.games.chitin.food import kill
from tests.chitin.positions import RULES, act, begin, destinations, legal, nb, position, put

X = "0811"  # centre of megahex A, where chit A lies; plains all round
B_CENTRE = "1007"


# -- 6.081: Workers and Harvest Chits (RULINGS Chitin 7) ---------------------------------------


def test_6_081_worker_keeps_moving_after_pickup() -> None:
    s = position("learning", chits=True)
    a = s.chits["A"].hex
    put(s, "R1", "W", nb(a, "S"))
    s = begin(s)
    s, ev = act(s, "Red", "move", stack="R1", to=a, dir="N")
    assert s.chits["A"].carriers == ["R1"] and any("picks up chit A" in e.text for e in ev)
    assert s.counters["R1"].mp == 3  # one point for the plains hex of the chit
    # ... and it goes on with the three points it has left, the chit with it
    assert nb(nb(a, "N"), "N") in destinations(s, "Red", "R1")  # two plains hexes on
    assert nb(nb(nb(a, "N"), "N"), "N") not in destinations(s, "Red", "R1")  # the forest beyond costs 2 more
    s, _ = act(s, "Red", "move", stack="R1", to=nb(a, "N"), dir="N")
    assert s.counters["R1"].hex == nb(a, "N") and s.counters["R1"].chit == "A"
    v = RULES.view(s, None)
    assert any(m.kind == "chit-carried" and m.hex == nb(a, "N") for m in v.markers)


def test_6_081_worker_standing_on_a_chit_picks_it_up_without_leaving() -> None:
    s = position("learning", chits=True)
    a = s.chits["A"].hex
    put(s, "R1", "W", a)  # e.g. it stood there when the carrier beside it was killed
    assert not s.chits["A"].carriers
    s = begin(s)
    assert s.chits["A"].carriers == ["R1"] and s.counters["R1"].chit == "A"
    assert s.counters["R1"].mp == 4  # nothing spent: it moves off at full allowance
    assert nb(nb(nb(a, "N"), "N"), "N") in destinations(s, "Red", "R1")  # 1 + 1 + 2 (forest): all four points


def test_6_081_several_workers_carry_one_chit_and_move_as_a_stack() -> None:
    s = position("learning", chits=True)
    a = s.chits["A"].hex
    put(s, "R1", "W", a)
    put(s, "R2", "W", nb(a, "S"))
    s = begin(s)
    s, ev = act(s, "Red", "move", stack="R2", to=a, dir="N")
    assert s.chits["A"].carriers == ["R1", "R2"] and s.counters["R2"].chit == "A"
    assert any("R2" in e.text and "chit A" in e.text for e in ev)
    s, _ = act(s, "Red", "move", stack="R1+R2", to=nb(a, "N"), dir="N")
    assert s.chits["A"].carriers == ["R1", "R2"]
    assert {s.counters[i].hex for i in ("R1", "R2")} == {nb(a, "N")}


def test_6_081_if_one_carrier_is_killed_the_survivor_keeps_the_chit_and_the_dead_worker_counts_into_it() -> None:
    s = position("small", chits=True)  # advanced rules: the dead feed the hive (8.041)
    a = s.chits["A"].hex
    put(s, "R1", "W", nb(a, "N"))
    put(s, "R2", "W", nb(a, "N"))
    s.chits["A"].carriers, s.chits["A"].hex = ["R1", "R2"], ""
    s.counters["R1"].chit = s.counters["R2"].chit = "A"
    before = s.chits["A"].value
    events: list = []
    kill(s, s.counters["R1"], 1, FixedDice([]), events, "test")
    assert s.chits["A"].carriers == ["R2"] and s.counters["R2"].chit == "A"
    assert not s.chits["A"].hex  # still carried, not dropped
    assert s.chits["A"].value == before + 1  # the dead Worker counts into the chit
    # and when the last carrier dies, the chit stays in its hex (6.081)
    kill(s, s.counters["R2"], 1, FixedDice([]), events, "test")
    assert not s.chits["A"].carriers and s.chits["A"].hex == nb(a, "N")


# -- 6.06: facing is free (RULINGS Chitin 8) -----------------------------------------------------


def test_6_06_turning_in_place_does_not_end_the_move() -> None:
    s = position()
    put(s, "R1", "GT1", X, face="N")
    s = begin(s)
    s, _ = act(s, "Red", "face", stack=X, dir="S")
    assert s.counters["R1"].facing == 3 and s.counters["R1"].mp == 4
    assert nb(nb(X, "S"), "S") in destinations(s, "Red", "R1")


def test_6_06_move_takes_a_facing_in_the_same_order() -> None:
    s = position()
    put(s, "R1", "GT1", X, face="N")
    s = begin(s)
    s, ev = act(s, "Red", "move", stack="R1", to=nb(X, "S"), dir="SE")
    assert s.step == "move" and s.counters["R1"].facing == DIRS.index("SE")
    assert s.counters["R1"].hex == nb(X, "S") and any("faces SE" in e.text for e in ev)
    with pytest.raises(IllegalAction, match="N, NE, SE, S, SW"):
        act(s, "Red", "move", stack="R1", to=X, dir="UP")


def test_6_06_a_stack_next_to_an_enemy_charges_without_moving() -> None:
    s = position("small")
    put(s, "R1", "GT3", X, face="N")
    put(s, "R2", "B", nb(X, "N"))  # command control (8.031)
    put(s, "B1", "TR2", nb(X, "S"), face="N")
    s = begin(s)
    assert legal(s, "Red", "charge", stack="R1", to=X)
    with pytest.raises(IllegalAction, match="rule 8.021"):
        act(s, "Red", "charge", stack="R1", to=X, dir="N")  # a charging stack must face an enemy
    s, _ = act(s, "Red", "charge", stack="R1", to=X, dir="S")
    assert s.counters["R1"].charging and s.counters["R1"].facing == 3 and s.counters["R1"].hex == X
    assert s.step == "move"


def test_6_06_a_stack_next_to_an_enemy_turns_and_overruns_without_moving() -> None:
    s = position()
    put(s, "R1", "GT3", X, face="N")
    put(s, "B1", "W", nb(X, "S"))
    s = begin(s)
    assert not legal(s, "Red", "overrun")  # the Worker is behind it
    s, _ = act(s, "Red", "face", stack=X, dir="S")
    assert legal(s, "Red", "overrun", stack=X, on=nb(X, "S"))


# -- 7.07: overruns (RULINGS Chitin 9) ----------------------------------------------------------


def test_7_07_several_stacks_combine_in_one_overrun() -> None:
    s = position()
    target = nb(X, "S")
    put(s, "R1", "GT3", X, face="S")
    put(s, "R2", "GT3", nb(target, "SE"), face="NW")
    put(s, "B1", "TR2", target, face="N")  # defence 4: each Gantua stack alone is only 3 to 1
    s = begin(s)
    assert not legal(s, "Red", "overrun", stack=X)
    key = "+".join(sorted((X, nb(target, "SE"))))
    assert legal(s, "Red", "overrun", stack=key, on=target)  # 24 to 4
    s, ev = act(s, "Red", "overrun", stack=key, on=target)
    assert s.counters["B1"].where == "dead" and any("rule 7.07" in e.text for e in ev)
    # both stacks may go on through the hex, each at 2 points on plains
    assert s.counters["R1"].hex == X and s.counters["R2"].hex == nb(target, "SE")
    s, _ = act(s, "Red", "move", stack="R1", to=target, dir="S")
    assert s.counters["R1"].mp == 4 - 2


def test_7_07_air_units_in_the_megahex_join_an_overrun() -> None:
    s = position("small")
    target = nb(X, "S")
    put(s, "R1", "GT3", X, face="S")
    put(s, "R2", "B", X)
    put(s, "R3", "PL4", nb(X, "SE"))  # in megahex A with the target
    put(s, "B1", "TR1", target, face="N")
    put(s, "B2", "W", target)  # defence 3: the Gantuas and Basic (13) are 4 to 1, with the Plunge 21 to 3
    s = begin(s)
    assert not legal(s, "Red", "overrun", stack=X, on=target)
    assert legal(s, "Red", "overrun", stack=f"{X}+R3", on=target)


def test_7_07_passing_through_costs_two_plus_one_rough_plus_one_other_enemy_zone() -> None:
    s = position()
    forest = "0709"
    src = next(nb(forest, d) for d in DIRS if geo().map.terrain(geo().hex_of[nb(forest, d)]) == {"plains"})
    d = next(d for d in DIRS if nb(src, d) == forest)
    put(s, "R1", "GT3", src, face=d)
    put(s, "B1", "W", forest)
    s = begin(s)
    s, _ = act(s, "Red", "overrun", stack=src, on=forest)
    s, _ = act(s, "Red", "move", stack="R1", to=forest, dir=d)
    assert s.counters["R1"].mp == 4 - 3  # 2, plus 1: forest is rough for a Gantua

    s = position()
    put(s, "R1", "LR3", src, face=d)
    put(s, "B1", "W", forest)
    s = begin(s)
    s, _ = act(s, "Red", "overrun", stack=src, on=forest)
    s, _ = act(s, "Red", "move", stack="R1", to=forest, dir=d)
    assert s.counters["R1"].mp == 5 - 2  # Low Renders scuttle across rough: no +1

    s = position()
    target = nb(X, "S")
    put(s, "R1", "GT3", X, face="S")
    put(s, "B1", "W", target)
    put(s, "B3", "TR1", nb(target, "SE"), face="N")  # another enemy next to the target hex
    s = begin(s)
    s, _ = act(s, "Red", "overrun", stack=X, on=target)  # 12 to 1
    s, _ = act(s, "Red", "move", stack="R1", to=target, dir="S")
    assert s.counters["R1"].mp == 4 - 3  # 2, plus 1 in another enemy's zone of control


def test_7_07_each_overrunning_stack_may_attack_at_the_end_of_movement() -> None:
    s = position()
    target = nb(X, "S")
    put(s, "R1", "GT3", X, face="S")
    put(s, "R2", "GT3", nb(target, "SE"), face="NW")
    put(s, "B1", "TR2", target)
    put(s, "B2", "TR1", nb(nb(target, "SE"), "SW"))
    s = begin(s)
    s, _ = act(s, "Red", "overrun", stack="+".join(sorted((X, nb(target, "SE")))), on=target)
    s, _ = act(s, "Red", "move", stack="R1", to=target, dir="S")
    s, _ = act(s, "Red", "done")
    assert s.step == "attack"
    bys = {p.by for p in attack_choices(s, Index(s), "Red")}
    assert {target, nb(target, "SE")} <= bys


# -- 8.011, 8.014: air movement megahex by megahex (RULINGS Chitin 10) ---------------------------


def _between(a: str, b: str) -> list[str]:
    g = geo()
    ma, mb = g.mega[g.hex_of[a]], g.mega[g.hex_of[b]]
    common = set(g.mega_nbrs[ma]) & set(g.mega_nbrs[mb])
    return sorted(g.text[g.anchor[m]] for m in common)


def test_8_014_a_plunge_may_not_fly_over_enemy_air_units_to_the_next_megahex() -> None:
    s = position("small")
    far = "0615"  # megahex E, across A from B
    put(s, "R1", "PL1", B_CENTRE)
    between = _between(B_CENTRE, far)
    assert between
    for i, h in enumerate(between):
        put(s, f"B{i + 1}", "PL2", h)
    s = begin(s)
    assert far not in {a["to"] for a in legal(s, "Red", "fly", unit="R1")}
    with pytest.raises(IllegalAction, match="rule 8.014"):
        act(s, "Red", "fly", unit="R1", to=far)
    s, _ = act(s, "Red", "fly", unit="R1", to=between[0])
    assert not legal(s, "Red", "fly", unit="R1")  # fewer than the enemy: it must stay and fight


def test_8_014_example_five_enter_three_must_fight_two_go_on() -> None:
    """The rulebook's example: five Plunge units enter a megahex holding three enemy Plunge units."""
    s = position("small")
    put(s, "R1", "PL4", B_CENTRE)
    put(s, "R2", "PL1", B_CENTRE)
    put(s, "B1", "PL2", X)
    put(s, "B2", "PL1", X)
    put(s, "B3", "W", "0809")
    s = begin(s)
    s, _ = act(s, "Red", "fly", unit="R1", to=X)
    s, _ = act(s, "Red", "fly", unit="R2", to=X)  # five units have entered
    s, ev = act(s, "Red", "split", unit="R1")  # 4 into 2 + 2
    new = next(c.id for c in s.counters.values() if c.side == "Red" and c.id not in ("R1", "R2"))
    assert s.counters["R1"].units == 2 and s.counters[new].units == 2 and s.counters[new].hex == X
    s, _ = act(s, "Red", "split", unit=new)  # 2 into 1 + 1: now 2 + 1 + 1 + 1
    ones = sorted(c.id for c in s.counters.values() if c.side == "Red" and c.type == "PL" and c.units == 1 and c.id != "R2")
    assert len(ones) == 2
    onward = "1003" if "1003" in {a["to"] for a in legal(s, "Red", "fly", unit="R2")} else None
    onward = onward or sorted(a["to"] for a in legal(s, "Red", "fly", unit="R2"))[0]
    # the two that go on: one unit of the split counter, and the lone Plunge
    s, _ = act(s, "Red", "fly", unit=ones[0], to=onward)
    s, _ = act(s, "Red", "fly", unit="R2", to=onward)
    # three units stay (2 + 1 = 6 strength against 6): the last one may not leave
    assert not legal(s, "Red", "fly", unit=ones[1])
    with pytest.raises(IllegalAction, match="rule 8.014"):
        act(s, "Red", "fly", unit=ones[1], to=onward)
    s, _ = act(s, "Red", "done")
    assert not legal(s, "Red", "done")  # the three must attack the enemy air units
    s, _ = act(s, "Red", "attack", by="R1", on="air")
    with pytest.raises(IllegalAction, match="rule 8.014"):
        act(s, "Red", "done")
    s, _ = act(s, "Red", "attack", by=ones[1], on="air")
    assert legal(s, "Red", "done")


def test_8_011_a_plunge_counter_splits_into_smaller_counters() -> None:
    s = position("small")
    put(s, "R1", "PL4", B_CENTRE)
    put(s, "R2", "PL1", B_CENTRE)
    s = begin(s)
    assert legal(s, "Red", "split", unit="R1") and not legal(s, "Red", "split", unit="R2")
    s, _ = act(s, "Red", "fly", unit="R1", to=X)
    s, _ = act(s, "Red", "split", unit="R1")
    new = [c for c in s.counters.values() if c.side == "Red" and c.id not in ("R1", "R2")]
    assert len(new) == 1 and new[0].mp == s.counters["R1"].mp == 1 and new[0].hex == s.counters["R1"].hex


# -- 8.02: Gantua or Phlanx charging with Basics ------------------------------------------------


def test_8_02_gantua_stacked_with_a_basic_charges_together() -> None:
    s = position("small")
    start = "1302"
    put(s, "R1", "GT2", start, face="S")
    put(s, "R2", "B", start, face="S")
    put(s, "B1", "TR1", "1306", face="N")
    s = begin(s)
    group = "R1+R2"
    charges = destinations(s, "Red", group, verb="charge")
    assert charges
    idx = Index(s)
    from engine.games.chitin import movement

    members = [s.counters["R1"], s.counters["R2"]]
    costs = movement.reach(s, idx, "Red", members, geo().hex_of[start], charge=True)
    assert max(costs[h] for h in charges) <= 5  # the Basic's allowance of 5 limits the stack
    to = sorted(charges, key=lambda h: -costs[h])[0]
    s, _ = act(s, "Red", "charge", stack=group, to=to)
    assert s.counters["R1"].charging and not s.counters["R2"].charging
    assert s.counters["R1"].hex == s.counters["R2"].hex == to


# -- 3.03: exact points (RULINGS Chitin 11) --------------------------------------------------------


def test_3_03_ready_only_when_the_army_spends_exactly_the_scenarios_points() -> None:
    players = (Player(seat="Red", name="alice"), Player(seat="Blue", name="bob"))
    s = RULES.setup(GameConfig(game="chitin", scenario="basic", players=players), FixedDice([]))
    s, _ = RULES.apply(s, "Red", Action(verb="pick", args={"kind": "GT3"}), FixedDice([]))
    assert not [a for a in RULES.legal_actions(s, "Red") if a.verb == "ready"]
    assert "36 points left" in next(p.text for p in RULES.pending(s) if p.seat == "Red")
    with pytest.raises(IllegalAction, match="12 of 48 points.*rule 3.032"):
        RULES.apply(s, "Red", Action(verb="ready"), FixedDice([]))
    for kind in ("GT3", "GT3", "GT3"):
        s, _ = RULES.apply(s, "Red", Action(verb="pick", args={"kind": kind}), FixedDice([]))
    assert [a for a in RULES.legal_actions(s, "Red") if a.verb == "ready"]
    assert "0 points left" in next(p.text for p in RULES.pending(s) if p.seat == "Red")


# -- RULINGS Chitin 12: the dice option, and no die for a result that needs none -------------------


def test_7_06_no_die_is_rolled_for_an_automatic_result() -> None:
    s = position(step="attack")
    put(s, "R1", "GT3", X, face="S")
    put(s, "B1", "W", nb(X, "S"))
    s, _ = act(s, "Red", "attack", by=X, on=nb(X, "S"))
    s, ev = act(s, "Red", "done", dice=[])  # 12 to 1: 5-1 or better, all defenders eliminated
    assert s.counters["B1"].where == "dead"
    assert s.combats[0].result == "DE" and s.combats[0].die == 0
    assert not any("rolls" in e.text for e in ev)
    assert not any("rolled" in line for line in RULES.view(s, None).caption)


def test_7_06_dice_workers_never_counter_attack() -> None:
    s = position(step="attack")
    s.combat = "dice"
    put(s, "R1", "GT1", X, face="S")
    put(s, "B1", "W", nb(X, "S"))
    put(s, "B2", "W", nb(X, "S"))
    s, _ = act(s, "Red", "attack", by=X, on=nb(X, "S"))
    s, _ = act(s, "Red", "done", dice=[1, 1, 1, 6])  # 4 dice: one hit
    choices = {a["choice"] for a in legal(s, "Blue", "defend")}
    assert not any("counter" in c for c in choices)  # 2.023: Workers cannot attack
    s, ev = act(s, "Blue", "defend", choice=sorted(choices)[0], dice=[])
    assert not any("counter-attacks" in e.text for e in ev)


def test_7_06_dice_a_counter_attack_leaves_the_workers_out() -> None:
    s = position(step="attack")
    s.combat = "dice"
    put(s, "R1", "GT1", X, face="S")
    put(s, "B1", "TR1", nb(X, "S"), face="N")
    put(s, "B2", "W", nb(X, "S"))
    s, _ = act(s, "Red", "attack", by=X, on=nb(X, "S"))
    s, _ = act(s, "Red", "done", dice=[1] * 8)  # 4 dice and a re-roll (Smashers on Hackers): no hit
    s, ev = act(s, "Blue", "defend", choice="accept_and_counter", dice=[1, 1])  # the Termagant's 2 dice, not 3
    assert any("counter-attacks" in e.text for e in ev)
    assert s.combats[0].result.endswith("0 back")


# -- turn numbers as printed (5.00) ---------------------------------------------------------------


def test_5_00_a_game_turn_is_both_players_turns() -> None:
    s = position(active="Blue")
    s.turn = 22  # the 22nd player-turn: Blue's half of game turn 11
    v = RULES.view(s, None)
    assert v.turn == 11
    assert any("Turn 11, Blue's player-turn" in line for line in v.caption)
    s = position(active="Red")
    s.turn = 21
    assert RULES.view(s, None).turn == 11


def test_7_07_a_refused_overrun_names_the_stack_that_cannot_join() -> None:
    s = position("small")
    target = nb(X, "S")
    put(s, "R1", "GT3", X, face="N")  # the target is behind it
    put(s, "R2", "B", X)
    put(s, "R3", "PL4", B_CENTRE)  # another megahex
    put(s, "B1", "TR1", target)
    s = begin(s)
    with pytest.raises(IllegalAction, match="not in front of your stack in 0811"):
        act(s, "Red", "overrun", stack=X, on=target)
    s, _ = act(s, "Red", "face", stack=X, dir="S")
    with pytest.raises(IllegalAction, match="not in the megahex of 0812"):
        act(s, "Red", "overrun", stack=f"{X}+R3", on=target)
    s.counters["R3"].hex = nb(X, "SE")
    with pytest.raises(IllegalAction, match="at least one ground stack"):
        act(s, "Red", "overrun", stack="R3", on=target)


def test_6_06_a_move_with_a_facing_is_refused_for_its_real_reason() -> None:
    s = position()
    put(s, "R1", "GT1", X, face="N")
    put(s, "B1", "TR1", nb(nb(X, "S"), "S"))
    s = begin(s)
    with pytest.raises(IllegalAction, match="Reaching 0101 costs"):
        act(s, "Red", "move", stack="R1", to="0101", dir="S")
    with pytest.raises(IllegalAction, match="Write it as /move stack:R1 to:0810 dir:SE"):
        act(s, "Red", "move", stack="R1", to="0810", dir="se")
    with pytest.raises(IllegalAction, match="own \\(north\\) end"):
        act(s, "Red", "move", stack="R1", to="off", dir="S")  # the real reason: not on the edge
    s = position()
    put(s, "R2", "TR1", "0101")
    s = begin(s)
    with pytest.raises(IllegalAction, match="leaving the map takes no facing"):
        act(s, "Red", "move", stack="R2", to="off", dir="S")


def test_7_07_a_charging_stack_overruns_and_goes_on_charging() -> None:
    s = position("small")
    target = nb(X, "S")
    put(s, "R1", "GT3", X, face="N")
    put(s, "R2", "B", X)
    put(s, "B1", "W", target)
    put(s, "B2", "TR1", nb(nb(target, "S"), "S"), face="N")
    s = begin(s)
    s, _ = act(s, "Red", "charge", stack="R1+R2", to=X, dir="S")  # 8.02, RULINGS Chitin 8: charging where it stands
    assert s.counters["R1"].charging and s.counters["R1"].mp == 6 and not s.counters["R2"].charging
    s, _ = act(s, "Red", "overrun", stack=X, on=target)
    assert not legal(s, "Red", "charge", stack="R1+R2")  # one charge a move: the two points are not given twice
    s, _ = act(s, "Red", "move", stack="R1+R2", to=nb(target, "S"), dir="S")
    assert s.counters["R1"].charging and s.counters["R1"].mp == 6 - 2 - 2  # through the hex, then into a zone
    assert s.counters["R2"].mp == 5 - 2 - 2
