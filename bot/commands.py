"""The command table the transports hand to the core: every ``/command`` and its handler.

The handler modules register their commands when imported (``@command("game new")``); the core
never imports them. A new command is a handler in one of these modules, or a new module listed here.
"""

from __future__ import annotations

from typing import Any

from bot import helpdesk, lifecycle, moderation, undo
from bot.answers import Handler
from bot.core import Core
from bot.store import Store

MODULES = (lifecycle, helpdesk, undo, moderation)
"""The handler modules; importing them registers their commands."""


def table() -> dict[str, Handler]:
    """``"game new"`` -> its handler, for every command of every handler module."""
    out: dict[str, Handler] = {}
    for module in (lifecycle, moderation):  # helpdesk and undo register into lifecycle's table
        for name, handler in module.HANDLERS.items():
            if name in out:
                raise RuntimeError(f"/{name} is registered twice")
            out[name] = handler
    return out


def make_core(store: Store, **options: Any) -> Core:
    """A core with the whole command table (what the console and the Discord client run)."""
    return Core(store, commands=table(), **options)
