"""Highlights read without colour vision: distinct outline styles, and colours that stay apart for
deuteranopes and protanopes (simulated, CIE76 Delta E)."""

from __future__ import annotations

import itertools

import pytest

from render.colourblind import delta_e, simulate
from render.style import HIGHLIGHTS

ACTION = ("moved", "combat", "loss", "blast")
MIN_DELTA_E = 20.0
"""A difference plainly visible side by side (CIE76; 2.3 is a just noticeable difference)."""


def test_moved_combat_loss_and_blast_have_different_outline_styles():
    styles = [HIGHLIGHTS[k][2] for k in ACTION]
    assert len(set(styles)) == len(ACTION), styles


@pytest.mark.parametrize("vision", ["deuteranopia", "protanopia"])
def test_every_pair_of_highlight_colours_stays_apart_in_simulation(vision):
    kinds = [k for k in HIGHLIGHTS if k != "target"]
    for a, b in itertools.combinations(kinds, 2):
        d = delta_e(simulate(HIGHLIGHTS[a][0], vision), simulate(HIGHLIGHTS[b][0], vision))
        assert d >= MIN_DELTA_E, (vision, a, b, round(d, 1))


def test_the_simulation_merges_what_it_should():
    """The check can fail: pure red and green, told apart with normal vision, merge for both."""
    red, green = (200, 60, 40), (90, 120, 40)
    assert delta_e(red, green) > 40
    for vision in ("deuteranopia", "protanopia"):
        assert delta_e(simulate(red, vision), simulate(green, vision)) < MIN_DELTA_E
