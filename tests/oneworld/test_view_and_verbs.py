"""The board a viewer sees (counters, Towers, the dead, this turn's changes) and the commands' help."""

from __future__ import annotations

from engine.games.oneworld.verbs import SPECS
from tests.oneworld.positions import RULES, act, new_game, position

GODS = {"BORG": "0702", "CHEZ": "0720"}


def test_2_2_view_shows_children_with_their_ids_gods_and_towers_in_side_colours():
    s = position("B1 Stone 0606", "C1 Fog 0616", gods=GODS)
    v = RULES.view(s, None)
    assert v.map == "oneworld" and v.game == "oneworld"
    counters = {c.id: c for c in v.counters}
    assert counters["B1"].label == "Stone" and counters["B1"].side == "BORG" and counters["B1"].hex == "0606"
    assert counters["B1"].sub == "B1" and counters["C1"].sub == "C1"  # the id every order names
    assert counters["C1"].label == "Fog" and counters["C1"].side == "CHEZ"
    assert counters["BORG god"].hex == "0702" and counters["BORG god"].sub == "god, 3 lives"
    assert {(m.hex, m.text) for m in v.markers} == {("0111", "BORG Tower"), ("1311", "CHEZ Tower")}
    assert v.sides == {"BORG": "dark", "CHEZ": "light"}


def test_8_4_view_boxes_hold_the_dead_under_each_tower_and_the_lost():
    s = position("B1 Blade 0103", gods=GODS)
    s, _ = act(s, "BORG", "move", child="B1", dir="SW", confirm="lost")
    v = RULES.view(s, "BORG")
    assert "B1" in v.boxes["BORG lost in Chaos"]
    assert len(v.boxes["BORG Tower"]) == 12 and len(v.boxes["CHEZ Tower"]) == 13


def test_4_2_4_3_view_highlights_the_turns_moves_combats_and_losses_until_the_next_players_first_order():
    s = position(
        "B1 Stone 0606", "C1 Fog 0605", "B2 Blade 0406", gods={"BORG": "1302", "CHEZ": "1320"}, rest="lost"
    )
    s, _ = act(s, "BORG", "move", child="B1", to="0605")
    s, _ = act(s, "BORG", "move", child="B2", dir="SE", dice=[1])
    v = RULES.view(s, None)
    kinds = {(h.hex, h.kind) for h in v.highlights}
    assert {("0606", "moved"), ("0605", "moved"), ("0808", "loss")} <= kinds
    assert [(a.src, a.dst) for a in v.arrows] == [("0606", "0605")]
    s, _ = act(s, "BORG", "end", dice=[3])  # B2 comes back from under the Tower as a Blade
    assert ("0605", "combat") in {(h.hex, h.kind) for h in RULES.view(s, None).highlights}
    s, _ = act(s, "BORG", "aspects", stone=1, blade=0, fog=0)
    s, _ = act(s, "CHEZ", "aspects", stone=0, blade=0, fog=1)
    assert s.active == "CHEZ" and s.step == "move"
    v = RULES.view(s, "CHEZ")  # the board CHEZ receives shows what BORG just did
    kinds = {(h.hex, h.kind) for h in v.highlights}
    assert {("0606", "moved"), ("0605", "moved"), ("0605", "combat"), ("0808", "loss")} <= kinds
    assert ("0606", "0605") in [(a.src, a.dst) for a in v.arrows]
    s, _ = act(s, "CHEZ", "end")  # CHEZ's first order of the turn clears them
    assert not [h for h in RULES.view(s, None).highlights if h.kind in ("moved", "loss")]


def test_8_2_only_the_chooser_reads_the_held_choice():
    s = position("B1 Stone 0606", "C1 Fog 0605", gods=GODS, rest="lost")
    s, _ = act(s, "BORG", "move", child="B1", to="0605")
    s, _ = act(s, "BORG", "end")
    s, _ = act(s, "BORG", "aspects", stone=0, blade=1, fog=0)
    assert RULES.view(s, "BORG").private == ("You have chosen 1 Blade in 0605.",)
    assert RULES.view(s, "CHEZ").private == () and RULES.view(s, None).private == ()
    assert "waiting on CHEZ" in RULES.view(s, None).caption[-1]


def test_3_2_caption_tells_the_set_up_roll_and_lives():
    v = RULES.view(new_game(rolls=(6, 1)), None)
    assert "BORG 6, CHEZ 1" in v.caption[0]
    assert v.caption[1].startswith("God lives: BORG 3, CHEZ 3")


def test_11_2_caption_names_the_winner():
    s = position(gods=GODS, step="over", winner="CHEZ", end_reason="BORG's god has lost all its lives")
    assert RULES.view(s, None).caption[0] == "Game over: CHEZ wins (BORG's god has lost all its lives)."


def test_4_2_every_verb_has_help_and_a_rule_and_every_prompt_verb_is_listed():
    verbs = {v.verb: v for v in RULES.verbs()}
    assert all(v.help and v.rule for v in SPECS)
    prompted = {
        "order",
        "defend",
        "tower",
        "gods",
        "place",
        "place_all",
        "done",
        "move",
        "transform",
        "flee",
        "end",
        "fight",
        "aspects",
        "aspect",
    }
    assert prompted == set(verbs)
    assert verbs["aspects"].secret and verbs["aspect"].secret and not verbs["move"].secret
    assert {a.name for a in verbs["move"].args} == {"child", "to", "dir", "confirm", "steps"}


def test_6_1_autocomplete_offers_only_legal_values():
    s = position("B1 Stone 0606", "B2 Blade 0607", gods=GODS)
    assert set(RULES.choices(s, "BORG", "move", "child", {})) == {"B1", "B2"}
    assert set(RULES.choices(s, "BORG", "move", "to", {"child": "B1"})) == {
        "0605",
        "0706",
        "0707",
        "0607",
        "0507",
        "0506",
    }
    assert "NE" in RULES.choices(s, "BORG", "move", "dir", {"child": "B2"})


def test_6_3_an_order_that_differs_only_in_capitals_is_shown_as_written():
    from tests.oneworld.positions import refusal

    s = position("B1 Blade 0607", "B2 Stone 0606", gods=GODS)
    assert refusal(s, "BORG", "move", child="b1", dir="ne").startswith("Write it as /move child:B1 dir:NE")
    msg = refusal(s, "BORG", "move", child="B2", to="0605 ")
    assert "Write it as /move child:B2 to:0605" in msg



def test_8_2_the_view_names_the_sides_the_combat_waits_on():
    s = position("B1 Stone 0606", "C1 Fog 0605", gods=GODS, rest="lost")
    s, _ = act(s, "BORG", "move", child="B1", to="0605")
    s, _ = act(s, "BORG", "end")
    assert RULES.view(s, None).active == "BORG and CHEZ"
    s, _ = act(s, "BORG", "aspects", stone=1, blade=0, fog=0)
    v = RULES.view(s, "BORG")
    assert v.active == "CHEZ" and any("waiting on CHEZ" in line for line in v.caption)
