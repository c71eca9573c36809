"""The renderer imports the engine, Pillow and the standard library only: no Discord, no SQLite."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

RENDER = Path(__file__).resolve().parents[2] / "render"
ALLOWED = {"PIL", "engine", "render", "__future__"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module.split(".")[0])
    return out


def test_render_imports_only_the_engine_pillow_and_the_standard_library():
    files = sorted(RENDER.glob("*.py"))
    assert len(files) >= 5
    for path in files:
        for name in _imports(path):
            assert name in ALLOWED or name in sys.stdlib_module_names, f"{path.name} imports {name}"
            assert name not in {"random", "time", "datetime", "sqlite3", "asyncio"}, (
                f"{path.name} imports {name}"
            )
