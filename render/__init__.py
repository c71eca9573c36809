"""The board renderer: a view in, PNG (or an animated GIF) out. Pure Pillow, no I/O."""

from render.alttext import alt_text
from render.animate import animate
from render.compose import Boards, board, board_image, boards, prewarm

__all__ = ["Boards", "alt_text", "animate", "board", "board_image", "boards", "prewarm"]
