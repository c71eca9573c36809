"""Hex geometry in cube/axial coordinates, after Red Blob Games' hexagon guide.

Printed maps number hexes ``CCRR`` (column, row) on a flat-topped grid whose odd
columns sit half a hex higher than even ones ("odd-q" with 1-based numbers: column 1
is the first column and is "odd"). Those numbers are used only at the edges: the
engine speaks axial ``Hex(q, r)``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple


class Hex(NamedTuple):
    """A hex in axial coordinates; ``s`` is derived (q + r + s = 0)."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: object) -> Hex:  # type: ignore[override]
        if not isinstance(other, Hex):
            return NotImplemented
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def scale(self, k: int) -> Hex:
        """This hex vector multiplied by ``k``."""
        return Hex(self.q * k, self.r * k)


# Directions for a flat-topped grid, clockwise from "north" (straight up the column).
# 0: N, 1: NE, 2: SE, 3: S, 4: SW, 5: NW
DIRECTIONS: tuple[Hex, ...] = (
    Hex(0, -1),
    Hex(1, -1),
    Hex(1, 0),
    Hex(0, 1),
    Hex(-1, 1),
    Hex(-1, 0),
)
DIRECTION_NAMES: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")


def direction(d: int) -> Hex:
    """The unit vector of direction ``d`` (taken modulo 6)."""
    return DIRECTIONS[d % 6]


def neighbor(h: Hex, d: int) -> Hex:
    """The hex next to ``h`` in direction ``d``."""
    return h + direction(d)


def neighbors(h: Hex) -> list[Hex]:
    """The six hexes around ``h``, in direction order."""
    return [h + d for d in DIRECTIONS]


def direction_between(a: Hex, b: Hex) -> int | None:
    """The direction from ``a`` to an adjacent ``b``, or None when they are not adjacent."""
    diff = b - a
    for i, d in enumerate(DIRECTIONS):
        if d == diff:
            return i
    return None


def distance(a: Hex, b: Hex) -> int:
    """The number of steps between two hexes."""
    dq, dr = a[0] - b[0], a[1] - b[1]  # by index, no Hex made: the searches ask it millions of times
    return max(abs(dq), abs(dr), abs(dq + dr))


def rotate_right(h: Hex, steps: int = 1) -> Hex:
    """Rotate a hex vector clockwise by ``steps`` sixths of a turn about the origin."""
    # (q, r, s) -> (-r, -s, -q) turns N into NE on a grid drawn with y growing downwards
    x, y, z = h.q, h.r, h.s
    for _ in range(steps % 6):
        x, y, z = -y, -z, -x
    return Hex(x, y)


def rotate_about(h: Hex, centre: Hex, steps: int) -> Hex:
    """Rotate ``h`` about ``centre`` clockwise by ``steps`` sixths of a turn."""
    return centre + rotate_right(h - centre, steps)


def half_turn(h: Hex, centre: Hex) -> Hex:
    """The image of ``h`` under a half turn about ``centre``."""
    return Hex(2 * centre.q - h.q, 2 * centre.r - h.r)


def _cube_round(fq: float, fr: float) -> Hex:
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(int(q), int(r))


def line(a: Hex, b: Hex) -> list[Hex]:
    """The hexes on the straight line from ``a`` to ``b``, both included."""
    n = distance(a, b)
    if n == 0:
        return [a]
    eps = 1e-6
    out = []
    for i in range(n + 1):
        t = i / n
        fq = a.q + eps + (b.q - a.q) * t
        fr = a.r + eps + (b.r - a.r) * t
        out.append(_cube_round(fq, fr))
    return out


def ray(start: Hex, d: int, length: int) -> list[Hex]:
    """``length`` hexes going straight from ``start`` in direction ``d`` (start excluded)."""
    step = direction(d)
    out, h = [], start
    for _ in range(length):
        h = h + step
        out.append(h)
    return out


def ring(centre: Hex, radius: int) -> list[Hex]:
    """The hexes exactly ``radius`` steps from ``centre`` (the centre alone for 0)."""
    if radius == 0:
        return [centre]
    out = []
    h = centre + direction(4).scale(radius)
    for side in range(6):
        for _ in range(radius):
            out.append(h)
            h = neighbor(h, side)
    return out


def spiral(centre: Hex, radius: int) -> list[Hex]:
    """Every hex within ``radius`` of ``centre``, ring by ring."""
    out: list[Hex] = []
    for k in range(radius + 1):
        out.extend(ring(centre, k))
    return out


def within(centre: Hex, radius: int) -> Iterator[Hex]:
    """Every hex within ``radius`` of ``centre``."""
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            yield Hex(centre.q + dq, centre.r + dr)


class Hexside(NamedTuple):
    """The edge between two adjacent hexes, as an unordered pair (stored sorted)."""

    a: Hex
    b: Hex

    @staticmethod
    def of(x: Hex, y: Hex) -> Hexside:
        """The hexside between two adjacent hexes; raises ValueError otherwise."""
        if distance(x, y) != 1:
            raise ValueError(f"{x} and {y} are not adjacent")
        return Hexside(*sorted((x, y)))


# --- megahexes: 19 hexes of radius 2 tiling the plane (NOTES.md) ---------------------

MEGA_A = Hex(3, 2)
MEGA_B = Hex(-2, 5)


_ORIGIN = Hex(0, 0)


def megahex_centre(h: Hex, origin: Hex = _ORIGIN) -> Hex:
    """The centre of the 19-hex megahex holding ``h``, for a lattice through ``origin``."""
    rel = h - origin
    # Solve rel ~ a*MEGA_A + b*MEGA_B in real numbers, then check the nearby lattice points.
    det = MEGA_A.q * MEGA_B.r - MEGA_A.r * MEGA_B.q  # 3*5 - 2*(-2) = 19
    fa = (rel.q * MEGA_B.r - rel.r * MEGA_B.q) / det
    fb = (MEGA_A.q * rel.r - MEGA_A.r * rel.q) / det
    best: Hex | None = None
    for a in (int(fa) - 1, int(fa), int(fa) + 1, int(fa) + 2):
        for b in (int(fb) - 1, int(fb), int(fb) + 1, int(fb) + 2):
            c = MEGA_A.scale(a) + MEGA_B.scale(b)
            if distance(c, rel) <= 2:
                best = c
                break
        if best is not None:
            break
    assert best is not None, "the megahex lattice covers the plane"
    return origin + best


def megahex(centre: Hex) -> list[Hex]:
    """The 19 hexes of the megahex centred on ``centre``."""
    return spiral(centre, 2)


# --- printed hex numbers -------------------------------------------------------------

_CCRR = re.compile(r"^\s*(\d{2})(\d{2})\s*$")


def to_offset(h: Hex) -> tuple[int, int]:
    """(column, row), 1-based, of a hex on an odd-q flat-topped printed grid."""
    col0 = h.q
    row0 = h.r + (col0 - (col0 & 1)) // 2
    return col0 + 1, row0 + 1


def from_offset(col: int, row: int) -> Hex:
    """The hex at printed (column, row), both 1-based."""
    col0, row0 = col - 1, row - 1
    return Hex(col0, row0 - (col0 - (col0 & 1)) // 2)


def parse_ccrr(text: str) -> Hex:
    """Parse a printed hex number such as ``0507``; raises ValueError with a readable message."""
    m = _CCRR.match(str(text))
    if not m:
        raise ValueError(f"'{text}' is not a hex number: write four digits, column then row, like 0507")
    col, row = int(m.group(1)), int(m.group(2))
    if col == 0 or row == 0:
        raise ValueError(f"'{text}' is not a hex number: columns and rows start at 01")
    return from_offset(col, row)


def format_ccrr(h: Hex) -> str:
    """The printed number of a hex, e.g. ``0507``."""
    col, row = to_offset(h)
    if not (0 < col < 100 and 0 < row < 100):
        return f"({h.q},{h.r})"
    return f"{col:02d}{row:02d}"
