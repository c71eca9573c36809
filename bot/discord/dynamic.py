"""Slash commands whose options are known only at run time (game orders, combat set-ups).

discord.py reads a command's options from its callback's signature, so the signature
is built here; options get safe Python names (``o0``, ``o1``...) and are renamed to
their real names, which may be any valid Discord option name (even ``from``).
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.discord.convert import args_of

Handler = Callable[[discord.Interaction, dict[str, str]], Awaitable[None]]
Autocomplete = Callable[[discord.Interaction, str], Awaitable[list[app_commands.Choice[str]]]]
MAX_OPTIONS = 25


@dataclass(frozen=True)
class Option:
    """One option: its name, help, whether it is required, its type, and its autocomplete."""

    name: str
    help: str
    required: bool = False
    kind: Any = str
    autocomplete: Autocomplete | None = None


def make_command(name: str, description: str, options: list[Option], handler: Handler,
                 group: app_commands.Group | None = None) -> app_commands.Command:
    """A slash command calling ``handler(interaction, {option: text})`` with the options given."""
    options = sorted(options[:MAX_OPTIONS], key=lambda o: not o.required)
    py = {o.name: f"o{i}" for i, o in enumerate(options)}
    params = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                annotation=discord.Interaction)]
    for o in options:
        annotation = o.kind if o.required else o.kind | None
        default = inspect.Parameter.empty if o.required else None
        params.append(inspect.Parameter(py[o.name], inspect.Parameter.KEYWORD_ONLY, annotation=annotation,
                                        default=default))
    back = {p: n for n, p in py.items()}

    async def callback(interaction: discord.Interaction, **kwargs: Any) -> None:
        await handler(interaction, args_of(**{back[k]: v for k, v in kwargs.items()}))

    callback.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    callback.__name__ = callback.__qualname__ = "cmd_" + name.replace("-", "_")
    callback.__discord_app_commands_param_rename__ = back  # type: ignore[attr-defined]
    callback.__discord_app_commands_param_description__ = {  # type: ignore[attr-defined]
        py[o.name]: (o.help or o.name)[:100] for o in options}
    callback.__discord_app_commands_param_autocomplete__ = {  # type: ignore[attr-defined]
        py[o.name]: o.autocomplete for o in options if o.autocomplete is not None}
    return app_commands.Command(name=name, description=(description or name)[:100], callback=callback,
                                parent=group)
