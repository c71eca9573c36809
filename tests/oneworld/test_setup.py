"""Set-up (3.1-3.5): the roll, the ends, the gods, the Towers, thirteen Children each."""

from __future__ import annotations

import pytest

from engine.core.errors import BadArguments
from engine.core.hexes import distance
from engine.games.oneworld.board import board
from tests.oneworld.positions import act, legal, new_game, refusal


def test_3_1_borg_is_dark_and_chez_light():
    from tests.oneworld.positions import RULES

    v = RULES.view(new_game(), None)
    assert v.sides == {"BORG": "dark", "CHEZ": "light"}
    assert RULES.seats == ("BORG", "CHEZ")


def test_3_2_the_higher_roll_chooses_who_sets_up_first():
    s = new_game(rolls=(2, 5))
    assert s.setup_rolls == {"BORG": 2, "CHEZ": 5}
    assert legal(s, "BORG") == []
    assert {a.args["setup"] for a in legal(s, "CHEZ", "order")} == {"first", "second"}
    s, _ = act(s, "CHEZ", "order", setup="second")
    assert s.first == "BORG" and s.active == "BORG" and s.step == "end"


def test_3_2_a_tied_roll_is_rolled_again():
    s = new_game(rolls=(3, 3, 1, 6))
    assert s.setup_rolls == {"BORG": 1, "CHEZ": 6}
    assert s.active == "CHEZ"


def test_3_3_first_player_picks_an_end_and_places_gods_within_three_hexes():
    s, _ = act(new_game(), "BORG", "order", setup="first")
    s, _ = act(s, "BORG", "defend", end="south")
    assert s.ends == {"BORG": "south", "CHEZ": "north"}
    hexes = {a.args["hex"] for a in legal(s, "BORG", "gods")}
    assert "0721" in hexes and "0719" in hexes and "0718" not in hexes
    assert "0101" not in hexes
    msg = refusal(s, "BORG", "gods", hex="0715")
    assert "three" in msg and "rule 3.3" in msg


def test_3_3_thirteen_children_of_any_aspect_within_seven_hexes_of_the_god():
    s, _ = act(new_game(), "BORG", "order", setup="first")
    s, _ = act(s, "BORG", "defend", end="north")
    s, _ = act(s, "BORG", "gods", hex="0702")
    god = board().parse("0702")
    hexes = {a.args["hex"] for a in legal(s, "BORG", "place")}
    assert all(distance(board().parse(h), god) <= 7 for h in hexes)
    assert "0709" in hexes and "0710" not in hexes
    assert "0702" not in hexes  # 7.3
    for i, aspect in enumerate(["Stone", "Blade", "Fog"] * 4 + ["Fog"]):
        s, _ = act(s, "BORG", "place", hex=f"{i % 13 + 1:02d}05", aspect=aspect)
    assert [c.aspect for c in s.children if c.side == "BORG"].count("Fog") == 5
    assert legal(s, "BORG") == [legal(s, "BORG")[0]] and legal(s, "BORG")[0].verb == "done"
    assert "0709" not in {a.args.get("hex") for a in legal(s, "BORG")}
    msg = refusal(s, "BORG", "place", hex="0704", aspect="Stone")
    assert "/done" in msg


def test_3_3_done_is_refused_until_all_thirteen_are_placed():
    s, _ = act(new_game(), "BORG", "order", setup="first")
    s, _ = act(s, "BORG", "defend", end="north")
    s, _ = act(s, "BORG", "gods", hex="0702")
    s, _ = act(s, "BORG", "place", hex="0704", aspect="Fog")
    msg = refusal(s, "BORG", "done")
    assert "12 of your Children are still to be placed" in msg and "rule 3.3" in msg


def test_3_3_place_all_lays_a_legal_default_formation():
    s, _ = act(new_game(), "BORG", "order", setup="first")
    s, _ = act(s, "BORG", "defend", end="north")
    s, _ = act(s, "BORG", "gods", hex="0702")
    s, _ = act(s, "BORG", "place", hex="0704", aspect="Fog")
    s, _ = act(s, "BORG", "place_all")
    god = board().parse("0702")
    placed = [c for c in s.children if c.side == "BORG"]
    assert all(c.where == "map" for c in placed)
    assert all(distance(board().parse(c.hex), god) <= 7 and c.hex != "0702" for c in placed)
    counts = {h: sum(1 for c in placed if c.hex == h) for h in {c.hex for c in placed}}
    assert max(counts.values()) <= 4
    assert {c.aspect for c in placed} == {"Stone", "Blade", "Fog"}


def test_3_4_second_player_picks_a_tower_and_the_first_gets_the_other():
    s = _first_done()
    assert s.active == "CHEZ" and s.step == "tower"
    assert {a.args["hex"] for a in legal(s, "CHEZ", "tower")} == {"0111", "1311"}
    s, _ = act(s, "CHEZ", "tower", hex="1311")
    assert s.tower_hex == {"CHEZ": "1311", "BORG": "0111"}
    hexes = {a.args["hex"] for a in legal(s, "CHEZ", "gods")}
    assert "0720" in hexes and "0702" not in hexes  # the other end
    s, _ = act(s, "CHEZ", "gods", hex="0720")
    assert "0111" not in {a.args["hex"] for a in legal(s, "CHEZ", "place")}  # 5.5: no being enters a Tower


def test_3_5_the_player_who_set_up_last_moves_first():
    s = _first_done()
    s, _ = act(s, "CHEZ", "tower", hex="0111")
    s, _ = act(s, "CHEZ", "gods", hex="0720")
    s, _ = act(s, "CHEZ", "place_all")
    s, events = act(s, "CHEZ", "done")
    assert s.step == "move" and s.active == "CHEZ" and s.turn == 1
    assert any("rule 3.5" in e.text for e in events)


def test_3_0_unknown_scenario_and_options_are_refused_with_the_allowed_ones():
    with pytest.raises(BadArguments, match="standard"):
        from engine.core.dice import FixedDice
        from engine.core.protocol import GameConfig
        from tests.oneworld.positions import PLAYERS, RULES

        RULES.setup(GameConfig(game="oneworld", scenario="advanced", players=PLAYERS), FixedDice([1, 2]))
    with pytest.raises(BadArguments, match="frustration_clause"):
        new_game({"frustration": "on"})
    with pytest.raises(BadArguments, match="god_lives"):
        new_game({"god_lives": "5"})


def _first_done():
    s, _ = act(new_game(), "BORG", "order", setup="first")
    s, _ = act(s, "BORG", "defend", end="north")
    s, _ = act(s, "BORG", "gods", hex="0702")
    s, _ = act(s, "BORG", "place_all")
    s, _ = act(s, "BORG", "done")
    return s


def test_7_2_a_lower_case_aspect_is_matched_before_the_full_hex_is_named():
    s, _ = act(new_game(), "BORG", "order", setup="first")
    s, _ = act(s, "BORG", "defend", end="north")
    s, _ = act(s, "BORG", "gods", hex="0702")
    for aspect in ("Stone", "Blade", "Fog", "Fog"):
        s, _ = act(s, "BORG", "place", hex="0704", aspect=aspect)
    msg = refusal(s, "BORG", "place", hex="0704", aspect="fog")
    assert "0704 already holds 4 of your Children" in msg and "rule 7.2" in msg
    assert "not an aspect" not in msg


def test_3_2_the_set_up_roll_line_reads_well_either_way():
    s, ev = act(new_game(), "BORG", "order", setup="first")
    assert "BORG won the set-up roll 5 to 2 and sets up first (rule 3.2)" in [e.text for e in ev]
    s, ev = act(new_game(), "BORG", "order", setup="second")
    assert "BORG won the set-up roll 5 to 2 and has CHEZ set up first (rule 3.2)" in [e.text for e in ev]


def test_3_3_once_all_thirteen_are_placed_only_done_is_offered():
    from tests.oneworld.positions import RULES

    s, _ = act(new_game(), "BORG", "order", setup="first")
    s, _ = act(s, "BORG", "defend", end="north")
    s, _ = act(s, "BORG", "gods", hex="0702")
    assert RULES.pending(s)[0].verbs == ("place", "place_all", "done")
    s, _ = act(s, "BORG", "place", hex="0704", aspect="Fog")
    assert "12 of your Children are still" in refusal(s, "BORG", "done")
    s, _ = act(s, "BORG", "place_all")
    assert RULES.pending(s)[0].verbs == ("done",)


def test_12_0_a_bad_god_lives_value_is_named_once():
    with pytest.raises(BadArguments) as err:
        new_game({"god_lives": "5"})
    text = str(err.value)
    assert text.startswith("option god_lives does not take '5'") and text.count("2/3") == 1
