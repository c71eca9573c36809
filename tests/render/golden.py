"""Golden images of tricky positions, one set per game, drawn on the games' real maps.

``make golden`` (``python -m tests.render.golden``) redraws them into tests/render/golden/;
``test_golden.py`` compares the renderer's output with them within a tolerance. Look at the
pictures before committing new ones.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from PIL import Image

from engine.core.protocol import ArrowView, CounterView, HighlightView, MarkerView, View

GOLDEN = Path(__file__).resolve().parent / "golden"
C = CounterView


def annihilator_impact() -> View:
    """An impact hex holding three counters and two charge tags, a charge with its targets."""
    return View(
        game="annihilator", map="annihilator", title="Annihilator", turn=4, phase="demolition (step 3, 8.1)",
        active="Marines", sides={"Marines": "blue", "Annihilator": "dark"},
        counters=(
            C(hex="1019", side="Marines", label="A1", sub="AS 4-4-4"),
            C(hex="1019", side="Marines", label="A2", sub="AS 4-4-4"),
            C(hex="1019", side="Marines", label="E1", sub="EN 2-3-4"),
            C(hex="1118", side="Annihilator", label="R4", sub="RB 3-3-2"),
            C(hex="0920", side="Annihilator", label="D2", sub="DR 2-2-6", disrupted=True),
        ),
        markers=(
            MarkerView(hex="1019", kind="impact", text="Assault ship"),
            MarkerView(hex="1019", kind="charges", text="E1: 2"),
            MarkerView(hex="1019", kind="charge", text="3 N"),
            MarkerView(hex="1020", kind="destroyed", text="DESTROYED"),
        ),
        highlights=(
            HighlightView(hex="1019", kind="moved"),
            HighlightView(hex="1018", kind="target"),
            HighlightView(hex="1118", kind="target"),
            HighlightView(hex="0920", kind="loss"),
            HighlightView(hex="1020", kind="blast"),
        ),
        caption=("Turn 4 of 10: demolition orders (step 3, 8.1)", "Charges set: 1019 (they go off next demolition phase)"),
    )


def chitin_three_stacks() -> View:
    """A Chitin combat with three attacking stacks on one defender, rolled."""
    label = "3-1, rolled 1: DR"
    return View(
        game="chitin", map="chitin", title="Chitin: I - Small Scenario", turn=6, phase="combat", active="Red",
        sides={"Red": "red", "Blue": "blue"},
        counters=(
            C(hex="0709", side="Red", label="R4", sub="GT 12-6", facing=2),
            C(hex="0809", side="Red", label="R8", sub="PX 9-6", facing=3),
            C(hex="0809", side="Red", label="R9", sub="PX 9-6", facing=3),
            C(hex="0909", side="Red", label="R10", sub="W 1d +A", facing=4),
            C(hex="0810", side="Blue", label="B3", sub="TR 6-3", disrupted=True, facing=0),
        ),
        markers=(MarkerView(hex="0810", kind="chit", text="J 3"),),
        arrows=tuple(ArrowView(src=s, dst="0810", label=label) for s in ("0709", "0809", "0909")),
        highlights=(HighlightView(hex="0810", kind="combat"), HighlightView(hex="0709", kind="moved")),
        caption=("Red: south end, Blue: north end; turn 6, Red to play (combat)", f"R4, R8, R9, R10 to B3: {label}"),
    )


def oneworld_god_and_tower() -> View:
    """A god counter with its lives, and a Tower with a reinforced Child on it."""
    return View(
        game="oneworld", map="oneworld", title="OneWorld", turn=9, phase="movement", active="BORG",
        sides={"BORG": "dark", "CHEZ": "light"},
        counters=(
            C(hex="0111", side="BORG", label="Stone", sub="B1"),
            C(hex="0111", side="BORG", label="Fog", sub="B9"),
            C(hex="0212", side="BORG", label="BORG", sub="god, 3 lives"),
            C(hex="0311", side="CHEZ", label="Blade", sub="C4"),
            C(hex="0210", side="BORG", label="Stone", sub="B7"),
        ),
        markers=(MarkerView(hex="0111", kind="tower", text="BORG Tower"),),
        arrows=(ArrowView(src="0411", dst="0311", kind="move"), ArrowView(src="0209", dst="0210", kind="move")),
        highlights=(HighlightView(hex="0311", kind="moved"), HighlightView(hex="0210", kind="moved")),
        caption=("Turn 9: BORG, movement.", "God lives: BORG 3, CHEZ 1. Children on the map: BORG 4, CHEZ 1."),
    )


CASES = {
    "annihilator_impact": (annihilator_impact, "1019"),
    "chitin_three_stacks": (chitin_three_stacks, "0810"),
    "oneworld_god_and_tower": (oneworld_god_and_tower, "0111"),
}
CROP = 420
"""The full map is kept as a square this wide around the position's hex."""


def images(name: str) -> dict[str, Image.Image]:
    """The focus view and a crop of the full board of a golden case, as RGB images."""
    import render
    from engine.core.hexes import parse_ccrr
    from engine.core.maps import load_map
    from render.panel import TITLE_H
    from render.terrain import static_layer

    make, where = CASES[name]
    view = make()
    drawn = render.boards(view)
    focus = Image.open(io.BytesIO(drawn.focus)).convert("RGB")
    full = Image.open(io.BytesIO(drawn.full)).convert("RGB")
    lay = static_layer(load_map(view.map)).layout
    x, y = lay.centre(parse_ccrr(where))
    y += TITLE_H
    half = CROP // 2
    box = (round(x) - half, round(y) - half, round(x) + half, round(y) + half)
    return {"focus": focus, "full": full.crop(box)}


def path(name: str, which: str) -> Path:
    return GOLDEN / f"{name}-{which}.png"


DOCS = Path(__file__).resolve().parents[2] / "docs"
DOC_CASES = {"annihilator": "annihilator_impact", "chitin": "chitin_three_stacks", "oneworld": "oneworld_god_and_tower"}


def doc_images() -> None:
    """docs/render-<game>-focus.png and -full.png: a focus view and a full map of each game."""
    import render

    for game, name in DOC_CASES.items():
        drawn = render.boards(CASES[name][0]())
        for which, png in (("focus", drawn.focus), ("full", drawn.full)):
            out = DOCS / f"render-{game}-{which}.png"
            Image.open(io.BytesIO(png)).save(out, optimize=True)
            print(out)


def main() -> int:
    GOLDEN.mkdir(exist_ok=True)
    for name in CASES:
        for which, img in images(name).items():
            img.save(path(name, which), optimize=True)
            print(path(name, which))
    doc_images()
    return 0


if __name__ == "__main__":
    sys.exit(main())
