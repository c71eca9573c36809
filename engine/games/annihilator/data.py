"""The Annihilator's data files: units, hex types, combat effects, demolition patterns, deployment.

Everything printed or reconstructed lives in ``data/``; these models validate it so a
group owning the printed components can drop in its own files.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.core.hexes import Hex, format_ccrr
from engine.core.maps import DATA_DIR, GameMap, load_map
from engine.core.odds import OddsTable, load_table

MARINES = "Marines"
ANNIHILATOR = "Annihilator"
SEATS = (MARINES, ANNIHILATOR)
MAP_ID = "annihilator"
CRT_ID = "annihilator-crt"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class UnitType(_Frozen):
    """One kind of counter (2.2.1)."""

    name: str
    side: Literal["Marines", "Annihilator"]
    label: str
    prefix: str
    count: int
    attack: int
    defence: int
    movement: int
    charges: int
    patterns: list[str]


class UnitsFile(_Frozen):
    source: str
    notes: str = ""
    types: dict[str, UnitType]


class HexType(_Frozen):
    """A row of the Hex Type Chart: movement cost per side (None: not allowed)."""

    label: str
    human: float | None
    robot: float | None
    class_: Literal["armor", "other"] = Field(alias="class")
    auto_defend: str | None = None


class HexTypesFile(_Frozen):
    source: str
    notes: str = ""
    types: dict[str, HexType]


class Effect(_Frozen):
    """A row of the Combat Effect Table."""

    units: Literal["disrupt", "eliminate"] | None
    units_demolition: Literal["disrupt", "eliminate"] | None
    hex: dict[str, Literal["obpas", "clear"] | None]


class EffectsFile(_Frozen):
    source: str
    notes: str = ""
    results: dict[str, Effect]


class PatternHex(_Frozen):
    n: int
    offset: tuple[int, int]
    odds: str
    """An odds column of the CRT, or ``clear`` for hex 1 (always reduced to clear)."""


class Pattern(_Frozen):
    text: str
    hexes: list[PatternHex]


class PatternsFile(_Frozen):
    source: str
    notes: str = ""
    patterns: dict[str, Pattern]


class DeploymentFile(_Frozen):
    source: str
    notes: str = ""
    units: dict[str, str]


class FigureSpec(_Frozen):
    """A unit as a close assault figure (option close_combat:assault)."""

    weapon: int
    weapon_name: str = ""
    modifiers: list[str]


class FiguresFile(_Frozen):
    source: str
    notes: str = ""
    figures: dict[str, FigureSpec]


def _read(name: str) -> object:
    return json.loads((DATA_DIR / "annihilator" / name).read_text())


@cache
def units() -> UnitsFile:
    """Unit types (RULINGS, Annihilator 3)."""
    return UnitsFile.model_validate(_read("units.json"))


@cache
def hex_types() -> HexTypesFile:
    """The Hex Type Chart (5.2)."""
    return HexTypesFile.model_validate(_read("hex-types.json"))


@cache
def effects() -> EffectsFile:
    """The Combat Effect Table (7.1, 8.2)."""
    return EffectsFile.model_validate(_read("combat-effects.json"))


@cache
def patterns() -> PatternsFile:
    """The four demolition charge patterns (8.0, RULINGS 4)."""
    return PatternsFile.model_validate(_read("patterns.json"))


@cache
def deployment() -> DeploymentFile:
    """The quick default deployment of the Annihilator's units (4.1)."""
    return DeploymentFile.model_validate(_read("deployment.json"))


@cache
def figures() -> FiguresFile:
    """Close assault factors per unit type (RULINGS, the two combat systems)."""
    return FiguresFile.model_validate(_read("assault-figures.json"))


def crt() -> OddsTable:
    """The Combat Results Table."""
    return load_table(CRT_ID)


def game_map() -> GameMap:
    """The reconstructed map."""
    return load_map(MAP_ID)


@cache
def hex_numbers() -> dict[Hex, str]:
    """Every map hex and its printed number, computed once."""
    return {h: format_ccrr(h) for h in game_map().hexes}


@cache
def hexes_by_number() -> dict[str, Hex]:
    """Printed number -> hex, for the map's hexes."""
    return {n: h for h, n in hex_numbers().items()}


def impact_hex(side: int, number: int) -> str:
    """The hull hex numbered ``number`` (2-12) on side ``side`` (1-6) (4.2)."""
    return format_ccrr(game_map().named[f"impact {side}-{number}"])


@cache
def core_hexes() -> tuple[str, ...]:
    """The two brain core hexes."""
    return tuple(sorted(format_ccrr(h) for h in game_map().regions["brain core"]))
