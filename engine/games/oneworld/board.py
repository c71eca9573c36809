"""The OneWorld mapsheet as fast lookup tables: hexes, Pylons, hexside features, edges, wrap-around."""

from __future__ import annotations

from functools import cache

from engine.core.hexes import DIRECTIONS, Hex, format_ccrr, from_offset, parse_ccrr, to_offset
from engine.core.maps import GameMap, load_map

ENDS = ("north", "south")
SITES = ("west tower", "east tower")


class Board:
    """Everything the rules ask of the map, computed once."""

    def __init__(self, gmap: GameMap) -> None:
        self.map = gmap
        self.hexes: frozenset[Hex] = gmap.hexes
        self.pylons = frozenset(h for h in self.hexes if gmap.has(h, "pylon"))
        sides = gmap.hexside_features()
        self.faults = frozenset(s for s, kinds in sides.items() if "fault" in kinds)
        self.runelines = frozenset(s for s, kinds in sides.items() if "runeline" in kinds)
        self.sites = {name: gmap.named[name] for name in SITES}
        self.end_edges = {"north": gmap.edges["north end"], "south": gmap.edges["south end"]}
        self.columns = gmap.data.columns
        self.last_row = {
            c: max(to_offset(h)[1] for h in self.hexes if to_offset(h)[0] == c)
            for c in range(1, self.columns + 1)
        }
        self.centre = from_offset((self.columns + 1) // 2, (gmap.data.rows + 1) // 2)
        self.perimeter = self._perimeter()
        self._name = {h: format_ccrr(h) for h in self.hexes}
        self._index = {n: h for h, n in self._name.items()}
        self._fault_pairs = frozenset(p for a, b in self.faults for p in ((a, b), (b, a)))
        self._rune_pairs = frozenset(p for a, b in self.runelines for p in ((a, b), (b, a)))
        self._next = {
            wrap: {h: tuple(self._step(h, d, wrap) for d in range(6)) for h in self.hexes}
            for wrap in (False, True)
        }

    def name(self, h: Hex) -> str:
        """The printed number of a hex."""
        return self._name.get(h) or format_ccrr(h)

    def parse(self, text: str) -> Hex | None:
        """A printed hex number on this map, or None."""
        h = self._index.get(text)
        if h is not None:
            return h
        try:
            h = parse_ccrr(text)
        except ValueError:
            return None
        return h if h in self.hexes else None

    def is_fault(self, a: Hex, b: Hex) -> bool:
        """Whether the hexside between two adjacent hexes is a Fault of Chaos (5.4)."""
        return (a, b) in self._fault_pairs

    def is_runeline(self, a: Hex, b: Hex) -> bool:
        """Whether the hexside between two adjacent hexes is a Runeline (5.3)."""
        return (a, b) in self._rune_pairs

    def step(self, h: Hex, d: int, wrap: bool) -> Hex | None:
        """The hex next to ``h`` in direction ``d``; off the grid is Chaos Itself (None), unless it wraps (Chaos Gambit II)."""
        return self._next[wrap][h][d]

    def nexts(self, h: Hex, wrap: bool) -> tuple[Hex | None, ...]:
        """The six hexes next to ``h`` in direction order (None for Chaos Itself)."""
        return self._next[wrap][h]

    def _step(self, h: Hex, d: int, wrap: bool) -> Hex | None:
        n = h + DIRECTIONS[d]
        if n in self.hexes:
            return n
        return self.wrapped(n) if wrap else None

    def wrapped(self, n: Hex) -> Hex | None:
        """12.0 Chaos Gambit II: the hex at the opposite edge that corresponds to an off-grid hex."""
        col, row = to_offset(n)
        if col < 1:
            col = self.columns
        elif col > self.columns:
            col = 1
        last = self.last_row[col]
        if row < 1:
            row = last
        elif row > last:
            row = 1
        h = from_offset(col, row)
        return h if h in self.hexes else None

    def end_distance(self, h: Hex, end: str) -> int:
        """Hexes from ``h`` to an end of the map, counting the edge row as the first (3.3)."""
        col, row = to_offset(h)
        return row if end == "north" else self.last_row[col] - row + 1

    def _perimeter(self) -> tuple[Hex, ...]:
        # Clockwise as printed: along the north end, down the east side, back along the south end, up the west side.
        cols = range(1, self.columns + 1)
        ring = [from_offset(c, 1) for c in cols]
        ring += [from_offset(self.columns, r) for r in range(2, self.last_row[self.columns] + 1)]
        ring += [from_offset(c, self.last_row[c]) for c in reversed(range(1, self.columns))]
        ring += [from_offset(1, r) for r in reversed(range(2, self.last_row[1]))]
        seen: list[Hex] = []
        for h in ring:
            if h not in seen:
                seen.append(h)
        return tuple(seen)


@cache
def board() -> Board:
    """The OneWorld board, built once."""
    return Board(load_map("oneworld"))
