"""Copying game states quickly: ``apply`` copies the state it is given, so this is on every path."""

from __future__ import annotations

import copy
from typing import Any, TypeVar

from pydantic import BaseModel

T = TypeVar("T")
_ATOMS = frozenset((str, int, float, bool, type(None), bytes))
_set = object.__setattr__


def clone(obj: T) -> T:
    """A deep copy of a state built from pydantic models, dicts, lists, sets and atoms.

    Several times faster than ``model_copy(deep=True)``, which goes through ``copy.deepcopy``.
    """
    return _clone(obj)  # type: ignore[no-any-return]


def _clone(x: Any) -> Any:
    t = type(x)
    if t in _ATOMS:
        return x
    # Atoms are by far the most common values: they are shared without a call.
    if t is dict:
        return {k: v if type(v) in _ATOMS else _clone(v) for k, v in x.items()}
    if t is list:
        return [v if type(v) in _ATOMS else _clone(v) for v in x]
    if isinstance(x, BaseModel):
        new = object.__new__(t)
        fields = {k: v if type(v) in _ATOMS else _clone(v) for k, v in x.__dict__.items()}
        _set(new, "__dict__", fields)
        _set(new, "__pydantic_fields_set__", set(x.__pydantic_fields_set__))
        extra = x.__pydantic_extra__
        _set(new, "__pydantic_extra__", None if extra is None else _clone(extra))
        private = x.__pydantic_private__
        _set(new, "__pydantic_private__", None if private is None else _clone(private))
        return new
    if t is tuple:
        if all(type(v) in _ATOMS for v in x):
            return x  # a tuple of atoms cannot change
        return tuple(_clone(v) for v in x)
    if t is set:
        return set(x)
    if t is frozenset:
        return x
    return copy.deepcopy(x)
