"""Chitin: I data files (counters, chits, scenarios), validated once and cached."""

from __future__ import annotations

import json
from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict

from engine.core.maps import DATA_DIR, GameMap, load_map
from engine.core.odds import OddsTable, load_table

Role = Literal["warrior", "air", "basic", "worker"]


class UnitType(BaseModel):
    """One unit type of the counter sheet (rule 2.022); strengths are per unit."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    role: Role
    cls: str
    strength: int
    disrupted: int
    defence: int = 0
    move: int
    charge: bool = False


class SheetEntry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    type: str
    units: int
    count: int


class CounterData(BaseModel):
    """data/chitin/counters.json."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    source: str
    notes: str
    types: dict[str, UnitType]
    class_adds: dict[str, str]
    sheet: list[SheetEntry]


class ChitData(BaseModel):
    """data/chitin/chits.json."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    source: str
    notes: str
    lettered: dict[str, int]
    unnumbered: list[str]
    limit: int


class Scenario(BaseModel):
    """One scenario of rule 3.03."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    title: str
    rule: str
    chits: list[str]
    fixed: list[str] = []
    points: int = 0
    types: list[str] = []
    plunge_limit: int = 0
    workers: int = 6
    advanced: bool
    chits_to_win: int = 0


class ScenarioData(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    source: str
    notes: str
    scenarios: dict[str, Scenario]


def _read(name: str) -> object:
    return json.loads((DATA_DIR / "chitin" / name).read_text())


@cache
def counters() -> CounterData:
    """The counter sheet and unit types."""
    return CounterData.model_validate(_read("counters.json"))


@cache
def chits() -> ChitData:
    """Harvest chit values."""
    return ChitData.model_validate(_read("chits.json"))


@cache
def scenarios() -> ScenarioData:
    """The scenarios of rule 3.03."""
    return ScenarioData.model_validate(_read("scenarios.json"))


def unit_type(code: str) -> UnitType:
    """The unit type for a code such as ``GT``."""
    return counters().types[code]


def board() -> GameMap:
    """The Chitin map."""
    return load_map("chitin")


def crt() -> OddsTable:
    """The Combat Results Table."""
    return load_table("chitin-crt")


@cache
def kind_code(kind: str) -> tuple[str, int]:
    """``'GT3'`` -> ``('GT', 3)``; ``'B'`` -> ``('B', 1)``."""
    code = kind.rstrip("0123456789")
    return code, int(kind[len(code):] or 1)


@cache
def kind_points(kind: str) -> int:
    """Combat strength points of a counter kind, as force selection counts them (rule 3.032)."""
    code, units = kind_code(kind)
    return unit_type(code).strength * units


def sheet_kinds() -> list[str]:
    """The 56 counters of rule 2.02 as kinds (``GT3``...), in sheet order."""
    out: list[str] = []
    for e in counters().sheet:
        kind = e.type if e.type in ("B", "W") else f"{e.type}{e.units}"
        out.extend([kind] * e.count)
    return out
