"""/mod edit in OneWorld: a moderator places, removes or changes a Child; every edit replays."""

from __future__ import annotations

import pytest

from bot.core import Core
from bot.live import full_replay
from engine.core.dice import FixedDice
from engine.core.errors import BadArguments
from engine.core.protocol import MODERATOR, Action
from tests.oneworld.positions import RULES, position
from tests.support.playout import play_on
from tests.support.table import open_table


def edit(state, op, **args):
    return RULES.apply(state, MODERATOR, Action(verb=op, args=args), FixedDice([]))


def replays(state, op, **args):
    """The edit gives the same state through apply and through replay_step."""
    a = Action(verb=op, args=args)
    one, ev1 = RULES.apply(state, MODERATOR, a, FixedDice([]))
    two, ev2 = RULES.replay_step(state, MODERATOR, a, FixedDice([]))
    assert one.model_dump_json() == two.model_dump_json()
    assert [e.text for e in ev1] == [e.text for e in ev2]
    return one, ev1


def test_mod_edit_place_remove_change_a_child():
    s = position("B1 Stone 0607", "C4 Stone 0507")
    s2, ev = replays(s, "remove", child="C4")
    assert ev[0].text == "CHEZ Stone C4 removed from 0507; it goes under CHEZ's Tower"
    assert s2.child("C4").where == "tower"
    s3, ev = replays(s2, "place", child="C4", aspect="fog", hex="0508")
    assert ev[0].text == "CHEZ Fog C4 placed in 0508 from under its Tower"
    assert s3.child("C4").where == "map" and s3.child("C4").hex == "0508"
    assert "C4" not in s3.moved  # CHEZ is not moving: C4 moves in CHEZ's turn
    s3b, _ = replays(s3, "place", child="B9", aspect="Stone", hex="0609")
    assert "B9" in s3b.moved and not [a for a in RULES.legal_actions(s3b, "BORG") if a.args.get("child") == "B9"]
    s4, ev = replays(s3, "change", child="B1", aspect="Blade", hex="0606")
    assert ev[0].text == "BORG Stone B1 in 0607 now a Blade and moved from 0607 to 0606"
    assert s4.child("B1").aspect == "Blade" and s4.child("B1").hex == "0606"
    s5, ev = replays(s4, "remove", child="B1", to="lost")
    assert "out of play" in ev[0].text and s5.child("B1").where == "lost"
    # the original states are untouched
    assert s.child("C4").where == "map" and s4.child("B1").where == "map"
    assert RULES.legal_actions(s5, "BORG")


@pytest.mark.parametrize(
    ("op", "args", "words"),
    [
        ("place", {"child": "B1", "aspect": "Fog", "hex": "0608"}, ["B1 is already on the map in 0607", "op:change"]),
        ("place", {"child": "B2", "aspect": "Wind", "hex": "0608"}, ["B2", "Stone, Blade or Fog"]),
        ("place", {"child": "B2", "aspect": "Fog", "hex": "9999"}, ["B2", "9999", "hex of the OneWorld map"]),
        ("place", {"child": "X9", "aspect": "Fog", "hex": "0608"}, ["no Child 'X9'", "B1-B13"]),
        ("remove", {"child": "B2"}, ["B2 is not on the map", "tower"]),
        ("remove", {"child": "B1", "to": "moon"}, ["B1", "to:tower", "to:lost"]),
        ("change", {"child": "B1"}, ["B1", "aspect:", "hex:"]),
        ("change", {"child": "B1", "aspect": "Stone"}, ["nothing to change"]),
        ("change", {"child": "B2", "aspect": "Fog"}, ["B2 is not on the map", "op:place"]),
        ("change", {"child": "B5", "hex": "0607"}, ["0607 already holds 4 BORG", "stacking limit"]),
        ("place", {"child": "B2", "aspect": "Fog", "hex": "0702"}, ["0702 holds BORG's god", "rule 7.3"]),
        ("change", {"child": "B1", "hex": "0720"}, ["0720 holds CHEZ's god", "accosting", "10.4"]),
        ("change", {"child": "B1", "hex": "1311"}, ["1311 is CHEZ's Tower of Balance", "5.5", "RULINGS OneWorld 9"]),
        ("rotate", {"child": "B1"}, ["no edit 'rotate'", "op:place"]),
    ],
)
def test_mod_edit_bad_edits_are_refused_and_change_nothing(op, args, words):
    s = position("B1 Stone 0607", "B3 Stone 0607", "B4 Fog 0607", "B6 Fog 0607", "B5 Blade 0505")
    before = s.model_dump_json()
    with pytest.raises(BadArguments) as err:
        edit(s, op, **args)
    for w in words:
        assert w in str(err.value)
    assert s.model_dump_json() == before


def test_mod_edit_remove_without_towers_says_the_child_does_not_come_back():
    s = position("B1 Stone 0607", options={"tower_elimination": True})
    s2, ev = replays(s, "remove", child="B1")
    assert ev[0].text == "BORG Stone B1 removed from 0607; it is out of play (this game has no Towers of Balance: it will not come back)"


def test_mod_edit_is_refused_during_a_combat_and_says_when_it_can_be_made():
    s = position("B1 Stone 0607", "C1 Fog 0607")
    s, _ = RULES.apply(s, "BORG", Action(verb="end"), FixedDice([1]))
    assert s.step == "combat"
    with pytest.raises(BadArguments) as err:
        edit(s, "remove", child="C1")
    assert "combat" in str(err.value) and "next /move prompt" in str(err.value)


def test_mod_edit_a_random_playout_continues_after_edits():
    s = position("B1 Stone 0607", "B2 Blade 0610", "C1 Fog 0614", "C2 Stone 0616")
    s, _ = edit(s, "place", child="B7", aspect="Fog", hex="0612")
    s, _ = edit(s, "change", child="C1", hex="0612")
    s, _ = edit(s, "remove", child="B2")
    play_on(RULES, s, seed=3, actions=300)


async def test_mod_edit_through_the_console_replays(core: Core, store):
    g, say = await open_table(core, "console:#ow", "game:oneworld seed:1")
    gid = g.id
    r = await say("carol", f'/mod edit op:remove child:B1 reason:"too early" game:{gid}', mod=True)
    assert "movement phase" in "\n".join(x.text for x in r)
    for _ in range(100):
        if g.state.step == "move":
            break
        seat = RULES.pending(g.state)[0].seat
        a = sorted(RULES.legal_actions(g.state, seat), key=lambda a: a.verb != "place_all")[0]
        await say(g.user_of(seat), a.text() + f" game:{gid}")
    assert g.state.step == "move"
    child = next(c for c in g.state.children if c.where == "map")
    r = await say("carol", f'/mod edit op:remove child:{child.id} reason:"set up by mistake" game:{gid}', mod=True)
    text = "\n".join(x.text for x in r)
    assert f"{child.id} removed from {child.hex}" in text and "Reason: set up by mistake" in text
    assert g.state.child(child.id).where == "tower"
    row = await store.game(gid)
    replayed, _ = await full_replay(store, row)
    assert replayed.model_dump_json() == g.state.model_dump_json()
