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


def animate(views: list[View], *, game_map: GameMap | None = None, max_bytes: int) -> bytes:
    """An animated GIF of the boards of ``views``, scaled down until it is at most ``max_bytes``."""
    if not views:
        raise ValueError("no boards to animate")
    frames = _same_size([board_image(v, game_map=game_map) for v in views])
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
