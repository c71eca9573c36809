"""Colours and fonts of the board: side colours, highlight colours, the bundled DejaVu fonts."""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path

from PIL import ImageColor, ImageFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"

RGB = tuple[int, int, int]

BACKGROUND: RGB = (236, 231, 219)
"""Page colour around the map and behind the panel."""
INK: RGB = (34, 36, 44)
MUTED: RGB = (96, 98, 108)
TITLE_BG: RGB = (32, 37, 50)
TITLE_FG: RGB = (245, 242, 232)
PANEL_BG: RGB = (247, 244, 236)
RULE: RGB = (198, 190, 172)
MAP_BORDER: RGB = (40, 40, 46)
MEGAHEX_LINE: RGB = (70, 62, 48)

# Counter body, text, and edge colours per side-colour name.
SIDE_COLOURS: dict[str, RGB] = {
    "dark": (52, 54, 66),
    "black": (30, 30, 34),
    "light": (244, 238, 220),
    "white": (250, 250, 250),
    "red": (178, 38, 36),
    "blue": (38, 84, 164),
    "green": (40, 122, 56),
    "gold": (222, 168, 36),
    "yellow": (236, 200, 52),
    "orange": (224, 120, 30),
    "purple": (112, 60, 150),
    "grey": (128, 130, 136),
    "gray": (128, 130, 136),
    "brown": (120, 80, 46),
    "teal": (24, 128, 128),
}

# Highlight kind -> (outline colour, fill alpha, outline style). The styles tell the kinds apart
# without colour (moved solid, combat dashed, loss double, blast hatched), and the colours stay
# apart for deuteranopes and protanopes (tests/render/test_colourblind.py).
HIGHLIGHTS: dict[str, tuple[RGB, int, str]] = {
    "moved": ((30, 120, 230), 40, "solid"),
    "combat": ((245, 130, 0), 55, "dashed"),
    "loss": ((215, 30, 40), 70, "double"),
    "blast": ((170, 0, 150), 95, "hatched"),
    "preview": ((0, 185, 215), 70, "dotted"),
    "legal": ((60, 220, 110), 45, "dotted"),
    "target": ((25, 25, 30), 30, "dotted"),
    "advance": ((240, 225, 0), 50, "dashed"),
    "accost": ((75, 30, 0), 45, "double"),
}
OTHER_HIGHLIGHT: tuple[RGB, int, str] = ((120, 120, 120), 40, "dashed")
ZOC: tuple[RGB, int, str] = ((40, 40, 48), 0, "light-hatch")
"""A hex in an enemy zone of control (Chitin: I, ``/game board zoc:on``): a light hatch, no tint and
no outline, under every other highlight; it is told apart by its pattern, not by its colour."""
OUTLINE_STYLES = ("solid", "dashed", "double", "hatched", "dotted")

ARROWS: dict[str, RGB] = {
    "attack": (200, 20, 30),
    "move": (30, 100, 210),
    "fire": (235, 110, 0),
    "support": (30, 150, 70),
}
OTHER_ARROW: RGB = (90, 60, 140)

CHARGE_COLOURS: tuple[RGB, ...] = ((0, 150, 200), (200, 40, 160), (230, 120, 0), (40, 160, 60), (120, 70, 200))
"""One colour per charge of a demolition preview (kinds ``preview-1``, ``preview-2`` ...), told apart
also by the number each target hex's marker carries."""


def charge_colour(kind: str) -> RGB | None:
    """The colour of the n-th charge of a preview (``preview-n``), else None."""
    head, _, n = kind.partition("-")
    if head != "preview" or not n.isdigit() or int(n) < 1:
        return None
    return CHARGE_COLOURS[(int(n) - 1) % len(CHARGE_COLOURS)]


def parse_colour(text: str, default: RGB = (200, 200, 200)) -> RGB:
    """An RGB triple from ``#rrggbb``, a side name or a CSS colour name; ``default`` otherwise."""
    t = (text or "").strip().lower()
    if t in SIDE_COLOURS:
        return SIDE_COLOURS[t]
    try:
        c = ImageColor.getrgb(t)
    except ValueError:
        return default
    return (c[0], c[1], c[2])


def luminance(c: RGB) -> float:
    """Perceived brightness 0..255."""
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]


def text_on(c: RGB) -> RGB:
    """Dark or light ink, whichever reads on ``c``."""
    return INK if luminance(c) > 150 else (250, 248, 240)


def shade(c: RGB, k: float) -> RGB:
    """``c`` darkened (k < 1) or lightened towards white (k > 1)."""
    if k <= 1:
        return (int(c[0] * k), int(c[1] * k), int(c[2] * k))
    t = min(1.0, k - 1)
    return tuple(int(v + (255 - v) * t) for v in c)  # type: ignore[return-value]


def side_colour(view_sides: dict[str, str], side: str) -> RGB:
    """The body colour of a side's counters (grey for an unknown side)."""
    name = view_sides.get(side, side)
    return parse_colour(name, SIDE_COLOURS["grey"])


@lru_cache(maxsize=64)
def font(size: int, weight: str = "bold") -> ImageFont.FreeTypeFont:
    """A bundled DejaVu font: weight ``regular``, ``bold`` or ``condensed``."""
    name = {
        "regular": "DejaVuSans.ttf",
        "bold": "DejaVuSans-Bold.ttf",
        "condensed": "DejaVuSansCondensed-Bold.ttf",
    }[weight]
    return ImageFont.truetype(str(FONT_DIR / name), max(6, int(size)))


@lru_cache(maxsize=8192)
def text_width(f: ImageFont.FreeTypeFont, text: str) -> float:
    """``f.getlength(text)``, remembered: the panel measures the same labels board after board."""
    return f.getlength(text)


def fit_font(
    text: str, max_width: float, size: int, weight: str = "bold", floor: int = 7
) -> ImageFont.FreeTypeFont:
    """The largest bundled font no bigger than ``size`` in which ``text`` fits ``max_width``."""
    return _fit_font(text, int(max_width), int(size), weight, floor)


@lru_cache(maxsize=4096)
def _fit_font(text: str, max_width: int, size: int, weight: str, floor: int) -> ImageFont.FreeTypeFont:
    s = size
    while s > floor:
        f = font(s, weight)
        if f.getlength(text) <= max_width:
            return f
        s -= 1
    return font(floor, weight)


def printable(text: str) -> str:
    """``text`` without control and format characters (the text shaper rejects some), tabs as spaces."""
    if text.isprintable():
        return text
    return "".join(
        " " if ch in "\t\n\r" else ch for ch in text if ch in "\t\n\r" or unicodedata.category(ch)[0] != "C"
    )
