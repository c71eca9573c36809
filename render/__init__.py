"""The board renderer: a view in, PNG (or an animated GIF) out. Pure Pillow, no I/O."""

from render.animate import animate
from render.compose import board, board_image

__all__ = ["animate", "board", "board_image"]
