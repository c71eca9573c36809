"""Maps loaded from data files and validated: terrain per hex, features per hexside,
named hexes, regions and edges. Errors name the file, the hex and the problem."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.core.hexes import Hex, Hexside, distance, format_ccrr, from_offset, parse_ccrr

DATA_DIR = Path(__file__).resolve().parents[2] / "data"


class MapError(ValueError):
    """A map file that cannot be used; the message names the file, the hex and the problem."""


class Style(BaseModel):
    """How a terrain type or hexside feature is named and drawn."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    label: str
    color: str = "#cccccc"
    pattern: str = ""
    """A texture name the renderer knows: dots, hatch, waves, crosses, grass..."""
    width: int = 4
    """Line width for hexside features."""


class HexsideEntry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    a: str
    b: str
    kind: str


class MapData(BaseModel):
    """A map file as written in ``data/maps/*.json``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    title: str
    source: Literal["printed", "reconstructed"]
    notes: str = ""
    columns: int = Field(gt=0, lt=100)
    rows: int = Field(gt=0, lt=100)
    hexes: list[str] | None = None
    """When given, only these hexes exist (a non-rectangular map); else the whole rectangle."""
    terrain_types: dict[str, Style]
    default_terrain: str
    terrain: dict[str, list[str]] = Field(default_factory=dict)
    """Hex number -> its terrain tags (a hex may carry several, e.g. river and rough)."""
    hexside_types: dict[str, Style] = Field(default_factory=dict)
    hexsides: list[HexsideEntry] = Field(default_factory=list)
    named: dict[str, str] = Field(default_factory=dict)
    regions: dict[str, list[str]] = Field(default_factory=dict)
    edges: dict[str, list[str]] = Field(default_factory=dict)
    megahex_origin: str | None = None
    """Centre of one megahex; when set, the board draws the 19-hex megahex lattice through it."""


class GameMap:
    """A validated map in axial coordinates."""

    def __init__(self, data: MapData, origin: str = "<memory>") -> None:
        self.data = data
        self.id = data.id
        self.origin = origin

        def hx(text: str, where: str) -> Hex:
            try:
                return parse_ccrr(text)
            except ValueError as exc:
                raise MapError(f"{origin}: {where}: {exc}") from None

        if data.hexes is not None:
            self.hexes = frozenset(hx(t, "hexes") for t in data.hexes)
        else:
            self.hexes = frozenset(
                from_offset(c, r) for c in range(1, data.columns + 1) for r in range(1, data.rows + 1)
            )
        if data.default_terrain not in data.terrain_types:
            raise MapError(f"{origin}: default_terrain '{data.default_terrain}' is not in terrain_types")
        self._terrain: dict[Hex, frozenset[str]] = {}
        for text, tags in data.terrain.items():
            h = hx(text, "terrain")
            if h not in self.hexes:
                raise MapError(f"{origin}: terrain: hex {text} is not on the map")
            for t in tags:
                if t not in data.terrain_types:
                    raise MapError(f"{origin}: terrain: hex {text} has unknown terrain '{t}'")
            self._terrain[h] = frozenset(tags)
        self._default = frozenset([data.default_terrain])
        self._sides: dict[Hexside, frozenset[str]] = {}
        for e in data.hexsides:
            a, b = hx(e.a, "hexsides"), hx(e.b, "hexsides")
            if distance(a, b) != 1:
                raise MapError(f"{origin}: hexsides: {e.a} and {e.b} are not adjacent")
            if a not in self.hexes and b not in self.hexes:
                raise MapError(f"{origin}: hexsides: {e.a}/{e.b} is not on the map")
            if e.kind not in data.hexside_types:
                raise MapError(f"{origin}: hexsides: {e.a}/{e.b} has unknown kind '{e.kind}'")
            side = Hexside.of(a, b)
            self._sides[side] = self._sides.get(side, frozenset()) | {e.kind}
        self.named: dict[str, Hex] = {}
        for name, text in data.named.items():
            h = hx(text, f"named '{name}'")
            if h not in self.hexes:
                raise MapError(f"{origin}: named '{name}': hex {text} is not on the map")
            self.named[name] = h
        self.regions: dict[str, frozenset[Hex]] = {}
        for name, texts in data.regions.items():
            hs = frozenset(hx(t, f"region '{name}'") for t in texts)
            off = sorted(format_ccrr(h) for h in hs - self.hexes)
            if off:
                raise MapError(f"{origin}: region '{name}': hex {off[0]} is not on the map")
            self.regions[name] = hs
        self.edges: dict[str, frozenset[Hex]] = {}
        for name, texts in data.edges.items():
            hs = frozenset(hx(t, f"edge '{name}'") for t in texts)
            off = sorted(format_ccrr(h) for h in hs - self.hexes)
            if off:
                raise MapError(f"{origin}: edge '{name}': hex {off[0]} is not on the map")
            self.edges[name] = hs
        self.megahex_origin = hx(data.megahex_origin, "megahex_origin") if data.megahex_origin else None

    def __contains__(self, h: object) -> bool:
        return h in self.hexes

    def terrain(self, h: Hex) -> frozenset[str]:
        """The terrain tags of a hex on the map."""
        return self._terrain.get(h, self._default)

    def has(self, h: Hex, tag: str) -> bool:
        """Whether hex ``h`` carries terrain ``tag``."""
        return tag in self.terrain(h)

    def hexside(self, a: Hex, b: Hex) -> frozenset[str]:
        """The features on the hexside between two adjacent hexes."""
        return self._sides.get(Hexside.of(a, b), frozenset())

    def hexside_features(self) -> dict[Hexside, frozenset[str]]:
        """Every hexside that carries a feature."""
        return dict(self._sides)

    def hex(self, text: str) -> Hex:
        """Parse a hex number and check it is on this map; raises ValueError for players."""
        h = parse_ccrr(text)
        if h not in self.hexes:
            raise ValueError(f"hex {text} is not on the map")
        return h


def load_map_file(path: Path) -> GameMap:
    """Load and validate a map file."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:  # ValueError: bad JSON or not UTF-8
        raise MapError(f"{path}: cannot read the map: {exc}") from None
    try:
        data = MapData.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise MapError(f"{path}: {where}: {first['msg']}") from None
    return GameMap(data, str(path))


@cache
def load_map(map_id: str) -> GameMap:
    """The map ``data/maps/<map_id>.json``, loaded once."""
    return load_map_file(DATA_DIR / "maps" / f"{map_id}.json")
