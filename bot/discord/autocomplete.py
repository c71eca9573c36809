"""Autocomplete answers: legal order arguments from the core, game names, scenarios, seats, game ids.

Autocomplete cannot be deferred and must answer within 3 s: every answer here is
computed in memory, filtered by what was typed, and cut to Discord's 25 choices of
at most 100 characters.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable

import discord
from discord import app_commands

from bot.discord.convert import arg_text, place_of
from bot.discord.hive import hive_of
from bot.replies import Command
from engine.core import registry

MAX_CHOICES = 25
MAX_NAME = 100
Choices = list[app_commands.Choice[str]]
AutocompleteFn = Callable[[discord.Interaction, str], Awaitable[Choices]]


def as_choices(values: Iterable[str], typed: str = "") -> Choices:
    """Values containing ``typed`` (those starting with it first), at most 25, each cut to 100 characters."""
    t = typed.strip().lower()
    vals = [v for v in dict.fromkeys(values) if t in v.lower()]
    vals.sort(key=lambda v: not v.lower().startswith(t))
    return [app_commands.Choice(name=v[:MAX_NAME], value=v[:MAX_NAME]) for v in vals[:MAX_CHOICES]]


def given(interaction: discord.Interaction) -> dict[str, str]:
    """The options already filled in, as text."""
    out = {}
    for k, v in interaction.namespace:
        if v is not None and v != "":
            out[k] = arg_text(v)
    return out


def order_autocomplete(verb: str, arg: str) -> AutocompleteFn:
    """Autocomplete of one order argument from the engine's legal choices."""

    async def complete(interaction: discord.Interaction, current: str) -> Choices:
        core = hive_of(interaction).core
        args = {k: v for k, v in given(interaction).items() if k != arg}
        cmd = Command(user=str(interaction.user.id), place=place_of(interaction), name=verb, args=args)
        return as_choices(core.autocomplete(cmd, arg, current or "", limit=MAX_CHOICES), current or "")

    complete.__qualname__ = complete.__name__ = f"complete_{verb}_{arg}"
    return complete


async def game_names(interaction: discord.Interaction, current: str) -> Choices:
    """The registered games."""
    return as_choices([n for n in registry.names() if n not in ("dice", "assault")], current)


CLOCKS = ("24h", "48h", "72h", "5d", "7d", "none")


async def clocks(interaction: discord.Interaction, current: str) -> Choices:
    """Usual time controls; anything like ``36h`` or ``4d`` is accepted too."""
    typed = current.strip()
    return as_choices(([typed] if typed and typed not in CLOCKS else []) + list(CLOCKS), typed)


async def scenarios(interaction: discord.Interaction, current: str) -> Choices:
    """The scenarios of the game chosen in this command."""
    rules = _chosen_rules(interaction)
    return as_choices(rules.scenarios if rules else [], current)


async def seats(interaction: discord.Interaction, current: str) -> Choices:
    """The seats of the game chosen in this command."""
    rules = _chosen_rules(interaction)
    return as_choices(rules.seats if rules else [], current)


def scenarios_of(game: str) -> AutocompleteFn:
    """Autocomplete of the scenarios of one fixed game (the resolvers)."""

    async def complete(interaction: discord.Interaction, current: str) -> Choices:
        return as_choices(registry.get(game).scenarios, current)

    complete.__qualname__ = complete.__name__ = f"scenarios_of_{game}"
    return complete


async def option_words(interaction: discord.Interaction, current: str) -> Choices:
    """Completes the last word of ``options`` with the chosen game's option names (``name:``)."""
    rules = _chosen_rules(interaction)
    if rules is None:
        return []
    words = current.split(" ")
    head, last = " ".join(words[:-1]), words[-1]
    if ":" in last:
        return [app_commands.Choice(name=current[:MAX_NAME], value=current[:MAX_NAME])] if current else []
    out = []
    for key, text in rules.options_help.items():
        if key.startswith(last.lower()):
            value = f"{head} {key}:".strip()
            if len(value) <= MAX_NAME:
                out.append(app_commands.Choice(name=f"{value} ({text})"[:MAX_NAME], value=value))
    return out[:MAX_CHOICES]


def _chosen_rules(interaction: discord.Interaction):  # type: ignore[no-untyped-def]
    name = given(interaction).get("game", "")
    if name not in registry.names():
        return None
    return registry.get(name)


async def game_ids(interaction: discord.Interaction, current: str) -> Choices:
    """The games in this place and the member's own games, as ``#ID`` choices."""
    core = hive_of(interaction).core
    user, place = str(interaction.user.id), place_of(interaction)
    vals = []
    for g in core.live.values():
        if g.row.place == place or user in g.seats.values():
            vals.append((str(g.id), f"#{g.id} {g.rules.title} ({g.row.status})"))
    t = current.strip().lstrip("#").lower()
    picked = [(v, n) for v, n in vals if t in n.lower()][:MAX_CHOICES]
    return [app_commands.Choice(name=n[:MAX_NAME], value=v) for v, n in picked]
