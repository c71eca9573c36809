"""Counters: square chits in side colours with label, sub-label, facing, disrupted and face-down states,
and stacks laid out so each unit in a hex stays readable."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from engine.core.protocol import CounterView
from render.geometry import DIRECTION_ANGLES, Point
from render.sprites import PIECES, Sprite, blend, drawn_around
from render.style import INK, RGB, fit_font, font, luminance, shade, text_on, text_width

FACING: RGB = (255, 214, 10)
DISRUPTED: RGB = (226, 52, 28)
BIG_STACK = 5
"""From this many counters in a hex, the hex shows a compact grid of unlabelled counters."""
CLOSE_UP = 3
"""From this many counters in a hex, the panel repeats the stack at full size."""
MAX_SHOWN = 12
"""At most this many counters are drawn in one hex; the badge counts them all."""


SUB_ROOM = 0.94
"""The width a sub-label may take, as a fraction of its counter's side."""
LONE = 0.92
"""The side of a lone counter, as a fraction of the hex size."""
ARROWHEAD = 0.26
"""How far a facing arrowhead reaches past its counter's edge, as a fraction of the counter's side."""


def counter_width(size: float) -> int:
    """The side of a lone counter in a hex of ``size``."""
    return round(size * LONE)


def _under_number(w: float) -> float:
    """How far below the hex centre (a fraction of the hex size) a row of counters ``w`` wide is
    centred so that a facing arrowhead pointing north ends under the hex number."""
    return -NUMBER_BAND + ARROWHEAD * w + w / 2


# Rows of counters for small stacks, kept side by side so the hex number stays in view.
SMALL_ROWS = {2: (2,), 3: (2, 1), 4: (2, 2)}
GAP = 0.08
"""Gap between counters in a stack, as a fraction of their width."""


def _row_tuples(n: int) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []
    for a in range(1, 5):
        for b in range(1, 5):
            if a + b == n:
                out.append((a, b))
            for c in range(1, 5):
                if a + b + c == n:
                    out.append((a, b, c))
    return out


NUMBER_BAND = 0.43
"""Stacks of three or more keep below this line (a fraction of the hex size above the centre),
under the hex number."""


def _fits(rows: tuple[int, ...], w: float, dy: float, limit: float, ceiling: float = -1.0) -> bool:
    # A flat-topped hex of size 1 holds (x, y) when |y| <= sqrt(3)/2 and |x| + |y|/sqrt(3) <= 1.
    g = GAP * w
    top = dy - (len(rows) * w + (len(rows) - 1) * g) / 2
    if top < ceiling:
        return False
    for i, k in enumerate(rows):
        half = (k * w + (k - 1) * g) / 2
        for y in (top + i * (w + g), top + i * (w + g) + w):
            if abs(y) > limit * math.sqrt(3) / 2 or half + abs(y) / math.sqrt(3) > limit:
                return False
    return True


def _widest(rows: tuple[int, ...], dy: float, limit: float, ceiling: float = -1.0) -> float:
    lo, hi = 0.0, 1.2
    for _ in range(30):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _fits(rows, mid, dy, limit, ceiling) else (lo, mid)
    return lo


@lru_cache(maxsize=16)
def _arrangement(n: int) -> tuple[tuple[int, ...], float, float]:
    if n == 2:
        # Two counters may reach a little over the hex edge: legible counters matter more.
        dy = _under_number(0.8)
        return SMALL_ROWS[n], min(0.8, _widest(SMALL_ROWS[n], dy, 1.15)), dy
    # Three or more stay inside the hex and under its number (the panel repeats them at full size).
    dy = (-NUMBER_BAND + 0.98 * math.sqrt(3) / 2) / 2
    best = max(_row_tuples(n), key=lambda rows: (round(_widest(rows, dy, 0.98, -NUMBER_BAND), 4), -len(rows)))
    return best, _widest(best, dy, 0.98, -NUMBER_BAND), dy


def stack_slots(n: int, size: float) -> list[tuple[float, float, float]]:
    """(dx, dy, width) of each counter of an ``n``-counter stack (at most ``MAX_SHOWN``), from the hex centre."""
    n = min(n, MAX_SHOWN)
    if n <= 1:
        return [(0.0, _under_number(LONE) * size, counter_width(size))]
    rows, w, dy = _arrangement(n)
    g = GAP * w
    top = dy - (len(rows) * w + (len(rows) - 1) * g) / 2
    out = []
    for i, k in enumerate(rows):
        y = top + i * (w + g) + w / 2
        for j in range(k):
            x = (j - (k - 1) / 2) * (w + g)
            out.append((x * size, y * size, w * size))
    return out


def facing_point(x: float, y: float, w: float, facing: int) -> Point:
    """Where the ray from a counter's centre towards ``facing`` leaves the counter's square."""
    a = math.radians(DIRECTION_ANGLES[facing % 6])
    dx, dy = math.cos(a), math.sin(a)
    t = (w / 2) / max(abs(dx), abs(dy))
    return (x + t * dx, y + t * dy)


def place_counter(
    img: Image.Image,
    x: float,
    y: float,
    w: float,
    cv: CounterView,
    body: RGB,
    detail: bool = True,
    floor: int | None = None,
) -> None:
    """One counter centred on the pixel nearest (x, y), ``w`` px square, pasted from its sprite."""
    counter_sprite(w, cv, body, detail, floor).paste(img, x, y)


def counter_sprite(w: float, cv: CounterView, body: RGB, detail: bool = True, floor: int | None = None) -> Sprite:
    """The picture of a counter: everything that changes its pixels is in the key (a face-down
    counter's label and state are not). ``floor``: the smallest text size allowed (a text that
    does not fit at it is left out, never drawn smaller)."""
    facing = None if cv.facing is None else cv.facing % 6
    if cv.hidden:
        key: tuple = ("counter", w, body, facing, True)
    else:
        key = ("counter", w, body, facing, False, cv.label, cv.sub if detail else "", cv.disrupted, detail, floor)
    return PIECES.get(key, lambda: _counter_sprite(w, cv, body, detail, floor))


def _counter_sprite(w: float, cv: CounterView, body: RGB, detail: bool, floor: int | None = None) -> Sprite:
    # Room for the shadow and for a facing arrowhead past the square's edge.
    return drawn_around(w * 0.82 + 3, lambda d, x, y: draw_counter(d, x, y, w, cv, body, detail, floor))


def draw_counter(
    d: ImageDraw.ImageDraw,
    x: float,
    y: float,
    w: float,
    cv: CounterView,
    body: RGB,
    detail: bool = True,
    floor: int | None = None,
) -> None:
    """One counter centred at (x, y), ``w`` px square (drawn straight on; boards paste sprites)."""
    h = w / 2
    box = [x - h, y - h, x + h, y + h]
    rad = max(2, round(w * 0.12))
    d.rounded_rectangle([box[0] + 2, box[1] + 2, box[2] + 2, box[3] + 2], radius=rad, fill=(0, 0, 0, 90))
    if cv.hidden:
        _face_down(d, box, rad, body)
    else:
        edge = shade(body, 0.5) if luminance(body) > 90 else shade(body, 1.6)
        d.rounded_rectangle(box, radius=rad, fill=body, outline=edge, width=1)
        d.line([(box[0] + rad, box[1] + 2), (box[2] - rad, box[1] + 2)], fill=shade(body, 1.3), width=1)
        ink = text_on(body)
        for t in counter_texts(x, y, w, cv, detail, floor):
            d.text((t.x, t.y), t.text, font=t.font, fill=ink, anchor="mm")
        if cv.disrupted:
            _disrupted(d, box, w, floor)
    if cv.facing is not None:
        _facing(d, x, y, w, cv.facing)


@dataclass(frozen=True)
class CounterText:
    """A text drawn on a counter: where (its middle), in which font, and the box it covers."""

    text: str
    x: float
    y: float
    font: ImageFont.FreeTypeFont

    @property
    def size(self) -> int:
        return int(self.font.size)

    @property
    def box(self) -> tuple[float, float, float, float]:
        x0, y0, x1, y1 = _text_box(self.font, self.text)
        return (self.x + x0, self.y + y0, self.x + x1, self.y + y1)


@lru_cache(maxsize=8192)
def _text_box(f: ImageFont.FreeTypeFont, text: str) -> tuple[float, float, float, float]:
    return f.getbbox(text, anchor="mm")


def counter_texts(
    x: float, y: float, w: float, cv: CounterView, detail: bool = True, floor: int | None = None
) -> list[CounterText]:
    """The texts a counter centred at (x, y), ``w`` px square, carries: its label and sub-label,
    each in the largest font that fits (none under ``floor`` when given: a text that does not fit
    at ``floor`` is shortened or left out). Drawing and the legibility tests both read this."""
    if cv.hidden or w < 18:
        return []
    return [CounterText(t.text, x + t.x, y + t.y, t.font) for t in _texts(w, cv.label, cv.sub, detail, floor)]


@lru_cache(maxsize=8192)
def _texts(w: float, label: str, sub: str, detail: bool, floor: int | None) -> tuple[CounterText, ...]:
    """``counter_texts`` of a counter centred at (0, 0), kept: a board asks for the same few again and again."""
    least = floor or 7
    sub = fitted_sub(sub, w, least) if detail else ""
    out: list[CounterText] = []
    if sub:
        f = fit_font(label, w * 0.86, max(least, round(w * 0.36)), "condensed", least)
        if label and (floor is None or text_width(f, label) <= w * 0.86):
            out.append(CounterText(label, 0, -w * 0.13, f))
        fs = fit_font(sub, w * SUB_ROOM, max(least, round(w * 0.27)), "condensed", least)
        out.append(CounterText(sub, 0, w * 0.25, fs))
    elif label:
        f = fit_font(label, w * 0.86, max(least, round(w * 0.42)), "condensed", least)
        if floor is None or text_width(f, label) <= w * 0.86:
            out.append(CounterText(label, 0, w * 0.02, f))
    return tuple(out)


LIVES = re.compile(r"^god,? (\d+) li(?:fe|ves)$")


def fitted_sub(sub: str, w: float, floor: int = 7) -> str:
    """The sub-label as it fits a counter ``w`` px wide at the smallest size: whole, else its short
    form (a god's lives read "\u26653", OneWorld 8.4), else its last word ("SR 3-2-4" -> "3-2-4", the
    figures), else nothing; never cut off."""
    room = w * SUB_ROOM
    words = sub.split()
    lives = LIVES.match(sub)
    tries = [sub] + ([f"\u2665{lives.group(1)}"] if lives else []) + ([words[-1]] if words and not lives else [])
    for text in tries:
        if text_width(fit_font(text, room, max(floor, round(w * 0.27)), "condensed", floor), text) <= room:
            return text
    return ""


def _face_down(d: ImageDraw.ImageDraw, box: list[float], rad: int, body: RGB) -> None:
    back = shade(body, 0.7)
    d.rounded_rectangle(box, radius=rad, fill=back, outline=shade(back, 0.5), width=1)
    w = box[2] - box[0]
    step = max(4.0, w / 5)
    k = box[0] - w
    while k < box[2]:
        d.line(
            [
                (max(k, box[0] + 1), box[1] + 1 + max(0, box[0] - k)),
                (min(k + w, box[2] - 1), box[3] - 1 - max(0, k + w - box[2])),
            ],
            fill=blend(shade(back, 1.25), 150, back),
            width=1,
        )
        k += step
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    d.text(
        (cx, cy),
        "?",
        font=font(round(w * 0.55), "bold"),
        fill=text_on(back),
        anchor="mm",
        stroke_width=1,
        stroke_fill=back,
    )


def _disrupted(d: ImageDraw.ImageDraw, box: list[float], w: float, floor: int | None = None) -> None:
    x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    t = _disrupted_mark(x, y, w, floor)
    leg = _disrupted_leg(w, t.size)
    x1, y0 = box[2], box[1]
    d.polygon([(x1 - leg, y0), (x1, y0), (x1, y0 + leg)], fill=DISRUPTED)
    d.line(
        [(box[0] + 2, box[3] - 2), (box[2] - 2, box[3] - 2)], fill=DISRUPTED, width=max(2, round(w * 0.09))
    )
    # A red edge round the letter, so it reads where a small counter's corner is too small for it.
    d.text((t.x, t.y), "D", font=t.font, fill=(255, 255, 255), anchor="mm", stroke_width=1, stroke_fill=DISRUPTED)


def _disrupted_leg(w: float, size: int) -> float:
    """The side of a disrupted counter's red corner: room for its "D" (at most 0.8 of the counter)."""
    x0, y0, x1, y1 = _text_box(font(size, "bold"), "D")
    return min(max(w * 0.44, (x1 - x0) + (y1 - y0) + 4), w * 0.8)


def _disrupted_mark(x: float, y: float, w: float, floor: int | None = None) -> CounterText:
    """The "D", tucked into the corner: a pixel in from the counter's top and right edges."""
    f = font(max(floor or 0, round(w * 0.24)), "bold")
    bx0, by0, bx1, by1 = _text_box(f, "D")
    leg = _disrupted_leg(w, int(f.size))
    inset = max(1.0, (leg - (bx1 - bx0) - (by1 - by0)) / 3)
    return CounterText("D", x + w / 2 - inset - bx1, y - w / 2 + inset - by0, f)


def disrupted_text(x: float, y: float, w: float, cv: CounterView, floor: int | None = None) -> CounterText | None:
    """The "D" a disrupted counter centred at (x, y), ``w`` px square, carries in its corner (at
    least ``floor`` px, so it reads in the focus view), or None."""
    if not cv.disrupted or cv.hidden:
        return None
    return _disrupted_mark(x, y, w, floor)


def _facing(d: ImageDraw.ImageDraw, x: float, y: float, w: float, facing: int) -> None:
    d.polygon(facing_head(x, y, w, facing), fill=FACING, outline=INK, width=1)


def facing_head(x: float, y: float, w: float, facing: int) -> list[Point]:
    """The facing arrowhead of a counter centred at (x, y) of side ``w``: tip, then the two base corners."""
    px, py = facing_point(x, y, w, facing)
    a = math.radians(DIRECTION_ANGLES[facing % 6])
    dx, dy = math.cos(a), math.sin(a)
    nx, ny = -dy, dx
    tip = (px + dx * w * ARROWHEAD, py + dy * w * ARROWHEAD)
    # Long and narrow: an equilateral head pointing along a hex direction is the same shape as one
    # pointing the opposite way turned by 60 degrees (a NE head looked like a S one).
    b, back = w * 0.12, w * 0.06
    base1 = (px + nx * b - dx * back, py + ny * b - dy * back)
    base2 = (px - nx * b - dx * back, py - ny * b - dy * back)
    return [tip, base1, base2]


def place_badge(img: Image.Image, x: float, y: float, r: float, n: int) -> None:
    """A count badge centred on the pixel nearest (x, y): how many counters a hex holds."""
    sprite = PIECES.get(
        ("badge", r, n), lambda: drawn_around(r + 3, lambda d, x, y: draw_badge(d, x, y, r, n))
    )
    sprite.paste(img, x, y)


def draw_badge(d: ImageDraw.ImageDraw, x: float, y: float, r: float, n: int) -> None:
    """A count badge: how many counters a hex holds."""
    d.ellipse([x - r, y - r, x + r, y + r], fill=(255, 255, 255), outline=INK, width=2)
    d.text((x, y), str(n), font=font(round(r * 1.25), "bold"), fill=INK, anchor="mm")
