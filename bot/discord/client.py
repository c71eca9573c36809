"""The Discord client: the command tree, persistent buttons, threads per game, start-up and clocks."""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any, Final, Literal

import discord
from discord import app_commands

from bot.clocks import ClockKeeper
from bot.core import Core
from bot.discord.buttons import ChoiceButton, PanelButton
from bot.discord.commands import build_game, build_help, build_mod, build_resolve, build_undo
from bot.discord.convert import ALERTS_KEY, guild_key
from bot.discord.errors import on_app_command_error
from bot.discord.hive import Hive, hive_of
from bot.discord.orders import build_orders
from bot.live import Live
from bot.ratelimit import RateLimiter
from bot.replies import Reply

log = logging.getLogger("hexhive.discord")

THREAD_ARCHIVE_MINUTES: Final[Literal[10080]] = 10080
MAX_COMMANDS = 100
TRAILING_ID = re.compile(r"(?<= vs )(\d+)$")


class HexhiveTree(app_commands.CommandTree):
    """The command tree: every command is rate-limited per member (autocomplete is not; clicks are in buttons)."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        if interaction.type is discord.InteractionType.autocomplete:
            return True
        return not await hive_of(interaction).too_fast(interaction)


def intents() -> discord.Intents:
    """The only gateway intent needed: guilds (channels and threads). No privileged intents."""
    return discord.Intents(guilds=True)


def install_commands(tree: app_commands.CommandTree) -> None:
    """Add every hexhive command to a tree."""
    for group in (build_game(), build_resolve(), build_mod(), build_help(), build_undo()):
        tree.add_command(group)
    orders = build_orders()
    room = MAX_COMMANDS - len(tree.get_commands())
    if len(orders) > room:
        log.warning("Discord allows %d commands: orders %s are left out", MAX_COMMANDS,
                    ", ".join(c.name for c in orders[room:]))
    for cmd in orders[:room]:
        tree.add_command(cmd)
    tree.on_error = on_app_command_error  # type: ignore[method-assign]


class HexhiveClient(discord.Client):
    """hexhive on Discord."""

    def __init__(self, core: Core, *, dev_guild_id: int | None = None, tick_seconds: float = 60.0,
                 limiter: RateLimiter | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("intents", intents())
        super().__init__(allowed_mentions=discord.AllowedMentions.none(), **kwargs)
        self.core = core
        self.dev_guild_id = dev_guild_id
        self.tick_seconds = tick_seconds
        self.tree = HexhiveTree(self)
        install_commands(self.tree)
        self.keeper = ClockKeeper(core, alert_elsewhere=self.alert_moderators)
        self.hive = Hive(self, core, limiter=limiter, keeper=self.keeper)
        core.open_thread = self.open_thread
        self._unposted: list[Reply] = []
        self._started = asyncio.Event()
        self._clock_task: asyncio.Task[None] | None = None

    async def setup_hook(self) -> None:
        """Load the games, register the persistent buttons, sync the commands."""
        self._unposted = await self.core.start()
        self.add_dynamic_items(ChoiceButton, PanelButton)
        await self.sync_commands()

    async def sync_commands(self) -> list[app_commands.AppCommand]:
        """Sync to the development server when one is set (instant), else globally."""
        if self.dev_guild_id:
            guild = discord.Object(self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            return await self.tree.sync(guild=guild)
        return await self.tree.sync()

    async def on_ready(self) -> None:
        """Once: post what was committed but never posted, resume the clocks, start ticking."""
        if self._started.is_set():
            return
        log.info("connected as %s (id %s)", self.user, self.user.id if self.user else "?")
        try:
            await self.hive.delivery.deliver(self._unposted)
            self._unposted = []
        except Exception:
            log.exception("replies left unposted at the last stop could not all be posted; they stay queued")
        await self.hive.delivery.deliver(await self.keeper.start())
        self._clock_task = asyncio.create_task(self._clock_loop(), name="hexhive-clocks")
        self._started.set()

    async def started(self) -> None:
        """Wait until start-up (re-posting and clocks) is complete."""
        await self._started.wait()

    async def _clock_loop(self) -> None:
        while not self.is_closed():
            await asyncio.sleep(self.tick_seconds)
            try:
                await self.hive.tick()
            except Exception:
                log.exception("clock tick failed")

    async def alert_moderators(self, g: Live, text: str) -> list[Reply]:
        """A moderators' alert also goes to the server's alerts channel (``/mod config alerts:``), if set."""
        guild_id = await self._guild_of(g.row.place)
        if guild_id is None:
            return []
        channel = (await self.core.store.place_settings(guild_key(guild_id))).get(ALERTS_KEY)
        if not channel:
            return []
        return [Reply(to="channel", place=str(channel), game_id=g.id, text=f"{text} Game thread: <#{g.row.place}>.")]

    async def _guild_of(self, place: str) -> int | None:
        if not place.isdigit():
            return None
        try:
            channel = self.get_channel(int(place)) or await self.fetch_channel(int(place))
        except discord.HTTPException:
            return None
        guild = getattr(channel, "guild", None)
        return guild.id if guild is not None else None

    async def open_thread(self, parent: str, title: str) -> str:
        """A public thread for a new game under the channel where it was created."""
        if not parent.isdigit():
            return parent
        try:
            channel = self.get_channel(int(parent)) or await self.fetch_channel(int(parent))
            if isinstance(channel, discord.Thread) and channel.parent is not None:
                channel = channel.parent
            if not isinstance(channel, discord.TextChannel):
                return parent
            title = TRAILING_ID.sub(lambda m: self.hive.names.get(m.group(1), m.group(1)), title)
            thread = await channel.create_thread(name=title[:100], type=discord.ChannelType.public_thread,
                                                 auto_archive_duration=THREAD_ARCHIVE_MINUTES)
            return str(thread.id)
        except discord.HTTPException as exc:
            log.warning("could not open a thread under %s (HTTP %s); playing in the channel", parent, exc.status)
            return parent

    async def close(self) -> None:
        """Stop the clocks, note the time (downtime is measured from it), disconnect."""
        if self._clock_task is not None:
            self._clock_task.cancel()
        try:
            await asyncio.wait_for(self.hive.idle(), timeout=10)
        except TimeoutError:
            log.warning("closing with commands still in progress")
        if self._started.is_set():
            try:
                await self.keeper.heartbeat()
            except Exception:
                log.exception("last heartbeat not written")
        await super().close()
