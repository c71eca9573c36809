"""The docs stay true to the code: every command and every game order is documented."""

from __future__ import annotations

from pathlib import Path

from bot import lifecycle, moderation
from engine.core import registry

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = (ROOT / "docs" / "commands.md").read_text()


def test_every_core_command_is_in_commands_md():
    for name in list(lifecycle.HANDLERS) + list(moderation.HANDLERS):
        assert f"`/{name}`" in COMMANDS, f"/{name} is not documented in docs/commands.md"


def test_every_order_of_every_game_is_in_commands_md():
    for game in registry.names():
        if game == "toy":
            continue
        for v in registry.get(game).verbs():
            assert f"`/{v.verb}`" in COMMANDS, f"/{v.verb} ({game}) is not documented in docs/commands.md"


def test_the_readme_quick_start_is_the_ci_command():
    ci = (ROOT / ".ci" / "run").read_text().strip().splitlines()[-1]
    assert ci == "make test"
    readme = (ROOT / "README.md").read_text()
    assert "make run" in readme and "make test" in readme
