"""The games' own orders as slash commands, generated from ``rules.verbs()`` of every registered game.

Games may share a verb (``/move``); its options are the union of theirs, and an
option is required only when every game that has the verb requires it. Every
option is autocompleted from the engine's legal choices.
"""

from __future__ import annotations

import inspect
import logging
import re
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands

from bot.discord import autocomplete as ac
from bot.discord.convert import args_of
from bot.discord.hive import hive_of
from engine.core import registry
from engine.core.protocol import VerbSpec

log = logging.getLogger("hexhive.discord.orders")

RESERVED = {"game", "mod", "resolve", "help"}
NAME = re.compile(r"^[-_a-z0-9]{1,32}$")
MAX_OPTIONS = 24
"""Discord allows 25 options; one is kept for ``game``."""


@dataclass
class VerbInfo:
    """One order verb across the games that have it."""

    verb: str
    help: str
    games: list[str] = field(default_factory=list)
    args: dict[str, tuple[str, bool]] = field(default_factory=dict)
    """Argument name -> (help, required in every game)."""


def collect_verbs(game_names: list[str] | None = None) -> dict[str, VerbInfo]:
    """Every order verb of the registered games, merged by name."""
    out: dict[str, VerbInfo] = {}
    for name in game_names if game_names is not None else registry.names():
        for spec in registry.get(name).verbs():
            _merge(out, name, spec)
    return out


def _merge(out: dict[str, VerbInfo], game: str, spec: VerbSpec) -> None:
    if spec.verb in RESERVED or not NAME.match(spec.verb):
        log.warning("verb %r of %s cannot be a slash command", spec.verb, game)
        return
    first = spec.verb not in out
    info = out.setdefault(spec.verb, VerbInfo(spec.verb, spec.help))
    had = set(info.args)
    for a in spec.args:
        if a.name == "game" or not NAME.match(a.name):
            continue
        if a.name in info.args:
            h, req = info.args[a.name]
            info.args[a.name] = (h, req and a.required)
        else:
            info.args[a.name] = (a.help, a.required and first)
    for name in had - {a.name for a in spec.args}:
        info.args[name] = (info.args[name][0], False)
    info.games.append(game)


def order_command(info: VerbInfo) -> app_commands.Command:
    """One generated slash command; options are renamed so any argument name works in Python."""
    names = list(info.args)[:MAX_OPTIONS]
    params = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                annotation=discord.Interaction)]
    required = [n for n in names if info.args[n][1]]
    optional = [n for n in names if not info.args[n][1]]
    py = {n: f"o{i}" for i, n in enumerate(required + optional)}
    for n in required:
        params.append(inspect.Parameter(py[n], inspect.Parameter.KEYWORD_ONLY, annotation=str))
    for n in optional:
        params.append(inspect.Parameter(py[n], inspect.Parameter.KEYWORD_ONLY, annotation=str | None, default=None))
    params.append(inspect.Parameter("game", inspect.Parameter.KEYWORD_ONLY, annotation=str | None, default=None))
    back = {p: n for n, p in py.items()}

    async def callback(interaction: discord.Interaction, **kwargs: Any) -> None:
        given = {back.get(k, k): v for k, v in kwargs.items()}
        await hive_of(interaction).run(interaction, info.verb, args_of(**given))

    callback.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    callback.__name__ = callback.__qualname__ = f"order_{info.verb.replace('-', '_')}"
    callback.__discord_app_commands_param_rename__ = {p: n for n, p in py.items()}  # type: ignore[attr-defined]
    callback.__discord_app_commands_param_description__ = (  # type: ignore[attr-defined]
        {py[n]: (info.args[n][0] or n)[:100] for n in names} | {"game": "a game number (if you play several)"})
    callback.__discord_app_commands_param_autocomplete__ = (  # type: ignore[attr-defined]
        {py[n]: ac.order_autocomplete(info.verb, n) for n in names} | {"game": ac.game_ids})
    games = ", ".join(registry.get(g).title for g in info.games)
    description = f"{info.help} ({games})"
    return app_commands.Command(name=info.verb, description=description[:100] or info.verb, callback=callback)


def build_orders() -> list[app_commands.Command]:
    """A slash command for every order verb of every registered game."""
    return [order_command(info) for info in collect_verbs().values()]
