"""Ground combat (rule 7.0): fronts, obligations, adds, odds, results, retreats, advances, overruns."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction
from engine.games.chitin.board import Index
from engine.games.chitin.combat import battle_odds, battles, stack_parts
from engine.games.chitin.state import Pair, State
from tests.chitin.positions import RULES, act, begin, legal, nb, position, put

X = "0811"  # plains, the centre of megahex A; its neighbours are plains too


def odds_of(state: State, pairs: list[tuple[str, str]]) -> tuple[int, int, str]:
    state = state.model_copy(deep=True)
    state.plan = [Pair(by=a, on=b) for a, b in pairs]
    b = battles(state, Index(state), "Red")
    assert len(b) == 1
    lookup, _ = battle_odds(state, Index(state), "Red", b[0])
    return lookup.attack, lookup.defence, lookup.label


def fight(scenario: str = "learning") -> State:
    return position(scenario, step="attack")


def test_7_01_a_stack_defends_with_warriors_plus_one_per_basic_and_worker() -> None:
    s = fight("small")
    put(s, "B1", "TR2", X, face="N")
    put(s, "B2", "B", X)
    put(s, "R1", "GT3", nb(X, "N"), face="S")
    put(s, "R2", "W", nb(X, "N"))
    assert odds_of(s, [(nb(X, "N"), X)])[:2] == (12 + 3, 4 + 1)  # Smashers add 1 a unit on Hackers; the Worker never attacks


def test_7_02_enemies_in_front_must_be_attacked_and_only_those() -> None:
    s = fight()
    put(s, "R1", "GT1", X, face="S")
    put(s, "B1", "TR1", nb(X, "S"), face="N")
    put(s, "B2", "TR1", nb(X, "N"), face="S")  # behind the Gantua
    assert not legal(s, "Red", "done")
    assert legal(s, "Red", "attack", by=X, on=nb(X, "S"))
    with pytest.raises(IllegalAction, match="not in front of your stack"):
        act(s, "Red", "attack", by=X, on=nb(X, "N"))
    with pytest.raises(IllegalAction, match="must be attacked"):
        act(s, "Red", "done")
    s, _ = act(s, "Red", "attack", by=X, on=nb(X, "S"))
    assert legal(s, "Red", "done")


def test_7_03_two_stacks_on_one_and_one_stack_on_two() -> None:
    s = fight()
    put(s, "B1", "TR3", X, face="N")
    put(s, "R1", "GT1", nb(X, "N"), face="S")
    put(s, "R2", "GT1", nb(X, "NE"), face="SW")
    assert odds_of(s, [(nb(X, "N"), X), (nb(X, "NE"), X)]) == (4 + 1 + 4 + 1, 6, "3-2")
    s = fight()
    put(s, "R1", "LR3", X, face="S")
    put(s, "B1", "TR1", nb(X, "SE"), face="NW")
    put(s, "B2", "TR1", nb(X, "SW"), face="NE")
    assert odds_of(s, [(X, nb(X, "SE")), (X, nb(X, "SW"))]) == (6, 4, "3-2")


def test_7_04_and_7_041_two_termagants_from_the_rear_add_two() -> None:
    s = fight()
    put(s, "B1", "GT2", X, face="S")
    put(s, "R1", "TR2", nb(X, "N"), face="S")
    assert odds_of(s, [(nb(X, "N"), X)])[0] == 4 + 2


def test_7_041_a_target_hex_with_no_enemy_left_does_not_move_the_rear_add_onto_another() -> None:
    """A stack's targets include a hex with no enemy in it any more, listed first: the rear add is
    still judged from the hex of the stack that is there (behind it: +1 a unit), not from the
    empty one (where the Gantuas would not be behind anything)."""
    s = fight()
    put(s, "B1", "TR3", X, face="N")
    behind = nb(X, "S")
    put(s, "R1", "GT3", behind, face="N")
    idx = Index(s)
    alone = stack_parts(s, idx, "Red", behind, [X])
    assert alone[:3] == (12, 3, 3)  # Gantuas 12, +3 from the rear (7.041), +3 on Termagants (7.042)
    assert stack_parts(s, idx, "Red", behind, [nb(behind, "S"), X])[:3] == alone[:3]


def test_7_042_hackers_get_class_adds_on_renders_with_workers_about() -> None:
    s = fight()
    put(s, "B1", "LR2", X, face="S")
    put(s, "B2", "W", X)
    put(s, "R1", "TR2", nb(X, "N"), face="S")
    put(s, "R2", "W", nb(X, "N"))
    assert odds_of(s, [(nb(X, "N"), X)])[:2] == (4 + 2 + 2, 4 + 1)


def test_7_043_example_1_phlanx_charging_and_low_render_on_a_gantua() -> None:
    s = fight("small")
    put(s, "B1", "GT2", X, face="N")
    put(s, "R1", "PX2", nb(X, "N"), face="S").charging = True
    put(s, "R2", "LR3", nb(X, "NE"), face="SW")
    assert odds_of(s, [(nb(X, "N"), X), (nb(X, "NE"), X)]) == (20, 8, "2-1")


def test_7_043_example_2_gantua_on_termagant_behind_and_low_render_in_front() -> None:
    s = fight()
    put(s, "R1", "GT3", X, face="S")
    put(s, "B1", "TR2", nb(X, "S"), face="S")  # the Gantuas stand behind it
    put(s, "B2", "LR2", nb(X, "SE"), face="NW")  # the Gantuas stand in front of it
    assert odds_of(s, [(X, nb(X, "S")), (X, nb(X, "SE"))]) == (12, 8, "3-2")
    assert odds_of(s, [(X, nb(X, "S"))]) == (18, 4, "4-1")


def test_7_05_a_stack_with_an_unattacked_enemy_behind_it_loses_a_unit() -> None:
    s = position()
    put(s, "R1", "GT2", X, face="S")
    put(s, "B1", "TR1", nb(X, "N"), face="S")
    s = begin(s)
    s, ev = act(s, "Red", "done")  # nothing in front to attack: the combat phase runs at once
    assert s.counters["R1"].units == 1 and any("rule 7.05" in e.text for e in ev)
    assert s.active == "Blue" and not s.rear_threats


def test_7_05_no_loss_when_the_enemy_behind_is_attacked() -> None:
    s = position()
    put(s, "R1", "GT2", X, face="S")
    put(s, "B1", "TR1", nb(X, "N"), face="N")
    put(s, "R2", "GT3", nb(nb(X, "N"), "NE"), face="SW")
    s = begin(s)
    s, _ = act(s, "Red", "done")
    s, _ = act(s, "Red", "attack", by=nb(nb(X, "N"), "NE"), on=nb(X, "N"))
    s, _ = act(s, "Red", "done", dice=[3])  # 12+3 from the rear to 2: all defenders eliminated
    assert s.counters["R1"].units == 2


def test_7_05_ending_movement_or_attacks_with_an_enemy_behind_a_stack_asks_first() -> None:
    """The 7.05 loss came with no warning: the attack prompt names only enemies in front, and after
    /done a stack lost a unit for enemies behind it. /done asks first, while facing (at the end of
    movement) and attacks (at the end of declarations) can still change, and says nothing once the
    enemies behind are attacked."""
    from engine.core.protocol import Action

    done = Action(verb="done", args={})
    s = position()
    put(s, "R1", "GT2", X, face="S")
    put(s, "B1", "TR1", nb(X, "N"), face="N")
    put(s, "R2", "GT3", nb(nb(X, "N"), "NE"), face="SW")
    s = begin(s)
    warned = RULES.caution(s, "Red", done)
    assert "R1" in warned and nb(X, "N") in warned and "rule 7.05" in warned, warned
    assert RULES.caution(s, "Blue", done) == ""
    s, _ = act(s, "Red", "done")
    assert "no attack is declared" in RULES.caution(s, "Red", done)
    s, _ = act(s, "Red", "attack", by=nb(nb(X, "N"), "NE"), on=nb(X, "N"))
    assert RULES.caution(s, "Red", done) == ""
    s = position()
    put(s, "R1", "GT2", X, face="S")
    s = begin(s)
    assert RULES.caution(s, "Red", done) == ""  # nobody behind it
    # an air attack on one of them draws the other in (8.015): both are attacked, nothing is lost
    s = position("advanced")
    put(s, "R1", "GT2", X, face="S")
    put(s, "B1", "TR1", "0810", face="N")
    put(s, "B2", "TR1", "0911", face="N")
    put(s, "R5", "PL2", "0912", face="N")
    s = begin(s)
    s, _ = act(s, "Red", "done")
    s, _ = act(s, "Red", "attack", by="R5", on="0911")
    assert RULES.caution(s, "Red", done) == "", RULES.caution(s, "Red", done)


def test_7_066_with_no_hex_vacated_the_winner_is_offered_only_a_facing() -> None:
    """The prompt read "You may advance into the vacated hex" when no hex had been vacated."""
    s = fight()
    put(s, "R1", "GT3", X, face="S")
    put(s, "B1", "GT2", nb(X, "S"), face="N")
    s, _ = act(s, "Red", "attack", by=X, on=nb(X, "S"))
    s, _ = act(s, "Red", "done", dice=[3])
    s, _ = act(s, "Red", "retreat", stack="B1", to=legal(s, "Red", "retreat")[0]["to"])
    assert "advance into the vacated hex" in RULES.pending(s)[0].text
    s = fight()
    put(s, "R1", "GT2", X, face="S")
    put(s, "B1", "GT2", nb(X, "S"), face="N")
    s, _ = act(s, "Red", "attack", by=X, on=nb(X, "S"))
    for roll in range(1, 7):  # 1-1: a D-1 or an A-1 takes a unit and empties no hex
        t, _ = act(s, "Red", "done", dice=[roll])
        while (p := RULES.pending(t)) and p[0].verbs == ("lose",):
            t, _ = act(t, p[0].seat, "lose", **legal(t, p[0].seat, "lose")[0])
        if p and p[0].verbs == ("advance", "face", "done") and not legal(t, p[0].seat, "advance"):
            assert "vacated" not in p[0].text.replace("no hex was vacated", "") and "facing" in p[0].text, p[0].text
            return
    raise AssertionError("no roll left a winner with nothing to advance into")


def test_7_06_the_attacker_rolls_one_die_per_combat() -> None:
    s = fight()
    put(s, "R1", "GT1", X, face="S")
    put(s, "B1", "GT1", nb(X, "S"), face="N")
    s, ev = act(s, "Red", "attack", by=X, on=nb(X, "S"))
    assert any("4 to 4 = 1-1" in e.text and "D-1 33%" in e.text for e in ev)  # odds and chances before committing
    s, ev = act(s, "Red", "done", dice=[5])
    assert [e.kind for e in ev].count("combat") == 1
    assert s.combats[0].die == 5 and s.combats[0].result == "D-1" and s.counters["B1"].where == "dead"


def test_7_063_losses_are_chosen_by_their_owner_even_off_turn() -> None:
    s = fight()
    put(s, "R1", "GT3", X, face="S")
    put(s, "B1", "TR1", nb(X, "S"), face="N")
    put(s, "B2", "B", nb(X, "S"))
    put(s, "B3", "W", nb(X, "S"))
    s, _ = act(s, "Red", "attack", by=X, on=nb(X, "S"))
    s, _ = act(s, "Red", "done", dice=[5])  # 15 to 4: 3-1, a 5 gives D-2
    assert [p.seat for p in RULES.pending(s)] == ["Blue"] and RULES.pending(s)[0].verbs == ("lose",)
    s, _ = act(s, "Blue", "lose", unit="B3")
    s, _ = act(s, "Blue", "lose", unit="B2")
    assert s.counters["B1"].where == "map" and s.counters["B2"].where == "dead"
    assert s.lost["Blue"] == 2


def test_7_063_no_more_units_are_lost_than_the_loser_had() -> None:
    s = fight()
    put(s, "R1", "TR2", X, face="S")
    put(s, "B1", "W", nb(X, "S"), face="N")
    s, _ = act(s, "Red", "attack", by=X, on=nb(X, "S"))
    s, ev = act(s, "Red", "done", dice=[6])  # 4 to 1: 4-1, a 6 gives D-3 on a single unit
    assert s.combats[0].result == "D-3"
    assert s.counters["B1"].where == "dead" and s.lost["Blue"] == 1


def test_7_064_disrupted_units_move_one_hex_out_of_zones_and_recover() -> None:
    s = fight()
    put(s, "R1", "GT3", X, face="S")
    put(s, "B1", "GT1", nb(X, "S"), face="N")
    s, _ = act(s, "Red", "attack", by=X, on=nb(X, "S"))
    s, _ = act(s, "Red", "done", dice=[4])  # 12 to 4: 3-1, a 4 gives DD
    b1 = s.counters["B1"]
    assert s.combats[0].result == "DD" and b1.disrupted and s.active == "Blue"
    dests = {a["to"] for a in legal(s, "Blue", "move", stack="B1")}
    assert dests == {nb(nb(X, "S"), d) for d in ("SE", "S", "SW")}  # one hex, none next to the Gantuas
    s, _ = act(s, "Blue", "move", stack="B1", to=nb(nb(X, "S"), "S"))
    s, _ = act(s, "Blue", "face", stack=nb(nb(X, "S"), "S"), dir="N")
    assert s.counters["B1"].disrupted
    s, _ = act(s, "Blue", "done")
    assert not s.counters["B1"].disrupted  # 7.064 (d): right side up at the end of its movement


def test_7_064_disrupted_strength_is_used_in_defence() -> None:
    s = fight()
    put(s, "R1", "GT1", X, face="S")
    put(s, "B1", "GT3", nb(X, "S"), face="N", disrupted=True)
    assert odds_of(s, [(X, nb(X, "S"))])[:2] == (4, 6)


def test_7_065_basics_and_workers_alone_retreat_instead_of_disruption() -> None:
    s = fight("small")
    put(s, "R1", "GT2", X, face="S")
    put(s, "B1", "B", nb(X, "S"))
    put(s, "B2", "W", nb(X, "S"))
    s, _ = act(s, "Red", "attack", by=X, on=nb(X, "S"))
    s, _ = act(s, "Red", "done", dice=[3])  # 8 to 2: 4-1, a 3 gives DD: no warriors, so they retreat
    assert s.combats[0].result == "DD"
    assert [p.verbs for p in RULES.pending(s)] == [("retreat",)] and RULES.pending(s)[0].seat == "Red"
    assert not s.counters["B1"].disrupted


def test_7_065_a_basic_with_disrupted_warriors_stays_undisrupted() -> None:
    s = fight("small")
    put(s, "R1", "GT2", X, face="S")
    put(s, "B1", "B", nb(X, "S"))
    put(s, "B2", "LR1", nb(X, "S"))
    s, _ = act(s, "Red", "attack", by=X, on=nb(X, "S"))
    s, _ = act(s, "Red", "done", dice=[5])  # 8 to 3: 2-1, a 5 gives DD
    assert s.combats[0].result == "DD"
    assert s.counters["B2"].disrupted and not s.counters["B1"].disrupted
    assert s.counters["B1"].hex == nb(X, "S")


def test_7_066_the_enemy_player_retreats_the_loser_and_the_winner_may_advance() -> None:
    s = fight()
    put(s, "R1", "GT3", X, face="S")
    put(s, "B1", "GT2", nb(X, "S"), face="N")
    s, _ = act(s, "Red", "attack", by=X, on=nb(X, "S"))
    s, _ = act(s, "Red", "done", dice=[3])  # 12 to 8: 3-2, a 3 gives DR
    assert RULES.pending(s)[0].seat == "Red" and RULES.pending(s)[0].verbs == ("retreat",)
    to = legal(s, "Red", "retreat")[0]["to"]
    assert nb(X, "S") not in {a["to"] for a in legal(s, "Red", "retreat")}
    s, _ = act(s, "Red", "retreat", stack="B1", to=to)
    assert s.counters["B1"].hex == to
    assert RULES.pending(s)[0].verbs == ("advance", "face", "done")
    s, _ = act(s, "Red", "advance", stack=X, to=nb(X, "S"), dir="S")
    assert s.counters["R1"].hex == nb(X, "S") and s.counters["R1"].facing == 3
    assert s.active == "Blue"


def test_7_066_a_surrounded_stack_loses_one_unit_instead_of_retreating() -> None:
    s = fight()
    target = nb(X, "S")
    put(s, "R1", "GT3", X, face="S")
    put(s, "B1", "GT2", target, face="N")
    for i, d in enumerate(("NE", "SE", "S", "SW", "NW")):
        put(s, f"R{10 + i}", "PX3" if d != "S" else "TR3", nb(target, d), face="N")  # full or hostile hexes
    s, _ = act(s, "Red", "attack", by=X, on=target)
    s, ev = act(s, "Red", "done", dice=[3])
    assert s.combats[0].result == "DR" and any("rule 7.066" in e.text and "cannot retreat" in e.text for e in ev)
    assert s.counters["B1"].units == 1 and s.counters["B1"].hex == target


def test_7_07_overrun_at_six_to_one_eliminates_and_moves_through() -> None:
    s = position()
    put(s, "R1", "GT3", X, face="S")
    put(s, "B1", "W", nb(X, "S"))
    s = begin(s)
    assert legal(s, "Red", "overrun", stack=X, on=nb(X, "S"))
    s, ev = act(s, "Red", "overrun", stack=X, on=nb(X, "S"))
    assert s.counters["B1"].where == "dead" and s.step == "move"
    s, _ = act(s, "Red", "move", stack="R1", to=nb(nb(X, "S"), "S"), dir="S")  # through the hex
    assert s.counters["R1"].mp == 4 - 2 - 1  # two points through the plains hex, then one more


def test_7_07_no_overrun_below_six_to_one() -> None:
    s = position()
    put(s, "R1", "GT2", X, face="S")
    put(s, "B1", "TR1", nb(X, "S"))
    s = begin(s)
    assert not legal(s, "Red", "overrun")


def test_7_07_a_stack_may_move_up_then_overrun_and_go_on() -> None:
    s = position()
    put(s, "R1", "TR3", nb(nb(X, "N"), "N"), face="S")
    put(s, "B1", "W", nb(X, "S"))
    s = begin(s)
    assert not legal(s, "Red", "overrun")
    s, _ = act(s, "Red", "move", stack="R1", to=X)
    s, _ = act(s, "Red", "face", stack=X, dir="S")
    assert s.counters["R1"].mp == 4
    s, ev = act(s, "Red", "overrun", stack=X, on=nb(X, "S"))  # 6 to 1
    assert s.counters["B1"].where == "dead" and any("rule 7.07" in e.text for e in ev)
    s, _ = act(s, "Red", "move", stack="R1", to=nb(X, "S"), dir="S")
    assert s.counters["R1"].mp == 2


def test_5_00_a_stack_that_killed_enemy_units_may_turn_without_advancing() -> None:
    s = fight()
    put(s, "R1", "GT3", X, face="S")
    put(s, "B1", "GT2", nb(X, "S"), face="N")
    s, _ = act(s, "Red", "attack", by=X, on=nb(X, "S"))
    s, _ = act(s, "Red", "done", dice=[5])  # 12 to 8: 3-2, a 5 gives D-1
    assert s.combats[0].result == "D-1" and s.counters["B1"].units == 1
    assert RULES.pending(s)[0].verbs == ("advance", "face", "done") and not legal(s, "Red", "advance")
    s, _ = act(s, "Red", "face", stack=X, dir="SE")
    assert s.counters["R1"].facing == 2 and s.active == "Blue"


def test_5_00_no_turning_after_a_mere_disruption() -> None:
    s = fight()
    put(s, "R1", "GT3", X, face="S")
    put(s, "B1", "GT2", nb(X, "S"), face="N")
    s, _ = act(s, "Red", "attack", by=X, on=nb(X, "S"))
    s, _ = act(s, "Red", "done", dice=[1])  # 3-2, a 1 gives AD
    assert s.combats[0].result == "AD" and s.active == "Blue"


def test_7_07_a_refused_overrun_says_what_is_missing() -> None:
    s = position()
    put(s, "R1", "GT2", X, face="S")
    put(s, "B1", "TR1", nb(X, "S"))
    s = begin(s)
    with pytest.raises(IllegalAction, match="6 to 1 or better; 0811 have 10 to 2"):
        act(s, "Red", "overrun", stack=X, on=nb(X, "S"))


def test_7_066_a_retreat_named_by_hex_asks_for_the_counter_and_a_single_counter_retreats() -> None:
    s = fight()
    put(s, "R1", "GT3", X, face="S")
    put(s, "B1", "GT2", nb(X, "S"), face="N")
    s, _ = act(s, "Red", "attack", by=X, on=nb(X, "S"))
    s, _ = act(s, "Red", "done", dice=[3])  # 12 to 8: 3-2, a 3 gives DR
    to = legal(s, "Red", "retreat")[0]["to"]
    with pytest.raises(IllegalAction) as err:
        act(s, "Red", "retreat", stack=nb(X, "S"), to=to)
    assert "name the counter (B1), not its hex" in str(err.value) and "rule 7.066" in str(err.value)
    s, ev = act(s, "Red", "retreat", stack="B1", to=to)
    assert any(f"(B1) retreats from {nb(X, 'S')} to {to}" in e.text for e in ev)
