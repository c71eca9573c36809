"""The four Demolition Charge patterns in each of the six orientations, hex by hex (8.2, RULINGS 4).

The expected hexes are walked step by step from hex no. 1 along the named directions,
independently of the offsets in data/annihilator/patterns.json.
"""

from __future__ import annotations

import pytest

from engine.core.hexes import DIRECTION_NAMES, format_ccrr, neighbor
from engine.games.annihilator import data
from engine.games.annihilator.demolition import pattern_hexes, pattern_numbers

AT = "1310"


def walk(start: str, f: int, *steps: int) -> str:
    """From ``start``, step in each direction given relative to the facing ``f``."""
    h = data.hexes_by_number()[start]
    for d in steps:
        h = neighbor(h, f + d)
    return format_ccrr(h)


def expected(pattern: str, f: int) -> list[str]:
    """Hex numbers 1, 2, 3, ... of a pattern set at AT facing ``f``, from the diagrams' words."""
    if pattern == "A":  # a straight line of four, 1 at the bottom, 4 at the top
        return [walk(AT, f), walk(AT, f, 0), walk(AT, f, 0, 0), walk(AT, f, 0, 0, 0)]
    if pattern == "B":  # 1; 2 and 3 above it; 4, 5 and 6 across the top
        return [walk(AT, f), walk(AT, f, -1), walk(AT, f, 1), walk(AT, f, -1, -1), walk(AT, f, 0),
                walk(AT, f, 1, 1)]
    if pattern == "C":  # 1 at the centre, 2 to 7 round it
        return [walk(AT, f)] + [walk(AT, f, k) for k in range(6)]
    # D: 1 at the bottom, 3 above it, 2 to the left and 4 to the right
    return [walk(AT, f), walk(AT, f, -1), walk(AT, f, 0), walk(AT, f, 1)]


ODDS = {
    "A": ["clear", "4-1", "2-1", "2-1"],
    "B": ["clear", "3-1", "3-1", "2-1", "2-1", "2-1"],
    "C": ["clear"] + ["2-1"] * 6,
    "D": ["clear", "2-1", "4-1", "2-1"],
}


@pytest.mark.parametrize("facing", range(6), ids=DIRECTION_NAMES)
@pytest.mark.parametrize("pattern", "ABCD")
def test_8_2_pattern_hexes_in_every_orientation(pattern, facing):
    assert pattern_numbers(pattern, AT, facing) == expected(pattern, facing)
    got = pattern_hexes(pattern, data.hexes_by_number()[AT], facing)
    assert [n for n, _, _ in got] == list(range(1, len(ODDS[pattern]) + 1))
    assert [o for _, _, o in got] == ODDS[pattern]  # the Demolition Charge Table's odds


def test_8_2_patterns_facing_north_as_printed_numbers():
    # Column 13 sits half a hex above columns 12 and 14 (odd-q): 1209 and 1409 are up-left and up-right.
    assert pattern_numbers("A", AT, 0) == ["1310", "1309", "1308", "1307"]
    assert pattern_numbers("B", AT, 0) == ["1310", "1209", "1409", "1109", "1309", "1509"]
    assert pattern_numbers("C", AT, 0) == ["1310", "1309", "1409", "1410", "1311", "1210", "1209"]
    assert pattern_numbers("D", AT, 0) == ["1310", "1209", "1309", "1409"]


def test_8_2_a_pattern_running_off_the_map_loses_those_hexes():
    edge = data.impact_hex(1, 7)
    hexes = pattern_numbers("A", edge, 0)
    assert hexes[0] == edge and len(hexes) < 4
