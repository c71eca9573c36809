"""Copying game states quickly: ``apply`` copies the state it is given, so this is on every path."""

from __future__ import annotations

import copy
import types
import typing
from typing import Any, TypeVar

from pydantic import BaseModel

T = TypeVar("T")
_ATOMS = frozenset((str, int, float, bool, type(None), bytes))
_set = object.__setattr__
_FLAT: dict[type, bool] = {}


def _atom_type(tp: Any) -> bool:
    """Whether every value of annotation ``tp`` is immutable: atoms, literals, optional or tuples of them."""
    if tp in _ATOMS or tp is type(None):
        return True
    origin = typing.get_origin(tp)
    if origin is typing.Literal:
        return True
    if origin in (typing.Union, types.UnionType):
        return all(_atom_type(a) for a in typing.get_args(tp))
    if origin is tuple:
        return all(a is Ellipsis or _atom_type(a) for a in typing.get_args(tp))
    return False


def _all_atoms(cls: type[BaseModel]) -> bool:
    return cls.model_config.get("extra") != "allow" and all(
        _atom_type(f.annotation) for f in cls.model_fields.values())


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
        flat = _FLAT.get(t)
        if flat is None:
            flat = _FLAT[t] = _all_atoms(t)
        if flat:
            fields = x.__dict__.copy()  # every field holds an atom (or a tuple of atoms): nothing to copy deeper
        else:
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
