"""Nuclear Demolition Charges: orders, detonation, advance, supplies, recovery (8.1-8.5)."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction
from engine.core.hexes import DIRECTION_NAMES
from engine.games.annihilator import RULES
from engine.games.annihilator.board import base_types
from engine.games.annihilator.demolition import pattern_numbers
from engine.games.annihilator.state import Charge
from tests.annihilator.helpers import CORES, A, M, destinations, hexes_of, legal, play, position

HUMAN_OK = ("obstructed", "passage")


def find_line(types: tuple[str, ...]) -> tuple[str, int, list[str]]:
    """A hex and facing where pattern A's hexes 1-4 have these printed types."""
    for at in hexes_of("obstructed") + hexes_of("passage"):
        for f in range(6):
            hexes = pattern_numbers("A", at, f)
            if len(hexes) == 4 and tuple(base_types()[h] for h in hexes[1:]) == types:
                return at, f, hexes
    raise AssertionError(f"no line {types} on the map")


def test_8_1_order_is_sealed_then_announced_at_the_end_of_the_phase():
    at = hexes_of("passage")[20]
    s = position(step="h_demo", units={"D1": at, "R1": hexes_of("passage")[60]})
    prompt = RULES.pending(s)[0]
    assert prompt.secret and prompt.seat == M
    s, ev = play(s, M, "charge", unit="D1", pattern="B", at=at, facing="NE")
    public = [e for e in ev if e.public]
    assert [e.kind for e in public] == ["committed"] and "B" not in public[0].text
    assert [e.text for e in ev if e.to == (M,)] == [f"Your order: D1 sets pattern B at {at} facing NE"]
    preview = {h.hex for h in RULES.view(s, M).highlights if h.kind == "preview-1"}
    assert preview == set(pattern_numbers("B", at, 1))
    for viewer in (A, None):
        v = RULES.view(s, viewer)
        assert not [h for h in v.highlights if h.kind.startswith("preview")] and not v.private
        assert not [m for m in v.markers if m.kind == "charge"]
    s, ev = play(s, M, "done")
    reveal = [e for e in ev if e.kind == "reveal"]
    assert reveal and reveal[0].public and f"D1 sets pattern B at {at} facing NE" in reveal[0].text
    assert s.charges == [Charge(unit="D1", pattern="B", at=at, facing=1, turn=1)]
    assert s.unit("D1").charges == 2 and s.unit("D1").leave == at
    assert {m.text for m in RULES.view(s, A).markers if m.kind == "charge"} == {"B NE"}


def test_8_2_a_charge_offers_one_facing_for_each_different_blast_and_pattern_c_only_one():
    at = hexes_of("passage")[20]
    s = position(step="h_demo", units={"D1": at})
    offered = {p: RULES.choices(s, M, "charge", "facing", {"unit": "D1", "pattern": p, "at": at}) for p in "ABCD"}
    assert offered == {"A": list(DIRECTION_NAMES), "B": list(DIRECTION_NAMES), "C": ["N"], "D": list(DIRECTION_NAMES)}
    # pattern C's ring is the same every way: the six facings blast the same hexes at the same odds
    assert len({frozenset(pattern_numbers("C", at, f)) for f in range(6)}) == 1
    assert RULES.choices(s, M, "charge", "facing", {"unit": "D1", "at": at}) == list(DIRECTION_NAMES)
    s, _ = play(s, M, "charge", unit="D1", pattern="C", at=at, facing="SW")  # any facing is still accepted
    assert [(o.unit, o.pattern, o.facing) for o in s.orders] == [("D1", "C", 4)]


def test_8_1_an_order_may_be_cancelled_before_the_phase_ends():
    at = hexes_of("passage")[20]
    s = position(step="h_demo", units={"D1": at})
    s, _ = play(s, M, "charge", unit="D1", pattern="C", at=at, facing="N")
    with pytest.raises(IllegalAction, match=r"already been given an order this phase; /cancel it first \(rule 8.1\)"):
        play(s, M, "charge", unit="D1", pattern="A", at=at, facing="N")
    s, _ = play(s, M, "cancel", unit="D1")
    s, ev = play(s, M, "done")
    assert not s.charges and s.unit("D1").charges == 3
    assert [e.text for e in ev if e.kind == "reveal"] == ["Demolition orders (rule 8.1): no charges set"]


def test_8_1_setters_must_leave_the_hex_in_the_next_movement_phase():
    at = hexes_of("passage")[20]
    s = position(step="h_move", turn=2, units={"D1": at, "A1": at},
                 charges=[Charge(unit="D1", pattern="A", at=at, facing=0, turn=1)])
    s = s.clone()
    s.units["D1"].leave = at
    assert not legal(s, M, "done")
    with pytest.raises(IllegalAction, match=rf"Demolition Squad D1 set a charge in {at} and must move out .*rule 8.1"):
        play(s, M, "done")
    s, _ = play(s, M, "move", unit="D1", to=sorted(destinations(s, "D1"))[0])
    assert legal(s, M, "done")


def test_8_2_detonation_by_the_combat_effect_table():
    at, f, (h1, h2, h3, h4) = find_line(("impassable", "obstructed", "passage"))
    charge = Charge(unit="D1", pattern="A", at=at, facing=f, turn=1)
    s = position(step="h_combat", turn=2, charges=[charge],
                 units={"A2": h1, "R1": h2, "R2": h3, "R3": h4, "D1": hexes_of("passage")[0]})
    # hex 2 at 4-1, die 1: D (impassable -> obstructed-passable, robot eliminated);
    # hex 3 at 2-1, die 2: D (obstructed -> clear); hex 4 at 2-1, die 1: NE.
    s, ev = play(s, M, "done", [1, 2, 1])
    blast = next(e for e in ev if e.kind == "blast")
    assert "rule 8.2" in blast.text and set(blast.hexes) == {h1, h2, h3, h4}
    assert s.markers.get(h1) == "clear" or base_types()[h1] == "passage"  # hex no. 1 always cleared
    assert s.markers[h2] == "obpas" and s.markers[h3] == "clear" and h4 not in s.markers
    assert not s.unit("A2").alive  # caught in hex no. 1
    assert not s.unit("R1").alive and not s.unit("R2").alive and s.unit("R3").alive
    assert not s.charges
    assert set(s.fresh) == {h1, h2, h3}  # D or X: just cleared, whatever they were (RULINGS Annihilator 7)


def test_8_2_x_on_armor_clears_it_and_a_brain_core_falls_to_d():
    ring = sorted(set(hexes_of("autodefend")))
    both = next(h for h in ring if set(CORES) <= set(pattern_numbers("C", h, 0)))
    s = position(step="h_combat", turn=2, units={"D1": hexes_of("passage")[0], "R1": hexes_of("passage")[5]},
                 charges=[Charge(unit="D1", pattern="C", at=both, facing=0, turn=1)])
    s, ev = play(s, M, "done", [2] * 6)  # 2-1, die 2: D in every hex
    assert set(s.destroyed) == set(CORES)
    assert s.step == "over" and s.winner == M and "rule 10.0" in s.reason
    assert any(e.kind == "end" for e in ev)
    armored = [h for h in pattern_numbers("C", both, 0)[1:] if base_types()[h] == "autodefend"]
    assert armored and all(s.markers[h] == "obpas" for h in armored)


def test_8_3_advance_into_just_cleared_hexes_humans_first():
    at, f, (h1, h2, h3, h4) = find_line(("impassable", "obstructed", "passage"))
    charge = Charge(unit="D1", pattern="A", at=at, facing=f, turn=1)
    adj = _next_to(h1, (h2, h3, h4))
    s = position(step="h_combat", turn=2, charges=[charge], units={"A1": adj, "R4": adj})
    s, _ = play(s, M, "done", [1, 2, 1])
    assert s.step == "h_advance" and [p.seat for p in RULES.pending(s)] == [M]
    fresh = set(s.fresh)
    assert destinations(s, "A1", "advance") <= fresh and destinations(s, "A1", "advance")
    target = sorted(destinations(s, "A1", "advance"))[0]
    s, _ = play(s, M, "advance", unit="A1", to=target)
    s, _ = play(s, M, "done")
    assert s.step == "a_advance"
    assert destinations(s, "R4", "advance") <= fresh and destinations(s, "R4", "advance")
    with pytest.raises(IllegalAction, match=r"may advance only into hexes the charges just cleared.*rule 8.3"):
        play(s, A, "advance", unit="R4", to=h4)
    s, _ = play(s, A, "done")
    assert s.step == "h_demo" and not s.fresh


def _next_to(h: str, avoid: tuple[str, ...]) -> str:
    from tests.annihilator.test_movement import _nbrs

    return next(n for n in _nbrs(h) if base_types()[n] in HUMAN_OK and n not in avoid)


def test_8_4_supplies_three_any_pattern_for_demolition_one_pattern_a_for_assault():
    at = hexes_of("passage")[20]
    s = position(step="h_demo", units={"D1": at, "A1": at})
    patterns = {(a.args["unit"], a.args["pattern"]) for a in legal(s, M, "charge")}
    assert patterns == {("D1", p) for p in "ABCD"} | {("A1", "A")}
    with pytest.raises(IllegalAction, match=r"Assault Squad A1 may use pattern A only, not 'C' \(rule 8.4\)"):
        play(s, M, "charge", unit="A1", pattern="C", at=at, facing="N")
    assert (s.unit("D1").charges, s.unit("A1").charges) == (3, 1)
    s = s.clone()
    s.units["D1"].charges = 0
    with pytest.raises(IllegalAction, match=r"Demolition Squad D1 has no demolition charges left \(rule 8.4\)"):
        play(s, M, "charge", unit="D1", pattern="A", at=at, facing="N")


def _recovery_position(die: int):
    spot = hexes_of("passage")[20]
    from tests.annihilator.test_movement import _nbrs

    near = next(h for h in _nbrs(spot) if base_types()[h] == "passage")
    s = position(step="a_combat", units={"D1": spot, "A1": near, **{f"R{i}": spot for i in range(1, 7)}})
    s = s.clone()
    s.units["D1"].charges = 2
    s, _ = play(s, A, "attack", [6], at=spot)  # 18 against 2 at 4-1: X
    assert not s.unit("D1").alive and s.caches == {spot: 2}
    s, _ = play(s, A, "done")
    assert s.step == "h_move"
    s, _ = play(s, M, "move", unit="A1", to=spot)
    assert [a.args["unit"] for a in legal(s, M, "recover")] == ["A1"]
    return play(s, M, "recover", [die], unit="A1")


def test_8_5_recovery_even_roll_turns_the_assault_squad_into_a_demolition_squad():
    s, ev = _recovery_position(4)
    a1 = s.unit("A1")
    assert a1.kind == "demolition" and a1.charges == 3 and not s.caches  # 2 + its own 1, at most 3
    assert ev[0].text == ("Assault Squad A1 rolls 4: it is now a Demolition Squad with 3 charges for any pattern "
                          "(rule 8.5)")
    s, _ = play(s, M, "done")
    assert s.step == "h_combat" and legal(s, M, "attack")  # it may attack that turn
    s, _ = play(s, M, "done")
    assert {a.args["pattern"] for a in legal(s, M, "charge") if a.args["unit"] == "A1"} == set("ABCD")


def test_8_5_recovery_odd_roll_loses_the_charges():
    s, _ = _recovery_position(3)
    assert s.unit("A1").kind == "assault" and s.unit("A1").charges == 1 and not s.caches
    assert not legal(s, M, "recover")


def test_8_2_x_reduces_armor_and_impassable_hexes_to_clear():
    at, f, (h1, h2, h3, h4) = find_line(("impassable", "obstructed", "passage"))
    s = position(step="h_combat", turn=2, units={"D1": hexes_of("passage")[0]},
                 charges=[Charge(unit="D1", pattern="A", at=at, facing=f, turn=1)])
    s, ev = play(s, M, "done", [2, 1, 1])  # hex 2 at 4-1, die 2: X
    assert s.markers[h2] == "clear" and h3 not in s.markers
    assert f"{h2} (4-1, die 2): X, now clear" in next(e.text for e in ev if e.kind == "blast")


def test_8_2_a_blast_line_spells_the_facing_out_beside_its_results():
    at = hexes_of("passage")[30]
    s = position(step="h_combat", turn=2, units={"D1": hexes_of("passage")[0]},
                 charges=[Charge(unit="D1", pattern="C", at=at, facing=1, turn=1)])
    s, ev = play(s, M, "done", [1] * 6)
    blast = next(e.text for e in ev if e.kind == "blast")
    assert f"Charge at {at} goes off, pattern C facing north-east: " in blast
