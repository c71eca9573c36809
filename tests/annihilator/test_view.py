"""What each viewer sees, and the messages players read (2.2.2 markers, 8.1 secrecy)."""

from __future__ import annotations

import pytest

from engine.core.errors import BadArguments, IllegalAction
from engine.games.annihilator import RULES
from engine.games.annihilator.state import Charge
from tests.annihilator.helpers import A, M, config, hexes_of, landed, play, position

SPOT = hexes_of("passage")[30]


def test_2_2_counters_carry_labels_values_and_disruption():
    s = position(step="a_combat", units={"A1": SPOT, "R1": SPOT})
    s = s.clone()
    s.units["A1"].disrupted = True
    v = RULES.view(s, None)
    counters = {c.label: c for c in v.counters}
    assert counters["A1"].sub == "AS 4-4-4" and counters["A1"].disrupted and counters["A1"].side == M
    assert counters["R1"].sub == "SR 3-2-4" and not counters["R1"].disrupted
    assert v.map == "annihilator" and v.sides[A] == "dark"


def test_2_2_2_markers_charge_counts_impacts_and_caches():
    s = landed()
    s = s.clone()
    s.markers = {hexes_of("impassable")[0]: "obpas", hexes_of("obstructed")[0]: "clear"}
    s.caches = {SPOT: 2}
    s.charges = [Charge(unit="D1", pattern="D", at=s.unit("D1").hex, facing=3, turn=1)]
    texts = {(m.kind, m.text) for m in RULES.view(s, None).markers}
    assert ("obpas", "OB-PAS") in texts and ("clear", "CLEAR") in texts
    assert ("charges", "D1: 3") in texts and ("charges", "A1: 1") in texts
    assert ("impact", "Assault ship") in texts and ("cache", "2 charges left") in texts
    assert ("charge", "D S") in texts


def test_8_1_hidden_charges_show_only_a_marker_to_the_annihilator():
    s = position(step="h_demo", units={"D1": SPOT}, hidden_charges=True)
    s, _ = play(s, M, "charge", unit="D1", pattern="C", at=SPOT, facing="SE")
    s, ev = play(s, M, "done")
    assert not [e for e in ev if e.kind == "reveal"]
    public = " ".join(e.text for e in ev if e.public)
    assert SPOT in public and "pattern C" not in public
    assert {m.text for m in RULES.view(s, A).markers if m.kind == "charge"} == {"charge"}
    assert {m.text for m in RULES.view(s, M).markers if m.kind == "charge"} == {"C SE"}
    assert not [h for h in RULES.view(s, None).highlights if h.kind == "target"]
    assert "Your hidden charge: D1 sets pattern C" in RULES.view(s, M).private[0]


def test_8_1_hidden_charge_is_revealed_when_it_goes_off():
    s = position(step="h_combat", turn=2, hidden_charges=True, units={"D1": hexes_of("passage")[0]},
                 charges=[Charge(unit="D1", pattern="C", at=SPOT, facing=2, turn=1)])
    s, ev = play(s, M, "done", [1] * 6)
    reveal = [e for e in ev if e.kind == "reveal"]
    assert reveal and reveal[0].public and f"D1 sets pattern C at {SPOT} facing SE" in reveal[0].text


def test_setup_refuses_unknown_options_and_scenarios_politely():
    with pytest.raises(BadArguments, match=r"Annihilator has no option 'fog'; its options are: hidden_charges"):
        RULES.setup(config(fog="on"), None)
    with pytest.raises(BadArguments, match=r"close_combat must be crt or assault"):
        RULES.setup(config(close_combat="dice"), None)
    assert RULES.setup(config(hidden_charges="on"), None).hidden_charges


def test_errors_name_unit_hex_and_rule():
    s = position(units={"A1": SPOT, "R1": hexes_of("passage")[31]})
    with pytest.raises(IllegalAction, match=r"there is no unit 'Z9'"):
        play(s, M, "move", unit="Z9", to=SPOT)
    with pytest.raises(IllegalAction, match=r"Security Robot R1 belongs to the Annihilator player"):
        play(s, M, "move", unit="R1", to=SPOT)
    with pytest.raises(IllegalAction, match=r"'99' is not a hex of the Annihilator map"):
        play(s, M, "move", unit="A1", to="99")
    far = hexes_of("passage")[-1]
    with pytest.raises(IllegalAction, match=rf"Assault Squad A1 cannot reach {far} with 4 movement points left"):
        play(s, M, "move", unit="A1", to=far)


def test_verbs_avoid_the_bots_own_names():
    names = {v.verb for v in RULES.verbs()}
    assert not names & {"game", "mod", "help", "resolve"}
    assert {"move", "attack", "mind", "charge", "repair", "done"} <= names


def test_7_1_refusals_for_combat_say_why():
    other = hexes_of("passage")[31]
    s = position(step="a_combat", units={"A1": SPOT, "R1": other, "B1": SPOT})
    with pytest.raises(IllegalAction, match=rf"there are no enemy units in {other} to attack \(rule 7.1\)"):
        play(s, A, "attack", at=other)
    with pytest.raises(IllegalAction, match=rf"none of your units in {SPOT} can attack"):
        play(s, A, "attack", at=SPOT)  # a Repairbot has no attack strength
    with pytest.raises(IllegalAction, match=rf"there are no human units in {other} for the Mind Weapon .*rule 7.2"):
        play(s, A, "mind", at=other)


def test_8_5_refusals_for_recovery_say_why():
    s = position(units={"A1": SPOT, "D1": SPOT}, caches={SPOT: 2})
    with pytest.raises(IllegalAction, match=r"only an Assault Squad may recover charges, and D1 is a Demolition"):
        play(s, M, "recover", unit="D1")
    with pytest.raises(IllegalAction, match=rf"Assault Squad A1 must enter {SPOT} this movement phase .*rule 8.5"):
        play(s, M, "recover", unit="A1")


def test_8_1_refusals_for_orders_say_why():
    s = position(step="h_demo", units={"D1": SPOT})
    with pytest.raises(IllegalAction, match=rf"Demolition Squad D1 sets its charge in its own hex, {SPOT} \(rule 8.1\)"):
        play(s, M, "charge", unit="D1", pattern="A", at=hexes_of("passage")[31], facing="N")
    with pytest.raises(IllegalAction, match=r"facing must be one of N, NE, SE, S, SW, NW"):
        play(s, M, "charge", unit="D1", pattern="A", at=SPOT, facing="E")
    with pytest.raises(IllegalAction, match=r"Demolition Squad D1 has no order to cancel this phase \(rule 8.1\)"):
        play(s, M, "cancel", unit="D1")


def test_3_0_board_at_the_robots_turn_still_shows_the_marines_moves_until_their_first_order():
    start, robot = hexes_of("passage")[30], hexes_of("passage")[60]
    s = position(units={"A1": start, "R1": robot})
    to = sorted(a.args["to"] for a in RULES.legal_actions(s, M) if a.verb == "move" and a.args["unit"] == "A1")[0]
    s, _ = play(s, M, "move", unit="A1", to=str(to))
    while s.step != "a_move":
        seat = RULES.pending(s)[0].seat
        s, _ = play(s, seat, "done", [1] * 12)
    moved = {h.hex for h in RULES.view(s, A).highlights if h.kind == "moved"}
    assert {start, str(to)} <= moved
    s, _ = play(s, A, "done", [1] * 12)
    assert not {start, str(to)} & {h.hex for h in RULES.view(s, None).highlights if h.kind == "moved"}


def test_5_1_refusals_match_ids_in_any_case_before_naming_the_real_problem():
    s = position(units={"A1": SPOT, "R1": hexes_of("passage")[31]})
    far = hexes_of("passage")[-1]
    with pytest.raises(IllegalAction, match=rf"Assault Squad A1 cannot reach {far}"):
        play(s, M, "move", unit="a1", to=far)
    to = sorted(str(a.args["to"]) for a in RULES.legal_actions(s, M) if a.verb == "move")[0]
    with pytest.raises(IllegalAction, match=rf"Write it as /move unit:A1 to:{to}"):
        play(s, M, "move", unit="a1", to=to)


@pytest.mark.parametrize("winner, reason, shown", [
    (M, "both brain core hexes are destroyed: the Marines win (rule 10.0)",
     "Game over: the Marines win: both brain core hexes are destroyed (rule 10.0)"),
    (A, "every human unit is eliminated: the Annihilator wins (rule 10.0)", "Game over: the Annihilator wins"),
    (None, "neither side won in 10 game turns: a draw (rule 10.0)",
     "Game over: a draw: neither side won in 10 game turns (rule 10.0)"),
])
def test_10_0_a_finished_game_names_its_result_on_the_board(winner, reason, shown):
    """The header and the alt text of a finished Annihilator game read "Game over: game over": its caption
    held only the reason, not the "Game over:" line the board reads the result from."""
    from render.panel import to_move

    s = position(step="over", units={"A1": SPOT, "R1": SPOT}, winner=winner, reason=reason)
    assert to_move(RULES.view(s, None)).startswith(shown), to_move(RULES.view(s, None))
