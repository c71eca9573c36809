"""The focus view: the part of the map where this phase's action happened, drawn to be read in the chat.

Discord shows an attached image scaled to the chat column, about ``DISPLAY_W`` px wide on a
desktop. The focus view is drawn at most that wide, so it is shown at its own size, and every
counter text is at least ``COUNTER_PX`` px and every hex number at least ``NUMBER_PX`` px
(``Focus.scale`` is the factor it is shown at; ``Focus.texts`` lists every text drawn with its
size, for the legibility tests).

Framing: the hexes of this phase's public action (highlights other than previews, legal moves and
charge targets; both ends of every arrow), or, when nothing happened, the counters of the side to
move. It is taken from the spectator's view when one is given, so a player and a spectator see the
same framing and no sealed choice steers it. The frame is that region and one ring of hexes
around it; when it is too wide for a legible hex size, the whole map is drawn for the chat width
with counters only.
"""

from __future__ import annotations

import math
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from engine.core.hexes import Hex, format_ccrr, neighbor
from engine.core.maps import GameMap
from engine.core.protocol import View
from render.geometry import Layout
from render.panel import PAD, text_lines, to_move
from render.sprites import put_text
from render.stacks import BOX
from render.stacks import Text as Text  # the legibility tests read it here
from render.style import BACKGROUND, RULE, TITLE_BG, TITLE_FG, fit_font, font, side_colour, text_width
from render.terrain import LayerShape, StaticLayer, layer_shape, number_font, static_layer

DISPLAY_W = 550
"""How wide Discord shows an attached image in a desktop chat column."""
COUNTER_PX = 9
"""The smallest counter text, in px as shown ``DISPLAY_W`` wide."""
NUMBER_PX = 7
"""The smallest hex number, in px as shown ``DISPLAY_W`` wide."""
FOCUS_SIZES = (44, 38, 32, 27, 22)
"""Hex sizes a region is drawn at, largest first: the largest whose frame fits ``DISPLAY_W``."""
MAX_H = 640
"""The tallest map area of a focus view (px)."""
QUIET = frozenset({"preview", "legal", "target", "zoc"})


def quiet(kind: str) -> bool:
    """A highlight, marker or arrow that is no public action: a preview (each charge's own
    ``preview-n`` too), legal moves, a charge's targets."""
    return kind in QUIET or kind.split("-", 1)[0] in QUIET
"""Highlight kinds that show what may happen, not what happened: they never steer the framing."""
HEADER_H = 46


@dataclass
class Focus:
    """A focus view and what was drawn on it."""

    image: Image.Image
    hexes: frozenset[Hex]
    """The hexes framed."""
    whole: bool
    """The whole map (the action was spread out)."""
    size: int
    """The hex size drawn."""
    texts: list[Text] = field(default_factory=list)
    boxes: list[tuple[str, BOX]] = field(default_factory=list)
    """Boxes of the other things drawn over the map (markers, badges, result labels)."""

    pending: list[tuple[float, float, float, str, int]] = field(default_factory=list)
    """Count badges waiting for every counter and marker to be placed: (x, y, w, text, size)."""
    numbers: tuple[Layout, frozenset[Hex]] | None = None
    """Where the terrain layer's hex numbers fall and which are shown (``all_texts`` lists them)."""

    def all_texts(self) -> list[Text]:
        """Every text drawn: ``texts`` and the hex numbers of the terrain layer that are shown."""
        out = list(self.texts)
        if self.numbers is not None:
            lay, shown = self.numbers
            nf = number_font(self.size)
            for h in sorted(shown):
                cx, cy = lay.centre(h)
                tw = text_width(nf, format_ccrr(h))
                top = cy - lay.half_height + 2
                out.append(Text("number", format_ccrr(h), int(nf.size), (cx - tw / 2, top, cx + tw / 2, top + nf.size)))
        return out

    @property
    def scale(self) -> float:
        """The factor the image is shown at in a ``DISPLAY_W`` chat column (never enlarged)."""
        return min(1.0, DISPLAY_W / self.image.width)


def action_hexes(view: View, game_map: GameMap) -> set[Hex]:
    """The hexes of this phase's public action, else the counters of the side to move, else every counter."""
    out: set[Hex] = set()
    for hv in view.highlights:
        if not quiet(hv.kind):
            out |= _hexes([hv.hex], game_map)
    for av in view.arrows:
        if not quiet(av.kind):  # a sealed order's preview arrow never steers the frame
            out |= _hexes([av.src, av.dst], game_map)
    if out:
        return out
    movers = set(view.active.split(" and ")) if view.active else set()
    out = _hexes([c.hex for c in view.counters if c.side in movers], game_map)
    return out or _hexes([c.hex for c in view.counters], game_map)


def _hexes(texts: list[str], game_map: GameMap) -> set[Hex]:
    from render.compose import _parse

    return {h for t in texts if (h := _parse(t, game_map)) is not None}


def frame(
    view: View, game_map: GameMap, around: str | None = None, whole: bool = False
) -> tuple[frozenset[Hex], int, tuple[int, int, int, int], bool]:
    """(hexes framed, hex size, crop box on that size's terrain layer, whole map) for a view.

    The largest hex size at which all the action fits ``DISPLAY_W`` x ``MAX_H``; when none does,
    the window that holds most of it at the smallest size, if that is more than half of it; else
    the whole map."""
    core = _hexes([around], game_map) if around else set()
    core = _ring(core, game_map, 1) if core else action_hexes(view, game_map)
    if whole:
        core = set()
    best: tuple[int, frozenset[Hex], int, tuple[int, int, int, int]] | None = None
    whole_region = frozenset(_ring(core, game_map, 1))
    for size in FOCUS_SIZES if core else ():
        layer = layer_shape(game_map, size)  # the layer itself is drawn only for the size chosen
        region = whole_region
        box = crop_box(layer, region)
        if box[2] - box[0] <= DISPLAY_W and box[3] - box[1] <= MAX_H:
            return region, size, box, False
        if size != FOCUS_SIZES[-1]:
            continue  # a window on part of the action only at the smallest size
        part = _window(core, layer)
        region = frozenset(_ring(part, game_map, 1))
        box = crop_box(layer, region)
        if box[2] - box[0] > DISPLAY_W or box[3] - box[1] > MAX_H:
            continue
        if best is None or len(part) > best[0]:
            best = (len(part), region, size, box)
    if best is not None and 2 * best[0] > len(core):
        return best[1], best[2], best[3], False
    everything = frozenset(game_map.hexes)
    size = whole_size(game_map)
    shape = layer_shape(game_map, size)
    return everything, size, (0, 0, shape.width, shape.height), True


def _window(core: set[Hex], layer: LayerShape) -> set[Hex]:
    """The most hexes of ``core`` whose frame (with one ring of hexes around) fits the focus view."""
    lay = layer.layout
    s = lay.size
    w = DISPLAY_W - 2 * (2.5 * s + 4)
    h = MAX_H - 2 * (2.6 * s + 4)
    pts = {c: lay.centre(c) for c in sorted(core)}
    xs = sorted({p[0] for p in pts.values()})
    ys = sorted({p[1] for p in pts.values()})
    best: tuple[int, float, set[Hex]] = (0, 0.0, set())
    for x0 in xs:
        for y0 in ys:
            part = {c for c, (x, y) in pts.items() if x0 <= x <= x0 + w and y0 <= y <= y0 + h}
            if not part:
                continue
            spread = max(pts[c][0] for c in part) - x0 + max(pts[c][1] for c in part) - y0
            if len(part) > best[0] or (len(part) == best[0] and spread < best[1]):
                best = (len(part), spread, part)
    return best[2]


def _ring(hexes: set[Hex], game_map: GameMap, n: int) -> set[Hex]:
    out = set(hexes)
    for _ in range(n):
        out |= {m for h in out for d in range(6) if (m := neighbor(h, d)) in game_map.hexes}
    return out


def crop_box(layer: LayerShape, hexes: frozenset[Hex]) -> tuple[int, int, int, int]:
    """The pixels of ``layer`` holding ``hexes`` whole, with a small margin, inside the layer."""
    lay = layer.layout
    left, right, top, bottom = _extremes(hexes)
    m = 3
    x0 = max(0, math.floor(lay.centre(left)[0] - lay.size - m))
    y0 = max(0, math.floor(lay.centre(top)[1] - lay.half_height - m))
    x1 = min(layer.width, math.ceil(lay.centre(right)[0] + lay.size + m))
    y1 = min(layer.height, math.ceil(lay.centre(bottom)[1] + lay.half_height + m))
    return x0, y0, x1, y1


@lru_cache(maxsize=256)
def _extremes(hexes: frozenset[Hex]) -> tuple[Hex, Hex, Hex, Hex]:
    """The leftmost, rightmost, topmost and lowest of some hexes, at any hex size (a centre's x
    grows with q, its y with r + q/2), so a frame tried at five sizes looks at its hexes once."""
    return (
        min(hexes, key=lambda h: h.q),
        max(hexes, key=lambda h: h.q),
        min(hexes, key=lambda h: 2 * h.r + h.q),
        max(hexes, key=lambda h: 2 * h.r + h.q),
    )


def whole_size(game_map: GameMap) -> int:
    """The hex size at which the whole map, margins included, is ``DISPLAY_W`` px wide at most."""
    from render.geometry import bounds

    x0, _y0, x1, _y1 = bounds(1.0, game_map.hexes)
    # The layer's margin is 0.7 of a hex size on each side.
    return max(8, math.floor(DISPLAY_W / (x1 - x0 + 1.4)))


def focus(
    view: View, game_map: GameMap, public: View | None = None, around: str | None = None, whole: bool = False
) -> Focus:
    """The focus view of ``view``, framed on ``public`` (the spectator's view) when given; with
    ``whole``, the whole map for the chat width whatever happened."""
    from render.compose import on_map

    region, size, box, whole = frame(public or view, game_map, around, whole)
    layer = static_layer(game_map, size)
    x0, y0, x1, y1 = box
    mw, mh = x1 - x0, y1 - y0
    width = max(mw, 320)
    view = on_map(view, game_map)
    foot = _footer(view, public or view, width)
    height = HEADER_H + mh + (foot.height + PAD if foot else 0)
    left = (width - mw) // 2
    img = _blank(layer, box, width, height, left).copy()
    lay = Layout(layer.layout.size, layer.layout.ox - x0 + left, layer.layout.oy - y0 + HEADER_H)
    out = Focus(img, region, whole, size)
    scale = out.scale
    floor = math.ceil(COUNTER_PX / scale - 1e-9)
    shown = set(_visible(game_map, size, box))
    _pieces(out, view, game_map, lay, shown, floor, whole, mh)
    out.numbers = (lay, frozenset(shown))
    _header(img, view, width)
    if foot:
        d = ImageDraw.Draw(img)
        y = HEADER_H + mh
        d.line([(0, y), (width, y)], fill=RULE, width=2)
        foot.draw(d, img, PAD, y + PAD // 2, width - 2 * PAD)
    return out


_BLANKS: OrderedDict[tuple[int, tuple[int, int, int, int], int, int, int], tuple[Image.Image, Image.Image]] = (
    OrderedDict()
)
_BLANKS_KEPT = 32
_BLANKS_LOCK = threading.Lock()


def _blank(layer: StaticLayer, box: tuple[int, int, int, int], width: int, height: int, left: int) -> Image.Image:
    """A focus view's page with its crop of the terrain layer, kept per layer, crop and size (a
    game's posts frame the same few regions again and again); draw on a copy. The layer's image
    is kept with it, so its id is not reused meanwhile."""
    key = (id(layer.image), box, width, height, left)
    with _BLANKS_LOCK:
        hit = _BLANKS.get(key)
        if hit is not None and hit[0] is layer.image:
            _BLANKS.move_to_end(key)
            return hit[1]
    img = Image.new("RGB", (width, height), BACKGROUND)
    img.paste(layer.image.crop(box), (left, HEADER_H))
    with _BLANKS_LOCK:
        _BLANKS[key] = (layer.image, img)
        while len(_BLANKS) > _BLANKS_KEPT:
            _BLANKS.popitem(last=False)
    return img


@lru_cache(maxsize=64)
def _visible(game_map: GameMap, size: int, box: tuple[int, int, int, int]) -> frozenset[Hex]:
    """Map hexes whose centre falls inside the map area of a focus view cut at ``box`` from the
    layer of hex ``size``."""
    lay = layer_shape(game_map, size).layout
    x0, y0, x1, y1 = box
    return frozenset(h for h in game_map.hexes if x0 <= lay.centre(h)[0] <= x1 and y0 <= lay.centre(h)[1] <= y1)


def _pieces(
    out: Focus, view: View, game_map: GameMap, lay: Layout, shown: set[Hex], floor: int, whole: bool, mh: int
) -> None:
    from render.compose import draw_pieces

    area = (0.0, float(HEADER_H), float(out.image.width), float(HEADER_H + mh))
    draw_pieces(out, view, game_map, lay, floor, area, shown=shown, crowded=whole)


def fit_phase(phase: str, f: ImageFont.FreeTypeFont, room: float) -> str:
    """The phase in ``room`` pixels: without its rule's number in brackets first (the full map's
    title bar has it), only then cut short."""
    if text_width(f, phase) > room:
        phase = re.sub(r"\s*\([^()]*\)$", "", phase) or phase
    while text_width(f, phase) > room and len(phase) > 4:
        phase = phase[:-2].rstrip() + "\u2026"
    return phase


def _header(img: Image.Image, view: View, width: int) -> None:
    """Two lines on the dark bar: the title, turn and phase; who is to move (or the result)."""
    img.paste(TITLE_BG, (0, 0, width, HEADER_H))
    big, small = font(15, "bold"), font(13, "regular")
    title = view.title
    turn = f"Turn {view.turn}" if view.turn else ""
    right = " \u00b7 ".join(p for p in (turn, view.phase) if p)
    low = ""
    if text_width(small, right) > width * 0.5:
        right, low = turn, view.phase  # a long phase goes on the second line
    room = width - 2 * PAD - text_width(small, right) - 10
    while title and text_width(big, title) > room and len(title) > 4:
        title = title[:-2].rstrip() + "\u2026"
    put_text(img, (PAD, 13), title, big, TITLE_FG, "lm")
    put_text(img, (width - PAD, 13), right, small, (200, 204, 214), "rm")
    if low:
        low = fit_phase(low, small, width * 0.45)
        put_text(img, (width - PAD, 34), low, small, (200, 204, 214), "rm")
    who = to_move(view)
    x = PAD
    if view.active in view.sides and "to move" in who:
        ImageDraw.Draw(img).rounded_rectangle([x, 27, x + 13, 40], radius=3, fill=side_colour(view.sides, view.active),
                                              outline=TITLE_FG)
        x += 19
    room = width - x - PAD - (text_width(small, low) + 10 if low else 0)
    f = fit_font(who, room, 14, "bold", 10)
    put_text(img, (x, 34), who, f, TITLE_FG, "lm")


def _footer(view: View, public: View, width: int):
    """The compact caption: the events the board marks in a sentence or two, as the alt text says them (the
    latest: a new phase's board still marks the last turn's), then the viewer's own lines."""
    from render.alttext import LATEST, events_text

    lines = [f"{LATEST} {t}" for t in (events_text(public),) if t]
    lines += [f"(only you) {p}" for p in view.private]
    if not lines:
        return None
    return text_lines(lines, width - 2 * PAD, 13)

