"""The core does not know its commands: the handlers depend on the core, never the other way round.

The transports build the command table (``bot.commands.table``) and hand it to the core, so a new
command is a new handler module and a line in the table, and the core can be loaded, typed and
tested without any of them.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HANDLER_MODULES = ("bot.lifecycle", "bot.moderation", "bot.undo", "bot.helpdesk", "bot.commands")


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, at any depth (inside functions and TYPE_CHECKING blocks too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{a.name}" for a in node.names}
    return found


@pytest.mark.parametrize("module", HANDLER_MODULES)
def test_core_source_names_no_command_handler(module: str) -> None:
    assert module not in imported_modules(ROOT / "bot" / "core.py"), f"bot/core.py imports {module}"


def test_importing_the_core_loads_no_command_handler() -> None:
    code = ("import sys, bot.core; "
            f"print(','.join(m for m in {HANDLER_MODULES!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"importing bot.core loaded {out.stdout.strip()}"


def test_the_table_holds_every_command_and_each_runs_a_handler() -> None:
    from bot.commands import table

    commands = table()
    for name in ("game new", "game accept", "game status", "game moves", "game options", "undo", "help",
                 "mod pause", "mod rollback", "resolve dice"):
        assert name in commands, f"/{name} is missing from the command table"
        assert callable(commands[name])


async def test_a_core_without_the_table_knows_no_command(tmp_path: Path) -> None:
    from bot.core import Core
    from bot.store import Store

    store = await Store.open(tmp_path / "h.db", allow_empty=True)
    try:
        core = Core(store, commands={})
        replies = await core.handle_line("alice", "console:main", "/help")
        assert "no command" in replies[0].text.lower()
    finally:
        await store.close()
