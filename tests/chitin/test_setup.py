"""Setting up: scenarios (3.03), secret force selection, first move and ends (3.02)."""

from __future__ import annotations

import pytest

from engine.core.dice import FixedDice
from engine.core.errors import BadArguments, IllegalAction
from engine.core.protocol import Action, GameConfig, Player
from engine.games.chitin.state import State
from tests.chitin.positions import RULES

PLAYERS = (Player(seat="Red", name="alice"), Player(seat="Blue", name="bob"))


def new(scenario: str, dice: list[int] | None = None, **options: object) -> State:
    state = RULES.setup(GameConfig(game="chitin", scenario=scenario, options=options, players=PLAYERS), FixedDice(dice or []))
    assert isinstance(state, State)
    return state


def do(state: State, seat: str, verb: str, dice: list[int] | None = None, **args: str):  # type: ignore[no-untyped-def]
    return RULES.apply(state, seat, Action(verb=verb, args=args), FixedDice(dice or []))


def army(state: State, seat: str) -> list[str]:
    return sorted(f"{c.type}{c.units}" for c in state.counters.values() if c.side == seat)


def test_3_031_learning_scenario_forces_and_chits() -> None:
    s = new("learning", [5, 2])
    assert army(s, "Red") == ["GT3", "LR3", "PX3", "TR3"] + ["W1"] * 6 == army(s, "Blue")
    assert sorted(s.chits) == ["A", "C", "F"] and not s.advanced
    assert s.step == "order" and s.high == "Red"


def test_3_036_armageddon_takes_every_counter_of_the_sheet() -> None:
    s = new("armageddon", [1, 6])
    assert len([c for c in s.counters.values() if c.side == "Blue"]) == 56
    assert sorted(s.chits) == list("ABCDEFG") and s.advanced


@pytest.mark.parametrize(
    ("scenario", "rule", "points", "plunge", "advanced"),
    [("basic", "3.032", 48, 0, False), ("small", "3.033", 48, 8, True),
     ("intermediate", "3.034", 60, 12, True), ("advanced", "3.035", 78, 16, True)],
)
def test_3_03_selection_scenarios(scenario: str, rule: str, points: int, plunge: int, advanced: bool) -> None:
    s = new(scenario)
    prompts = RULES.pending(s)
    assert {p.seat for p in prompts} == {"Red", "Blue"}
    assert all(p.secret and p.group == "forces" and p.rule == rule for p in prompts)
    assert f"exactly {points} combat strength points" in prompts[0].text and f"{points} points left" in prompts[0].text
    assert f"0 of {points} points used" in RULES.view(s, "Red").private[1]
    assert s.advanced is advanced
    kinds = {a.args["kind"] for a in RULES.legal_actions(s, "Red") if a.verb == "pick"}
    assert ("PL4" in kinds) is (plunge > 0) and ("B" in kinds) is advanced


def test_3_032_basic_scenario_refuses_an_army_over_48_points() -> None:
    s = new("basic")
    for _ in range(4):
        s, _ = do(s, "Red", "pick", kind="GT3")
    assert "48 of 48 points used" in RULES.view(s, "Red").private[1]
    assert not RULES.view(s, "Blue").private[1].startswith("48")
    with pytest.raises(IllegalAction) as err:
        do(s, "Red", "pick", kind="TR1")
    assert "50 points" in str(err.value) and "48" in str(err.value) and "rule 3.032" in str(err.value)


def test_3_032_a_pick_by_the_types_name_is_told_its_sizes() -> None:
    """``/pick kind:gantua`` said "gantua is not a counter of this scenario": Gantua counters come in
    sizes, each its own points, so the refusal names them."""
    s = new("basic")
    with pytest.raises(IllegalAction) as err:
        do(s, "Red", "pick", kind="gantua")
    assert "Gantua comes in 3 sizes: GT1 (4 points), GT2 (8 points), GT3 (12 points)" in str(err.value), err.value
    assert "kind:GT1" in str(err.value) and "rule 3.032" in str(err.value)
    with pytest.raises(IllegalAction, match="is not a counter of this scenario"):
        do(s, "Red", "pick", kind="dragon")


def test_3_033_a_pick_by_the_name_of_a_type_of_one_size_is_told_how_to_write_it() -> None:
    """``/pick kind:basic`` in an advanced scenario said "basic is not a counter of this scenario;
    choose from ..., B": the Basic is a counter of it, in one size, written B."""
    s = new("small")
    for name in ("basic", " Basic "):
        with pytest.raises(IllegalAction) as err:
            do(s, "Red", "pick", kind=name)
        text = str(err.value)
        assert "Basic comes in one size, B (1 point): " in text and "write it kind:B" in text and "rule 3.033" in text, text
        assert "not a counter" not in text
    with pytest.raises(IllegalAction, match="basic is not a counter of this scenario"):
        do(new("basic"), "Red", "pick", kind="basic")  # no Basics outside the advanced scenarios


def test_3_033_small_scenario_caps_plunge_at_8_points() -> None:
    s = new("small")
    s, _ = do(s, "Red", "pick", kind="PL4")
    with pytest.raises(IllegalAction) as err:
        do(s, "Red", "pick", kind="PL1")
    assert "10 points of Plunge" in str(err.value) and "rule 3.033" in str(err.value)


def test_3_034_and_3_035_plunge_limits_12_and_16() -> None:
    s = new("intermediate")
    s, _ = do(s, "Blue", "pick", kind="PL4")
    s, _ = do(s, "Blue", "pick", kind="PL2")
    assert not [a for a in RULES.legal_actions(s, "Blue") if a.args.get("kind") == "PL1" and a.verb == "pick"]
    s = new("advanced")
    for _ in range(2):
        s, _ = do(s, "Blue", "pick", kind="PL4")
    assert "16 of 16 in Plunge units" in RULES.view(s, "Blue").private[1]


def test_3_032_force_selection_is_secret_until_both_are_in() -> None:
    s = new("basic")
    s, ev = do(s, "Red", "pick", kind="GT3")
    assert all(e.to == ("Red",) for e in ev)
    assert all("GT3" not in p.text and "12" not in p.text for p in RULES.pending(s))
    s, ev = do(s, "Red", "pick", kind="PX2")
    for kind in ("GT3", "GT3", "PX2"):  # exactly 48 points (RULINGS Chitin 11)
        s, ev = do(s, "Red", "pick", kind=kind)
    s, ev = do(s, "Red", "ready")
    public = [e for e in ev if e.public]
    assert [e.kind for e in public] == ["committed"] and "Gantua" not in public[0].text
    for viewer in ("Blue", None):
        v = RULES.view(s, viewer)
        text = v.model_dump_json()
        assert "GT3" not in text and "Gantua" not in text and "PX2" not in text
    assert any("Gantua" in line for line in RULES.view(s, "Red").private)
    with pytest.raises(IllegalAction) as err:
        do(s, "Blue", "pick", kind="GT9")
    assert "GT3" not in str(err.value).split("choose from")[0]
    for kind in ("TR3", "GT3", "GT3", "GT3", "TR3"):
        s, _ = do(s, "Blue", "pick", kind=kind)
    s, ev = do(s, "Blue", "ready", dice=[3, 4])
    reveal = [e for e in ev if e.kind == "reveal"]
    assert len(reveal) == 1 and reveal[0].public
    assert "Gantua GT3" in reveal[0].text and "Termagant TR3" in reveal[0].text
    assert army(s, "Red") == ["GT3"] * 3 + ["PX2"] * 2 + ["W1"] * 6
    assert s.high == "Blue" and s.step == "order"


def test_3_02_high_roller_takes_first_move_low_roller_an_end() -> None:
    s = new("learning", [2, 2, 6, 1])  # a tie rolls again
    assert s.rolls == {"Red": 6, "Blue": 1}
    assert [p.seat for p in RULES.pending(s)] == ["Red"]
    s, _ = do(s, "Red", "choose", pick="first")
    assert [p.seat for p in RULES.pending(s)] == ["Blue"]
    s, ev = do(s, "Blue", "choose", pick="north")
    assert s.ends == {"Red": "south", "Blue": "north"} and s.active == "Red" and s.step == "move"
    assert any(e.kind == "phase" for e in ev)


def test_3_02_high_roller_choosing_an_end_lets_the_low_roller_move_first() -> None:
    s = new("learning", [1, 4])
    s, _ = do(s, "Blue", "choose", pick="south")
    assert s.ends == {"Red": "north", "Blue": "south"} and s.active == "Red"


def test_setup_refuses_unknown_scenarios_and_options() -> None:
    with pytest.raises(BadArguments, match="learning"):
        new("nonsense")
    with pytest.raises(BadArguments, match="turn_limit"):
        new("learning", [1, 2], speed=3)


@pytest.mark.parametrize("value", ["on", "off", "yes", "no", "true", "false", "1", "0", "ON", True, False])
def test_4_05_first_off_takes_on_or_off_when_a_game_is_created(value: object) -> None:
    config = GameConfig(game="chitin", scenario="armageddon", options={"first_off": value}, players=PLAYERS)
    RULES.check_new(config)
    assert RULES.setup(config, FixedDice([1, 2])).first_off is (str(value).lower() in ("on", "yes", "true", "1"))


def test_4_05_first_off_with_another_value_is_refused_at_creation_but_a_recorded_game_still_loads() -> None:
    config = GameConfig(game="chitin", scenario="armageddon", options={"first_off": "of"}, players=PLAYERS)
    with pytest.raises(BadArguments, match=r"first_off .*4\.05.* on or off, not 'of'"):
        RULES.check_new(config)
    # a game created before the check was played with the 4.04 endgame, and is rebuilt so
    assert RULES.setup(config, FixedDice([1, 2])).first_off is False


@pytest.mark.parametrize("scenario", ["learning", "basic"])
def test_4_05_the_first_off_endgame_is_refused_outside_the_advanced_scenarios_whose_4_04_it_replaces(
        scenario: str) -> None:
    """4.05 is an alternate to the advanced endgame of 4.04: in Learning and Basic it was accepted and
    changed how the game ended (a side off the map gave the other every chit left)."""
    on = GameConfig(game="chitin", scenario=scenario, options={"first_off": "on"}, players=PLAYERS)
    with pytest.raises(BadArguments, match=r"4\.05.*small, intermediate, advanced, armageddon"):
        RULES.check_new(on)
    RULES.check_new(GameConfig(game="chitin", scenario=scenario, options={"first_off": "off"}, players=PLAYERS))
    RULES.check_new(GameConfig(game="chitin", scenario="small", options={"first_off": "on"}, players=PLAYERS))


def test_a_turn_limit_past_999_game_turns_is_refused_when_a_game_is_created() -> None:
    def config(limit: object) -> GameConfig:
        return GameConfig(game="chitin", scenario="basic", options={"turn_limit": limit}, players=PLAYERS)

    RULES.check_new(config("999"))
    with pytest.raises(BadArguments, match="at most 999"):
        RULES.check_new(config("99999999999999999999"))
