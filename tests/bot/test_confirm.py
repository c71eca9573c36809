"""Confirmations for what cannot be taken back: resigning, an under-spent /ready, a self-destructive /done."""

from __future__ import annotations

import pytest

from bot.commands import make_core
from bot.store import Store
from engine.games.annihilator.demolition import pattern_numbers
from engine.games.annihilator.state import Charge
from tests.annihilator.helpers import RULES, M, hexes_of, position
from tests.support.table import open_table


@pytest.fixture
async def core(tmp_path):
    store = await Store.open(tmp_path / "c.db")
    yield make_core(store)
    await store.close()


async def test_resign_asks_first_and_then_ends_the_game(core):
    g, say = await open_table(core, "console:#t", "game:chitin scenario:basic")
    r = await say("alice", "/game resign")
    assert g.id in core.live and core.live[g.id].row.status == "active"
    ask = r[0]
    assert ask.to == "private" and "Resign game" in ask.text and "only a moderator can undo it" in ask.text
    [button] = ask.buttons
    assert button.style == "danger" and button.command == f"/game resign game:{g.id} confirm:yes"
    r = await say("alice", button.command)
    assert g.id not in core.live
    assert any("is over" in x.text and "resigned" in x.text for x in r)


async def test_3_032_ready_with_points_unspent_is_refused_with_the_points_left(core):
    """RULINGS Chitin 11 (binding) makes an army that spends less than the scenario's points not ready at all,
    so there is nothing to confirm: the refusal says how many points are left, even with confirm:yes."""
    g, say = await open_table(core, "console:#t", "game:chitin scenario:basic")
    await say("alice", "/pick kind:GT3", )
    seq = g.seq
    for line in ("/ready", "/ready confirm:yes"):
        r = await core.handle_line("alice", "dm:alice", line)
        assert g.seq == seq and r[0].to == "private"
        assert "36 left" in r[0].text and "3.032" in r[0].text and "RULINGS Chitin 11" in r[0].text


async def test_3_032_a_full_army_is_ready_without_a_question(core):
    g, say = await open_table(core, "console:#t", "game:chitin scenario:basic")
    for kind in ("GT3", "GT3", "PX3", "TR3", "LR3", "PX1"):
        await core.handle_line("alice", "dm:alice", f"/pick kind:{kind}")
    seq = g.seq
    await core.handle_line("alice", "dm:alice", "/ready")
    assert g.seq == seq + 1


def _charge_on_own_units():
    at = hexes_of("passage")[len(hexes_of("passage")) // 2]
    reach = pattern_numbers("A", at, 0)
    charge = Charge(unit="D1", pattern="A", at=at, facing=0, turn=1)
    return charge, reach


def test_8_2_done_that_sets_off_a_charge_on_the_marines_own_units_is_flagged():
    from engine.core.protocol import Action

    charge, reach = _charge_on_own_units()
    s = position(step="h_combat", turn=2, charges=[charge], units={"A1": reach[1], "D1": reach[0]})
    text = RULES.caution(s, M, Action(verb="done"))
    assert "A1" in text and reach[1] in text and "rule 8.2" in text
    far = next(h for h in hexes_of("passage") if h not in reach and h != charge.at)
    s = position(step="h_combat", turn=2, charges=[charge], units={"A1": far})
    assert RULES.caution(s, M, Action(verb="done")) == ""
    # with a close combat to come (R1 in A1's hex, 7.1) the question waits for its /done ...
    s = position(step="h_move", turn=2, charges=[charge], units={"A1": reach[1], "R1": reach[1]})
    assert RULES.caution(s, M, Action(verb="done")) == ""


def test_8_2_done_of_the_movement_is_flagged_when_no_close_combat_follows():
    """3.0: with no close combat possible, step 2 is skipped and the movement's /done sets the charges
    off at once (8.1); it asks first, as the close combat's /done does (it used to say nothing)."""
    from engine.core.protocol import Action

    charge, reach = _charge_on_own_units()
    s = position(step="h_move", turn=2, charges=[charge], units={"A1": reach[1]})
    text = RULES.caution(s, M, Action(verb="done"))
    assert "A1" in text and reach[1] in text and "rule 8.2" in text and "movement" in text
    assert RULES.caution(s, M, Action(verb="move", args={"unit": "A1", "to": reach[0]})) == ""


async def test_a_moderator_can_roll_back_a_finished_game_and_it_plays_on(core):
    g, say = await open_table(core, "console:#t", "game:chitin scenario:basic")
    await core.handle_line("alice", "dm:alice", "/pick kind:GT3")
    await say("alice", "/game resign confirm:yes")
    assert g.id not in core.live
    r = await say("carol", "/game status")  # the finished game's own thread still knows it
    assert "is over" in r[0].text
    # the resignation opened alice's sealed pick: going back past it asks the moderator to confirm
    r = await say("carol", f"/mod rollback to:1 reason:misclick game:{g.id}", True)
    assert "opened when the game ended" in r[0].text and "confirm:yes" in r[0].text, r[0].text
    r = await say("carol", f"/mod rollback to:1 reason:misclick confirm:yes game:{g.id}", True)
    assert "rolled game" in " ".join(x.text for x in r), r[0].text
    live = core.live[g.id]
    assert live.row.status == "active" and live.row.branch == 2 and live.seq == 1
    assert "result" not in live.row.settings_dict
    r = await core.handle_line("alice", "dm:alice", "/pick kind:GT3")
    assert core.live[g.id].seq == 2, r[0].text
