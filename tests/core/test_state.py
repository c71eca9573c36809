"""engine.core.state.clone: a deep copy equal to the original and independent of it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict, Field

from engine.core.state import clone


class Unit(BaseModel):
    id: str
    hex: str
    tags: list[str] = Field(default_factory=list)


class Fixed(BaseModel):
    model_config = ConfigDict(frozen=True)
    names: list[str]


class State(BaseModel):
    units: dict[str, Unit] = Field(default_factory=dict)
    order: list[str] = Field(default_factory=list)
    seen: set[str] = Field(default_factory=set)
    pair: tuple[int, int] = (0, 0)
    fixed: Fixed = Fixed(names=["a"])
    nested: dict[str, list[dict[str, int]]] = Field(default_factory=dict)


def sample() -> State:
    return State(units={"B1": Unit(id="B1", hex="0507", tags=["stone"])}, order=["B1"], seen={"x"}, pair=(1, 2),
                 nested={"k": [{"a": 1}]})


def test_clone_equals_the_original_and_dumps_the_same():
    s = sample()
    c = clone(s)
    assert c == s and c.model_dump_json() == s.model_dump_json()
    assert c is not s and c.units["B1"] is not s.units["B1"]


def test_changing_the_clone_leaves_the_original_alone():
    s = sample()
    before = s.model_dump_json()
    c = clone(s)
    c.units["B1"].tags.append("fog")
    c.units["B1"].hex = "0608"
    c.order.append("B2")
    c.seen.add("y")
    c.nested["k"][0]["a"] = 9
    c.fixed.names.append("b")  # a frozen model's list is still a list: it is copied too
    assert s.model_dump_json() == before


def test_fields_set_is_kept():
    s = State(order=["x"])
    assert clone(s).model_fields_set == s.model_fields_set == {"order"}


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4),
                    max_leaves=20))
def test_clone_of_json_like_data_is_equal(data):
    assert clone(data) == data
