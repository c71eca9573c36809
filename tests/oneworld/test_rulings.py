"""RULINGS OneWorld 8 and 9: the stalemate draw, moderator edits onto a Tower, options that fix the lives."""

from __future__ import annotations

import pytest

from engine.core.dice import FixedDice
from engine.core.errors import BadArguments
from engine.core.protocol import MODERATOR, Action
from tests.oneworld.positions import RULES, act, new_game, position


def edit(state, op, **args):
    return RULES.apply(state, MODERATOR, Action(verb=op, args=args), FixedDice([]))


def test_oneworld_ruling_9_a_moderator_may_put_a_child_on_its_own_tower_hex():
    s = position("B1 Stone 0607", "C4 Stone 0507")
    s2, ev = edit(s, "place", child="B2", aspect="Fog", hex="0111")  # BORG's Tower, as a reinforcement
    assert s2.child("B2").hex == "0111" and s2.child("B2").where == "map"
    assert ev[0].text == "BORG Fog B2 placed in 0111 from under its Tower"
    s3, _ = edit(s, "change", child="C4", hex="1311")  # CHEZ's own Tower
    assert s3.child("C4").hex == "1311"
    with pytest.raises(BadArguments, match=r"1311 is CHEZ's Tower of Balance: no BORG being may enter it "
                                           r"\(rule 5\.5\); a Child goes only on its own Tower"):
        edit(s, "change", child="B1", hex="1311")


def test_oneworld_ruling_9_non_aligned_towers_take_either_sides_children_by_edit():
    s = position("B1 Stone 0607", options={"non_aligned_towers": True})
    s2, _ = edit(s, "change", child="B1", hex="1311")  # 12.0 Non-aligned Towers: either Tower reinforces
    assert s2.child("B1").hex == "1311"


@pytest.mark.parametrize(
    ("options", "wins"),
    [
        ({"god_lives": "2", "tower_elimination": "on"}, "tower_elimination wins: one life for each god"),
        ({"god_lives": "2/3", "god_powers": "scenario"}, "god_powers:scenario wins: BORG 1 life, CHEZ 3"),
    ],
)
def test_12_0_oneworld_ruling_9_god_lives_with_an_option_that_fixes_the_lives_is_refused(options, wins):
    with pytest.raises(BadArguments, match=rf"god_lives cannot be combined with .*: {wins}.*RULINGS OneWorld 9"):
        new_game(options)
    assert new_game({"tower_elimination": "on"}).lives == {"BORG": 1, "CHEZ": 1}  # alone, each is fine
    assert new_game({"god_lives": "2"}).lives == {"BORG": 2, "CHEZ": 2}


def test_oneworld_ruling_8_no_child_left_on_either_side_is_a_draw_citing_the_ruling():
    s = position(rest="lost")
    s, events = act(s, "BORG", "end")
    assert s.step == "over" and RULES.outcome(s).winner is None
    assert events[-1].text == "The game is drawn: neither god has a Child left to fight (RULINGS OneWorld 8)"
    assert "11.2" not in events[-1].text
