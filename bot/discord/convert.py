"""From Discord interactions to the core's commands: who, where, and whether a moderator."""

from __future__ import annotations

from typing import Any

import discord

from bot.replies import Command
from bot.store import Store

MOD_ROLE_KEY = "moderator_role"
ALERTS_KEY = "alerts_channel"


def guild_key(guild_id: int) -> str:
    """The place-settings key of a server's settings."""
    return f"guild:{guild_id}"


def place_of(interaction: discord.Interaction) -> str:
    """The core's place: the channel or thread id, or ``dm:<user>`` in a direct message."""
    if interaction.guild_id is None:
        return f"dm:{interaction.user.id}"
    return str(interaction.channel_id)


async def is_moderator(interaction: discord.Interaction, store: Store) -> bool:
    """Manage Server in this channel, or the server's moderator role (``/mod config role:``)."""
    if interaction.guild_id is None:
        return False
    perms = interaction.permissions
    if perms.manage_guild or perms.administrator:
        return True
    role = (await store.place_settings(guild_key(interaction.guild_id))).get(MOD_ROLE_KEY)
    roles = getattr(interaction.user, "roles", [])
    return role is not None and any(r.id == int(role) for r in roles)


def arg_text(value: Any) -> str:
    """A Discord option value as the core's text: members, users and roles by id."""
    if isinstance(value, discord.abc.Snowflake) and not isinstance(value, str | int):
        return str(value.id)
    return str(value).strip()


def args_of(**options: Any) -> dict[str, str]:
    """The options a member gave, as text; options left out are not passed."""
    return {k: arg_text(v) for k, v in options.items() if v is not None and v != ""}


async def command_of(interaction: discord.Interaction, store: Store, name: str, args: dict[str, str]) -> Command:
    """The core command for an interaction."""
    return Command(user=str(interaction.user.id), place=place_of(interaction), name=name, args=args,
                   display=interaction.user.display_name, is_moderator=await is_moderator(interaction, store),
                   community=community_of(interaction))


def community_of(interaction: discord.Interaction) -> str:
    """The community a command was given in: its server, or none in a direct message."""
    return guild_key(interaction.guild_id) if interaction.guild_id is not None else ""
