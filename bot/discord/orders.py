"""The games' own orders as slash commands, generated from ``rules.verbs()`` of every registered game.

Games may share a verb (``/move``); its options are the union of theirs, and an
option is required only when every game that has the verb requires it. Every
option is autocompleted from the engine's legal choices.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field

import discord
from discord import app_commands

from bot.discord import autocomplete as ac
from bot.discord.dynamic import Option, make_command
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
    """One generated slash command for an order verb."""
    options = [Option(n, h or n, req, autocomplete=ac.order_autocomplete(info.verb, n))
               for n, (h, req) in list(info.args.items())[:MAX_OPTIONS]]
    options.append(Option("game", "a game number (if you play several)", autocomplete=ac.game_ids))
    games = ", ".join(registry.get(g).title for g in info.games)

    async def handler(interaction: discord.Interaction, args: dict[str, str]) -> None:
        await hive_of(interaction).run(interaction, info.verb, args)

    return make_command(info.verb, f"{info.help} ({games})", options, handler)


def build_orders() -> list[app_commands.Command]:
    """A slash command for every order verb of every registered game."""
    return [order_command(info) for info in collect_verbs().values()]
