"""Rebuild data/maps/annihilator.json, the reconstructed Annihilator map (RULINGS, Annihilator 1).

Run from the project root: ``.venv/bin/python data/annihilator/build_map.py``.
The layout is ours; a group owning the printed map replaces the JSON file.
"""

from __future__ import annotations

import json
from pathlib import Path

from engine.core.hexes import Hex, distance, format_ccrr, line, neighbor, neighbors, ring, spiral

RADIUS = 12
# The centre of the hexagon, chosen so that the top row of the map is row 01.
CENTRE = Hex(12, 6)
OUT = Path(__file__).resolve().parents[1] / "maps" / "annihilator.json"
DEPLOYMENT = Path(__file__).resolve().parent / "deployment.json"

# Side 1 is the north-west side, then clockwise; on each side the eleven hexes between the corners
# carry the impact numbers 2 to 12 (4.2), counted clockwise.
SIDE_OF_DIRECTION = (1, 2, 3, 4, 5, 6)


def hull_sides() -> dict[int, list[Hex]]:
    """The hull ring split into six sides, each the eleven non-corner hexes in clockwise order."""
    hull = ring(CENTRE, RADIUS)  # starts at the SW corner, first walks north
    sides: dict[int, list[Hex]] = {}
    # ring(): segment k walks in direction k from a corner; the segment walked northwards
    # (k=0) is the south-west side of the hexagon, k=1 the north-west side, and so on.
    names = {0: 6, 1: 1, 2: 2, 3: 3, 4: 4, 5: 5}
    for k in range(6):
        seg = hull[k * RADIUS : (k + 1) * RADIUS]
        sides[names[k]] = seg[1:]
    return sides


def build() -> dict:
    hexes = spiral(CENTRE, RADIUS)
    terrain: dict[Hex, str] = {}
    cores = [CENTRE, neighbor(CENTRE, 3)]
    for h in ring(CENTRE, RADIUS):
        terrain[h] = "armor"
    core_set = set(cores)
    inner: set[Hex] = set()
    for c in cores:
        inner.update(n for n in neighbors(c) if n not in core_set)
    second: set[Hex] = set()
    for h in inner:
        second.update(n for n in neighbors(h) if n not in core_set and n not in inner)
    passage: set[Hex] = set(second)
    passage.update(ring(CENTRE, 7))
    passage.update(ring(CENTRE, 10))
    sides = hull_sides()
    for side in sides.values():
        mid = side[5]  # impact hex 7, the likeliest roll
        for h in line(mid, CENTRE):
            if distance(h, CENTRE) <= RADIUS - 1 and h not in inner and h not in core_set:
                passage.add(h)
    # Cross passages between the corridor rings on the corner lines.
    for d in range(6):
        for k in range(7, 11):
            passage.add(CENTRE + Hex(*_dir(d)).scale(k))
    impassable: set[Hex] = set()
    for d in range(6):
        for centre in (_mid(d, 4), _mid(d, 9)):
            for h in spiral(centre, 1):
                impassable.add(h)
    for h in hexes:
        if h in terrain:
            continue
        if h in core_set:
            terrain[h] = "core"
        elif h in inner:
            terrain[h] = "autodefend"
        elif h in passage:
            terrain[h] = "passage"
        elif h in impassable:
            terrain[h] = "impassable"
    named = {}
    regions = {}
    for s, side in sides.items():
        regions[f"side {s}"] = [format_ccrr(h) for h in side]
        for i, h in enumerate(side):
            named[f"impact {s}-{i + 2}"] = format_ccrr(h)
    named["brain core 1"] = format_ccrr(cores[0])
    named["brain core 2"] = format_ccrr(cores[1])
    regions["brain core"] = [format_ccrr(h) for h in cores]
    cols = [int(format_ccrr(h)[:2]) for h in hexes]
    rows = [int(format_ccrr(h)[2:]) for h in hexes]
    assert min(cols) == 1 and min(rows) == 1, (min(cols), min(rows))
    return {
        "id": "annihilator",
        "title": "Annihilator: the interior",
        "source": "reconstructed",
        "notes": (
            "Reconstructed (RULINGS, Annihilator 1): the printed 12 by 14 inch map did not survive. "
            "Printed facts kept: the armored hull round the edge, impassable masses, passageways, "
            "obstructed-passable fill, a ring of armor auto-defend hexes round the two brain core "
            "hexes at the centre, six numbered sides with hull hexes 2-12 for impact rolls (2.1, 4.2). "
            "Ours: the layout, a hexagon of radius 12; side 1 is the north-west side of the hexagon and the sides run clockwise; "
            "on each side the eleven hexes between the corners are numbered 2 to 12 clockwise "
            "('impact S-N' in named). Rebuilt by data/annihilator/build_map.py."
        ),
        "columns": max(cols),
        "rows": max(rows),
        "hexes": sorted(format_ccrr(h) for h in hexes),
        "terrain_types": {
            "obstructed": {"label": "Obstructed passable", "color": "#d9d4c7", "pattern": ""},
            "passage": {"label": "Passageway", "color": "#f4f1e8", "pattern": "hatch"},
            "impassable": {"label": "Impassable", "color": "#3b3a38", "pattern": ""},
            "armor": {"label": "Outer armor (hull)", "color": "#8a8f96", "pattern": "plate"},
            "autodefend": {"label": "Armor: auto-defend", "color": "#9fa7b3", "pattern": "dots"},
            "core": {"label": "Brain core", "color": "#b3413b", "pattern": "core"},
        },
        "default_terrain": "obstructed",
        "terrain": {format_ccrr(h): [t] for h, t in sorted(terrain.items(), key=lambda x: format_ccrr(x[0]))},
        "named": dict(sorted(named.items())),
        "regions": regions,
    }


def _dir(d: int) -> tuple[int, int]:
    from engine.core.hexes import DIRECTIONS

    return DIRECTIONS[d].q, DIRECTIONS[d].r


def _mid(d: int, k: int) -> Hex:
    """A point ``k`` out from the centre, halfway between corner lines d and d+1."""
    from engine.core.hexes import DIRECTIONS

    a, b = DIRECTIONS[d], DIRECTIONS[(d + 1) % 6]
    half = k // 2
    return CENTRE + a.scale(half) + b.scale(k - half)


def default_deployment() -> dict:
    """Security Robots guard the corridor crossings and the inner corridor; Repairbots wait near the core."""
    from engine.core.hexes import DIRECTIONS

    cores = [CENTRE, neighbor(CENTRE, 3)]
    inner_corridor = sorted(
        {h for c in cores for h in ring(c, 2)} - {h for c in cores for h in spiral(c, 1)},
        key=lambda h: (h.r, h.q),
    )
    spots = [CENTRE + DIRECTIONS[d].scale(7) for d in range(6)]
    units = {f"R{i + 1}": format_ccrr(spots[i]) for i in range(6)}
    for i in range(4):
        units[f"R{i + 7}"] = format_ccrr(inner_corridor[(i * 3) % len(inner_corridor)])
    for i in range(6):
        units[f"B{i + 1}"] = format_ccrr(inner_corridor[(i * 2 + 1) % len(inner_corridor)])
    return {
        "source": "reconstructed",
        "notes": "Ours: the quick default deployment offered to the Annihilator player (4.1), who may accept or edit it. Rebuilt by data/annihilator/build_map.py with the map.",
        "units": units,
    }


if __name__ == "__main__":
    OUT.write_text(json.dumps(build(), indent=1) + "\n")
    DEPLOYMENT.write_text(json.dumps(default_deployment(), indent=1) + "\n")
    print(f"wrote {OUT} and {DEPLOYMENT}")
