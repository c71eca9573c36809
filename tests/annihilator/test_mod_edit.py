"""/mod edit in Annihilator: a moderator places, removes or changes a unit and sets hex markers; every edit replays."""

from __future__ import annotations

import pytest

from bot.core import Core
from bot.live import full_replay
from engine.core.dice import FixedDice
from engine.core.errors import BadArguments
from engine.core.protocol import MODERATOR, Action
from tests.annihilator.helpers import RULES, A, M, position
from tests.support.playout import play_on
from tests.support.table import open_table


def edit(state, op, **args):
    return RULES.apply(state, MODERATOR, Action(verb=op, args=args), FixedDice([]))


def replays(state, op, **args):
    """The edit gives the same state through apply and through replay_step, and leaves ``state`` as it was."""
    before = state.model_dump_json()
    a = Action(verb=op, args=args)
    one, ev1 = RULES.apply(state, MODERATOR, a, FixedDice([]))
    two, ev2 = RULES.replay_step(state, MODERATOR, a, FixedDice([]))
    assert one.model_dump_json() == two.model_dump_json()
    assert [e.text for e in ev1] == [e.text for e in ev2]
    assert state.model_dump_json() == before
    return one, ev1


def board():
    return position(units={"A1": "0308", "D1": "0309", "R1": "0310", "R2": "0311", "A2": "0313"})


def test_mod_edit_place_remove_change_a_unit():
    s = board()
    s2, ev = replays(s, "remove", unit="R1")
    assert ev[0].text == "Annihilator Security Robot R1 removed from 0310; it is eliminated"
    assert not s2.units["R1"].alive
    s3, ev = replays(s2, "place", unit="r1", hex="0312")
    assert ev[0].text == "Annihilator Security Robot R1 (eliminated) placed in 0312"
    assert s3.units["R1"].on_map and s3.units["R1"].hex == "0312" and s3.units["R1"].mp == 0
    s4, ev = replays(s3, "change", unit="D1", hex="0207", disrupted="yes", charges="1")
    # it names the hex once ("D1 in 0309: ... moved from 0309 to 0207" said it twice)
    assert ev[0].text == ("Marines Demolition Squad D1 in 0309: disrupted, carries 1 charge (was 3), "
                          "moved to 0207")
    d1 = s4.units["D1"]
    assert d1.hex == "0207" and d1.disrupted and d1.charges == 1
    s5, ev = replays(s4, "remove", unit="D1")
    assert "with the 1 charges it carried" in ev[0].text
    assert RULES.legal_actions(s5, M)


def test_mod_edit_hex_markers_clear_obpas_none():
    s = board()
    s2, ev = replays(s, "marker", hex="0411", marker="clear")
    assert ev[0].text == "0411: no marker replaced by a Clear marker"
    assert s2.markers["0411"] == "clear"
    s3, ev = replays(s2, "marker", hex="0411", marker="obpas")
    assert ev[0].text == "0411: a Clear marker replaced by an Obstructed-passable marker"
    s4, ev = replays(s3, "marker", hex="0411", marker="none")
    assert "0411" not in s4.markers
    # a Marine now in a cleared impassable hex pins the marker
    s5, _ = edit(s2, "change", unit="A1", hex="0411")
    with pytest.raises(BadArguments) as err:
        edit(s5, "marker", hex="0411", marker="none")
    assert "Assault Squad A1 stands in 0411" in str(err.value) and "Impassable" in str(err.value)


@pytest.mark.parametrize(
    ("op", "args", "words"),
    [
        ("place", {"unit": "A1", "hex": "0312"}, ["A1 is already on the map in 0308", "op:change"]),
        ("place", {"unit": "A3", "hex": "0411"}, ["Assault Squad A3 cannot stand in 0411", "Impassable"]),
        ("place", {"unit": "A3", "hex": "9999"}, ["9999", "hex of the Annihilator map"]),
        ("place", {"unit": "Z9", "hex": "0312"}, ["no unit 'Z9'"]),
        ("remove", {"unit": "R3"}, ["Security Robot R3 is eliminated", "op:place"]),
        ("change", {"unit": "A1"}, ["A1", "hex:HEX", "charges:N"]),
        ("change", {"unit": "R2", "disrupted": "yes"}, ["R2 is a robot", "op:remove"]),
        ("change", {"unit": "A1", "charges": "2"}, ["A1 carries no charges", "Demolition Squad"]),
        ("change", {"unit": "D1", "charges": "5"}, ["0 to 3 charges"]),
        ("change", {"unit": "D1", "disrupted": "perhaps"}, ["disrupted is yes or no"]),
        ("change", {"unit": "A1", "hex": "0107"}, ["0107", "Outer armor"]),
        ("change", {"unit": "A1", "hex": "0308"}, ["A1 in 0308 already is as asked"]),
        ("marker", {"hex": "1313", "marker": "clear"}, ["1313 is a brain core"]),
        ("marker", {"hex": "0411", "marker": "rubble"}, ["clear, obpas", "not 'rubble'"]),
        ("marker", {"hex": "0411", "marker": "none"}, ["0411 already has no marker"]),
        ("nuke", {"hex": "0411"}, ["no edit 'nuke'", "op:marker"]),
    ],
)
def test_mod_edit_bad_edits_are_refused_and_change_nothing(op, args, words):
    s = board()
    before = s.model_dump_json()
    with pytest.raises(BadArguments) as err:
        edit(s, op, **args)
    for w in words:
        assert w in str(err.value), str(err.value)
    assert s.model_dump_json() == before


def test_mod_edit_keeps_the_stacking_limit():
    s = position(units={"A1": "0308", "A2": "0313", "A3": "0313", "A4": "0313"})
    before = s.model_dump_json()
    with pytest.raises(BadArguments) as err:
        edit(s, "change", unit="A1", hex="0313")
    assert "0313 already holds 3 Marines units" in str(err.value) and "rule 6.0" in str(err.value)
    assert s.model_dump_json() == before


def test_mod_edit_the_last_marine_is_not_removed():
    s = position(units={"A1": "0308", "R1": "0310"})
    with pytest.raises(BadArguments) as err:
        edit(s, "remove", unit="A1")
    assert "last Marine unit" in str(err.value) and "10.0" in str(err.value)


def test_mod_edit_is_refused_outside_a_movement_phase_and_says_when():
    s = position(step="h_combat", units={"A1": "0308", "R1": "0308"})
    with pytest.raises(BadArguments) as err:
        edit(s, "remove", unit="R1")
    assert "close combat" in str(err.value) and "next move prompt" in str(err.value)
    s = position(step="a_move", units={"A1": "0308", "R1": "0310"})
    s2, _ = edit(s, "remove", unit="R1")
    assert not s2.units["R1"].alive and RULES.legal_actions(s2, A)


def test_mod_edit_a_random_playout_continues_after_edits():
    s = board()
    s, _ = edit(s, "place", unit="R5", hex="0309")
    s, _ = edit(s, "change", unit="A1", hex="0310", disrupted="yes")
    s, _ = edit(s, "marker", hex="0411", marker="clear")
    s, _ = edit(s, "remove", unit="R2")
    play_on(RULES, s, seed=7, actions=400)


async def test_mod_edit_through_the_console_replays(core: Core, store):
    g, say = await open_table(core, "console:#an", "game:annihilator seed:4")
    gid = g.id
    r = await say("carol", f'/mod edit op:marker hex:0411 marker:clear reason:"too early" game:{gid}', mod=True)
    assert "set up" in "\n".join(x.text for x in r)
    for _ in range(50):
        if g.state.step == "h_move":
            break
        seat = RULES.pending(g.state)[0].seat
        first = ("autodeploy", "ready") if any(u.human is False and not u.hex for u in g.state.units.values()) \
            else ("ready", "land")
        acts = sorted(RULES.legal_actions(g.state, seat), key=lambda a: a.verb not in first)
        r = await say(g.user_of(seat), acts[0].text() + f" game:{gid}")
        assert not r[0].text.startswith("Sorry"), r[0].text
    assert g.state.step == "h_move"
    r = await say("carol", f'/mod edit op:marker hex:0411 marker:clear reason:"a charge was misread" game:{gid}',
                  mod=True)
    text = "\n".join(x.text for x in r)
    assert "0411: no marker replaced by a Clear marker" in text and "Reason: a charge was misread" in text
    assert g.state.markers["0411"] == "clear"
    row = await store.game(gid)
    replayed, _ = await full_replay(store, row)
    assert replayed.model_dump_json() == g.state.model_dump_json()
