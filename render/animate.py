"""``animate(views)``: a game's boards as an animated GIF that fits an upload limit."""

from __future__ import annotations

import io
import math

from PIL import Image

from engine.core.maps import GameMap
from engine.core.protocol import View
from render.compose import board_image
from render.style import BACKGROUND

FRAME_MS = 1200
LAST_FRAME_MS = 3000
MIN_WIDTH = 160


def by_turn(views: list[View]) -> list[View]:
    """One view per turn: the turn's last view, showing everything that happened in the turn (the
    moves, combats, losses and blasts of each of its phases, and their arrows and results)."""
    from render.focus import quiet

    out: list[View] = []
    turn: list[View] = []
    for v in views + [None]:  # type: ignore[list-item]
        if turn and (v is None or v.turn != turn[-1].turn):
            last = turn[-1]
            lit = [h for t in turn for h in t.highlights if not quiet(h.kind) or t is last]
            arrows = [a for t in turn for a in t.arrows]
            out.append(
                last.model_copy(
                    update={"highlights": tuple(dict.fromkeys(lit)), "arrows": tuple(dict.fromkeys(arrows))}
                )
            )
            turn = []
        if v is not None:
            turn.append(v)
    return out


def animate(
    views: list[View], *, game_map: GameMap | None = None, max_bytes: int, focus: bool = True
) -> bytes:
    """An animated GIF of a game, one frame per turn (per phase in a game of one turn), scaled down until it is at most
    ``max_bytes``. Each frame shows what happened in its turn; with ``focus`` (the default) it is
    the whole map drawn for the chat width (counters only), else the full board."""
    if not views:
        raise ValueError("no boards to animate")
    turns = by_turn(views)
    if len(turns) == 1:
        turns = views  # a game of one turn (a stand-alone combat): a frame per phase
    frames = _same_size([_frame(v, game_map, focus) for v in turns])
    scale = 1.0
    while True:
        data = encode_gif(frames, scale)
        if len(data) <= max_bytes:
            return data
        if frames[0].width * scale <= MIN_WIDTH:
            if len(frames) > 1:
                frames = frames[::-2][::-1]  # every other board, always keeping the last
                continue
            raise ValueError(f"even a {MIN_WIDTH} px single frame is over {max_bytes} bytes")
        shrink = math.sqrt(max_bytes / len(data)) * 0.95
        scale = max(MIN_WIDTH / frames[0].width, scale * min(shrink, 0.9))


def _frame(view: View, game_map: GameMap | None, focus: bool) -> Image.Image:
    from render.compose import _prepared
    from render.focus import focus as focus_view

    if not focus:
        return board_image(view, game_map=game_map)
    view, game_map = _prepared(view, game_map)
    if game_map is None:
        return board_image(view)
    return focus_view(view, game_map, whole=True).image


def _same_size(frames: list[Image.Image]) -> list[Image.Image]:
    w = max(f.width for f in frames)
    h = max(f.height for f in frames)
    out = []
    for f in frames:
        if f.size != (w, h):
            canvas = Image.new("RGB", (w, h), BACKGROUND)
            canvas.paste(f, (0, 0))
            f = canvas
        out.append(f)
    return out


def shared_palette(frames: list[Image.Image]) -> Image.Image:
    """One 256-colour palette for every frame, so unchanged areas stay identical from frame to frame."""
    step = max(1, len(frames) // 12)
    sample = frames[::step]
    w, h = max(1, sample[0].width // 2), max(1, sample[0].height // 2)
    sheet = Image.new("RGB", (w, h * len(sample)))
    for i, f in enumerate(sample):
        sheet.paste(f.resize((w, h), Image.Resampling.NEAREST), (0, i * h))
    return sheet.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def encode_gif(frames: list[Image.Image], scale: float = 1.0) -> bytes:
    """GIF bytes of ``frames`` (all one size) scaled by ``scale``, on one shared palette."""
    size = (max(1, round(frames[0].width * scale)), max(1, round(frames[0].height * scale)))
    small = [
        f if scale == 1.0 else f.resize(size, Image.Resampling.BILINEAR, reducing_gap=2.0) for f in frames
    ]
    palette = shared_palette(small)
    pal = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in small]
    durations = [FRAME_MS] * (len(pal) - 1) + [LAST_FRAME_MS]
    buf = io.BytesIO()
    pal[0].save(
        buf, format="GIF", save_all=True, append_images=pal[1:], duration=durations, loop=0, disposal=1
    )
    return buf.getvalue()
