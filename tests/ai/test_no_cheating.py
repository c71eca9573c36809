"""No cheating by construction: the bot is given its seat's ``Information`` only.

For each game, a position where the other seat has a sealed choice (an army picked counter by
counter, 3.03; a combat round's aspects, 8.2; an accosting Child's aspect, 10.4; hidden demolition
charges, 8.1) is reached twice, with that choice changed to another legal value. The true
positions differ; what the bot's seat is given is identical, and so is its decision (same seed).

Then the same at 20 positions (four Chitin scenarios, the first and the second combat round and
accosts of three OneWorld games, hidden charges of three Annihilator games), each with every
legal value of the hidden choice (up to 8, spread over the list; 114 in all): the other army's
last pick after the bot's own, the other side's aspects, the accosting Child's aspect, a charge's
pattern and facing. With the masking in ``observe`` switched off, every one of them fails.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.ai import choose, player
from engine.ai.info import Known, Sealed
from engine.ai.selfplay import Table, bot
from engine.core.protocol import Action
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


# --- every other value, at several positions of each game ------------------------------------------------------


def spread(actions: list[Action], most: int = 8) -> list[Action]:
    """At most ``most`` of ``actions``, spread evenly over the list (the first and the last kept)."""
    if len(actions) <= most:
        return actions
    step = (len(actions) - 1) / (most - 1)
    return [actions[round(i * step)] for i in range(most)]


def every_value(t: Table, seat: str, same: Callable[[Action], bool]) -> list[Table]:
    """One twin of ``t`` for each legal action of ``seat`` that ``same`` accepts (``spread``), played."""
    out = []
    for action in spread([a for a in t.rules.legal_now(t.state, seat) if same(a)]):
        u = twin(t)
        u.play(seat, action)
        out.append(u)
    assert len(out) >= 2, "the hidden choice has one value only here"
    return out


def assert_all_blind(tables: list[Table], seat: str, level: str = "normal") -> None:
    """Every table's true position differs from the first's; ``seat`` is given the same information in
    all of them and decides the same, for two seeds."""
    first = tables[0]
    info = first.information(seat)
    assert any(isinstance(s, Sealed) for s in info.steps)
    decisions = {seed: choose(first.rules.name, info, level, seed) for seed in (1, 2)}
    for t in tables[1:]:
        assert t.state.model_dump_json() != first.state.model_dump_json(), "the hidden choices should differ"
        other = t.information(seat)
        assert other.model_dump_json() == info.model_dump_json()
        for seed, decision in decisions.items():
            assert choose(t.rules.name, other, level, seed) == decision


def nth(t: Table, until: Callable[[Table], bool], n: int, limit: int = 6000) -> Table:
    """The easy bot plays both seats up to the ``n``-th position where ``until`` holds."""
    easy = bot("easy", 1)
    for i in range(n):
        if i:
            seat = t.rules.pending_now(t.state)[0].seat
            t.play(seat, easy(t, seat))
        t = drive(t, until, limit)
    return t


@pytest.mark.parametrize("scenario", ["basic", "small", "intermediate", "advanced"])
@pytest.mark.parametrize("before", [1, 3])
def test_3_03_no_value_of_the_other_armys_last_secret_pick_changes_the_bots_pick(scenario: str, before: int) -> None:
    t = Table("chitin", scenario, dice_seed=f"nc-{scenario}-{before}")
    easy = bot("easy", before)
    for _ in range(before - 1):
        t.play("Red", easy(t, "Red"))
    t.play("Blue", easy(t, "Blue"))  # the bot's own pick, read by it, between Red's sealed ones
    assert_all_blind(every_value(t, "Red", lambda a: a.verb == "pick"), "Blue")


def combat_round(t: Table) -> bool:
    return getattr(t.state, "step", "") == "combat" and len(t.rules.pending_now(t.state)) == 2


@pytest.mark.parametrize("seed", ["nc-a", "nc-b", "nc-c"])
@pytest.mark.parametrize("round_", [1, 2])
def test_8_2_no_value_of_the_other_sides_sealed_aspects_changes_the_bots_aspects(seed: str, round_: int) -> None:
    t = nth(Table("oneworld", dice_seed=seed), combat_round, round_)
    sealer, seat = (p.seat for p in t.rules.pending_now(t.state))
    assert_all_blind(every_value(t, sealer, lambda a: True), seat)


@pytest.mark.parametrize("seed", ["nc-a", "nc-b", "nc-c"])
def test_10_4_no_value_of_the_accosting_childs_sealed_aspect_changes_the_gods_aspect(seed: str) -> None:
    t = drive(Table("oneworld", dice_seed=seed), lambda t: getattr(t.state, "step", "") == "accost_child",
              limit=6000)
    seat = t.rules.pending_now(t.state)[0].seat
    god = next(s for s in t.rules.seats if s != seat)
    assert_all_blind(every_value(t, seat, lambda a: True), god)


@pytest.mark.parametrize("seed", ["nc-a", "nc-b", "nc-c"])
def test_8_1_no_pattern_or_facing_of_a_hidden_charge_changes_the_annihilators_moves(seed: str) -> None:
    def charging(t: Table) -> bool:
        return getattr(t.state, "step", "") == "h_demo" and any(
            x.verb == "charge" for x in t.rules.legal_now(t.state, "Marines"))

    t = drive(Table("annihilator", options={"hidden_charges": "on"}, dice_seed=seed), charging)
    unit = next(x for x in t.rules.legal_now(t.state, "Marines") if x.verb == "charge").args["unit"]
    tables = every_value(t, "Marines", lambda a: a.verb == "charge" and a.args["unit"] == unit)
    for u in tables:
        u.play("Marines", next(x for x in u.rules.legal_now(u.state, "Marines") if x.verb == "done"))
        assert u.rules.pending_now(u.state)[0].seat == "Annihilator"
    assert_all_blind(tables, "Annihilator")
