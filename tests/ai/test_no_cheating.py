"""No cheating by construction: the bot is given its seat's ``Information`` only.

For each game, a position where the other seat has a sealed choice (an army picked counter by
counter, 3.03; a combat round's aspects, 8.2; an accosting Child's aspect, 10.4; hidden demolition
charges, 8.1) is reached twice, with that choice changed to another legal value. The true
positions differ; what the bot's seat is given is identical, and so is its decision (same seed).
"""

from __future__ import annotations

import pytest

from engine.ai import choose, player
from engine.ai.info import Known, Sealed
from engine.ai.selfplay import Table
from tests.ai.helpers import drive, other_legal


@pytest.fixture(autouse=True)
def small_budget(monkeypatch):
    monkeypatch.setitem(player.LEVELS, "normal", 24)


def twin(t: Table) -> Table:
    """A second table with the same game and record so far."""
    u = Table(t.rules.name, t.config.scenario, dict(t.config.options), t.dice_seed)
    for e in t.log:
        u.play(e.seat, e.action)
    return u


def assert_blind(a: Table, b: Table, seat: str) -> None:
    assert a.state.model_dump_json() != b.state.model_dump_json(), "the hidden choices should differ"
    ia, ib = a.information(seat), b.information(seat)
    assert ia.model_dump_json() == ib.model_dump_json()
    assert any(isinstance(s, Sealed) for s in ia.steps)
    for seed in (1, 2):
        assert choose(a.rules.name, ia, "normal", seed) == choose(b.rules.name, ib, "normal", seed)


def test_3_03_the_other_armys_secret_picks_never_change_the_bots_pick() -> None:
    a = Table("chitin", "basic", dice_seed="nc")
    b = twin(a)
    first = next(x for x in a.rules.legal_now(a.state, "Red") if x.verb == "pick")
    a.play("Red", first)
    b.play("Red", other_legal(b, "Red", first))
    a.play("Blue", a.rules.legal_now(a.state, "Blue")[0])
    b.play("Blue", b.rules.legal_now(b.state, "Blue")[0])
    assert_blind(a, b, "Blue")
    # the bot's own picks are its own to read
    assert any(isinstance(s, Known) and s.seat == "Blue" for s in a.information("Blue").steps)


def test_8_2_the_other_sides_sealed_aspects_never_change_the_bots_aspects() -> None:
    a = drive(Table("oneworld", dice_seed="nc"),
              lambda t: getattr(t.state, "step", "") == "combat" and len(t.rules.pending_now(t.state)) == 2)
    b = twin(a)
    mine = a.rules.legal_now(a.state, "BORG")[0]
    a.play("BORG", mine)
    b.play("BORG", other_legal(b, "BORG", mine))
    assert_blind(a, b, "CHEZ")


def test_10_4_the_accosting_childs_sealed_aspect_never_changes_the_gods_aspect() -> None:
    a = drive(Table("oneworld", dice_seed="nc2"), lambda t: getattr(t.state, "step", "") == "accost_child",
              limit=6000)
    b = twin(a)
    seat = a.rules.pending_now(a.state)[0].seat
    god = next(s for s in a.rules.seats if s != seat)
    mine = a.rules.legal_now(a.state, seat)[0]
    a.play(seat, mine)
    b.play(seat, other_legal(b, seat, mine))
    assert_blind(a, b, god)


def test_8_1_hidden_charges_never_change_the_annihilators_moves() -> None:
    def charging(t: Table) -> bool:
        return getattr(t.state, "step", "") == "h_demo" and any(
            x.verb == "charge" for x in t.rules.legal_now(t.state, "Marines"))

    a = drive(Table("annihilator", options={"hidden_charges": "on"}, dice_seed="nc"), charging)
    b = twin(a)
    order = next(x for x in a.rules.legal_now(a.state, "Marines") if x.verb == "charge")
    other = next(x for x in b.rules.legal_now(b.state, "Marines") if x.verb == "charge"
                 and x.args["unit"] == order.args["unit"] and x.key() != order.key())
    a.play("Marines", order)
    b.play("Marines", other)
    for t in (a, b):
        done = next(x for x in t.rules.legal_now(t.state, "Marines") if x.verb == "done")
        t.play("Marines", done)
    assert a.rules.pending_now(a.state)[0].seat == "Annihilator"
    assert_blind(a, b, "Annihilator")
    # hard moves the Annihilator (5.0) by rollouts of its postures, in the determinization alone
    assert getattr(a.state, "step", "") == "a_move"
    ia, ib = a.information("Annihilator"), b.information("Annihilator")
    assert choose("annihilator", ia, "hard", 1) == choose("annihilator", ib, "hard", 1)


def test_the_blindness_check_can_fail_a_public_difference_changes_the_information() -> None:
    a = Table("chitin", "learning", dice_seed="nc")
    b = twin(a)
    first = a.rules.legal_now(a.state, a.rules.pending_now(a.state)[0].seat)
    seat = a.rules.pending_now(a.state)[0].seat
    a.play(seat, first[0])
    b.play(seat, first[1])
    other = next(s for s in a.rules.seats if s != seat)
    assert a.information(other).model_dump_json() != b.information(other).model_dump_json()
