"""``board(view)``: the whole picture, the cached terrain layer with this turn's pieces on it."""

from __future__ import annotations

import io
import threading
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.core.hexes import Hex, format_ccrr, neighbor, parse_ccrr
from engine.core.maps import GameMap, load_map
from engine.core.protocol import CounterView, HighlightView, MarkerView, View
from render import palette
from render.alttext import alt_text
from render.counters import counter_width
from render.geometry import Layout
from render.legend import legend_blocks
from render.overlays import draw_arrow, place_outline, place_tint, result_labels
from render.panel import (
    PAD,
    TITLE_H,
    Block,
    box_blocks,
    caption_block,
    counter_rows,
    draw_blocks,
    heading,
    panel_background,
    sides_block,
    stack_blocks,
    stack_height,
    stack_lines,
    title_bar,
)
from render.sprites import mark, recording
from render.stacks import (
    Drawing,
    Drawn,
    Text,
    air_only,
    place_badges,
    place_markers,
    place_numbers,
    place_stack,
    shown_count,
)
from render.style import BACKGROUND, RULE, printable
from render.terrain import (
    StaticLayer,
    draw_name_tag,
    map_size,
    name_tags,
    number_box,
    number_font,
    static_layer,
)

Box = tuple[int, int, int, int]
UNDER_COUNTERS = frozenset({"move"})
"""Arrow kinds drawn beneath the counters."""
PANEL_W = 320
CARD_W = 720
COMPRESS_LEVEL = 6
"""PNG zlib level of the palette image (a palette image compresses fast even at 6)."""
FOCUS_COMPRESS_LEVEL = 1
"""PNG zlib level of the focus view: a fifth of level 6's time for a file about half as large again
(some 50 KB), which keeps the focus view within a quarter of the board's time."""


def board(view: View, *, game_map: GameMap | None = None) -> bytes:
    """The board a viewer sees, as PNG bytes."""
    view, game_map = _prepared(view, game_map)
    if game_map is None:
        return encode_png(card_image(view))
    layer = static_layer(game_map)
    # The image is encoded and dropped here, so it is drawn on a kept canvas and given back.
    dirt: list[Box] = []
    img = _compose(view, game_map, layer, CANVASES.borrow, dirt)
    png = encode_png(img, layer.image)
    CANVASES.give_back(layer, img, dirt)
    return png


@dataclass(frozen=True)
class Boards:
    """What a board post carries: the focus view (shown large in the chat) and the full map, as
    PNG bytes, and the alt text of both."""

    focus: bytes
    full: bytes
    alt: str


def boards(
    view: View, *, public: View | None = None, game_map: GameMap | None = None, around: str | None = None
) -> Boards:
    """The focus view and the full board of ``view``, and their alt text.

    ``public`` is the spectator's view of the same position: the framing and the alt text come
    from it, so a player's own secrets never move the frame or reach the text (without it, the
    view itself, less previews). ``around`` frames a given hex instead of the action.
    A map-less view has no focus view: ``focus`` is the card too.
    """
    view, game_map = _prepared(view, game_map)
    pub = printable_view(public) if public is not None else _public_part(view)
    alt = alt_text(pub)
    full = board(view, game_map=game_map)
    if game_map is None:
        return Boards(full, full, alt)
    from render.focus import focus

    fv = focus(view, game_map, pub, around)
    return Boards(encode_png(fv.image, static_layer(game_map, fv.size).image, FOCUS_COMPRESS_LEVEL), full, alt)


def _public_part(view: View) -> View:
    """What of a player's view a spectator could also see, as far as the view tells: no private
    lines, no previews of sealed orders."""
    from render.focus import quiet

    return view.model_copy(update={
        "private": (), "highlights": tuple(h for h in view.highlights if not quiet(h.kind)),
        "markers": tuple(m for m in view.markers if not quiet(m.kind)),
        "arrows": tuple(a for a in view.arrows if not quiet(a.kind)),
    })


def prewarm(maps: list[str] | None = None, views: Sequence[tuple[View, View | None]] = ()) -> int:
    """Build and keep each map's terrain layers (the full board's and the focus views') and their
    palettes, so the first board after a start is not slower than the next. Call it in the
    background at start-up (it takes a second or two a map). Returns how many layers are ready.

    ``views`` are boards to draw and drop after that, (view, spectator's view) pairs: the current
    positions of the games most likely to be played next, whose counters, stacks and hex numbers
    are then kept too (the bot passes its most recently active games, ``bot.boards.warm_up``)."""
    from engine.core.maps import DATA_DIR
    from render.focus import FOCUS_SIZES, whole_size

    names = maps if maps is not None else sorted(p.stem for p in (DATA_DIR / "maps").glob("*.json"))
    n = 0
    for name in names:
        game_map = load_map(name)
        for size in (map_size(game_map), *FOCUS_SIZES, whole_size(game_map)):
            palette.palette_of(static_layer(game_map, size).image)
            n += 1
        # One board post drawn and dropped: the fonts, the legend of the map's terrain, the title
        # bar's and the panel's texts and a canvas of the usual size are ready too.
        some = sorted(game_map.hexes)[len(game_map.hexes) // 2]
        sample = View(
            game=name, map=name, title=name, turn=1, phase="warm-up", active="A", sides={"A": "red", "B": "blue"},
            counters=(CounterView(hex=format_ccrr(some), side="A", label="A1", sub="X 1-1"),),
            highlights=(HighlightView(hex=format_ccrr(some), kind="moved"),),
            caption=("warm-up",),
        )
        boards(sample, game_map=game_map)
    from render.sprites import keeping_texts

    with keeping_texts():
        for view, public in views:
            boards(view, public=public)
    return n


def encode_png(img: Image.Image, source: Image.Image | None = None, level: int = COMPRESS_LEVEL) -> bytes:
    """PNG bytes of a board: reduced to the kept 256-colour palette of its map (``source``, the
    map's terrain layer; the style's colours alone without one), then zlib level 6."""
    # A board is flat colours and anti-aliased edges: 256 colours look the same and the file is
    # a third of the RGB one. A palette kept per map costs a few ms where searching one per board
    # (octree) cost 15-45 ms, for a file a few per cent larger (render/palette.py).
    pal = palette.reduce(img, source)
    buf = io.BytesIO()
    pal.save(buf, format="PNG", compress_level=level)
    return buf.getvalue()


def full_drawn(view: View, game_map: GameMap) -> Drawn:
    """The full board and the record of every text and box drawn over its map (for the overlap tests)."""
    view, _ = _prepared(view, game_map)
    record: list[Drawn] = []
    _compose(view, game_map, static_layer(game_map), record=record)
    return record[0]


def board_image(view: View, *, game_map: GameMap | None = None) -> Image.Image:
    """The board as a Pillow image (``board`` encodes it)."""
    view, game_map = _prepared(view, game_map)
    if game_map is None:
        return card_image(view)
    return _compose(view, game_map, static_layer(game_map))


def _prepared(view: View, game_map: GameMap | None) -> tuple[View, GameMap | None]:
    view = printable_view(view)
    if game_map is None and view.map:
        game_map = load_map(view.map)
    return view, game_map


def printable_view(view: View) -> View:
    """The view with every text a player wrote or a game built made safe to draw."""
    p = printable
    if _all_printable(view):
        return view
    return view.model_copy(
        update={
            "title": p(view.title),
            "phase": p(view.phase),
            "active": p(view.active),
            "sides": {p(k): v for k, v in view.sides.items()},
            "counters": tuple(
                c.model_copy(update={"side": p(c.side), "label": p(c.label), "sub": p(c.sub)})
                for c in view.counters
            ),
            "markers": tuple(
                m.model_copy(update={"text": p(m.text), "kind": p(m.kind)}) for m in view.markers
            ),
            "arrows": tuple(a.model_copy(update={"label": p(a.label)}) for a in view.arrows),
            "boxes": {p(k): tuple(p(i) for i in items) for k, items in view.boxes.items()},
            "caption": tuple(p(c) for c in view.caption),
            "private": tuple(p(c) for c in view.private),
        }
    )


def _all_printable(view: View) -> bool:
    texts = [view.title, view.phase, view.active, *view.sides, *view.caption, *view.private, *view.boxes]
    texts += [t for items in view.boxes.values() for t in items]
    texts += [t for c in view.counters for t in (c.side, c.label, c.sub)]
    texts += [t for m in view.markers for t in (m.text, m.kind)]
    texts += [a.label for a in view.arrows]
    return all(t.isprintable() for t in texts)


@lru_cache(maxsize=4096)
def _hex_of(text: str) -> Hex | None:
    try:
        return parse_ccrr(text)
    except ValueError:
        return None


def _parse(text: str, game_map: GameMap) -> Hex | None:
    h = _hex_of(text)
    return h if h is not None and h in game_map.hexes else None


def group_counters(view: View, game_map: GameMap) -> tuple[dict[Hex, list[CounterView]], list[CounterView]]:
    """Counters by the hex they stand in, in view order, and the counters that are off the map."""
    out: dict[Hex, list[CounterView]] = defaultdict(list)
    off: list[CounterView] = []
    for cv in view.counters:
        h = _parse(cv.hex, game_map)
        if h is None:
            off.append(cv)
        else:
            out[h].append(cv)
    return dict(out), off


def on_map(view: View, game_map: GameMap) -> View:
    """The view without the highlights, markers and arrows that fall off the map (nothing draws them)."""

    def ok(text: str) -> bool:
        return _parse(text, game_map) is not None

    return view.model_copy(
        update={
            "highlights": tuple(h for h in view.highlights if ok(h.hex)),
            "markers": tuple(m for m in view.markers if ok(m.hex)),
            "arrows": tuple(a for a in view.arrows if ok(a.src) and ok(a.dst)),
        }
    )


def _panel(
    view: View,
    game_map: GameMap,
    stacks: dict[Hex, list[CounterView]],
    off: list[CounterView],
    size: float,
    room: int,
) -> list[Block]:
    inner = PANEL_W - 2 * PAD
    cw = max(40, counter_width(size))
    head: list[Block] = []
    if view.sides or view.active:
        head += [heading("Sides"), sides_block(view)]
    head += box_blocks(view, inner)
    if off:
        head += [heading("Off the map"), counter_rows(view, off, cw, inner)]
    legend = legend_blocks(view, game_map, inner)
    # Close-ups of every stack not all drawn in its hex, at full size when there is room beside
    # the map, else smaller, else as a line of text each.
    listed = {format_ccrr(h): cvs for h, cvs in sorted(stacks.items())}
    for width in (cw, 32):
        blocks = head + stack_blocks(view, listed, width, inner) + legend
        if stack_height(blocks) <= room:
            return blocks
    return head + stack_lines(listed, inner) + legend


def _compose(
    view: View,
    game_map: GameMap,
    layer: StaticLayer,
    canvas: Callable[..., Image.Image] | None = None,
    dirt: list[Box] | None = None,
    record: list[Drawn] | None = None,
) -> Image.Image:
    mw, mh = layer.image.size
    view = on_map(view, game_map)
    _stacks, off = group_counters(view, game_map)
    hidden = hidden_stacks(view, game_map, layer.layout.size)
    blocks = _panel(view, game_map, hidden, off, layer.layout.size, mh - 2 * PAD)
    width = mw + PANEL_W
    cap = caption_block(view, width - 2 * PAD)
    body_h = max(mh, stack_height(blocks) + 2 * PAD)
    height = TITLE_H + body_h + (cap.height + 2 * PAD if cap else 0)
    img = (canvas or CANVASES.fresh)(layer, width, height)
    if height > TITLE_H + mh:
        img.paste(BACKGROUND, (0, TITLE_H + mh, width, height))  # under the map: clean page for the caption
    d = ImageDraw.Draw(img, "RGBA")
    lay = Layout(layer.layout.size, layer.layout.ox, layer.layout.oy + TITLE_H)
    # Everything pasted is recorded, not only the pieces: a long label in the panel may reach
    # back over the map, and a kept canvas must be wiped there too.
    with recording(dirt if dirt is not None else []):
        drawn = Drawn(img)
        draw_pieces(drawn, view, game_map, lay, FULL_PX, (0.0, float(TITLE_H), float(mw), float(height)))
        if record is not None:
            record.append(drawn)
        title_bar(img, view, width)
        panel_background(img, mw, TITLE_H, width, TITLE_H + body_h)
        mark((mw - 2, TITLE_H, mw + 2, TITLE_H + body_h + 1))  # the panel's rule straddles its edge
        draw_blocks(d, img, blocks, mw + PAD, TITLE_H + PAD, PANEL_W - 2 * PAD)
        if cap:
            y = TITLE_H + body_h
            d.line([(0, y), (width, y)], fill=RULE, width=2)
            mark((0, y - 2, width, y + 2))
            cap.draw(d, img, PAD, y + PAD, width - 2 * PAD)
    return img


class Canvases:
    """Blank boards (page colour, the static layer under the title bar), kept per layer and size.

    ``fresh`` copies the blank. ``borrow`` and ``give_back`` go further for a board that is
    encoded and dropped at once: a board given back is wiped when it is next borrowed, which
    reuses its memory instead of asking for several megabytes anew (fresh memory costs a page
    fault every 4 KB; that was most of the time a copy took). Only the map needs wiping, and only
    where the pieces were drawn (they are recorded); the title bar, the panel and the strip
    under the map are painted over whole on every board.
    """

    BLANKS = 4
    SPARES = 2

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._blanks: dict[tuple[int, int, int], tuple[Image.Image, Image.Image]] = {}
        self._spares: dict[tuple[int, int, int], list[tuple[Image.Image, list[Box]]]] = {}

    def _blank(self, layer: StaticLayer, width: int, height: int) -> tuple[tuple[int, int, int], Image.Image]:
        key = (id(layer.image), width, height)
        with self._lock:
            hit = self._blanks.get(key)
        if hit is None or hit[0] is not layer.image:
            blank = Image.new("RGB", (width, height), BACKGROUND)
            blank.paste(layer.image, (0, TITLE_H))
            hit = (layer.image, blank)  # the layer is kept with its id, so the id cannot be reused meanwhile
            with self._lock:
                if len(self._blanks) >= self.BLANKS:
                    old = next(iter(self._blanks))
                    self._blanks.pop(old)
                    self._spares.pop(old, None)
                self._blanks[key] = hit
                self._spares.pop(key, None)  # spares of a replaced layer are not wiped to this one
        return key, hit[1]

    def fresh(self, layer: StaticLayer, width: int, height: int) -> Image.Image:
        """A new blank board of this size."""
        return self._blank(layer, width, height)[1].copy()

    def borrow(self, layer: StaticLayer, width: int, height: int) -> Image.Image:
        """A blank board to draw, encode and give back."""
        key, blank = self._blank(layer, width, height)
        with self._lock:
            spares = self._spares.get(key)
            spare = spares.pop() if spares else None
        if spare is None:
            return blank.copy()
        img, dirt = spare
        mw, mh = layer.image.size
        for box in _outermost(dirt, (0, TITLE_H, mw, TITLE_H + mh)):
            img.paste(blank.crop(box), box[:2])
        return img

    def give_back(self, layer: StaticLayer, img: Image.Image, dirt: list[Box]) -> None:
        """Keep a borrowed board, once encoded, for the next ``borrow`` of its size; ``dirt`` holds
        the boxes of everything drawn on its map."""
        key = (id(layer.image), img.width, img.height)
        with self._lock:
            hit = self._blanks.get(key)
            if hit is None or hit[0] is not layer.image:
                return
            spares = self._spares.setdefault(key, [])
            if len(spares) < self.SPARES:
                spares.append((img, dirt))


CANVASES = Canvases()


def _outermost(boxes: list[Box], area: Box) -> list[Box]:
    """The boxes cut to ``area``, leaving out any that lies inside another (a hex's tint, outline
    and lone counter all lie in the tint's box)."""
    ax0, ay0, ax1, ay1 = area
    cut = {
        (max(ax0, x0), max(ay0, y0), min(ax1, x1), min(ay1, y1))
        for x0, y0, x1, y1 in boxes
        if x0 < ax1 and y0 < ay1 and x1 > ax0 and y1 > ay0
    }
    out: list[Box] = []
    for b in sorted(cut, key=lambda b: (b[0] - b[2]) * (b[3] - b[1])):  # largest first
        if not any(o[0] <= b[0] and o[1] <= b[1] and o[2] >= b[2] and o[3] >= b[3] for o in out):
            out.append(b)
    return out


FULL_PX = 7
"""The smallest counter text on the full board (opened at full size): a label that does not fit at
this size is left out, and a pair of counters whose labels do not both fit shows one and a badge."""


def draw_pieces(
    out: Drawing,
    view: View,
    game_map: GameMap,
    lay: Layout,
    floor: int,
    area: tuple[float, float, float, float],
    shown: set[Hex] | None = None,
    crowded: bool = False,
) -> None:
    """Highlights, arrows, counters, markers, hex numbers, count badges and combat labels, in that
    order, onto the map area of ``out.image`` (the full board's, or the focus view's hexes
    ``shown``), recording every text and box drawn over the map.

    Every arrow passes under the counters, so none covers a counter's text; a hex draws the
    counters that keep their labels at ``floor`` (one on a ``crowded`` view or beside markers) and
    a "+N" badge for the rest, clear of the hex numbers where it can be; markers take fixed slots
    around the hex edge. A combat gets one
    label, outside the defender's hex with a leader line, where it covers nothing drawn; the full
    board places it at the least covering place when there is none, the focus view leaves it out
    (its caption names every combat)."""
    img = out.image
    d = ImageDraw.Draw(img, "RGBA")

    def there(text: str) -> Hex | None:
        h = _parse(text, game_map)
        return h if h is not None and (shown is None or h in shown) else None

    lit = [(h, hv) for hv in view.highlights if (h := there(hv.hex)) is not None]
    paint_highlights(img, lay, lit)
    arrows = [
        (a, b, av)
        for av in view.arrows
        if (a := _parse(av.src, game_map)) is not None and (b := _parse(av.dst, game_map)) is not None
        and (shown is None or a in shown or b in shown)
    ]
    for a, b, av in arrows:
        draw_arrow(d, lay, a, b, av.model_copy(update={"label": ""}))
    # A named hex's tag (a brain core's) stays readable over the highlights and arrows drawn on its
    # hex, under the counters; no arrow's label is put over it.
    tags = {h: tag for h, tag in name_tags(game_map, lay).items() if shown is None or h in shown}
    for h in sorted({h for h, _ in lit} & set(tags)):
        draw_name_tag(d, lay, *tags[h])
    stacks, _off = group_counters(view, game_map)
    markers: dict[Hex, list[MarkerView]] = defaultdict(list)
    for mv in view.markers:
        if (h := there(mv.hex)) is not None:
            markers[h].append(mv)
    drawn = {h: cvs for h, cvs in stacks.items() if shown is None or h in shown}
    air = {h for h, cvs in drawn.items() if air_only(view.game, cvs)}
    for h, cvs in sorted(drawn.items()):
        place_stack(out, lay, h, cvs, view.sides, floor, crowded or bool(markers.get(h)), h in air)
    named = frozenset(game_map.named.values())
    for h, mvs in sorted(markers.items()):
        place_markers(out, lay, h, mvs, h in drawn, floor, h in named, shown is None, h in air)
    place_numbers(out, lay, {h for h, _ in lit} | set(markers) | set(drawn))
    if out.pending:  # the numbers around the stacks, which a badge covers only where it must
        numbered = game_map.hexes if shown is None else shown
        near = {n for h in drawn for n in (h, *(neighbor(h, d) for d in range(6))) if n in numbered}
        nf = number_font(lay.size)
        place_badges(out, [number_box(lay, n, nf, halo=False) for n in sorted(near)])
    avoid = [t.box for t in out.texts] + [b for _, b in out.boxes] + [box for _, box in tags.values()]
    fights = [(a, b, av) for a, b, av in arrows if av.kind not in UNDER_COUNTERS]
    size = floor if shown is not None else 10
    texts = [t.box for t in out.texts if t.kind in ("counter", "disrupted")]
    for text, box in result_labels(d, lay, fights, avoid, size, area, shown is not None, texts):
        out.boxes.append(("label", box))
        out.texts.append(Text("label", text, size, box))


def hidden_stacks(view: View, game_map: GameMap, size: float) -> dict[Hex, list[CounterView]]:
    """The stacks of the full board not all drawn in their hex (the panel lists them)."""
    stacks, _off = group_counters(view, game_map)
    marked = {h for mv in view.markers if (h := _parse(mv.hex, game_map)) is not None}
    return {
        h: cvs for h, cvs in stacks.items()
        if (1 if air_only(view.game, cvs) else shown_count(cvs, size, FULL_PX, h in marked)) < len(cvs)
    }


def card_image(view: View) -> Image.Image:
    """A map-less game (a stand-alone combat): title bar, sides, forces, boxes and captions as a card."""
    inner = CARD_W - 2 * PAD
    blocks: list[Block] = []
    if view.sides or view.active:
        blocks += [heading("Sides"), sides_block(view)]
    by_side: dict[str, list[CounterView]] = defaultdict(list)
    for cv in view.counters:
        by_side[cv.side].append(cv)
    for side, cvs in by_side.items():
        blocks += [heading(f"{side} forces"), counter_rows(view, cvs, 56, inner)]
    blocks += box_blocks(view, inner)
    blocks += legend_blocks(view, None, inner)
    cap = caption_block(view, inner)
    if cap:
        blocks += [heading("Record"), cap]
    height = TITLE_H + stack_height(blocks) + 2 * PAD
    img = Image.new("RGB", (CARD_W, max(height, TITLE_H + 80)), BACKGROUND)
    d = ImageDraw.Draw(img, "RGBA")
    title_bar(img, view, CARD_W)
    panel_background(img, 0, TITLE_H, CARD_W - 1, img.height - 1)
    draw_blocks(d, img, blocks, PAD, TITLE_H + PAD, inner)
    return img


def paint_highlights(img: Image.Image, lay: Layout, lit: list[tuple[Hex, HighlightView]]) -> None:
    """Every highlight's tint first, then the outlines, a second one on a hex inside the first."""
    for h, hv in lit:
        if hv.kind != "zoc":  # a zone of control is a hatch alone
            place_tint(img, lay, h, hv)
    levels: dict[Hex, int] = defaultdict(int)
    for h, hv in sorted(lit, key=lambda lh: lh[1].kind != "zoc"):  # a zone of control's hatch under the rest
        place_outline(img, lay, h, hv, levels[h])
        levels[h] += hv.kind != "zoc"  # it has no outline: another highlight keeps the hex edge
