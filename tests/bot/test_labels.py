"""Buttons say what they do: every legal action of every scripted game has words on its button."""

from __future__ import annotations

import pytest

from engine.core import registry
from engine.core.labels import is_bare
from engine.core.protocol import Action
from tests.support.scripted import ONE_PER_GAME, play


@pytest.mark.parametrize("script", ONE_PER_GAME + ("chitin_advanced",))
async def test_no_button_label_is_only_digits_and_labels_of_one_prompt_differ(script, tmp_path):
    checked = 0
    async for _line, _replies, core in play(script, tmp_path / "g.db"):
        for g in core.live.values():
            if g.state is None:
                continue
            for p in g.pending():
                legal = [a for a in g.rules.legal_now(g.state, p.seat) if a.verb in p.verbs]
                labels = [g.rules.label(a) for a in legal]
                bare = [(a.text(), lab) for a, lab in zip(legal, labels, strict=True) if is_bare(lab)]
                assert not bare, f"{script}: labels without words: {bare[:5]}"
                if len(legal) <= 25:  # the answers that become buttons must be told apart
                    assert len(set(labels)) == len(labels), f"{script}: two buttons read alike: {sorted(labels)}"
                checked += len(legal)
    assert checked > 0


def test_7_03_chitin_attack_and_cancel_labels_differ():
    chitin = registry.get("chitin")
    attack = chitin.label(Action(verb="attack", args={"by": "0914", "on": "0913"}))
    cancel = chitin.label(Action(verb="cancel", args={"by": "0914", "on": "0913"}))
    assert attack == "Attack 0913 from 0914"
    assert cancel == "Cancel attack 0914→0913"
    assert chitin.button_style(Action(verb="cancel", args={"by": "0914", "on": "0913"})) != "primary"


def test_8_2_oneworld_aspect_buttons_name_the_aspects():
    oneworld = registry.get("oneworld")
    assert oneworld.label(Action(verb="aspects", args={"stone": 1, "blade": 0, "fog": 0})) == "Stone ×1"
    assert oneworld.label(Action(verb="aspects", args={"stone": 0, "blade": 2, "fog": 1})) == "Blade ×2, Fog ×1"


def test_5_6_a_blade_run_into_chaos_is_a_red_button():
    oneworld = registry.get("oneworld")
    lost = Action(verb="move", args={"child": "B2", "dir": "NW", "confirm": "lost"})
    assert oneworld.button_style(lost) == "danger"
    assert "Chaos" in oneworld.label(lost)


def test_ending_choices_are_red_and_the_usual_choice_primary():
    for name in registry.names():
        rules = registry.get(name)
        assert rules.button_style(Action(verb="done")) == "danger"
    chitin = registry.get("chitin")
    assert chitin.button_style(Action(verb="move", args={"stack": "R1", "to": "0818"})) == "primary"
    assert chitin.label(Action(verb="face", args={"stack": "0818", "dir": "S"})) == "Face S at 0818"
    assert chitin.label(Action(verb="move", args={"stack": "B3", "to": "0608"})) == "Move B3 to 0608"


def test_a_game_without_labels_gets_words_from_the_default():
    from engine.core.labels import default_label

    assert default_label(Action(verb="move", args={"unit": "B3", "to": "0608"})) == "Move unit B3, to 0608"
    assert not is_bare(default_label(Action(verb="x", args={"a": "1013", "b": "0913"})))
