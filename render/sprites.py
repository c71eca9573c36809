"""Small pictures drawn once and pasted many times: counters, markers, badges, panel blocks.

A sprite is a transparent RGBA image drawn with plain (non-blending) ink, so a
translucent shadow keeps its alpha and an opaque body drawn over it replaces it;
pasting it with its own alpha as the mask gives the pixels that drawing in place
gives. Text drawn on a transparent sprite keeps its anti-aliasing in the alpha.

Sprites are kept by a key naming everything that changes their pixels, so a
board is the same whether its sprites were drawn now or earlier: the cache only
changes how fast it is drawn. Boards are drawn in worker threads; the cache is
locked, the images in it are never changed once stored.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from PIL import Image, ImageChops, ImageDraw, ImageFont

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Sprite:
    """A picture and the offset of its anchor from its top-left pixel."""

    image: Image.Image
    ax: int
    ay: int
    mask: Image.Image | None = None
    """The mask to paste with (None: the image's own alpha)."""

    def paste(self, img: Image.Image, x: float, y: float) -> None:
        """Paste the sprite so its anchor lands on the pixel nearest (x, y)."""
        x0, y0 = round(x) - self.ax, round(y) - self.ay
        img.paste(self.image, (x0, y0), self.mask if self.mask is not None else self.image)
        mark((x0, y0, x0 + self.image.width, y0 + self.image.height))


_RECORD = threading.local()


@contextmanager
def recording(boxes: list[tuple[int, int, int, int]]) -> Iterator[None]:
    """Collect, in this thread, the box of every sprite pasted (and every box ``mark``ed) meanwhile."""
    before = getattr(_RECORD, "boxes", None)
    _RECORD.boxes = boxes
    try:
        yield
    finally:
        _RECORD.boxes = before


def mark(box: tuple[int, int, int, int]) -> None:
    """Note that something was drawn inside ``box`` (x0, y0, x1, y1), when ``recording``."""
    boxes = getattr(_RECORD, "boxes", None)
    if boxes is not None:
        boxes.append(box)


class SpriteCache:
    """A bounded least-recently-used store of sprites."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._items: OrderedDict[Hashable, Sprite] = OrderedDict()
        self._lock = threading.Lock()
        self.stats = {"made": 0, "hits": 0}

    def get(self, key: Hashable, make: Callable[[], Sprite]) -> Sprite:
        """The sprite of ``key``, made by ``make`` on first use."""
        with self._lock:
            hit = self._items.get(key)
            if hit is not None:
                self._items.move_to_end(key)
                self.stats["hits"] += 1
                return hit
        sprite = make()
        with self._lock:
            self._items[key] = sprite
            self.stats["made"] += 1
            while len(self._items) > self.limit:
                self._items.popitem(last=False)
        return sprite

    def peek(self, key: Hashable) -> Sprite | None:
        """The sprite of ``key`` if it is kept."""
        with self._lock:
            hit = self._items.get(key)
            if hit is not None:
                self._items.move_to_end(key)
            return hit

    def clear(self) -> None:
        """Forget every sprite."""
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)


PIECES = SpriteCache(4096)
"""Counters, markers and badges (a few KB each)."""
BLOCKS = SpriteCache(256)
"""Panel and caption blocks (up to a few hundred KB each)."""


def clear_caches() -> None:
    """Forget every kept sprite."""
    PIECES.clear()
    BLOCKS.clear()
    _SEEN.clear()


def drawn(width: int, height: int, ax: int, ay: int, draw: Callable[[ImageDraw.ImageDraw], None]) -> Sprite:
    """A ``width`` x ``height`` transparent sprite anchored at (ax, ay), drawn by ``draw``."""
    img = Image.new("RGBA", (max(1, width), max(1, height)), (0, 0, 0, 0))
    draw(ImageDraw.Draw(img))
    return _cropped(img, ax, ay)


def drawn_around(
    reach: float, draw: Callable[[ImageDraw.ImageDraw, float, float], None], fx: float = 0.0, fy: float = 0.0
) -> Sprite:
    """A sprite of what ``draw(d, x, y)`` draws around (x, y), anchored on the whole pixel below
    and left of (x, y), which lies ``fx``, ``fy`` (0 <= f < 1) further right and down.

    The canvas reaches ``reach`` px each way; when the drawing touches its edge (a label too long
    for its counter, say) it is drawn again on a canvas twice the size, so nothing is cut off.
    """
    while True:
        c = math.ceil(reach) + 2
        img = Image.new("RGBA", (2 * c + 2, 2 * c + 2), (0, 0, 0, 0))
        draw(ImageDraw.Draw(img), c + fx, c + fy)
        box = img.getbbox()
        if box is None or (box[0] > 0 and box[1] > 0 and box[2] < img.width and box[3] < img.height):
            return _cropped(img, c, c)
        if reach > MAX_REACH:
            raise ValueError(f"a piece reaches more than {MAX_REACH} px from its centre")
        reach *= 2


MAX_REACH = 4096


def _cropped(img: Image.Image, ax: int, ay: int) -> Sprite:
    box = img.getbbox()  # what was drawn: pasting less costs less
    if box is None:
        return Sprite(img.crop((0, 0, 1, 1)), ax, ay)
    return Sprite(img.crop(box), ax - box[0], ay - box[1])


def on_paper(
    width: int, height: int, margin: int, paper: RGB, draw: Callable[[ImageDraw.ImageDraw, Image.Image], None]
) -> Sprite:
    """A block drawn on plain ``paper`` (as it is on the board), with ``margin`` px around it.

    It is pasted through a mask of the pixels the drawing changed, so paper stays
    untouched wherever the block drew nothing.
    """
    w, h = max(1, width + 2 * margin), max(1, height + 2 * margin)
    img = Image.new("RGB", (w, h), paper)
    draw(ImageDraw.Draw(img, "RGBA"), img)
    diff = ImageChops.difference(img, Image.new("RGB", (w, h), paper))
    r, g, b = diff.split()
    changed = ImageChops.lighter(ImageChops.lighter(r, g), b).point(lambda v: 255 if v else 0)
    box = changed.getbbox()
    if box is None:
        return Sprite(Image.new("RGB", (1, 1), paper), margin, margin, Image.new("L", (1, 1), 0))
    return Sprite(img.crop(box), margin - box[0], margin - box[1], changed.crop(box))


_SEEN: set[Hashable] = set()
"""Texts drawn once straight on the board; the second time, a picture of them is kept."""
SEEN_LIMIT = 8192
_KEEP = threading.local()


@contextmanager
def keeping_texts() -> Iterator[None]:
    """In this thread, keep a picture of every text at its first use (a warm-up draws boards
    whose texts are expected again: the first real board then draws none of them)."""
    before = getattr(_KEEP, "on", False)
    _KEEP.on = True
    try:
        yield
    finally:
        _KEEP.on = before


def blend(top: RGB, alpha: int, under: RGB) -> RGB:
    """``top`` at ``alpha`` over an opaque ``under``, as drawing in place mixes them."""
    return tuple((t * alpha + u * (255 - alpha) + 127) // 255 for t, u in zip(top, under))  # type: ignore[return-value]


def put_text(
    img: Image.Image,
    xy: tuple[float, float],
    text: str,
    font: ImageFont.FreeTypeFont,
    fill: RGB,
    anchor: str = "la",
    stroke_width: int = 0,
    stroke_fill: RGB | None = None,
) -> None:
    """``ImageDraw.text`` with the anchor on the nearest pixel, from a kept picture of the text once
    the same text has been asked for before (a caption line of this turn only is drawn straight on:
    keeping a picture of it would cost more than drawing it)."""
    if not text:
        return
    key = ("text", text, font.path, font.size, fill, anchor, stroke_width, stroke_fill)
    if PIECES.peek(key) is None and key not in _SEEN and not getattr(_KEEP, "on", False):
        if len(_SEEN) >= SEEN_LIMIT:
            _SEEN.clear()
        _SEEN.add(key)
        x, y = round(xy[0]), round(xy[1])
        ImageDraw.Draw(img, "RGBA").text(
            (x, y),
            text,
            font=font,
            fill=fill,
            anchor=anchor,
            stroke_width=stroke_width,
            stroke_fill=stroke_fill,
        )
        if getattr(_RECORD, "boxes", None) is not None:
            x0, y0, x1, y1 = (int(v) for v in font.getbbox(text, anchor=anchor, stroke_width=stroke_width))
            mark((int(x) + x0 - 2, int(y) + y0 - 2, int(x) + x1 + 2, int(y) + y1 + 2))
        return

    def make() -> Sprite:
        # Pillow's FreeType fonts measure in whole pixels (its stubs say float).
        x0, y0, x1, y1 = (int(v) for v in font.getbbox(text, anchor=anchor, stroke_width=stroke_width))
        m = 2
        ax, ay = m - x0, m - y0

        def draw(d: ImageDraw.ImageDraw) -> None:
            d.text(
                (ax, ay),
                text,
                font=font,
                fill=fill,
                anchor=anchor,
                stroke_width=stroke_width,
                stroke_fill=stroke_fill,
            )

        return drawn(x1 - x0 + 2 * m, y1 - y0 + 2 * m, ax, ay, draw)

    PIECES.get(key, make).paste(img, xy[0], xy[1])
