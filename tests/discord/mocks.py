"""Level A: mocked interactions built with ``spec=`` so a typo or a wrong await fails."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any
from unittest.mock import AsyncMock, MagicMock

import discord

from tests.fakediscord import payloads as P


class FakeNamespace:
    """What ``interaction.namespace`` iterates over: (option name, value) pairs."""

    def __init__(self, **values: Any) -> None:
        self.values = values

    def __iter__(self):
        return iter(self.values.items())


def mock_interaction(hive: Any = None, *, user: int = 101, name: str = "alice", guild: bool = True,
                     channel: int | str = P.CHANNEL_ID, manage_guild: bool = False, roles: tuple[int, ...] = (),
                     namespace: dict[str, Any] | None = None) -> MagicMock:
    """A mocked interaction whose response and follow-ups record what the bot answered."""
    i = MagicMock(spec=discord.Interaction)
    i.user = MagicMock(spec=discord.Member)
    i.user.id = user
    i.user.display_name = name.title()
    i.user.roles = [SimpleNamespace(id=r) for r in roles]
    i.user.mention = f"<@{user}>"
    i.guild_id = P.GUILD_ID if guild else None
    i.channel_id = int(channel)
    i.id = P.snowflake()
    i.type = discord.InteractionType.application_command
    i.permissions = discord.Permissions(manage_guild=manage_guild)
    i.namespace = FakeNamespace(**(namespace or {}))
    i.command = None
    i.response = MagicMock(spec=discord.InteractionResponse)
    state = {"done": False}
    i.response.is_done.side_effect = lambda: state["done"]

    async def answered(*args: Any, **kwargs: Any) -> None:
        state["done"] = True

    i.response.defer.side_effect = answered
    i.response.send_message.side_effect = answered
    i.followup = MagicMock(spec=discord.Webhook)
    i.client = SimpleNamespace(hive=hive)
    return i


def said(i: MagicMock) -> list[str]:
    """Everything privately answered to an interaction (responses and follow-ups), in order."""
    out = []
    for call in i.response.send_message.call_args_list + i.followup.send.call_args_list:
        out.append(call.kwargs.get("content") or (call.args[0] if call.args else ""))
    return out


async def _made(content: str | None = None, **kwargs: Any) -> SimpleNamespace:
    """The message Discord made of a send: a new id, the content sent."""
    return SimpleNamespace(id=P.snowflake(), content=content or "")


def mock_client() -> MagicMock:
    """A client whose channels and DMs record sends."""
    client = MagicMock(spec=discord.Client)
    channels: dict[int, MagicMock] = {}

    def channel(cid: int) -> MagicMock:
        if cid not in channels:
            ch = MagicMock(spec=discord.PartialMessageable)
            ch.id = cid
            ch.send = AsyncMock(side_effect=_made)
            ch.get_partial_message.return_value = MagicMock(spec=discord.PartialMessage)
            channels[cid] = ch
        return channels[cid]

    client.get_partial_messageable.side_effect = channel
    client.channels = channels
    dms: dict[int, MagicMock] = {}

    async def create_dm(user: Any) -> MagicMock:
        dm = dms.setdefault(user.id, MagicMock(spec=discord.DMChannel))
        if not isinstance(dm.send, AsyncMock):
            dm.send = AsyncMock(side_effect=_made)
        return dm

    client.create_dm.side_effect = create_dm
    client.dms = dms
    return client
