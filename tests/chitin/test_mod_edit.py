"""/mod edit in Chitin: a moderator places, removes or changes a counter and corrects a Harvest Chit; every edit replays."""

from __future__ import annotations

import pytest

from bot.core import Core
from bot.live import full_replay
from engine.core.dice import FixedDice
from engine.core.errors import BadArguments
from engine.core.protocol import MODERATOR, Action
from engine.games.chitin.state import Chit
from tests.chitin.positions import RULES, act, begin, nb, position, put
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
    s = position()
    put(s, "R1", "GT2", "0608", face="S")
    put(s, "R2", "W", "0610")
    put(s, "B1", "LR3", "0612")
    s.chits = {"A": Chit(letter="A", face=5, hex="0410"), "B": Chit(letter="B", face=3, hex="0412")}
    return begin(s)


def test_mod_edit_place_remove_change_a_counter():
    s = board()
    s2, ev = replays(s, "place", side="red", type="gt", units="1", hex="0608")
    assert ev[0].text == "Red Gantua 4-2 (R50) placed in 0608 facing S"
    new = s2.counters["R50"]
    assert new.where == "map" and new.hex == "0608" and new.facing == 3 and new.moved
    assert s2.next_id["Red"] == 51
    s3, ev = replays(s2, "change", unit="R1", units="1", facing="NE", disrupted="yes")
    assert ev[0].text == "Red Gantua 8-4 (R1) in 0608: now Gantua 4-2 (R1), faces NE with its stack, disrupted"
    assert s3.counters["R1"].units == 1 and s3.counters["R50"].facing == 1 and s3.counters["R1"].disrupted
    s4, ev = replays(s3, "remove", unit="B1")
    assert ev[0].text == "Blue Low Render 6-3 (B1) removed from 0612; it is eliminated"
    assert s4.counters["B1"].where == "dead" and s4.lost == s.lost
    s5, ev = replays(s4, "place", side="Blue", type="PL", units="4", hex="0612")
    assert "Blue Plunge 8 (B50) placed in 0612" in ev[0].text
    assert RULES.legal_actions(s5, "Red")


def test_mod_edit_removing_a_carrier_leaves_its_chit_in_the_hex():
    s = board()
    s.counters["R2"].chit = "A"
    s.chits["A"].carriers, s.chits["A"].hex = ["R2"], ""
    s2, ev = replays(s, "remove", unit="R2")
    assert "Harvest Chit A it carried stays in 0610" in ev[0].text
    assert s2.chits["A"].hex == "0610" and not s2.chits["A"].carriers


def test_mod_edit_chit_value_and_position():
    s = board()
    s2, ev = replays(s, "chit", chit="a", value="9", hex="0510")
    assert ev[0].text == "Harvest Chit A in 0410: value 5 -> 9, moved to 0510"
    assert s2.chits["A"].value == 9 and s2.chits["A"].hex == "0510"


@pytest.mark.parametrize(
    ("op", "args", "words"),
    [
        ("place", {"side": "Green", "type": "GT", "hex": "0608"}, ["side must be Red or Blue"]),
        ("place", {"side": "Red", "type": "XX", "hex": "0608"}, ["no unit type 'XX'", "GT"]),
        ("place", {"side": "Red", "type": "PL", "units": "3", "hex": "0608"}, ["Plunge", "1, 2, 4"]),
        ("place", {"side": "Red", "type": "GT", "hex": "9999"}, ["9999", "hex of the Chitin map"]),
        ("place", {"side": "Red", "type": "GT", "units": "2", "hex": "0608"}, ["0608 would hold 4 units", "6.05"]),
        ("place", {"side": "Red", "type": "LR", "units": "1", "hex": "0608"}, ["two types of warrior", "6.051"]),
        ("place", {"side": "Red", "type": "B", "hex": "0612"}, ["0612 holds Blue units"]),
        ("place", {"side": "Red", "type": "GT", "units": "1", "hex": "0608", "facing": "N"}, ["faces S", "6.06"]),
        ("place", {"side": "Red", "type": "GT", "hex": "0606", "facing": "up"}, ["N, NE, SE, S, SW or NW"]),
        ("remove", {"unit": "R9"}, ["no counter 'R9'"]),
        ("change", {"unit": "R1"}, ["R1", "units:N", "facing:DIR"]),
        ("change", {"unit": "R1", "units": "3", "disrupted": "maybe"}, ["disrupted is yes or no"]),
        ("change", {"unit": "R1", "units": "2"}, ["nothing to change"]),
        ("chit", {"chit": "Q", "value": "3"}, ["no Harvest Chit 'Q'", "A, B"]),
        ("chit", {"chit": "A", "value": "99"}, ["Harvest Chit A", "0 to"]),
        ("chit", {"chit": "A", "hex": "0412"}, ["0412 already holds Harvest Chit B"]),
        ("fly", {"unit": "R1"}, ["no edit 'fly'", "op:place"]),
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


def test_mod_edit_is_refused_while_attacks_are_resolved_and_says_when():
    s = board()
    put(s, "B2", "LR1", nb("0608", "S"), face="N")
    s, _ = act(s, "Red", "done")
    assert s.step in ("attack", "combat")
    with pytest.raises(BadArguments) as err:
        edit(s, "remove", unit="B2")
    assert "next /move prompt" in str(err.value)


def test_mod_edit_a_random_playout_continues_after_edits():
    s = board()
    s, _ = edit(s, "place", side="Blue", type="GT", units="2", hex=nb("0608", "S"))
    s, _ = edit(s, "change", unit="R1", facing="S", disrupted="yes")
    s, _ = edit(s, "remove", unit="R2")
    play_on(RULES, s, seed=5, actions=400)


async def test_mod_edit_through_the_console_replays(core: Core, store):
    g, say = await open_table(core, "console:#ch", "game:chitin scenario:learning seed:2")
    gid = g.id
    r = await say("carol", f'/mod edit op:chit chit:A value:9 reason:"too early" game:{gid}', mod=True)
    assert "set up" in "\n".join(x.text for x in r)
    for _ in range(50):
        if g.state.step == "move":
            break
        seat = RULES.pending(g.state)[0].seat
        await say(g.user_of(seat), RULES.legal_actions(g.state, seat)[0].text() + f" game:{gid}")
    assert g.state.step == "move"
    letter = sorted(g.state.chits)[0]
    r = await say("carol", f'/mod edit op:chit chit:{letter} value:9 reason:"misprinted chit" game:{gid}', mod=True)
    text = "\n".join(x.text for x in r)
    assert f"Harvest Chit {letter} in" in text and "Reason: misprinted chit" in text
    assert g.state.chits[letter].value == 9
    row = await store.game(gid)
    replayed, _ = await full_replay(store, row)
    assert replayed.model_dump_json() == g.state.model_dump_json()
