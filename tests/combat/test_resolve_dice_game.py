"""The "dice" mini-game: the combat sequence as prompts, its options read from text, playouts."""

from __future__ import annotations

import pytest

from engine.core import registry
from engine.core.dice import FixedDice, RecordedDice, SeededDice
from engine.core.errors import BadArguments, IllegalAction
from engine.core.protocol import Action, GameConfig, Player
from engine.games.resolve import AssaultGame, StepDiceGame
from tests.combat.helpers import faces
from tests.support.playout import playout

GAME = StepDiceGame()
PLAYERS = (Player(seat="attacker", name="alice"), Player(seat="defender", name="bob"))


def start(dice: list[int], **options: str):
    return GAME.setup(GameConfig(game="dice", options=options, players=PLAYERS), FixedDice(dice))


def act(state, seat: str, verb: str, dice: list[int] | None = None, **args: str):
    return GAME.apply(state, seat, Action(verb=verb, args=args), FixedDice(dice or []))


def test_both_resolvers_are_registered_under_their_names(monkeypatch) -> None:
    # Only this package's registrations are under test, not every other game's import.
    monkeypatch.setattr(registry, "_load_builtin", lambda: None)
    assert isinstance(registry.get("dice"), StepDiceGame)
    assert isinstance(registry.get("assault"), AssaultGame)
    assert GAME.seats == ("attacker", "defender")


def test_extra_defense_rolf_and_nigel_played_through_the_prompts() -> None:
    state = start(faces(3, 12), attack="nigel=12", defence="rolf=4x")
    assert [p.seat for p in GAME.pending(state)] == ["defender"]
    assert "the attack scored 3 hits" in GAME.pending(state)[0].text
    assert {str(a.args["choice"]) for a in GAME.legal_actions(state, "defender")} == {
        "accept_and_counter",
        "retreat",
        "retreat_and_counter",
    }
    state, events = act(state, "defender", "defend", faces(1, 4), choice="accept_and_counter")
    assert any("counter-attacks with 4: 4 dice: 6 1 1 1; 1 hit" in e.text for e in events)
    state, events = act(state, "attacker", "respond", choice="accept")
    assert GAME.pending(state) == []
    out = GAME.outcome(state)
    assert out is not None and out.winner is None and out.score == {"attacker": 1, "defender": 1}
    assert events[-1].kind == "end"
    assert "the defender lost 1 strength, 3 left" in out.reason


def test_combat_sequence_view_has_no_map_and_tells_the_story() -> None:
    state = start(faces(2, 6), attack="6", defence="3,3")
    view = GAME.view(state, None)
    assert view.map == ""
    assert view.caption[0] == "Attacker: A1 6. Defender: D1 3, D2 3."
    assert "The attacker attacks with 6: 6 dice: 6 6 1 1 1 1; 2 hits." in view.caption
    assert view.caption[-1].startswith("Waiting on the defender")


def test_taking_hits_2_the_owner_places_hits_one_by_one() -> None:
    state = start(faces(2, 6), attack="6", defence="3,3")
    state, _ = act(state, "defender", "defend", faces(0, 6), choice="accept_and_counter")
    state, _ = act(state, "attacker", "respond", choice="accept")
    assert [p.seat for p in GAME.pending(state)] == ["defender"]
    assert GAME.legal_actions(state, "defender") == [
        Action(verb="hit", args={"unit": "D1"}),
        Action(verb="hit", args={"unit": "D2"}),
    ]
    state, _ = act(state, "defender", "hit", unit="D1")
    state, events = act(state, "defender", "hit", unit="D2")
    assert "steps lost: D1 1, D2 1" in " ".join(e.text for e in events)


def test_taking_hits_1_hit_allocation_attacker_gives_the_attacker_the_hit_prompts() -> None:
    state = start(faces(1, 6), attack="6", defence="3,3", hit_allocation="attacker")
    state, _ = act(state, "defender", "defend", faces(0, 6), choice="accept_and_counter")
    state, _ = act(state, "attacker", "respond", choice="accept")
    assert [p.seat for p in GAME.pending(state)] == ["attacker"]


def test_taking_hits_armored_pair_refusal_names_the_unit_and_rule() -> None:
    state = start(faces(3, 8), attack="8", defence="t1=3x,t2=3x,inf=2")
    state, _ = act(state, "defender", "defend", faces(0, 8), choice="accept_and_counter")
    state, _ = act(state, "attacker", "respond", choice="accept")
    state, _ = act(state, "defender", "hit", unit="t1")
    with pytest.raises(IllegalAction, match=r"must go to t1 \(extra defense\).*\(rule 'Taking hits'\)"):
        act(state, "defender", "hit", unit="t2")


def test_retreating_a_side_without_a_retreat_is_told_why() -> None:
    state = start(faces(1, 4), attack="4", defence="4", defence_retreat="no")
    assert [a.args["choice"] for a in GAME.legal_actions(state, "defender")] == ["accept_and_counter"]
    with pytest.raises(IllegalAction, match="defence_retreat:no"):
        act(state, "defender", "defend", choice="retreat")


def test_advancing_the_attacker_is_asked_after_the_defender_retreats() -> None:
    state = start(faces(0, 4), attack="4", defence="4")
    state, _ = act(state, "defender", "defend", choice="retreat")
    assert [(p.seat, p.verbs) for p in GAME.pending(state)] == [("attacker", ("advance",))]
    state, events = act(state, "attacker", "advance", choice="advance")
    assert "The attacker advances into the vacated hex." in [e.text for e in events]
    assert "the attacker advanced" in GAME.outcome(state).reason


def test_extra_attack_strength_options_redoubt_and_absorbs() -> None:
    state = start(faces(0, 8), attack="8", defence="6", defence_redoubt="5", redoubt_absorbs="yes")
    state, events = act(state, "defender", "defend", faces(0, 11), choice="accept_and_counter")
    assert any("counter-attacks with 11" in e.text for e in events)


def test_rerolls_advantages_options() -> None:
    state = start([1, 1] + [6, 1], attack="2", defence="2", attack_advantages="1")
    assert state.exchange.attack.hits == 1


def test_options_reduce_per_units_and_stacking_reach_the_resolver() -> None:
    state = start(faces(4, 8), attack="8", defence="3,3,3,3", reduce_per="units")
    assert "retreat taking 2" in GAME.pending(state)[0].text
    with pytest.raises(BadArguments, match="over the stacking limit of 3 units"):
        start([], attack="1,1,1,1", defence="4", stacking="units", stacking_limit="3")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"attack": "8"}, "give the defender's strength: defence:8"),
        ({"attack": "8", "defence": "four"}, "'four' in defence is not a unit"),
        ({"attack": "0", "defence": "4"}, "'0' in attack is not a unit"),
        ({"attack": "8", "defence": "4", "colour": "red"}, "there is no option 'colour'"),
        (
            {"attack": "8", "defence": "4", "hit_allocation": "dice"},
            "hit_allocation must be one of: attacker, defender, stacking_order",
        ),
        (
            {"attack": "8", "defence": "4", "attack_advantages": "9"},
            "attack_advantages must be a whole number from 0 to 5",
        ),
        ({"attack": "8", "defence": "4", "defence_cover": "maybe"}, "defence_cover must be yes or no"),
        ({"attack": "8", "defence": "4", "stacking": "units"}, "stacking:units needs stacking_limit"),
        (
            {"attack": "a=4,a=4,a1=2", "defence": "4"},
            "the names in attack clash once repeated names are numbered",
        ),
        ({"attack": "x=4", "defence": "x=4"}, "need different names"),
        ({"attack": "60,60", "defence": "4"}, "99 is the most"),
        (
            {"attack": "8", "defence": "4", "advance": "always"},
            "advance must be one of: on_retreat, on_retreat_or_elimination",
        ),
    ],
)
def test_options_bad_values_name_the_option_and_what_it_takes(options: dict[str, str], message: str) -> None:
    with pytest.raises(BadArguments, match=message):
        GAME.setup(GameConfig(game="dice", options=options, players=PLAYERS), FixedDice([1] * 200))


def test_options_a_name_written_twice_is_numbered() -> None:
    state = start(faces(0, 8), attack="inf=4,inf=4", defence="6")
    assert [u.id for u in state.exchange.attacker.units] == ["inf1", "inf2"]


def test_every_option_has_help() -> None:
    assert set(GAME.options_help) >= {
        "attack",
        "defence",
        "hit_allocation",
        "reduce_per",
        "redoubt_absorbs",
        "advance",
    }


def test_replay_with_recorded_dice_gives_the_same_state() -> None:
    config = GameConfig(
        game="dice", options={"attack": "5,4", "defence": "3x,4s", "attack_advantages": "1"}, players=PLAYERS
    )
    live = SeededDice("replay", 0)
    state = GAME.setup(config, live)
    again = GAME.setup(config, RecordedDice(live.rolls))
    n = 1
    while GAME.pending(state):
        seat = GAME.pending(state)[0].seat
        action = GAME.legal_actions(state, seat)[-1]
        dice = SeededDice("replay", n)
        state, _ = GAME.apply(state, seat, action, dice)
        again, _ = GAME.apply(again, seat, action, RecordedDice(dice.rolls))
        n += 1
    assert state.model_dump_json() == again.model_dump_json()
    assert GAME.state_model().model_validate_json(state.model_dump_json()) == state


OPTION_SETS = [
    {"attack": "8", "defence": "6"},
    {"attack": "4,4,2s", "defence": "3x,3,2", "attack_advantages": "2"},
    {"attack": "6", "defence": "2,2,2", "hit_allocation": "attacker", "defence_cover": "yes"},
    {
        "attack": "12",
        "defence": "t=4x,6s",
        "hit_allocation": "stacking_order",
        "advance": "on_retreat_or_elimination",
    },
    {
        "attack": "5,5",
        "defence": "3,3",
        "defence_redoubt": "4",
        "redoubt_absorbs": "yes",
        "reduce_per": "units",
    },
    {
        "attack": "3",
        "defence": "3",
        "attack_retreat": "no",
        "defence_retreat": "no",
        "stacking": "strength",
        "stacking_limit": "12",
    },
]


@pytest.mark.parametrize("options", OPTION_SETS)
def test_playout_dice_game_ends_without_dead_ends(options: dict[str, str]) -> None:
    for seed in range(25):
        result = playout(GAME, "standard", options, seed=seed, max_actions=200)
        assert not result.capped
        assert result.outcome is not None


def test_playout_dice_game_reaches_every_kind_of_decision() -> None:
    verbs: dict[str, int] = {}
    for options in OPTION_SETS:
        for seed in range(10):
            for verb, n in playout(GAME, "standard", options, seed=seed, max_actions=200).verbs.items():
                verbs[verb] = verbs.get(verb, 0) + n
    assert set(verbs) == {"defend", "respond", "hit", "advance"}


def test_combat_sequence_prompts_name_the_section_plainly_after_rule() -> None:
    state = start(faces(3, 12), attack="nigel=12", defence="rolf=4x")
    rule = GAME.pending(state)[0].rule
    assert f"(rule {rule})" == "(rule 'Combat sequence', step 2)"
    assert all(not v.rule[-1].isdigit() or "step" in v.rule for v in GAME.verbs())


def test_taking_hits_a_unit_named_in_other_letters_is_judged_as_that_unit() -> None:
    state = start(faces(3, 8), attack="8", defence="t1=3x,t2=3x,inf=2")
    state, _ = act(state, "defender", "defend", faces(0, 8), choice="accept_and_counter")
    state, _ = act(state, "attacker", "respond", choice="accept")
    state, _ = act(state, "defender", "hit", unit="t1")
    with pytest.raises(IllegalAction, match=r"must go to t1 \(extra defense\)"):
        act(state, "defender", "hit", unit="T2")
    with pytest.raises(IllegalAction, match=r"Write it as /hit unit:t1"):
        act(state, "defender", "hit", unit="T1")
