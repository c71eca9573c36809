"""Button words shared by the games: a verb and its arguments read as a short phrase.

Each game names its own verbs in ``engine/games/<game>/labels.py``; these defaults
cover any verb a game leaves out, so a label is never a bare list of numbers.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from engine.core.protocol import Action, ButtonStyle

ENDING_VERBS = frozenset({"done", "end", "ready", "resign"})
"""Verbs that close a step or a phase: shown red, as a choice that cannot be taken back."""

DIRECTIONS = {"N": "north", "NE": "north-east", "SE": "south-east", "S": "south", "SW": "south-west",
              "NW": "north-west"}


def words(verb: str) -> str:
    """``place_all`` -> ``Place all``."""
    return verb.replace("_", " ").capitalize()


def default_label(action: Action) -> str:
    """``/take n:2`` -> ``Take 2``; ``/move unit:B3 to:0608`` -> ``Move unit B3, to 0608``: the verb first."""
    if len(action.args) == 1:
        return f"{words(action.verb)} {next(iter(action.args.values()))}"[:80]
    parts = [f"{k.replace('_', ' ')} {v}" for k, v in action.args.items()]
    text = words(action.verb) + (" " + ", ".join(parts) if parts else "")
    return text[:80]


def default_style(action: Action) -> ButtonStyle:
    return "danger" if action.verb in ENDING_VERBS else "primary"


def is_hex(text: object) -> bool:
    """A printed hex number such as ``0608``."""
    t = str(text)
    return len(t) == 4 and t.isdigit()


def is_bare(label: str) -> bool:
    """A label made only of digits, spaces and punctuation: the kind that reads as nothing on a button."""
    return not any(c.isalpha() for c in label)


_MODULES: dict[str, ModuleType | None] = {}


def game_labels(rules: Any) -> ModuleType | None:
    """The ``labels`` module beside a built-in game's rules (``engine/games/<game>/labels.py``), if any."""
    parts = type(rules).__module__.split(".")
    if parts[:2] != ["engine", "games"] or len(parts) < 3:
        return None
    package = parts[2]
    if package not in _MODULES:
        try:
            _MODULES[package] = importlib.import_module(f"engine.games.{package}.labels")
        except ModuleNotFoundError:
            _MODULES[package] = None
    return _MODULES[package]
