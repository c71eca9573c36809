"""Objectives and endgame (rule 4.0) and the sequence of a turn (rule 5.00)."""

from __future__ import annotations

from engine.core.dice import FixedDice
from engine.games.chitin import flow
from engine.games.chitin.food import kill, points
from engine.games.chitin.state import State
from tests.chitin.positions import RULES, act, begin, nb, position, put


def carrying(state: State, cid: str, letter: str, where: str) -> None:
    put(state, cid, "W", where)
    ch = state.chits[letter]
    ch.carriers, ch.hex, state.counters[cid].chit = [cid], "", letter


def test_4_01_the_first_to_carry_two_chits_off_wins_the_learning_game() -> None:
    s = position("learning", chits=True)
    carrying(s, "R1", "A", "0101")
    carrying(s, "R2", "C", "0301")
    put(s, "B1", "W", "0821")
    s = begin(s)
    s, ev = act(s, "Red", "move", stack="R1", to="off")
    assert s.chits["A"].off_by == "Red" and s.step == "move"
    assert any(e.kind == "score" for e in ev)
    s, ev = act(s, "Red", "move", stack="R2", to="off")
    out = RULES.outcome(s)
    assert out is not None and out.winner == "Red" and out.score == {"Red": 2, "Blue": 0}
    assert RULES.pending(s) == [] and any(e.kind == "end" for e in ev)


def test_4_03_basic_game_ends_when_all_chits_are_off() -> None:
    s = position("basic", chits=True)
    for letter, who in zip("ABCDEF", ["Red", "Blue"] * 3):
        s.chits[letter].off_by, s.chits[letter].hex = who, ""
    carrying(s, "B1", "G", "0821")
    s = begin(s.model_copy(update={"active": "Blue"}))
    s, _ = act(s, "Blue", "move", stack="B1", to="off")
    out = RULES.outcome(s)
    assert out is not None and out.winner == "Blue" and out.score == {"Red": 3, "Blue": 4}


def test_4_02_4_021_4_022_and_4_023_the_worked_example() -> None:
    s = position("small", chits=True)
    put(s, "R1", "GT3", "0811")
    put(s, "R2", "TR2", "0811")
    kill(s, s.counters["R1"], 3, FixedDice([]), [], "test")
    kill(s, s.counters["R2"], 2, FixedDice([]), [], "test")
    assert s.chits["A"].value == 25  # face value 20 plus five dead units
    carrying(s, "R3", "A", "0101")
    s = begin(s)
    s, _ = act(s, "Red", "move", stack="R3", to="off")
    assert points(s, "Red") == 25 - 10 and points(s, "Blue") == 0


def test_4_04_advanced_game_ends_when_the_setup_chits_are_off() -> None:
    s = position("small", chits=True)
    s.chits["C"].off_by = s.chits["F"].off_by = "Blue"
    s.chits["C"].hex = s.chits["F"].hex = ""
    put(s, "B9", "W", "0105")
    kill(s, s.counters["B9"], 1, FixedDice([]), [], "test")  # starts an unnumbered chit, ignored at the end
    carrying(s, "R1", "A", "0101")
    s = begin(s)
    s, ev = act(s, "Red", "move", stack="R1", to="off")
    out = RULES.outcome(s)
    assert out is not None and "rule 4.04" in out.reason
    assert out.score == {"Red": 20, "Blue": 15 + 15 - 2} and out.winner == "Blue"


def test_4_05_first_off_endgame_credits_the_chits_left_to_the_player_still_on_the_map() -> None:
    s = flow.new_state("small", 0, True)
    s.counters, s.picks = {}, {}
    s.ends = {"Red": "north", "Blue": "south"}
    s.first, s.active, s.turn, s.step = "Red", "Red", 3, "move"
    s.next_id = {"Red": 50, "Blue": 50}
    for letter in "AC":
        s.chits[letter].off_by, s.chits[letter].hex = "Red", ""
    put(s, "R1", "W", "0101")
    put(s, "B1", "LR1", "0821")
    s = begin(s)
    s, _ = act(s, "Red", "move", stack="R1", to="off")
    assert RULES.outcome(s) is None  # with 4.05 the last setup chit on the map does not end it
    s, ev = act(s, "Red", "done")
    out = RULES.outcome(s)
    assert out is not None and "rule 4.05" in out.reason
    assert out.score == {"Red": 35, "Blue": 15} and out.winner == "Red"


def test_5_00_a_turn_is_movement_then_recovery_then_combat_then_the_other_player() -> None:
    s = position()
    put(s, "R1", "GT3", "0811", face="S", disrupted=True)
    put(s, "B1", "GT3", nb("0811", "S"), face="N")
    s = begin(s)
    assert s.counters["R1"].disrupted and s.counters["R1"].began_disrupted
    s, ev = act(s, "Red", "done")
    assert s.step == "attack" and not s.counters["R1"].disrupted  # right side up before combat
    s, _ = act(s, "Red", "attack", by="0811", on=nb("0811", "S"))
    s, ev = act(s, "Red", "done", dice=[2])  # 12 to 12: 1-1, a 2 gives AD
    kinds = [e.kind for e in ev]
    assert kinds.index("attack") < kinds.index("combat") < kinds.index("phase")
    assert s.active == "Blue" and s.turn == 2 and s.step in ("move", "over")


def test_turn_limit_option_scores_the_game_when_reached() -> None:
    s = position("learning", chits=True)
    s.turn_limit, s.turn = 1, 2
    s.chits["A"].off_by, s.chits["A"].hex = "Blue", ""
    s = begin(s)
    s, ev = act(s, "Red", "done")
    out = RULES.outcome(s)
    assert out is not None and out.winner == "Blue" and "limit" in out.reason
