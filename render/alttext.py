"""Alt text of a board: game, turn, phase, who is to move, and the events it marks (the latest: this phase's,
and until the next order the last turn's) in a sentence or two.

Built from the spectator's view only, so it never tells a channel anything sealed.
"""

from __future__ import annotations

from engine.core.protocol import View
from render.panel import is_over, result_text, to_move

ALT_LIMIT = 1024
"""Discord's limit on an attachment's description."""

LATEST = "Latest changes:"
"""What the marked events are said to be: this phase's and, until the next order, the last turn's (OneWorld's
and Chitin's ``previous`` changes, still marked on a new phase's board), so not "this phase's"."""


def _names(view: View, hexes: list[str]) -> list[str]:
    """The counters in ``hexes`` by name: the label, with the sub-label when it is a unit's id
    ("Stone B3"), not its figures ("R4", not "R4 GT 12-6")."""
    at = set(hexes)
    out = []
    for c in view.counters:
        if c.hex not in at or not c.label:
            continue
        if c.hidden:
            out.append("a hidden counter")
        else:
            out.append(f"{c.label} {c.sub}" if c.sub and " " not in c.sub and len(c.sub) <= 4 else c.label)
    return out


def _hexes_of(view: View, kind: str) -> list[str]:
    return list(dict.fromkeys(h.hex for h in view.highlights if h.kind == kind))


def events_text(view: View) -> str:
    """The events the board marks (this phase's and, until the next order, the last turn's) in a sentence
    or two: moves, combats and their results, losses, blasts."""
    parts: list[str] = []
    moves = [(a.src, a.dst) for a in view.arrows if a.kind == "move"]
    moved = _hexes_of(view, "moved")
    if moves:
        # Each move once, in the moves' order. An arrow does not say which counter made it: what stands at
        # its end is named only when all of it came by such arrows (a stack joined there, or a counter that
        # was there before, would be named as a mover); else how many units moved.
        paths = list(dict.fromkeys(moves))
        # where a fight followed (a loss, a combat), what stands at a move's end need not be what moved
        fought = set(_hexes_of(view, "loss")) | set(_hexes_of(view, "combat")) | {
            a.dst for a in view.arrows if a.kind != "move"}
        each = []
        for src, dst in paths[:6]:
            k = moves.count((src, dst))
            names = _names(view, [dst])
            arrived = sum(moves.count(p) for p in paths if p[1] == dst)
            who = " and ".join(names) if names and len(names) == arrived == k and dst not in fought else \
                f"{k} units" if k > 1 else "a unit"
            each.append(f"{who} {src}-{dst}")
        parts.append("Moved " + ", ".join(each) + ("..." if len(paths) > 6 else ""))
    elif moved:
        # outlined hexes are where moves began and ended: which counter moved, the view does not say
        parts.append("Movement in " + ", ".join(moved[:8]) + ("..." if len(moved) > 8 else ""))
    combats: dict[str, list[str]] = {}
    for a in view.arrows:
        if a.kind != "move":
            combats.setdefault(a.dst, [])
            if a.label and a.label not in combats[a.dst]:
                combats[a.dst].append(a.label)
    for h in _hexes_of(view, "combat"):
        combats.setdefault(h, [])
    if combats:
        parts.append("combat in " + ", ".join(
            f"{h}" + (f" ({'; '.join(labels)})" if labels else "") for h, labels in list(combats.items())[:6]))
    losses = _hexes_of(view, "loss")
    if losses:
        parts.append("losses in " + ", ".join(losses[:8]))
    blasts = _hexes_of(view, "blast")
    if blasts:
        parts.append("blasts in " + ", ".join(blasts[:8]))
    if not parts:
        return ""
    text = "; ".join(parts) + "."
    return text[0].upper() + text[1:]


def alt_text(view: View) -> str:
    """The alt text of a board of ``view`` (a spectator's view), at most ``ALT_LIMIT`` characters."""
    head = view.title or view.game
    turn = f"turn {view.turn}" if view.turn else ""
    phase = view.phase
    lead = ", ".join(p for p in (head, turn, phase) if p) + "."
    who = to_move(view)
    if is_over(view):
        who = f"Game over: {result_text(view)}"
    out = lead + (f" {who}." if who else "")
    events = events_text(view)
    out += f" {LATEST} {events}" if events else " Nothing has happened yet this phase."
    if len(out) > ALT_LIMIT:
        out = out[: ALT_LIMIT - 1].rstrip() + "\u2026"
    return out

