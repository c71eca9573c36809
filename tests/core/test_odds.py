"""Odds-ratio combat tables: rounding in the defender's favour, outer rules, validation."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from engine.core.odds import OddsTable, distribution, load_table_file, odds, ratio_of, result

COLUMNS = ["1-2", "1-1", "3-2", "2-1", "3-1", "4-1"]


def table(**changes: Any) -> OddsTable:
    raw: dict[str, Any] = {
        "id": "test-crt",
        "title": "Test CRT",
        "source": "reconstructed",
        "columns": COLUMNS,
        "rows": {
            "1": ["AE", "AR", "DR", "DR", "DE", "DE"],
            "2": ["AE", "AR", "AR", "DR", "DR", "DE"],
            "3": ["AR", "AR", "EX", "DR", "DR", "DE"],
            "4": ["AR", "EX", "EX", "EX", "DR", "DR"],
            "5": ["AE", "AR", "AR", "EX", "EX", "DR"],
            "6": ["AE", "AE", "AR", "AR", "EX", "DR"],
        },
        "results": {"AE": "attacker eliminated", "DE": "defender eliminated"},
    }
    raw.update(changes)
    return OddsTable.model_validate(raw)


def test_ratio_of() -> None:
    assert ratio_of("3-2") == Fraction(3, 2)
    assert ratio_of("1-3") == Fraction(1, 3)
    assert ratio_of("10-1") == 10


def test_seven_against_three_is_two_to_one() -> None:
    assert odds(table(), 7, 3).column == "2-1"


def test_five_against_four_is_one_to_one_not_three_to_two() -> None:
    t = table(columns=["1-1", "3-2"], rows={str(d): ["a", "b"] for d in range(1, 7)})
    lookup = odds(t, 5, 4)
    assert lookup.column == "1-1"
    assert lookup.allowed
    assert lookup.label == "1-1"
    assert (lookup.attack, lookup.defence) == (5, 4)


@pytest.mark.parametrize(
    ("attack", "defence", "column"),
    [
        (3, 2, "3-2"),  # exactly on a column
        (2, 1, "2-1"),
        (8, 3, "2-1"),  # 2.67
        (9, 3, "3-1"),
        (4, 4, "1-1"),
        (5, 11, None),  # 0.45 is below 1-2
        (5, 10, "1-2"),
        (6, 10, "1-2"),
        (40, 3, "4-1"),  # beyond the last column: the last column
    ],
)
def test_rounding_in_the_defenders_favour(attack: int, defence: int, column: str | None) -> None:
    assert odds(table(), attack, defence).column == column


def test_below_the_table_is_not_allowed_without_an_outer_rule() -> None:
    lookup = odds(table(), 1, 3)
    assert lookup.column is None
    assert not lookup.allowed
    assert lookup.outer is not None and lookup.outer.effect == "not_allowed"
    assert lookup.label == "not_allowed"


@given(st.integers(1, 200), st.integers(1, 200))
def test_column_is_the_best_not_better_than_the_odds(attack: int, defence: int) -> None:
    t = table()
    lookup = odds(t, attack, defence)
    r = Fraction(attack, defence)
    if lookup.column is None:
        assert r < ratio_of(COLUMNS[0])
        return
    i = COLUMNS.index(lookup.column)
    assert ratio_of(lookup.column) <= r
    if i + 1 < len(COLUMNS):
        assert ratio_of(COLUMNS[i + 1]) > r


OUTER = [
    {"below": "1-2", "effect": "not_allowed", "text": "odds below 1-2 are not allowed"},
    {"at_least": "7-1", "effect": "result", "value": "DE", "text": "automatic elimination"},
    {"at_least": "5-1", "below": "7-1", "effect": "column", "value": "4-1", "text": "use 4-1"},
]


def test_outer_rule_not_allowed() -> None:
    lookup = odds(table(outer=OUTER), 2, 5)
    assert lookup.column is None
    assert not lookup.allowed
    assert lookup.outer is not None and lookup.outer.text == "odds below 1-2 are not allowed"


def test_outer_rule_automatic_result() -> None:
    t = table(outer=OUTER)
    lookup = odds(t, 7, 1)  # at_least is inclusive
    assert lookup.column is None
    assert lookup.allowed
    assert lookup.label == "DE"
    assert all(result(t, lookup, die) == "DE" for die in range(1, 7))
    assert distribution(t, lookup) == {"DE": Fraction(1)}


def test_outer_rule_column() -> None:
    t = table(outer=OUTER)
    lookup = odds(t, 11, 2)  # 5.5
    assert lookup.column == "4-1"
    assert lookup.allowed
    assert lookup.outer is not None and lookup.outer.effect == "column"
    assert result(t, lookup, 1) == "DE"
    assert result(t, lookup, 6) == "DR"


def test_outer_rule_bounds() -> None:
    t = table(outer=OUTER)
    assert odds(t, 1, 2).column == "1-2"  # below is exclusive
    assert odds(t, 5, 1).column == "4-1" and odds(t, 5, 1).outer is not None
    assert odds(t, 49, 10).column == "4-1" and odds(t, 49, 10).outer is None
    assert odds(t, 13, 2).column == "4-1"  # 6.5 is below 7-1


def test_no_defence_counts_as_overwhelming_odds() -> None:
    t = table(outer=OUTER)
    assert odds(t, 3, 0).label == "DE"
    assert odds(table(), 3, 0).column == "4-1"


def test_result_reads_the_cell() -> None:
    t = table()
    lookup = odds(t, 7, 3)  # 2-1
    assert [result(t, lookup, d) for d in range(1, 7)] == ["DR", "DR", "DR", "EX", "EX", "AR"]


def test_distribution() -> None:
    t = table()
    dist = distribution(t, odds(t, 7, 3))
    assert dist == {"DR": Fraction(1, 2), "EX": Fraction(1, 3), "AR": Fraction(1, 6)}


@given(st.integers(1, 60), st.integers(1, 60))
def test_distribution_sums_to_one(attack: int, defence: int) -> None:
    t = table(outer=OUTER)
    lookup = odds(t, attack, defence)
    dist = distribution(t, lookup)
    assert sum(dist.values()) == 1
    if lookup.column is not None:
        cells = [t.rows[d][t.columns.index(lookup.column)] for d in range(1, 7)]
        assert dist == {c: Fraction(cells.count(c), 6) for c in set(cells)}


# --- validation ---------------------------------------------------------------------------------


def test_row_with_too_few_cells_is_refused() -> None:
    rows = {str(d): ["a"] * len(COLUMNS) for d in range(1, 7)}
    rows["4"] = ["a"] * (len(COLUMNS) - 1)
    with pytest.raises(ValidationError, match="row 4 has 5 cells for 6 columns"):
        table(rows=rows)


def test_row_with_too_many_cells_is_refused() -> None:
    rows = {str(d): ["a"] * len(COLUMNS) for d in range(1, 7)}
    rows["1"] = ["a"] * (len(COLUMNS) + 1)
    with pytest.raises(ValidationError, match="row 1 has 7 cells"):
        table(rows=rows)


def test_unsorted_columns_are_refused() -> None:
    with pytest.raises(ValidationError, match="worst to best"):
        table(columns=["1-1", "3-2", "2-1", "1-2", "3-1", "4-1"])


def test_repeated_column_is_refused() -> None:
    with pytest.raises(ValidationError, match="worst to best"):
        table(columns=["1-2", "1-1", "2-2", "2-1", "3-1", "4-1"])


def test_outer_column_must_be_a_column() -> None:
    outer = [{"at_least": "5-1", "effect": "column", "value": "5-1"}]
    with pytest.raises(ValidationError, match="'5-1' is not a column"):
        table(outer=outer)


def test_extra_fields_are_refused() -> None:
    with pytest.raises(ValidationError):
        table(colour="red")


def test_load_table_file(tmp_path: Path) -> None:
    t = table(outer=OUTER)
    path = tmp_path / "t.json"
    path.write_text(t.model_dump_json())
    loaded = load_table_file(path)
    assert loaded == t
    assert odds(loaded, 7, 3).column == "2-1"
    bad = json.loads(t.model_dump_json())
    bad["columns"] = list(reversed(bad["columns"]))
    path.write_text(json.dumps(bad))
    with pytest.raises(ValidationError):
        load_table_file(path)
