"""Odds-ratio combat tables loaded from data.

Odds are rounded in the defender's favour to the table's columns (7 against 3 is
2-1). What happens below the first column and beyond the last is data too: an
automatic result, "not allowed", or "use this column".
"""

from __future__ import annotations

import json
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.core.maps import DATA_DIR


def ratio_of(label: str) -> Fraction:
    """``'3-2'`` -> 3/2."""
    a, d = label.split("-")
    return Fraction(int(a), int(d))


class OuterRule(BaseModel):
    """What odds outside the columns give: from ``at_least`` (inclusive) to ``below`` (exclusive)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    at_least: str | None = None
    below: str | None = None
    effect: Literal["result", "not_allowed", "column"]
    value: str = ""
    """The automatic result, or the column to use."""
    text: str = ""

    def covers(self, r: Fraction) -> bool:
        if self.at_least is not None and r < ratio_of(self.at_least):
            return False
        if self.below is not None and r >= ratio_of(self.below):
            return False
        return True


class OddsTable(BaseModel):
    """A combat results table: one row per die face, one column per odds ratio."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    title: str
    source: Literal["printed", "reconstructed", "partly reconstructed"]
    notes: str = ""
    columns: list[str]
    rows: dict[int, list[str]]
    printed_cells: dict[int, int] = Field(default_factory=dict)
    """Die row -> how many leading cells of it are printed (the rest reconstructed)."""
    outer: list[OuterRule] = Field(default_factory=list)
    results: dict[str, str] = Field(default_factory=dict)
    """Result code -> what it means in plain words."""

    @model_validator(mode="after")
    def _check(self) -> OddsTable:
        ratios = [ratio_of(c) for c in self.columns]
        # strictly: a column repeating the odds of the one before could never be used
        if any(a >= b for a, b in zip(ratios, ratios[1:])):
            raise ValueError("columns must run from worst to best odds")
        for rule in self.outer:
            if rule.effect == "column" and rule.value not in self.columns:
                raise ValueError(f"outer rule '{rule.text or rule.effect}': '{rule.value}' is not a column")
        for die, row in self.rows.items():
            if len(row) != len(self.columns):
                raise ValueError(f"row {die} has {len(row)} cells for {len(self.columns)} columns")
        return self


class OddsLookup(BaseModel):
    """Where a combat falls on the table."""

    model_config = ConfigDict(frozen=True)

    attack: int
    defence: int
    column: str | None
    """The column used, or None when an outer rule decides."""
    outer: OuterRule | None = None

    @property
    def allowed(self) -> bool:
        return self.outer is None or self.outer.effect != "not_allowed"

    @property
    def label(self) -> str:
        if self.column:
            return self.column
        assert self.outer is not None
        return self.outer.value or self.outer.effect


def odds(table: OddsTable, attack: int, defence: int) -> OddsLookup:
    """The column for ``attack`` against ``defence``, rounded in the defender's favour."""
    if defence <= 0:
        r = Fraction(10**6)
    else:
        r = Fraction(attack, defence)
    for rule in table.outer:
        if rule.covers(r):
            if rule.effect == "column":
                return OddsLookup(attack=attack, defence=defence, column=rule.value, outer=rule)
            return OddsLookup(attack=attack, defence=defence, column=None, outer=rule)
    chosen = None
    for c in table.columns:
        if ratio_of(c) <= r:
            chosen = c
    if chosen is None:
        return OddsLookup(attack=attack, defence=defence, column=None, outer=OuterRule(effect="not_allowed", text="odds below the table"))
    return OddsLookup(attack=attack, defence=defence, column=chosen)


def result(table: OddsTable, lookup: OddsLookup, die: int) -> str:
    """The result of die roll ``die`` at ``lookup``."""
    if lookup.column is None:
        assert lookup.outer is not None
        return lookup.outer.value
    return table.rows[die][table.columns.index(lookup.column)]


def distribution(table: OddsTable, lookup: OddsLookup) -> dict[str, Fraction]:
    """The chance of each result at ``lookup`` (one die, faces equally likely)."""
    out: dict[str, Fraction] = {}
    faces = sorted(table.rows)
    for die in faces:
        res = result(table, lookup, die)
        out[res] = out.get(res, Fraction(0)) + Fraction(1, len(faces))
    return out


def load_table_file(path: Path) -> OddsTable:
    """Load and validate a table file."""
    return OddsTable.model_validate(json.loads(path.read_text()))


@cache
def load_table(table_id: str) -> OddsTable:
    """The table ``data/tables/<table_id>.json``, loaded once."""
    return load_table_file(DATA_DIR / "tables" / f"{table_id}.json")
