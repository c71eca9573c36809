"""The frame around the map: title bar, side panel (sides, boxes, big stacks, legend) and captions.

Panel contents are built as blocks that know their height, so the board can size
itself before anything is drawn.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.core.protocol import CounterView, View
from render.counters import place_counter
from render.sprites import put_text
from render.style import INK, MUTED, PANEL_BG, RGB, RULE, TITLE_BG, TITLE_FG, font, side_colour, text_width

TITLE_H = 56
PAD = 14

DrawFn = Callable[[ImageDraw.ImageDraw, Image.Image, int, int, int], None]


@dataclass
class Block:
    """A piece of the panel: its height in px and how to draw it at (x, y) in a given width."""

    height: int
    draw: DrawFn


def wrap(text: str, f, width: float) -> list[str]:
    """Break ``text`` into lines no wider than ``width`` in font ``f``."""
    if " ".join(text.split()) == text and text_width(f, text) <= width:
        return [text]  # the usual case: one line that fits, measured once
    out: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if text_width(f, trial) <= width or not line:
            line = trial
        else:
            out.append(line)
            line = word
    out.append(line)
    return out


def heading(text: str) -> Block:
    """A section heading with a rule under it."""

    def draw(d: ImageDraw.ImageDraw, img: Image.Image, x: int, y: int, w: int) -> None:
        put_text(img, (x, y + 6), text.upper(), font(13, "bold"), MUTED)
        d.line([(x, y + 24), (x + w, y + 24)], fill=RULE, width=1)

    return Block(30, draw)


def text_lines(
    lines: list[str], width: int, size: int = 14, weight: str = "regular", colour: RGB = INK, bullet: str = ""
) -> Block:
    """Wrapped lines of text, optionally bulleted."""
    f = font(size, weight)
    indent = int(text_width(f, bullet + " ")) if bullet else 0
    rows: list[tuple[str, bool]] = []
    for line in lines:
        for i, part in enumerate(wrap(line, f, width - indent)):
            rows.append((part, i == 0))
    step = size + 5

    def draw(d: ImageDraw.ImageDraw, img: Image.Image, x: int, y: int, w: int) -> None:
        for k, (part, first) in enumerate(rows):
            if bullet and first:
                put_text(img, (x, y + k * step), bullet, f, MUTED)
            put_text(img, (x + indent, y + k * step), part, f, colour)

    return Block(len(rows) * step + 4, draw)


def sides_block(view: View) -> Block:
    """One row a side: its colour chip, its seat name, its counters, and who is to move."""
    seats = list(view.sides) or sorted({c.side for c in view.counters})
    counts = {seat: sum(1 for c in view.counters if c.side == seat) for seat in seats}
    bold, small = font(16, "bold"), font(13, "regular")

    def draw(d: ImageDraw.ImageDraw, img: Image.Image, x: int, y: int, w: int) -> None:
        for k, seat in enumerate(seats):
            yy = y + k * 26
            d.rounded_rectangle(
                [x, yy + 2, x + 20, yy + 22],
                radius=4,
                fill=side_colour(view.sides, seat),
                outline=INK,
                width=1,
            )
            put_text(img, (x + 30, yy + 12), seat, bold, INK, "lm")
            note = []
            if seat == view.active:
                note.append("to move")
            if counts[seat]:
                note.append(f"{counts[seat]} counter{'s' if counts[seat] != 1 else ''}")
            if note:
                tx = x + 40 + text_width(bold, seat)
                put_text(img, (tx, yy + 12), " \u00b7 ".join(note), small, MUTED, "lm")

    return Block(len(seats) * 26 + 4, draw)


def counter_rows(view: View, counters: list[CounterView], cw: int, width: int) -> Block:
    """Counters at full size in rows, as in a stack's close-up or a map-less game's forces."""
    gap = 8
    per_row = max(1, (width + gap) // (cw + gap + 6))
    rows = (len(counters) + per_row - 1) // per_row

    def draw(d: ImageDraw.ImageDraw, img: Image.Image, x: int, y: int, w: int) -> None:
        for i, cv in enumerate(counters):
            r, c = divmod(i, per_row)
            cx = x + cw / 2 + 6 + c * (cw + gap + 6)
            cy = y + cw / 2 + 6 + r * (cw + gap + 6)
            place_counter(img, cx, cy, cw, cv, side_colour(view.sides, cv.side))

    return Block(rows * (cw + gap + 6) + 4, draw)


OVER_PHASES = frozenset({"over", "game over"})
_POINTS = re.compile(r"(\S+) (-?\d+)")


def is_over(view: View) -> bool:
    """Whether the view shows a finished game."""
    return view.phase.lower() in OVER_PHASES


def result_text(view: View) -> str:
    """The result of a finished game in a few words ("Red wins, 54 to -47"), from its caption."""
    over = next((c for c in view.caption if c.lower().startswith("game over")), "")
    text = over.split(":", 1)[1].strip().rstrip(".") if ":" in over else over
    winner = ""
    if "; winner " in text:
        text, winner = (t.strip() for t in text.rsplit("; winner ", 1))
    elif " wins" in text:
        winner = text.split(" wins", 1)[0].strip()
    points = next((c.split(":", 1)[1] for c in view.caption if c.lower().startswith("victory points:")), "")
    scores = {m.group(1): int(m.group(2)) for part in points.split(",") if (m := _POINTS.match(part.strip()))}
    if winner and winner in scores and len(scores) == 2:
        other = next(v for k, v in scores.items() if k != winner)
        return f"{winner} wins, {scores[winner]} to {other}"
    if winner and not winner.startswith("none"):
        return f"{winner} wins" + (f" ({text})" if text and " wins" not in text else "")
    if winner:
        return f"a draw ({text})" if text else "a draw"
    return text or "game over"


def to_move(view: View) -> str:
    """Who is to move, for the header: "X to move", "both choosing in secret", or the result."""
    if is_over(view):
        return "Game over: " + result_text(view)
    if " and " in view.active:
        return "Both choosing in secret"
    return f"{view.active} to move" if view.active else ""


def title_bar(img: Image.Image, view: View, width: int) -> None:
    """The dark bar on top: the game's title left, turn, phase and whose move right."""
    img.paste(TITLE_BG, (0, 0, width + 1, TITLE_H + 1))
    d = ImageDraw.Draw(img, "RGBA")
    right = " \u00b7 ".join(p for p in (f"Turn {view.turn}" if view.turn else "", view.phase) if p)
    rf = font(17, "regular")
    active_w = 0
    label = to_move(view)
    if label:
        af = font(17, "bold")
        chip = view.active in view.sides and not is_over(view)
        active_w = int(text_width(af, label)) + (34 if chip else 6)
        ax = width - PAD - active_w
        if chip:
            d.rounded_rectangle(
                [ax, 18, ax + 20, 38],
                radius=4,
                fill=side_colour(view.sides, view.active),
                outline=TITLE_FG,
                width=1,
            )
        put_text(img, (ax + (28 if chip else 6), TITLE_H // 2), label, af, TITLE_FG, "lm")
    rx = width - PAD - active_w - (16 if label and right else 0)
    if right:
        put_text(img, (rx, TITLE_H // 2), right, rf, (200, 204, 214), "rm")
    room = rx - (text_width(rf, right) if right else 0) - 2 * PAD
    tf = font(24, "bold")
    title = view.title
    while title and text_width(tf, title) > room and len(title) > 4:
        title = title[:-2].rstrip() + "\u2026" if not title.endswith("\u2026") else title[:-2] + "\u2026"
    put_text(img, (PAD, TITLE_H // 2), title, tf, TITLE_FG, "lm")


def caption_block(view: View, width: int) -> Block | None:
    """Caption lines under the board, then the viewer's private lines set apart."""
    parts: list[Block] = []
    if view.caption:
        parts.append(text_lines(list(view.caption), width, 15))
    if view.private:
        parts.append(
            text_lines([f"(only you) {p}" for p in view.private], width, 14, "regular", (120, 60, 130))
        )
    if not parts:
        return None

    def draw(d: ImageDraw.ImageDraw, img: Image.Image, x: int, y: int, w: int) -> None:
        for b in parts:
            b.draw(d, img, x, y, w)
            y += b.height

    return Block(sum(b.height for b in parts) + 8, draw)


STACK_LABEL_W = 56


def stack_blocks(view: View, stacks: dict[str, list[CounterView]], cw: int, width: int) -> list[Block]:
    """Close-ups of stacks, each counter at full size beside its hex number, so every unit can be read."""
    out: list[Block] = []
    if not stacks:
        return out
    out.append(heading("Stacks"))
    for hexnum, cvs in stacks.items():
        out.append(_stack_row(view, hexnum, cvs, cw, width))
    return out


def stack_lines(stacks: dict[str, list[CounterView]], width: int) -> list[Block]:
    """The stacks as text, a line each ("0507 \u00d73: Red A1 SR 3-2-4, ..."), for a board too
    crowded for close-ups; a face-down counter is "? (side)"."""
    if not stacks:
        return []
    lines = [
        f"{hexnum} \u00d7{len(cvs)}: " + ", ".join(
            f"? ({cv.side})" if cv.hidden else " ".join(p for p in (cv.side, cv.label, cv.sub) if p) for cv in cvs
        )
        for hexnum, cvs in stacks.items()
    ]
    return [heading("Stacks"), text_lines(lines, width, 13, bullet="\u2022")]


def _stack_row(view: View, hexnum: str, cvs: list[CounterView], cw: int, width: int) -> Block:
    rows = counter_rows(view, cvs, cw, width - STACK_LABEL_W)

    def draw(d: ImageDraw.ImageDraw, img: Image.Image, x: int, y: int, w: int) -> None:
        put_text(img, (x, y + 10), hexnum, font(15, "bold"), INK)
        put_text(img, (x, y + 30), f"\u00d7 {len(cvs)}", font(13, "regular"), MUTED)
        rows.draw(d, img, x + STACK_LABEL_W, y, w - STACK_LABEL_W)

    return Block(max(rows.height, 46), draw)


def box_blocks(view: View, width: int) -> list[Block]:
    """The off-map holding boxes and what each holds."""
    out: list[Block] = []
    if not view.boxes:
        return out
    out.append(heading("Boxes"))
    for name, items in view.boxes.items():
        out.append(text_lines([name], width, 15, "bold"))
        out.append(text_lines(list(items) or ["(empty)"], width - 10, 14, bullet="\u2022"))
    return out


def stack_height(blocks: list[Block]) -> int:
    """Total height of blocks laid one under another."""
    return sum(b.height for b in blocks)


def draw_blocks(d: ImageDraw.ImageDraw, img: Image.Image, blocks: list[Block], x: int, y: int, w: int) -> int:
    """Draw blocks one under another; returns the y below the last."""
    for b in blocks:
        b.draw(d, img, x, y, w)
        y += b.height
    return y


def panel_background(img: Image.Image, x0: int, y0: int, x1: int, y1: int) -> None:
    """The panel's paper, with a rule on its left."""
    img.paste(PANEL_BG, (x0, y0, x1 + 1, y1 + 1))
    ImageDraw.Draw(img).line([(x0, y0), (x0, y1)], fill=RULE, width=2)
