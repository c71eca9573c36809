"""The Chitin map as the rules use it: terrain costs, megahexes, ends, stacks, fronts and rears."""

from __future__ import annotations

from functools import cache

from engine.core.hexes import (
    Hex,
    direction_between,
    distance,
    format_ccrr,
    from_offset,
    half_turn,
    megahex_centre,
    neighbors,
)
from engine.core.hexes import megahex as megahex_hexes
from engine.games.chitin.data import board, unit_type
from engine.games.chitin.state import Counter, State

DIRS = ("N", "NE", "SE", "S", "SW", "NW")


class Geometry:
    """Everything about the map that never changes, computed once."""

    def __init__(self) -> None:
        m = board()
        self.map = m
        self.hex_of: dict[str, Hex] = {format_ccrr(h): h for h in m.hexes}
        self.text: dict[Hex, str] = {h: t for t, h in self.hex_of.items()}
        self.nbrs: dict[Hex, list[Hex]] = {h: [n for n in neighbors(h) if n in m.hexes] for h in m.hexes}
        assert m.megahex_origin is not None
        self.centre = m.megahex_origin
        self.mega: dict[Hex, Hex] = {h: megahex_centre(h, self.centre) for h in m.hexes}
        centres = sorted(set(self.mega.values()))
        # An air unit stands on its megahex's centre, or the nearest hex on the map (8.011).
        self.anchor: dict[Hex, Hex] = {
            c: min((h for h in megahex_hexes(c) if h in m.hexes), key=lambda h: (distance(h, c), h)) for c in centres
        }
        self.mega_nbrs: dict[Hex, list[Hex]] = {}
        for c in centres:
            near = {self.mega[n] for h in megahex_hexes(c) if h in m.hexes for n in self.nbrs[h]}
            self.mega_nbrs[c] = sorted(near - {c})
        self.letter: dict[Hex, str] = {}
        for name, hexes in m.regions.items():
            for h in hexes:
                self.letter.setdefault(self.mega[h], name)
        self.edge: dict[str, frozenset[Hex]] = dict(m.edges)
        north_off = frozenset(from_offset(c, 0) for c in range(1, m.data.columns + 1))
        # The non-existent hexes beyond each end (6.01), the south row as the half-turn image of the north.
        self.off: dict[str, frozenset[Hex]] = {
            "north": north_off,
            "south": frozenset(half_turn(h, self.centre) for h in north_off),
        }
        self.edge_megas: dict[str, frozenset[Hex]] = {e: frozenset(self.mega[h] for h in hs) for e, hs in self.edge.items()}
        self.cost_cache: dict[str, dict[Hex, int]] = {}

    def terrain_cost(self, code: str) -> dict[Hex, int]:
        """Movement cost of entering each hex for a unit type (6.03, 6.031)."""
        if code not in self.cost_cache:
            out = {}
            for h in self.map.hexes:
                tags = self.map.terrain(h)
                river = "river" in tags
                rough = "forest" in tags or "slope" in tags
                if river and rough:
                    cost = 2  # 6.031: never more than 2 on account of terrain, whatever the type
                elif river:
                    cost = 1 if code == "GT" else 2  # 6.03: Gantuas wade through rivers
                elif rough:
                    cost = 1 if code == "LR" else 2  # 6.03: Low Renders scuttle across rough
                else:
                    cost = 1
                out[h] = cost
            self.cost_cache[code] = out
        return self.cost_cache[code]


@cache
def geo() -> Geometry:
    """The map geometry, built once."""
    return Geometry()


def H(text: str) -> Hex:
    """A printed hex number of the map as a Hex."""
    return geo().hex_of[text]


def T(h: Hex) -> str:
    """A Hex as its printed number."""
    return geo().text[h]


def other(seat: str, seats: tuple[str, str]) -> str:
    """The opponent of ``seat``."""
    return seats[1] if seat == seats[0] else seats[0]


def role(c: Counter) -> str:
    """warrior, air, basic or worker."""
    return unit_type(c.type).role


def is_ground(c: Counter) -> bool:
    """A counter on the ground (not an air unit)."""
    return unit_type(c.type).role != "air"


def is_combat(c: Counter) -> bool:
    """A ground counter that can attack: warriors and Basics (2.022, 2.023)."""
    return unit_type(c.type).role in ("warrior", "basic")


def strength(c: Counter) -> int:
    """Combat strength of a counter now, disrupted or not (7.064c)."""
    t = unit_type(c.type)
    return c.units * (t.disrupted if c.disrupted else t.strength)


def defence(c: Counter) -> int:
    """Defence strength: warriors and air units at strength, Basics and Workers 1 each (7.01)."""
    t = unit_type(c.type)
    if t.role in ("basic", "worker"):
        return c.units
    return strength(c)


def label(c: Counter) -> str:
    """The strength line of a counter as printed: 12-6, 4, 1d."""
    t = unit_type(c.type)
    if t.role == "worker":
        return "1d"
    if t.role in ("air", "basic"):
        return str(c.units * t.strength)
    return f"{c.units * t.strength}-{c.units * t.disrupted}"


def describe(c: Counter) -> str:
    """A counter as players name it: ``Gantua 12-6 (R3)``."""
    return f"{unit_type(c.type).name} {label(c)} ({c.id})"


class Index:
    """Where everything stands in one state: stacks by hex, zones of control, occupied hexes."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.ground: dict[Hex, list[Counter]] = {}
        self.air: dict[Hex, list[Counter]] = {}
        g = geo()
        for c in state.counters.values():
            if c.where != "map":
                continue
            h = g.hex_of[c.hex]
            if is_ground(c):
                self.ground.setdefault(h, []).append(c)
            else:
                self.air.setdefault(g.mega[h], []).append(c)
        self._zoc: dict[str, frozenset[Hex]] = {}
        self._layout: dict[str, tuple[tuple[tuple[str, bool], ...], tuple[str, ...]]] = {}
        self._stacking: dict[str, dict[Hex, tuple[int, frozenset[str]]]] = {}
        self.fronts: dict[tuple[str, Hex, int], list[Hex]] = {}
        """combat.enemies_in_front's answers, by (seat, hex, facing): an attack plan's obligations
        (7.02, 7.03) ask them over and over for the same stacks."""

    def side_at(self, h: Hex) -> str | None:
        """The side whose ground units hold ``h``, if any."""
        st = self.ground.get(h)
        return st[0].side if st else None

    def stack(self, h: Hex, seat: str) -> list[Counter]:
        """Ground counters of ``seat`` in ``h``."""
        return [c for c in self.ground.get(h, []) if c.side == seat]

    def layout(self, seat: str) -> tuple[tuple[tuple[str, bool], ...], tuple[str, ...]]:
        """What a group's ground paths depend on besides the group itself (movement._paths): the
        enemy's ground stacks, each with whether it holds a combat unit (6.04, 6.09), and the hexes
        where ``seat``'s combat units stand (6.082). Worked out once for all the groups of a phase."""
        if seat not in self._layout:
            enemy = tuple(sorted((T(h), any(role(c) != "worker" for c in st))
                                 for h, st in self.ground.items() if st[0].side != seat))
            friends = tuple(sorted(T(h) for h, st in self.ground.items()
                                   if any(c.side == seat and is_combat(c) for c in st)))
            self._layout[seat] = (enemy, friends)
        return self._layout[seat]

    def stacking(self, seat: str) -> dict[Hex, tuple[int, frozenset[str]]]:
        """Per hex holding ``seat``'s ground counters: their units and warrior types (6.05, 6.051)."""
        if seat not in self._stacking:
            out: dict[Hex, tuple[int, frozenset[str]]] = {}
            for h, st in self.ground.items():
                mine = [c for c in st if c.side == seat]
                if mine:
                    out[h] = (sum(c.units for c in mine), frozenset(c.type for c in mine if role(c) == "warrior"))
            self._stacking[seat] = out
        return self._stacking[seat]

    def zoc(self, seat: str) -> frozenset[Hex]:
        """Hexes in the zone of control of ``seat``'s ground units, Workers excepted (6.04, 6.082)."""
        if seat not in self._zoc:
            out: set[Hex] = set()
            nb = geo().nbrs
            for h, st in self.ground.items():
                if any(c.side == seat and role(c) != "worker" for c in st):
                    out.update(nb[h])
            self._zoc[seat] = frozenset(out)
        return self._zoc[seat]



def in_rear(defender: Hex, facing: int, attacker: Hex) -> bool:
    """Whether ``attacker`` stands in one of the three rear hexes of a stack (7.02, 7.041)."""
    d = direction_between(defender, attacker)
    return d is not None and (d - facing) % 6 in (2, 3, 4)


def in_front(h: Hex, facing: int, target: Hex) -> bool:
    """Whether ``target`` is one of the three hexes in front of a stack in ``h``."""
    d = direction_between(h, target)
    return d is not None and (d - facing) % 6 in (5, 0, 1)
