"""Counters, markers and count badges placed in a hex so that nothing covers a counter's text:
one code for the full board and the focus view.

A hex draws as many of its counters as keep their labels at the view's smallest text size (a pair
side by side, else one); a larger stack draws its top counter and a "+N" badge beside it (the
full board's panel lists the stack). Markers go in fixed slots around the hex edge, left of the
counter first, the badge taking the right. Every text drawn and the box of every other thing drawn
over the map are recorded (``Drawing.texts`` and ``Drawing.boxes``), for the overlap tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from PIL import Image, ImageDraw

from engine.core.hexes import Hex, format_ccrr
from engine.core.protocol import CounterView, MarkerView
from render.counters import counter_texts, disrupted_text, place_counter, stack_slots
from render.geometry import Layout
from render.overlays import marker_box, marker_kind, place_marker
from render.sprites import PIECES, drawn_around
from render.style import INK, fit_font, font, side_colour, text_width
from render.terrain import number_box, number_font, place_number

BOX = tuple[float, float, float, float]


@dataclass
class Text:
    """A text drawn over the map: what, its font size in px, its box, and what it belongs to."""

    kind: str
    text: str
    size: int
    box: BOX
    owner: int = -1
    """The index in ``boxes`` of the counter a counter text is written on."""


class Drawing(Protocol):
    """A picture being drawn and the record of what is on it."""

    image: Image.Image
    texts: list[Text]
    boxes: list[tuple[str, BOX]]
    pending: list[tuple[float, float, float, str, int]]


@dataclass
class Drawn:
    """The full board and what was drawn over its map."""

    image: Image.Image
    texts: list[Text] = field(default_factory=list)
    boxes: list[tuple[str, BOX]] = field(default_factory=list)
    """Boxes of the things drawn over the map: counters, markers, badges, hex numbers, labels."""
    pending: list[tuple[float, float, float, str, int]] = field(default_factory=list)
    """Count badges waiting for every counter and marker to be placed: (x, y, w, text, size)."""


def legible_count(n: int, size: float, cvs: list[CounterView], floor: int) -> int:
    """How many counters of an ``n``-counter stack are drawn in its hex: a pair side by side when
    both keep their label at ``floor``, else one; a larger stack shows one and a "+N" badge (beside
    a pair it would reach the next hex's counters)."""
    if n == 1:
        return 1
    if n == 2:
        slots = stack_slots(2, size)
        if all(any(t.text == cv.label for t in counter_texts(0, 0, w, cv, True, floor)) for cv, (_x, _y, w) in zip(cvs[:2], slots)):
            return 2
    return 1


def shown_count(cvs: list[CounterView], size: float, floor: int, crowded: bool) -> int:
    """How many counters of a hex are drawn in it (a hex with markers, or on a crowded view, one)."""
    return 1 if crowded else min(len(cvs), legible_count(len(cvs), size, cvs, floor))


AIR_SLOT = (0.34, 0.28, 0.58)
"""(dx, dy, side) of the counter of a hex holding air units only, as fractions of the hex size: in
its lower right, off the centre where a chit lies (Chitin: I, RULINGS "Air movement")."""
AIR_GAMES = frozenset({"chitin"})
"""Games whose counters without a facing are air units (Chitin: I's Plunge counters)."""


def air_only(game: str, cvs: list[CounterView]) -> bool:
    """Whether a hex's counters are all air units, drawn in a corner slot off the chit."""
    return game in AIR_GAMES and bool(cvs) and all(cv.facing is None for cv in cvs)


def place_stack(
    out: Drawing,
    lay: Layout,
    h: Hex,
    cvs: list[CounterView],
    sides: dict[str, str],
    floor: int,
    crowded: bool,
    air: bool = False,
) -> None:
    """The counters of one hex that fit legibly, their texts recorded, and a pending "+N" badge for
    the rest; ``air`` (air units alone in the hex): the top one in the hex's corner slot."""
    cx, cy = lay.centre(h)
    n = len(cvs)
    m = 1 if air else shown_count(cvs, lay.size, floor, crowded)
    if air:
        slots: list[tuple[float, float, float]] = [
            (AIR_SLOT[0] * lay.size, AIR_SLOT[1] * lay.size, round(AIR_SLOT[2] * lay.size))
        ]
    else:
        slots = stack_slots(m, lay.size)
    for cv, (dx, dy, w) in zip(cvs[:m], slots):
        x, y = round(cx + dx), round(cy + dy)
        place_counter(out.image, x, y, w, cv, side_colour(sides, cv.side), True, floor)
        for t in counter_texts(x, y, w, cv, True, floor):
            out.texts.append(Text("counter", t.text, t.size, t.box, len(out.boxes)))
        d = disrupted_text(x, y, w, cv, floor)
        if d is not None:
            out.texts.append(Text("disrupted", d.text, d.size, d.box, len(out.boxes)))
        out.boxes.append(("counter", (x - w / 2, y - w / 2, x + w / 2, y + w / 2)))
    if m < n:
        dx, dy, w = slots[-1]
        out.pending.append((cx + dx, cy + dy, w, f"+{n - m}", max(floor, round(lay.size * 0.28))))


def place_badges(out: Drawing, numbers: Sequence[BOX] = ()) -> None:
    """The "+N" badges, once every counter, marker and hex number is placed: beside the counter's
    right edge level with its middle, else at its top or bottom right, else its left, else just off
    one of its corners; the first of these that covers none of the hex ``numbers`` around the
    stacks, and where each does (a crowded view), the first, drawn over the number. One that would
    meet a counter, a marker or another badge anywhere is left out (the full map's panel lists the
    stack)."""
    for x, y, w, text, size in out.pending:
        f = font(size, "bold")
        r = max(text_width(f, text) / 2 + 3, f.size * 0.62)
        hh = f.size * 0.62
        right, left = x + w / 2 + r + 1, x - w / 2 - r - 1
        corner = w / 2 + hh  # just off a corner of the counter, clear of the numbers above and below
        spots = ((right, y), (right, y - w / 2 + hh), (right, y + w / 2 - hh), (left, y),
                 (right + hh, y + corner), (right + hh, y - corner), (left - hh, y + corner), (left - hh, y - corner))
        places = [(bx - r, by - hh, bx + r, by + hh) for bx, by in spots]
        free = [box for box in places if not any(k in ("counter", "marker", "badge") and meets(box, b) for k, b in out.boxes)]
        if free:
            reach = (min(b[0] for b in free), min(b[1] for b in free), max(b[2] for b in free), max(b[3] for b in free))
            close = [n for n in numbers if meets(n, reach)]  # the numbers any of its places could meet
            box = next((b for b in free if not any(meets(b, n) for n in close)), free[0])
            place_count(out.image, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2, text, size)
            out.boxes.append(("badge", box))
            out.texts.append(Text("badge", text, size, box))
    out.pending.clear()


def meets(a: BOX, b: BOX) -> bool:
    """Whether two boxes overlap by more than a pixel."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w > 0 and h > 0 and w * h > 1.0


def place_count(img: Image.Image, x: float, y: float, text: str, size: int) -> None:
    """A "+N" badge centred on the pixel nearest (x, y): how many more counters the hex holds."""
    f = font(size, "bold")
    r = max(f.getlength(text) / 2 + 3, size * 0.62)

    def draw(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
        d.rounded_rectangle([x - r, y - size * 0.62, x + r, y + size * 0.62], radius=round(size * 0.6),
                            fill=(255, 255, 255), outline=INK, width=2)
        d.text((x, y), text, font=f, fill=INK, anchor="mm")

    PIECES.get(("count", text, size), lambda: drawn_around(r + 3, draw)).paste(img, x, y)


BESIDE = ((-0.74, -0.05), (-0.68, 0.4), (-0.58, -0.5), (0.58, -0.5), (-0.3, -0.62), (0.3, -0.62))
"""Marker slots (fractions of the hex size from its centre) in a hex that also holds counters:
left of the counter (its "+N" badge takes the right), the first level with it, the third above it,
then the upper right corner and either side of the hex number."""
ALONE = ((-0.4, 0.12), (0.4, 0.12), (0.0, 0.5), (0.0, -0.3))
"""Marker slots in a hex with no counter and more than one marker."""
ICONS = frozenset({"tower", "impact", "god", "obstructed"})
"""Marker kinds drawn as an icon whose text is written inside it (never on a tag)."""
BESIDE_AIR = ((-0.42, 0.08), (-0.3, 0.56), (-0.62, -0.36))
"""Marker slots in a hex whose counters are air units in its corner slot: a chit left of the centre."""


def place_markers(
    out: Drawing,
    lay: Layout,
    h: Hex,
    mvs: list[MarkerView],
    with_counters: bool,
    floor: int,
    named: bool = False,
    keep_text: bool = False,
    air: bool = False,
) -> None:
    """Markers in fixed slots around the hex edge, clear of a counter and its badge. A marker text
    that does not fit its slot at ``floor`` is left out (the icon says what it is), unless
    ``keep_text`` and the wider tag it then needs meets no counter, counter text or marker.
    ``air``: the hex's counters are air units in its corner slot."""
    s = lay.size
    cx, cy = lay.centre(h)
    if with_counters and air:
        slots: tuple[tuple[float, float], ...] = BESIDE_AIR
        r = 0.3 * s
    elif with_counters:
        slots = BESIDE
        r = 0.2 * s
    else:
        # A lone marker on a named hex (a brain core) sits higher, clear of the name's tag.
        slots = ((0.0, -0.18 if named else 0.12),) if len(mvs) == 1 else ALONE
        r = (0.42 if len(mvs) == 1 else 0.26) * s
    for mv, (fx, fy) in zip(mvs, slots):
        x, y = cx + fx * s, cy + fy * s
        text = mv.text
        kind = marker_kind(mv.kind)
        room = r * (1.1 if kind == "impact" else 1.5)
        if text and not _fits(text, room, floor):
            # Only a disc's text moves to a tag as wide as it; an icon's own text would spill over it.
            wide = mv if keep_text and kind not in ICONS else None
            box = marker_box(x, y, r, wide) if wide is not None else None
            taken = [b for k, b in out.boxes if k in ("counter", "marker")] + [t.box for t in out.texts]
            taken.append(number_box(lay, h))  # the hex number is drawn again over the pieces
            if box is None or any(meets(box, b) for b in taken):
                # A sealed charge's "4: 2-1" keeps its odds (its place in the pattern follows from
                # the outline); any other text too long for the slot leaves the icon alone (the
                # legend names the kind).
                short = text.split(": ", 1)[1] if mv.kind.startswith("preview") and ": " in text else ""
                text = short if short and _fits(short, room, floor) else ""
        placed = mv.model_copy(update={"text": text})
        place_marker(out.image, x, y, r, placed)
        out.boxes.append(("marker", marker_box(x, y, r, placed)))


def _fits(text: str, room: float, floor: int) -> bool:
    """Whether ``text`` fits ``room`` px at ``floor`` px or more."""
    return fit_font(text, room, floor, "condensed", floor).getlength(text) <= room


def place_numbers(out: Drawing, lay: Layout, hexes: set[Hex]) -> None:
    """The number of every hex a piece covers, drawn again on top on a light halo, its box recorded."""
    nf = number_font(lay.size)
    for h in sorted(hexes):
        cx, cy = lay.centre(h)
        place_number(out.image, cx, cy - lay.half_height + 2, lay.size, format_ccrr(h))
        out.boxes.append(("number", number_box(lay, h, nf)))
