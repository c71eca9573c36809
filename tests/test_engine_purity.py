"""engine/ is pure: it imports the standard library and pydantic only, and none of the
standard modules that reach the clock, randomness, the network, processes or the disk
beyond reading data files (which goes through pathlib)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[1] / "engine"

ALLOWED_THIRD_PARTY = {"pydantic", "pydantic_core", "typing_extensions", "engine"}
FORBIDDEN = {
    "random", "asyncio", "sqlite3", "socket", "threading", "time", "datetime", "subprocess",
    "discord", "aiosqlite", "PIL", "aiohttp", "os", "secrets", "urllib", "http",
}  # fmt: skip
DYNAMIC_IMPORTERS = {"import_module", "__import__"}


def _module_problem(name: str) -> str | None:
    top = name.split(".")[0]
    if top in FORBIDDEN:
        return f"imports {name}, which the engine must not use"
    if top in ALLOWED_THIRD_PARTY or top in sys.stdlib_module_names:
        return None
    return f"imports {name}, which is neither the standard library nor pydantic"


def _dynamic_target(call: ast.Call) -> tuple[str | None, bool]:
    """The module a call to importlib.import_module or __import__ names: (name, known)."""
    if not call.args:
        return None, False
    arg = call.args[0]
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value, True
    # f"engine.games.{name}": a computed name inside a fixed package
    if isinstance(arg, ast.JoinedStr) and arg.values:
        head = arg.values[0]
        if isinstance(head, ast.Constant) and isinstance(head.value, str) and "." in head.value:
            return head.value.rsplit(".", 1)[0], True
    return None, False


def impurities(source: str, filename: str) -> list[str]:
    """Every import in ``source`` (at any depth) that the engine may not make."""
    problems: list[str] = []
    for node in ast.walk(ast.parse(source, filename)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module:
                names = [node.module]
            # relative imports stay inside engine/
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if called in DYNAMIC_IMPORTERS:
                target, known = _dynamic_target(node)
                if not known:
                    problems.append(f"{filename}:{node.lineno}: imports a module whose name is computed")
                elif target is not None:
                    names = [target]
        for name in names:
            problem = _module_problem(name)
            if problem:
                problems.append(f"{filename}:{getattr(node, 'lineno', 0)}: {problem}")
    return problems


def engine_files() -> list[Path]:
    return sorted(ENGINE.rglob("*.py"))


def test_the_walk_finds_the_engine() -> None:
    files = {p.relative_to(ENGINE).as_posix() for p in engine_files()}
    for must in ("core/hexes.py", "core/maps.py", "core/movement.py", "core/dice.py", "core/protocol.py"):
        assert must in files


def test_engine_imports_only_the_standard_library_and_pydantic() -> None:
    problems: list[str] = []
    for path in engine_files():
        problems += impurities(path.read_text(encoding="utf-8"), str(path.relative_to(ENGINE.parent)))
    assert problems == []


# --- the checker can fail --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "source",
    [
        "import random\n",
        "from random import choice\n",
        "def roll():\n    import random\n    return random.randint(1, 6)\n",
        "class A:\n    def f(self):\n        from time import time\n",
        "import os.path\n",
        "from os import environ\n",
        "import datetime as dt\n",
        "import json, asyncio\n",
        "from urllib.request import urlopen\n",
        "import http.client\n",
        "import secrets\n",
        "from threading import Lock\n",
        "import subprocess\n",
        "import socket\n",
        "import sqlite3\n",
        "import discord\n",
        "from PIL import Image\n",
        "import aiosqlite\n",
        "import aiohttp\n",
        "import numpy\n",
        "from hypothesis import given\n",
        "try:\n    import yaml\nexcept ImportError:\n    pass\n",
        "import importlib\nrng = importlib.import_module('random')\n",
        "rng = __import__('random')\n",
        "import importlib\nname = 'ran' + 'dom'\nmod = importlib.import_module(name)\n",
    ],
)
def test_checker_catches_a_bad_import(source: str) -> None:
    assert impurities(source, "bad.py") != []


def test_checker_names_the_file_line_and_module() -> None:
    problems = impurities("import json\n\n\ndef f():\n    import random\n", "engine/games/x.py")
    assert problems == ["engine/games/x.py:5: imports random, which the engine must not use"]


def test_checker_accepts_a_pure_module() -> None:
    source = (
        "from __future__ import annotations\n"
        "import json, re, hashlib, hmac, heapq\n"
        "from pathlib import Path\n"
        "from fractions import Fraction\n"
        "from pydantic import BaseModel\n"
        "from pydantic_core import PydanticCustomError\n"
        "from typing_extensions import Self\n"
        "from engine.core.hexes import Hex\n"
        "from . import sibling\n"
        "from .state import State\n"
        "import importlib\n"
        "def load(name):\n"
        "    return importlib.import_module(f'engine.games.{name}')\n"
    )
    assert impurities(source, "good.py") == []
