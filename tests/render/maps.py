"""Maps built in code for the renderer's tests: the shapes of the three games' boards."""

from __future__ import annotations

from engine.core.hexes import Hex, format_ccrr, from_offset, line, megahex, neighbor, parse_ccrr, ring, spiral
from engine.core.maps import GameMap, HexsideEntry, MapData, Style


def _n(h: Hex) -> str:
    return format_ccrr(h)


def _rot(h: Hex, centre: Hex) -> Hex:
    return Hex(2 * centre.q - h.q, 2 * centre.r - h.r)


def oneworld_like() -> GameMap:
    """13 x 21, grassland with crystal pylons, Faults of Chaos and Runelines, two Tower hexes."""
    centre = from_offset(7, 11)
    pylons: set[Hex] = set()
    for seed in ("0304", "0408", "1005", "0613"):
        c = parse_ccrr(seed)
        for h in [c, neighbor(c, 2), neighbor(c, 3)]:
            pylons |= {h, _rot(h, centre)}
    faults, runes = [], []
    for a, b in [("0203", "0303"), ("0303", "0403"), ("0806", "0807"), ("0906", "0907"), ("0907", "1007")]:
        ha, hb = parse_ccrr(a), parse_ccrr(b)
        for x, y in ((ha, hb), (_rot(ha, centre), _rot(hb, centre))):
            faults.append(HexsideEntry(a=_n(x), b=_n(y), kind="fault"))
    for a, b in [("0509", "0510"), ("0609", "0610"), ("0410", "0510"), ("1109", "1110")]:
        ha, hb = parse_ccrr(a), parse_ccrr(b)
        for x, y in ((ha, hb), (_rot(ha, centre), _rot(hb, centre))):
            runes.append(HexsideEntry(a=_n(x), b=_n(y), kind="runeline"))
    data = MapData(
        id="test-oneworld",
        title="OneWorld (test)",
        source="reconstructed",
        columns=13,
        rows=21,
        terrain_types={
            "flatland": Style(label="Flatland", color="#a8c878", pattern="grass"),
            "pylon": Style(label="Crystal Pylon", color="#8fc9d8", pattern="crystal"),
        },
        default_terrain="flatland",
        terrain={_n(h): ["pylon"] for h in sorted(pylons)},
        hexside_types={
            "fault": Style(label="Fault of Chaos", color="#4b2a6e", pattern="hollow", width=6),
            "runeline": Style(label="Runeline", color="#2b2118", pattern="runes", width=3),
        },
        hexsides=faults + runes,
        named={"Tower of Balance (W)": "0111", "Tower of Balance (E)": "1311"},
    )
    return GameMap(data)


def chitin_like() -> GameMap:
    """15 x 22 with the megahex lattice, lettered megahexes A-G, rivers, forest, slopes and river+rough."""
    origin = from_offset(8, 11)
    centres = [origin] + [
        origin + d for d in (Hex(3, 2), Hex(-2, 5), Hex(-5, 3), Hex(-3, -2), Hex(2, -5), Hex(5, -3))
    ]
    centres.sort(key=lambda c: (c != origin, c.q, c.r))
    terrain: dict[str, list[str]] = {}
    for h in line(from_offset(1, 5), from_offset(15, 9)) + line(from_offset(3, 14), from_offset(12, 20)):
        terrain[_n(h)] = ["river"]
    for c in (from_offset(4, 3), from_offset(12, 16), from_offset(2, 18)):
        for h in spiral(c, 1):
            if 1 <= h.q + 1 <= 15:
                terrain.setdefault(_n(h), []).append("forest")
    for c in (from_offset(11, 4), from_offset(5, 17)):
        for h in ring(c, 1)[:4]:
            terrain.setdefault(_n(h), []).append("slope")
    for key in list(terrain)[::3]:
        if "river" in terrain[key]:
            terrain[key].append("rough")
    valid = {_n(from_offset(c, r)) for c in range(1, 16) for r in range(1, 23)}
    terrain = {k: v for k, v in terrain.items() if k in valid}
    regions = {letter: [_n(h) for h in megahex(c) if _n(h) in valid] for letter, c in zip("ABCDEFG", centres)}
    data = MapData(
        id="test-chitin",
        title="Chitin: I (test)",
        source="reconstructed",
        columns=15,
        rows=22,
        terrain_types={
            "plain": Style(label="Plain", color="#d8cf9a", pattern=""),
            "river": Style(label="River", color="#6fa8d6", pattern="waves"),
            "forest": Style(label="Forest", color="#5f9a4c", pattern="trees"),
            "slope": Style(label="Slope", color="#c2a06a", pattern="slope"),
            "rough": Style(label="Rough", color="#8a7a5a", pattern="rough"),
        },
        default_terrain="plain",
        terrain=terrain,
        regions=regions,
        megahex_origin=_n(origin),
    )
    return GameMap(data)


def annihilator_like() -> GameMap:
    """A radius-12 hexagon given as an explicit hex list: hull, masses, passages, armor round two cores."""
    centre = from_offset(13, 13)
    hexes = spiral(centre, 12)
    terrain: dict[str, list[str]] = {}
    for h in ring(centre, 12):
        terrain[_n(h)] = ["hull"]
    cores = [centre, neighbor(centre, 0)]
    for c in cores:
        terrain[_n(c)] = ["core"]
    for c in cores:
        for h in ring(c, 1):
            if _n(h) not in terrain:
                terrain[_n(h)] = ["armor"]
    for k, d in enumerate(range(6)):
        mass = neighbor(centre, d)
        mass = Hex(centre.q + (mass.q - centre.q) * 6, centre.r + (mass.r - centre.r) * 6)
        for h in spiral(mass, 1 + k % 2):
            terrain[_n(h)] = ["mass"]
    for h in line(from_offset(2, 13), from_offset(24, 13)):
        if _n(h) not in terrain:
            terrain[_n(h)] = ["passage"]
    for h in spiral(from_offset(8, 20), 1) + spiral(from_offset(18, 6), 1):
        terrain[_n(h)] = ["obstructed"]
    data = MapData(
        id="test-annihilator",
        title="Annihilator (test)",
        source="reconstructed",
        columns=25,
        rows=25,
        hexes=[_n(h) for h in hexes],
        terrain_types={
            "deck": Style(label="Deck", color="#b9bcc2", pattern=""),
            "hull": Style(label="Outer armor", color="#7d8590", pattern="plate"),
            "mass": Style(label="Impassable mass", color="#4a4e57", pattern="hatch"),
            "passage": Style(label="Passageway", color="#d9d3c3", pattern="grid"),
            "obstructed": Style(label="Obstructed", color="#a39a86", pattern="dots"),
            "armor": Style(label="Auto-defend armor", color="#8c7b5e", pattern="plate"),
            "core": Style(label="Brain core", color="#c2406a", pattern="core"),
        },
        default_terrain="deck",
        terrain=terrain,
        named={"Core 1": _n(cores[0]), "Core 2": _n(cores[1])},
    )
    return GameMap(data)


ALL = {"oneworld": oneworld_like, "chitin": chitin_like, "annihilator": annihilator_like}
