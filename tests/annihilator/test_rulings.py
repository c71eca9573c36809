"""RULINGS Annihilator 6-11: disruption for one game turn, demolition's cleared hexes, recovery on an
advance, repair under a human, auto-defend stacking, the private preview; and odds worse than 1-2."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction
from engine.core.hexes import DIRECTION_NAMES, format_ccrr, neighbor
from engine.games.annihilator import RULES, data
from engine.games.annihilator.board import base_types
from engine.games.annihilator.demolition import pattern_hexes, pattern_numbers
from engine.games.annihilator.state import Charge
from tests.annihilator.helpers import CORES, A, M, destinations, hexes_of, legal, play, position
from tests.annihilator.test_movement import _nbrs

SPOT = hexes_of("passage")[30]
FAR = hexes_of("passage")[90]


def _auto_defend_entry() -> tuple[str, str]:
    """An auto-defend hex next to a brain core and a passageway next to it."""
    ring = sorted(n for n in _nbrs(CORES[0]) if n not in CORES)
    target = ring[0]
    start = next(n for n in _nbrs(target) if base_types()[n] == "passage")
    return start, target


def _passage_line() -> tuple[str, int, list[str], str]:
    """Pattern A laid along four passageway hexes, and a passageway beside hex 1 off the line."""
    for at in hexes_of("passage"):
        for f in range(6):
            line = pattern_numbers("A", at, f)
            if len(line) == 4 and all(base_types()[h] == "passage" for h in line):
                beside = [n for n in _nbrs(at) if base_types()[n] == "passage" and n not in line]
                if beside:
                    return at, f, line, beside[0]
    raise AssertionError("no straight passageway of four hexes on the map")


# --- RULINGS Annihilator 6: disruption lasts one game turn -------------------------------------------------


def test_annihilator_ruling_6_auto_defend_disruption_bars_the_charge_of_the_same_turn():
    start, target = _auto_defend_entry()
    s = position(units={"D1": start, "R1": FAR})
    s, _ = play(s, M, "move", [3], unit="D1", to=target)  # 7.3: 1-1, die 3: D
    assert s.unit("D1").disrupted
    s, _ = play(s, M, "done")
    # Turn 1's demolition phase comes after the close combat phase: D1 is still disrupted.
    assert s.unit("D1").disrupted
    assert not legal(s, M, "charge")
    assert s.step != "h_demo"  # nothing to order, so the phase is passed over
    s2 = position(step="h_demo", units={"D1": target, "R1": FAR})
    s2, _ = play(s2, M, "charge", unit="D1", pattern="A", at=target, facing="N")  # the same squad, not disrupted
    assert s2.orders


def test_annihilator_ruling_6_disruption_lifts_at_the_same_step_of_the_next_game_turn():
    start, target = _auto_defend_entry()
    s = position(units={"D1": start, "R1": FAR})
    s, _ = play(s, M, "move", [3], unit="D1", to=target)
    s, _ = play(s, M, "done")
    while s.step != "h_move":
        assert s.unit("D1").disrupted, s.step
        s, _ = play(s, RULES.pending(s)[0].seat, "done")
    assert s.turn == 2 and not s.unit("D1").disrupted
    assert destinations(s, "D1")


def test_annihilator_ruling_6_robots_disruption_bars_the_advance_of_8_3_next_turn():
    at, f, line, beside = _passage_line()
    charge = Charge(unit="D1", pattern="A", at=at, facing=f, turn=1)
    robots = {f"R{i}": beside for i in range(1, 7)}
    s = position(step="a_combat", turn=1, charges=[charge], units={"A1": beside, "A2": beside, **robots})
    s, ev = play(s, A, "attack", [2], at=beside)  # 18 against 8: 2-1, die 2: D
    assert s.unit("A1").disrupted and s.unit("A2").disrupted
    # Turn 2: the disrupted squads may not move nor fight, so both phases pass; the charge goes off.
    s, _ = play(s, A, "done", [2, 4, 4])
    assert s.turn == 2 and set(line) <= set(s.fresh)
    # The humans may not advance while disrupted: the step goes straight to the robots' advance.
    assert s.step == "a_advance"
    assert s.unit("A1").disrupted and s.unit("A1").hex == beside
    assert not legal(s, M)


def test_annihilator_ruling_6_assault_forced_back_marine_stays_disrupted_a_game_turn():
    s = position(step="h_combat", units={"D1": SPOT, "A1": FAR, "R1": SPOT}, close_combat="assault")
    s, _ = play(s, M, "attack", [1, 6], at=SPOT)  # D1 5 against R1 10: falls back
    assert s.unit("D1").disrupted
    s, _ = play(s, M, "done")
    # The result has an effect: D1 may not set a charge in this turn's demolition phase...
    assert not [a for a in legal(s, M, "charge") if a.args["unit"] == "D1"]
    with pytest.raises(IllegalAction, match=r"D1 is disrupted and may not set a charge"):
        play(s, M, "charge", unit="D1", pattern="A", at=SPOT, facing="N")
    while (s.turn, s.step) != (2, "h_move"):  # the robot does nothing in its steps
        s, _ = play(s, RULES.pending(s)[0].seat, "done")
    # ... nor move in the next movement phase; it may fight again in turn 2's close combat.
    assert "D1" not in {a.args["unit"] for a in legal(s, M, "move")}
    s, _ = play(s, M, "done")
    assert s.step == "h_combat" and not s.unit("D1").disrupted and legal(s, M, "attack")


def test_annihilator_ruling_6_disrupted_human_may_not_recover_charges():
    s = position(units={"A1": SPOT, "A2": FAR, "R1": FAR}, caches={SPOT: 2})
    s = s.clone()
    s.units["A1"].arrived = True
    assert legal(s, M, "recover")
    s.units["A1"].disrupted = True
    assert not legal(s, M, "recover")
    with pytest.raises(IllegalAction, match=r"A1 is disrupted and may not recover charges"):
        play(s, M, "recover", unit="A1")


# --- RULINGS Annihilator 7: every hex with D or X is just cleared (8.3) ---------------------------------


def test_8_3_annihilator_ruling_7_a_squad_advances_through_its_own_blasted_passageway():
    at, f, line, beside = _passage_line()
    charge = Charge(unit="D1", pattern="A", at=at, facing=f, turn=1)
    s = position(step="h_combat", turn=2, charges=[charge], units={"D1": beside, "R1": FAR})
    s, ev = play(s, M, "done", [2, 4, 1])  # hex 2 at 4-1 die 2: X; hex 3 at 2-1 die 4: X; hex 4 die 1: NE
    assert s.fresh == line[:3]  # hex 1 always cleared; hex 4 got no effect
    assert s.step == "h_advance"
    assert destinations(s, "D1", "advance") == set(line[:3])
    s, _ = play(s, M, "advance", unit="D1", to=line[2])
    assert s.unit("D1").hex == line[2]


# --- RULINGS Annihilator 8: recovering charges on an advance (8.5) --------------------------------------


def test_8_5_annihilator_ruling_8_an_assault_squad_recovers_charges_after_an_advance():
    at, f, line, beside = _passage_line()
    charge = Charge(unit="D1", pattern="A", at=at, facing=f, turn=1)
    s = position(step="h_combat", turn=2, charges=[charge], caches={line[1]: 2},
                 units={"A1": beside, "R1": FAR})
    s, _ = play(s, M, "done", [2, 4, 4])
    assert s.step == "h_advance"
    s, _ = play(s, M, "advance", unit="A1", to=line[1])
    assert [a.args["unit"] for a in legal(s, M, "recover")] == ["A1"]
    s, ev = play(s, M, "recover", [2], unit="A1")
    assert s.unit("A1").kind == "demolition" and s.unit("A1").charges == 3 and "rule 8.5" in ev[0].text
    assert destinations(s, "A1", "advance")  # it may go on advancing with what it has left


# --- RULINGS Annihilator 9: no repair to impassable under a human (9.0) ---------------------------------


def test_9_0_annihilator_ruling_9_no_repair_to_impassable_under_a_human():
    blocked = hexes_of("impassable")[0]
    other = hexes_of("impassable")[1]
    s = position(step="a_repair", units={"B1": blocked, "A1": blocked, "B2": other, "A2": FAR},
                 markers={blocked: "obpas", other: "clear"})
    assert [a.args["unit"] for a in legal(s, A, "repair")] == ["B2"]
    with pytest.raises(IllegalAction, match=rf"{blocked} may not be restored to impassable while .*A1.*"
                                            r"RULINGS Annihilator 9"):
        play(s, A, "repair", unit="B1")
    passage = SPOT  # a cleared passageway may still be repaired under a human: it stays enterable
    s = position(step="a_repair", units={"B1": passage, "A1": passage}, markers={passage: "clear"})
    s, _ = play(s, A, "repair", unit="B1")
    assert passage not in s.markers


# --- RULINGS Annihilator 10: three humans in an auto-defend hex -----------------------------------------


def test_6_0_annihilator_ruling_10_no_human_enters_an_auto_defend_hex_holding_three():
    ring = hexes_of("autodefend")
    for ad in ring:
        for p in _nbrs(ad):
            if p not in ring:
                continue
            free = position(units={"A4": p, "R1": FAR})
            full = position(units={"A1": ad, "A2": ad, "A3": ad, "A4": p, "R1": FAR})
            lost = destinations(free, "A4") - destinations(full, "A4") - {ad}
            if lost:  # the way round the ring crosses ad, which holds three humans
                target = sorted(lost)[0]
                with pytest.raises(IllegalAction, match=rf"auto-defend hex {ad}, which already holds three human units.*"
                                                        r"RULINGS Annihilator 10"):
                    play(full, M, "move", unit="A4", to=target)
                return
    raise AssertionError("no hex is reached only through an auto-defend hex")


# --- odds worse than 1-2 (CRT) ---------------------------------------------------------------------------


def test_7_1_odds_worse_than_1_2_are_no_effect_with_the_strengths_given():
    s = position(step="a_combat", units={"R1": SPOT, "A1": SPOT, "A2": SPOT, "D1": SPOT})
    s, ev = play(s, A, "attack", [], at=SPOT)
    assert "R1 (3) against A1, A2, D1 (10): 3 to 10, worse than 1-2: no effect (rule 7.1)" in ev[0].text
    assert "at NE" not in ev[0].text and ev[0].data["result"] == "NE"


# --- RULINGS Annihilator 4 and 11: the private preview of a charge --------------------------------------


def test_8_1_annihilator_ruling_11_the_private_view_draws_each_pattern_in_its_own_colour():
    other = hexes_of("passage")[60]
    s = position(step="h_demo", units={"D1": SPOT, "A1": other, "R1": FAR})
    s, _ = play(s, M, "charge", unit="D1", pattern="B", at=SPOT, facing="NE")
    s, _ = play(s, M, "charge", unit="A1", pattern="A", at=other, facing="S")
    view = RULES.view(s, M)
    nums = data.hex_numbers()
    for colour, (at, pattern, facing) in enumerate([(SPOT, "B", 1), (other, "A", 3)], start=1):
        kind = f"preview-{colour}"
        want = {nums[h]: odds for _, h, odds in pattern_hexes(pattern, data.hexes_by_number()[at], facing)
                if h in nums}
        assert {h.hex for h in view.highlights if h.kind == kind} == set(want)
        marks = {m.hex: m.text for m in view.markers if m.kind == kind}
        assert marks == {h: ("1: clear" if h == at else f"{n}: {want[h]}")
                         for n, h in enumerate(pattern_numbers(pattern, at, facing), start=1)}
        arrow = [a for a in view.arrows if a.kind == kind]
        ahead = format_ccrr(neighbor(data.hexes_by_number()[at], facing))
        assert [(a.src, a.dst, a.label) for a in arrow] == [(at, ahead, f"{pattern} {DIRECTION_NAMES[facing]}")]
    for viewer in (A, None):
        other_view = RULES.view(s, viewer)
        assert not [h for h in other_view.highlights if h.kind.startswith("preview")]
        assert not [m for m in other_view.markers if m.kind.startswith("preview")]
        assert not [a for a in other_view.arrows if a.kind.startswith("preview")]


def test_annihilator_ruling_6_a_turn_with_every_marine_disrupted_says_the_movement_is_skipped():
    """3.0 skips a step with nothing to decide; the human movement skipped because every Marine is
    still disrupted (RULINGS Annihilator 6) is said in the thread, not passed over in silence."""
    s = position(step="a_repair", turn=1, units={"A1": SPOT, "R1": FAR})
    a1 = s.unit("A1")
    a1.disrupted, a1.disrupted_turn, a1.disrupted_step = True, 1, "a_combat"
    s, events = play(s, A, "done")
    assert s.turn == 2 and s.step != "h_move"
    said = [e.text for e in events if "human movement is skipped" in e.text]
    assert said and "Turn 2: no Marine can move" in said[0] and "RULINGS Annihilator 6" in said[0], events
