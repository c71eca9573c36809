"""The turn sequence, repair and victory: rules 3.0, 9.0, 10.0."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction, NotYourTurn
from engine.games.annihilator import RULES, data
from engine.games.annihilator.demolition import pattern_numbers
from engine.games.annihilator.state import Charge
from tests.annihilator.helpers import CORES, A, M, hexes_of, landed, legal, play, position

SPOT = hexes_of("passage")[30]
FAR = hexes_of("passage")[90]


def test_3_0_the_seven_steps_of_a_game_turn_in_order():
    # Every step has something to do: a unit to move, an enemy to fight, a charge to set, a marker to repair.
    s = position(step="h_move", units={"A1": SPOT, "D1": FAR, "R1": SPOT, "R2": FAR, "B1": FAR},
                 markers={FAR: "clear"})
    seen = []
    for _ in range(8):
        seen.append((s.step, RULES.pending(s)[0].seat))
        s, _ = play(s, RULES.pending(s)[0].seat, "done")
        if s.turn == 2:
            break
    assert seen == [("h_move", M), ("h_combat", M), ("h_demo", M), ("a_move", A), ("a_combat", A),
                    ("a_repair", A)]
    assert (s.turn, s.step) == (2, "h_move")  # 7: the human player starts again


def test_3_0_orders_out_of_turn_are_refused():
    s = position(step="h_move", units={"A1": SPOT, "R1": FAR})
    with pytest.raises(NotYourTurn, match="waiting on Marines, not Annihilator"):
        play(s, A, "move", unit="R1", to=SPOT)
    with pytest.raises(Exception, match=r"/mind is not an answer now"):
        play(s, M, "mind", at=SPOT)


def test_9_0_repairbot_restores_its_hex_once_a_turn():
    blocked = hexes_of("impassable")[0]
    s = position(step="a_repair", units={"B1": blocked, "B2": SPOT, "A1": FAR}, markers={blocked: "obpas"})
    assert [a.args["unit"] for a in legal(s, A, "repair")] == ["B1"]
    with pytest.raises(IllegalAction, match=rf"hex {SPOT} carries no Clear or Obstructed Passable marker.*rule 9.0"):
        play(s, A, "repair", unit="B2")
    s, ev = play(s, A, "repair", unit="B1")
    assert blocked not in s.markers and "rule 9.0" in ev[0].text
    assert not legal(s, A, "repair")


def test_9_0_brain_cores_are_never_repaired():
    ring = hexes_of("autodefend")[0]
    s = position(step="a_repair", units={"B1": ring, "A1": FAR}, destroyed=[CORES[0]])
    assert not legal(s, A, "repair")
    s, _ = play(s, A, "done")
    assert CORES[0] in s.destroyed


def test_9_0_only_repairbots_repair():
    s = position(step="a_repair", units={"R1": SPOT, "B1": FAR, "A1": FAR}, markers={SPOT: "clear", FAR: "clear"})
    with pytest.raises(IllegalAction, match=r"only Repairbots repair, and R1 is a Security Robot \(rule 9.0\)"):
        play(s, A, "repair", unit="R1")


def test_10_0_the_annihilator_wins_when_every_human_unit_is_eliminated():
    s = position(step="a_combat", units={"A1": SPOT, **{f"R{i}": SPOT for i in range(1, 7)}})
    s, ev = play(s, A, "attack", [6], at=SPOT)
    assert RULES.outcome(s).winner == A and not RULES.pending(s)
    assert ev[-1].kind == "end"


def test_10_0_a_draw_after_ten_game_turns():
    s = position(step="a_repair", turn=10, units={"A1": SPOT, "B1": SPOT}, markers={SPOT: "clear"})
    s, ev = play(s, A, "done")
    out = RULES.outcome(s)
    assert out is not None and out.winner is None and "10 game turns" in out.reason
    s = position(step="a_repair", turn=9, units={"A1": SPOT, "B1": SPOT}, markers={SPOT: "clear"})
    s, _ = play(s, A, "done")
    assert RULES.outcome(s) is None and s.turn == 10


def test_10_0_one_brain_core_is_not_enough():
    at, f = next((h, f) for h in hexes_of("autodefend") for f in range(6)
                 if len(set(pattern_numbers("A", h, f)) & set(CORES)) == 1)
    s = position(step="h_combat", turn=2, units={"D1": FAR, "R1": SPOT},
                 charges=[Charge(unit="D1", pattern="A", at=at, facing=f, turn=1)])
    s, _ = play(s, M, "done", [6, 6, 6])
    assert len(s.destroyed) == 1 and RULES.outcome(s) is None


def test_3_0_a_whole_game_starts_with_set_up_then_impacts():
    s = landed()
    assert s.turn == 1 and s.step == "h_move" and len(s.impacts) == 3
    assert RULES.view(s, None).phase.startswith("human movement")
    assert data.SEATS == (M, A)
