"""The "assault" mini-game: figures read from text, one order, every pairing reported."""

from __future__ import annotations

import pytest

from engine.core.dice import FixedDice
from engine.core.errors import BadArguments
from engine.core.protocol import Action, GameConfig, Player
from engine.games.resolve import AssaultGame
from tests.support.playout import playout

GAME = AssaultGame()
PLAYERS = (Player(seat="attacker", name="alice"), Player(seat="defender", name="bob"))
MARINE_EXAMPLE = {"attackers": "Bug1/teeth=4,Bug2/teeth=4", "defenders": "Marine/pulse_rifle=3/veterans"}


def start(**options: str):
    return GAME.setup(GameConfig(game="assault", options=options, players=PLAYERS), FixedDice([]))


def assault(state, dice: list[int]):
    return GAME.apply(state, "attacker", Action(verb="assault"), FixedDice(dice))


def test_close_assault_marine_example_played_as_a_game() -> None:
    state = start(**MARINE_EXAMPLE)
    assert [(p.seat, p.verbs) for p in GAME.pending(state)] == [("attacker", ("assault",))]
    assert GAME.legal_actions(state, "defender") == []
    state, events = assault(state, [2, 4, 5])
    lines = [e.text for e in events]
    assert "Marine rolls 5 + 3 (pulse rifle) + 1 (veterans) - 1 (outnumbered) = 8." in lines
    assert "Bug1 rolls 2 + 4 (teeth) = 6." in lines
    assert "1. Bug1 6 against Marine 8: the attacker is killed." in lines
    assert "2. Bug2 8 against Marine 8: the attacker is forced back out of close combat range." in lines
    out = GAME.outcome(state)
    assert out is not None and out.winner == "defender" and out.score == {"attacker": 0, "defender": 2}
    assert events[-1].kind == "end" and GAME.pending(state) == []


def test_close_assault_marine_example_a_bug_rolling_five_kills_the_marine() -> None:
    state, _ = assault(start(**MARINE_EXAMPLE), [5, 4, 5])
    out = GAME.outcome(state)
    assert "Marine killed or captured" in out.reason
    assert out.winner == "attacker"  # every defender is out, Bug1 fights on
    state, _ = assault(start(**MARINE_EXAMPLE), [4, 4, 1])
    out = GAME.outcome(state)  # Marine 1 + 3 + 1 - 1 = 4 against 8: twice, so it breaks
    assert out.winner == "attacker" and "Marine broke" in out.reason
    state, _ = assault(start(attackers="A,B", defenders="D1,D2"), [6, 1, 1, 1])  # D1 breaks, B is forced back
    out = GAME.outcome(state)
    assert out.winner is None and "activation test" in out.reason


def test_close_assault_view_has_no_map_and_lists_the_figures_then_the_rolls() -> None:
    state = start(**MARINE_EXAMPLE)
    view = GAME.view(state, "defender")
    assert view.map == "" and view.active == "attacker"
    assert view.caption[0] == "Attackers: Bug1 (teeth +4), Bug2 (teeth +4)."
    assert view.caption[1] == "Defenders: Marine (pulse rifle +3, veterans +1)."
    state, _ = assault(state, [2, 4, 6])
    caption = GAME.view(state, None).caption
    assert "Marine rolls 6 + 3 (pulse rifle) + 1 (veterans) - 1 (outnumbered) = 9." in caption
    assert caption[-1].startswith("After the close assault: Bug1 killed; Bug2 killed")


def test_close_assault_options_pairs_trapped_and_table_5_words() -> None:
    state = start(
        attackers="A/melee/warriors,B/improvised/green",
        defenders="X/none/prepared_position/wounded,Y/2",
        pairs="A-X,B-Y",
        trapped="X",
    )
    state, events = assault(state, [5, 1, 1, 3])
    lines = [e.text for e in events]
    assert "A rolls 5 + 3 (melee weapon) + 2 (warriors) = 10." in lines
    assert "X rolls 1 + 2 (prepared position) - 2 (wounded) = 1." in lines
    assert state.result.fates["X"] == "killed_or_captured"  # broke but trapped
    assert state.result.fates["B"] == "fell_back"  # 1 + 1 - 1 = 1 against 3 + 2 = 5


def test_close_assault_opportunity_fire_option_removes_figures_before_contact() -> None:
    state = start(attackers="A/3,B/3", defenders="D/3", opportunity_fire="B")
    state, events = assault(state, [1, 1])
    assert events[0].text == "Opportunity fire before contact downs B."
    assert state.result.fates["B"] == "shot_down"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"attackers": "A"}, "give the defenders"),
        ({"attackers": "A", "defenders": "D", "weather": "rain"}, "there is no option 'weather'"),
        ({"attackers": "A/laser", "defenders": "D"}, "'laser' for A in attackers is neither a weapon"),
        ({"attackers": "A/3/4", "defenders": "D"}, r"A in attackers has two weapons \('3' and '4'\)"),
        ({"attackers": "A", "defenders": "Marine/3/heroes"}, "'heroes' for Marine in defenders is not a known modifier"),
        ({"attackers": "1A", "defenders": "D"}, "'1A' in attackers is not a usable name"),
        ({"attackers": "A", "defenders": "A"}, "used more than once: A"),
        ({"attackers": "A/prepared_position", "defenders": "D"}, "only a defender"),
        ({"attackers": "A,B", "defenders": "D", "pairs": "A-D"}, "unpaired: B"),
        ({"attackers": "A", "defenders": "D", "pairs": "A:D"}, "should be attacker-defender"),
        (
            {"attackers": "A", "defenders": "D", "opportunity_fire": "D"},
            "opportunity fire hits only the attacking",
        ),
        (
            {"attackers": "A", "defenders": "D", "opportunity_fire": "A", "defender_fired": "yes"},
            "no opportunity fire",
        ),
        ({"attackers": "A", "defenders": "D", "trapped": "A"}, "A is not one of the defenders"),
        (
            {"attackers": "A", "defenders": "D", "defender_fired": "perhaps"},
            "defender_fired must be yes or no",
        ),
    ],
)
def test_close_assault_bad_options_name_the_option_and_what_it_takes(
    options: dict[str, str], message: str
) -> None:
    with pytest.raises(BadArguments, match=message):
        start(**options)


def test_close_assault_a_figure_written_twice_is_numbered() -> None:
    state = start(attackers="marine/3", defenders="bug/aliens,bug/aliens", trapped="bug2")
    assert [(f.id, f.can_move_away) for f in state.defenders] == [("bug1", True), ("bug2", False)]


def test_close_assault_every_option_has_help() -> None:
    assert set(GAME.options_help) == {
        "attackers",
        "defenders",
        "pairs",
        "opportunity_fire",
        "defender_fired",
        "trapped",
    }


@pytest.mark.parametrize(
    "options",
    [
        MARINE_EXAMPLE,
        {"attackers": "A/melee,B/improvised,C/2/veterans", "defenders": "X/3/prepared_position,Y/1"},
        {"attackers": "M/monsters", "defenders": "P/untrained,Q/green,R/surprised", "trapped": "Q"},
        {"attackers": "A,B", "defenders": "D", "opportunity_fire": "A,B"},
    ],
)
def test_playout_assault_game_ends_in_one_order(options: dict[str, str]) -> None:
    for seed in range(20):
        result = playout(GAME, "standard", options, seed=seed, max_actions=5)
        assert result.outcome is not None and result.actions == 1


def test_close_assault_an_unknown_modifier_after_a_weapon_lists_the_known_modifiers() -> None:
    from engine.games.resolve.assaultgame import MODIFIERS

    with pytest.raises(BadArguments) as err:
        start(attackers="A/3", defenders="Marine/3/heroes")
    text = str(err.value)
    assert "two weapons" not in text and "'heroes'" in text
    assert all(m in text for m in MODIFIERS)
