"""What players and spectators see (the view), and the messages of refused orders."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction
from engine.games.chitin.state import State
from tests.chitin.positions import RULES, act, begin, legal, nb, position, put

X = "0811"


def battle() -> State:
    s = position("small", chits=True, step="attack")
    put(s, "R1", "GT3", X, face="S")
    put(s, "R2", "B", nb(X, "N"))
    put(s, "B1", "TR2", nb(X, "S"), face="N", disrupted=True)
    put(s, "B2", "W", nb(nb(X, "S"), "S"))
    return s


def test_6_0_view_shows_counters_with_their_id_type_strength_facing_and_disruption() -> None:
    v = RULES.view(battle(), None)
    assert v.map == "chitin" and v.game == "chitin"
    gt = next(c for c in v.counters if c.id == "R1")
    assert (gt.hex, gt.label, gt.sub, gt.facing, gt.side) == (X, "R1", "GT 12-6", 3, "Red")  # /move stack:R1
    tr = next(c for c in v.counters if c.id == "B1")
    assert tr.disrupted and (tr.label, tr.sub) == ("B1", "TR 4-2")
    assert next(c for c in v.counters if c.id == "B2").sub == "W 1d"
    assert {m.text for m in v.markers} == {"A 20", "C 15", "F 15"}


def test_view_draws_attacks_with_odds_then_results() -> None:
    s = battle()
    s, _ = act(s, "Red", "attack", by=X, on=nb(X, "S"))
    v = RULES.view(s, "Blue")
    assert [(a.src, a.dst, a.label) for a in v.arrows] == [(X, nb(X, "S"), "planned")]
    s, _ = act(s, "Red", "done", dice=[])  # 12+3 class to 2 disrupted: all defenders eliminated, no die (RULINGS Chitin 12)
    v = RULES.view(s, None)
    assert v.arrows[0].label == "DE, no roll needed"
    assert any(h.kind == "loss" and h.hex == nb(X, "S") for h in v.highlights)
    assert any("15 to 2: DE, no roll needed" in line for line in v.caption)


def test_view_carried_chits_and_scores() -> None:
    s = position("learning", chits=True)
    put(s, "R1", "W", nb(s.chits["A"].hex, "N"))
    s = begin(s)
    s, _ = act(s, "Red", "move", stack="R1", to=s.chits["A"].hex)
    v = RULES.view(s, None)
    assert any(m.kind == "chit-carried" and m.text == "A 20" for m in v.markers)
    assert next(c for c in v.counters if c.id == "R1").sub == "W 1d +A"
    assert any("moved" == h.kind for h in v.highlights)
    assert any("Chits carried off" in line for line in v.caption)


def test_refusals_name_the_unit_the_hex_and_the_rule() -> None:
    s = position()
    put(s, "R1", "GT1", X, face="S")
    put(s, "B1", "TR1", nb(X, "S"))
    s = begin(s)
    with pytest.raises(IllegalAction) as err:
        act(s, "Red", "move", stack="R1", to="0101")
    text = str(err.value)
    assert "movement points" in text and "R1" in text and "rule" in text
    with pytest.raises(IllegalAction, match="is a Blue counter; you command the Red hive"):
        act(s, "Red", "move", stack="B1", to="0101")
    with pytest.raises(IllegalAction, match="own \\(north\\) end"):
        act(s, "Red", "move", stack="R1", to="off")
    with pytest.raises(IllegalAction, match="rule 8.02"):
        act(s, "Red", "charge", stack="R1", to=nb(X, "SE"))
    assert legal(s, "Red", "done")


def test_5_00_board_at_the_turn_change_still_shows_the_last_turns_moves_until_the_next_order() -> None:
    s = position("learning")
    put(s, "R1", "W", "0811")
    put(s, "B1", "W", "0302")
    s = begin(s)
    s, _ = act(s, "Red", "move", stack="R1", to=nb("0811", "N"))
    s, _ = act(s, "Red", "face", stack=nb("0811", "N"), dir="N")
    while s.active == "Red":
        s, _ = act(s, "Red", "done")
    assert s.active == "Blue" and s.step == "move"
    assert nb("0811", "N") in {h.hex for h in RULES.view(s, "Blue").highlights if h.kind == "moved"}
    s, _ = act(s, "Blue", "move", stack="B1", to=nb("0302", "S"))
    assert s.step == "face"
    assert {h.hex for h in RULES.view(s, None).highlights if h.kind == "moved"} == {nb("0302", "S")}


def test_6_06_refusals_match_arguments_in_any_case_before_naming_the_real_problem() -> None:
    s = position()
    put(s, "R1", "GT1", X, face="S")
    s = begin(s)
    with pytest.raises(IllegalAction) as err:
        act(s, "Red", "face", stack="0716", dir="n")
    assert "no stack in 0716" in str(err.value) and "Facing is one of" not in str(err.value)
    with pytest.raises(IllegalAction, match="Write it as /face stack:0811 dir:N"):
        act(s, "Red", "face", stack=X, dir="n")


def test_7_066_the_fallback_refusal_lists_the_legal_values_and_the_rule() -> None:
    s = position("learning", step="attack")
    put(s, "R1", "GT3", X, face="S")
    put(s, "B1", "GT2", nb(X, "S"), face="N")
    s, _ = act(s, "Red", "attack", by=X, on=nb(X, "S"))
    s, _ = act(s, "Red", "done", dice=[3])  # DR
    s, _ = act(s, "Red", "retreat", stack="B1", to=legal(s, "Red", "retreat")[0]["to"])
    with pytest.raises(IllegalAction) as err:
        act(s, "Red", "advance", stack=X, to="0101", dir="S")
    text = str(err.value)
    assert "offered with each argument" not in text
    assert f"to may be {nb(X, 'S')}" in text and "rule 7.066" in text
    with pytest.raises(IllegalAction, match="dir may be N, NE, SE, S, SW, NW"):
        act(s, "Red", "advance", stack=X, to=nb(X, "S"), dir="up")


def test_an_agreed_turn_limit_shows_with_the_turn() -> None:
    """A game started with turn_limit:8 never showed the limit once begun: the board read "Turn 3,
    Red's player-turn" and nobody could tell when it would be scored."""
    s = position()
    s.turn = 5  # game turn 3
    caption = " ".join(RULES.view(s, None).caption)
    assert "Turn 3, Red's player-turn" in caption, caption
    s.turn_limit = 8
    caption = " ".join(RULES.view(s, None).caption)
    assert "Turn 3 of 8, Red's player-turn" in caption, caption


def test_3_032_army_buttons_show_what_each_counter_costs() -> None:
    """Picking an army of exactly 48 points, the buttons read only "Pick GT3": what a counter cost was
    learnt from a refusal."""
    from engine.core.protocol import Action
    from engine.games.chitin.data import kind_points

    assert RULES.label(Action(verb="pick", args={"kind": "GT3"})) == f"Pick GT3 ({kind_points('GT3')} pts)"
    assert kind_points("GT3") == 12 and RULES.label(Action(verb="drop", args={"kind": "B"})).startswith("Drop B (")
