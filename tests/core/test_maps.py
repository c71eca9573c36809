"""Map files: a valid map loads; every error names the file, the hex and the problem."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.core.hexes import Hex, Hexside, neighbors, parse_ccrr
from engine.core.maps import GameMap, MapData, MapError, load_map_file


def base(**changes: Any) -> dict[str, Any]:
    """A small valid 6x5 map as it would be written in JSON."""
    raw: dict[str, Any] = {
        "id": "test",
        "title": "Test map",
        "source": "reconstructed",
        "columns": 6,
        "rows": 5,
        "terrain_types": {
            "clear": {"label": "Clear"},
            "rough": {"label": "Rough", "color": "#886644", "pattern": "dots"},
            "river": {"label": "River"},
        },
        "default_terrain": "clear",
        "terrain": {"0203": ["rough"], "0304": ["rough", "river"]},
        "hexside_types": {"runeline": {"label": "Runeline", "width": 6}, "fault": {"label": "Fault"}},
        "hexsides": [
            {"a": "0202", "b": "0203", "kind": "runeline"},
            {"a": "0303", "b": "0203", "kind": "fault"},
            {"a": "0203", "b": "0303", "kind": "runeline"},
        ],
        "named": {"tower": "0101", "well": "0605"},
        "regions": {"north": ["0101", "0201", "0301"]},
        "edges": {"west": ["0101", "0102", "0103", "0104", "0105"]},
        "megahex_origin": "0303",
    }
    raw.update(changes)
    return raw


def write(tmp_path: Path, raw: Any, name: str = "test.json") -> Path:
    path = tmp_path / name
    path.write_text(raw if isinstance(raw, str) else json.dumps(raw))
    return path


def load_error(tmp_path: Path, raw: Any) -> tuple[str, Path]:
    path = write(tmp_path, raw)
    with pytest.raises(MapError) as err:
        load_map_file(path)
    return str(err.value), path


# --- a valid map -----------------------------------------------------------------------------


def test_valid_map_loads_from_a_file(tmp_path: Path) -> None:
    m = load_map_file(write(tmp_path, base()))
    assert m.id == "test"
    assert m.origin == str(tmp_path / "test.json")
    assert len(m.hexes) == 6 * 5
    assert parse_ccrr("0605") in m and parse_ccrr("0105") in m
    assert parse_ccrr("0706") not in m and parse_ccrr("0106") not in m and Hex(-1, 0) not in m
    assert m.terrain(parse_ccrr("0203")) == {"rough"}
    assert m.terrain(parse_ccrr("0304")) == {"rough", "river"}
    assert m.terrain(parse_ccrr("0505")) == {"clear"}
    assert m.has(parse_ccrr("0304"), "river")
    assert not m.has(parse_ccrr("0203"), "river")
    assert m.named == {"tower": parse_ccrr("0101"), "well": parse_ccrr("0605")}
    assert m.regions["north"] == {parse_ccrr("0101"), parse_ccrr("0201"), parse_ccrr("0301")}
    assert len(m.edges["west"]) == 5
    assert m.megahex_origin == parse_ccrr("0303")


def test_valid_map_built_in_code() -> None:
    m = GameMap(MapData.model_validate(base()))
    assert m.origin == "<memory>"
    assert len(m.hexes) == 30


def test_rectangle_holds_exactly_the_printed_numbers() -> None:
    m = GameMap(MapData.model_validate(base()))
    printed = {parse_ccrr(f"{c:02d}{r:02d}") for c in range(1, 7) for r in range(1, 6)}
    assert m.hexes == printed


def test_hexside_features_are_symmetric_and_merged() -> None:
    m = GameMap(MapData.model_validate(base()))
    a, b, c = parse_ccrr("0202"), parse_ccrr("0203"), parse_ccrr("0303")
    assert m.hexside(a, b) == m.hexside(b, a) == {"runeline"}
    # written twice, once each way round, with two kinds: both kept on the one side
    assert m.hexside(b, c) == m.hexside(c, b) == {"fault", "runeline"}
    assert m.hexside(a, parse_ccrr("0201")) == frozenset()
    assert m.hexside_features() == {Hexside.of(a, b): {"runeline"}, Hexside.of(b, c): {"fault", "runeline"}}


def test_every_hexside_lookup_is_symmetric() -> None:
    m = GameMap(MapData.model_validate(base()))
    for h in m.hexes:
        for n in neighbors(h):
            assert m.hexside(h, n) == m.hexside(n, h)


def test_hexside_lookup_of_non_adjacent_hexes_is_refused() -> None:
    m = GameMap(MapData.model_validate(base()))
    with pytest.raises(ValueError, match="not adjacent"):
        m.hexside(parse_ccrr("0101"), parse_ccrr("0103"))


def test_explicit_hex_list_makes_an_irregular_map(tmp_path: Path) -> None:
    raw = base(
        hexes=["0101", "0201", "0102", "0202"],
        terrain={"0202": ["rough"]},
        hexsides=[{"a": "0101", "b": "0201", "kind": "fault"}],
        named={"tower": "0101"},
        regions={"all": ["0101", "0201"]},
        edges={"west": ["0101", "0102"]},
    )
    m = load_map_file(write(tmp_path, raw))
    assert m.hexes == {parse_ccrr(t) for t in ("0101", "0201", "0102", "0202")}
    assert parse_ccrr("0301") not in m  # inside the rectangle, but not listed
    assert m.terrain(parse_ccrr("0202")) == {"rough"}


def test_explicit_hex_list_excludes_unlisted_hexes_from_terrain(tmp_path: Path) -> None:
    raw = base(hexes=["0101", "0201"], terrain={"0301": ["rough"]}, hexsides=[], named={}, regions={}, edges={})
    msg, path = load_error(tmp_path, raw)
    assert str(path) in msg and "0301" in msg and "not on the map" in msg


def test_hex_lookup_for_players() -> None:
    m = GameMap(MapData.model_validate(base()))
    assert m.hex("0304") == parse_ccrr("0304")
    with pytest.raises(ValueError, match="0709 is not on the map"):
        m.hex("0709")
    with pytest.raises(ValueError, match="four digits"):
        m.hex("banana")


# --- errors: file, hex, problem ------------------------------------------------------------------


def test_unknown_terrain(tmp_path: Path) -> None:
    msg, path = load_error(tmp_path, base(terrain={"0402": ["clear", "lava"]}))
    assert str(path) in msg and "0402" in msg and "unknown terrain 'lava'" in msg


@pytest.mark.parametrize(
    ("field", "value", "where"),
    [
        ("terrain", {"0709": ["rough"]}, "terrain"),
        ("named", {"gate": "0109"}, "named 'gate'"),
        ("regions", {"south": ["0105", "0106"]}, "region 'south'"),
        ("edges", {"east": ["0605", "0705"]}, "edge 'east'"),
    ],
)
def test_off_map_hex(tmp_path: Path, field: str, value: Any, where: str) -> None:
    msg, path = load_error(tmp_path, base(**{field: value}))
    assert str(path) in msg
    assert where in msg
    assert "not on the map" in msg
    off = {"terrain": "0709", "named": "0109", "regions": "0106", "edges": "0705"}[field]
    assert off in msg


def test_non_adjacent_hexside(tmp_path: Path) -> None:
    raw = base(hexsides=[{"a": "0202", "b": "0204", "kind": "fault"}])
    msg, path = load_error(tmp_path, raw)
    assert str(path) in msg and "0202" in msg and "0204" in msg and "not adjacent" in msg


def test_hexside_of_a_hex_with_itself(tmp_path: Path) -> None:
    msg, _ = load_error(tmp_path, base(hexsides=[{"a": "0202", "b": "0202", "kind": "fault"}]))
    assert "0202" in msg and "not adjacent" in msg


def test_unknown_hexside_kind(tmp_path: Path) -> None:
    raw = base(hexsides=[{"a": "0202", "b": "0203", "kind": "wall"}])
    msg, path = load_error(tmp_path, raw)
    assert str(path) in msg and "0202/0203" in msg and "unknown kind 'wall'" in msg


@pytest.mark.parametrize(
    ("changes", "bad", "where"),
    [
        ({"terrain": {"02x3": ["rough"]}}, "02x3", "terrain"),
        ({"hexes": ["0101", "0000"]}, "0000", "hexes"),
        ({"hexsides": [{"a": "0202", "b": "203", "kind": "fault"}]}, "203", "hexsides"),
        ({"named": {"gate": "gate"}}, "gate", "named 'gate'"),
        ({"regions": {"north": ["0101", "12345"]}}, "12345", "region 'north'"),
        ({"edges": {"west": [""]}}, "''", "edge 'west'"),
        ({"megahex_origin": "00"}, "00", "megahex_origin"),
    ],
)
def test_bad_hex_number(tmp_path: Path, changes: dict[str, Any], bad: str, where: str) -> None:
    msg, path = load_error(tmp_path, base(**changes))
    assert str(path) in msg
    assert where in msg
    assert bad in msg
    assert "not a hex number" in msg


def test_unknown_default_terrain(tmp_path: Path) -> None:
    msg, path = load_error(tmp_path, base(default_terrain="swamp"))
    assert str(path) in msg and "default_terrain 'swamp'" in msg


def test_bad_json(tmp_path: Path) -> None:
    msg, path = load_error(tmp_path, '{"id": "test", "title": ')
    assert str(path) in msg and "cannot read the map" in msg


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.json"
    with pytest.raises(MapError) as err:
        load_map_file(path)
    assert str(path) in str(err.value)


def test_file_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"id": "caf\xe9"}')
    with pytest.raises(MapError) as err:
        load_map_file(path)
    assert str(path) in str(err.value)


def test_non_ascii_text_is_read_as_utf8(tmp_path: Path) -> None:
    path = tmp_path / "utf8.json"
    path.write_bytes(json.dumps(base(title="Hexagon Façade — ø"), ensure_ascii=False).encode("utf-8"))
    assert load_map_file(path).data.title == "Hexagon Façade — ø"


@pytest.mark.parametrize(
    ("changes", "where"),
    [
        ({"columns": 0}, "columns"),
        ({"rows": 100}, "rows"),
        ({"source": "invented"}, "source"),
        ({"colour": "red"}, "colour"),
        ({"terrain_types": {"clear": {"label": "Clear", "shade": 3}}}, "terrain_types.clear.shade"),
    ],
)
def test_schema_errors_name_the_file_and_field(tmp_path: Path, changes: dict[str, Any], where: str) -> None:
    msg, path = load_error(tmp_path, base(**changes))
    assert msg.startswith(f"{path}: {where}: ")


def test_missing_field(tmp_path: Path) -> None:
    raw = base()
    del raw["title"]
    msg, path = load_error(tmp_path, raw)
    assert msg.startswith(f"{path}: title: ")


def test_map_data_is_frozen() -> None:
    data = MapData.model_validate(base())
    with pytest.raises(ValueError):
        data.columns = 9  # type: ignore[misc]


def test_hexside_with_neither_hex_on_the_map(tmp_path: Path) -> None:
    raw = base(hexsides=[{"a": "0708", "b": "0709", "kind": "fault"}])
    msg, path = load_error(tmp_path, raw)
    assert str(path) in msg and "0708/0709" in msg and "not on the map" in msg


def test_hexside_along_the_map_edge_is_allowed() -> None:
    # one side on the map, one off it: a river running along the board edge
    m = GameMap(MapData.model_validate(base(hexsides=[{"a": "0605", "b": "0705", "kind": "fault"}])))
    assert m.hexside(parse_ccrr("0705"), parse_ccrr("0605")) == {"fault"}
