"""The Discord client: the command tree, persistent buttons, threads per game, start-up and clocks."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import re
from collections.abc import AsyncIterator
from typing import Any, Final, Literal

import discord
from discord import app_commands

from bot.clocks import ClockKeeper
from bot.core import Core, Refusal
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
SYNC_KEY = "discord:commands"
"""Where the hash of the last synced command payload is kept (per scope: a server id or ``global``)."""
SYNC_RETRY_FIRST = 30.0
SYNC_RETRY_MAX = 3600.0


def command_payload(tree: app_commands.CommandTree, guild: discord.abc.Snowflake | None = None) -> list[dict[str, Any]]:
    """What a sync sends Discord for a scope: every command of the tree as JSON."""
    return [c.to_dict(tree) for c in tree.get_commands(guild=guild)]


def payload_hash(payload: list[dict[str, Any]]) -> str:
    """A hash of a command payload that does not depend on the order of the commands."""
    ordered = sorted(payload, key=lambda c: (c.get("type", 1), c["name"]))
    return hashlib.sha256(json.dumps(ordered, sort_keys=True).encode()).hexdigest()


PRIVATE_THREAD = ("games cannot start in a private thread: each game gets its own public thread. "
                  "Start it in a text channel")
ANNOUNCEMENTS = "games cannot start in an announcement channel; start it in a text channel"
NOT_TEXT = "games start in a text channel (each game gets its own thread there), not in this kind of channel"


def thread_refusal(exc: BaseException) -> str:
    """Why a game's thread could not be opened, for the member who asked (nothing was created)."""
    code = getattr(exc, "code", None)
    if code == 160006:
        return ("this channel has too many active threads for Discord to open one more for the game; "
                "a moderator can archive finished threads. Nothing was created")
    if isinstance(exc, discord.Forbidden):
        return ("I may not open threads here: I need the Create Public Threads and Send Messages in Threads "
                "permissions in this channel (docs/discord-setup.md). Nothing was created")
    return "Discord would not open the game's thread just now; nothing was created, please try again"


@contextlib.asynccontextmanager
async def _quiet_typing(channel: discord.PartialMessageable) -> AsyncIterator[None]:
    """``channel.typing()``, but a failure to show it (a missing permission, an archived thread) is
    only logged: the bot's order matters, the indicator does not."""
    try:
        typing = channel.typing()
        await typing.__aenter__()
    except Exception as exc:
        log.info("no typing indicator in %s (%s)", channel.id, type(exc).__name__)
        yield
        return
    try:
        yield
    finally:
        with contextlib.suppress(Exception):
            await typing.__aexit__(None, None, None)


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
                 limiter: RateLimiter | None = None, force_sync: bool = False, **kwargs: Any) -> None:
        kwargs.setdefault("intents", intents())
        super().__init__(allowed_mentions=discord.AllowedMentions.none(), **kwargs)
        self.core = core
        self.dev_guild_id = dev_guild_id
        self.tick_seconds = tick_seconds
        self.tree = HexhiveTree(self)
        install_commands(self.tree)
        self.keeper = ClockKeeper(core, alert_elsewhere=self.alert_moderators)
        self.hive = Hive(self, core, limiter=limiter, keeper=self.keeper)
        self.hive.delivery.alert = self.tell_moderators
        core.open_thread = self.open_thread
        self.force_sync = force_sync
        self.synced = asyncio.Event()
        """Set once the commands Discord has are the tree's (synced now, or unchanged since the last sync)."""
        self._unposted: list[Reply] = []
        self._started = asyncio.Event()
        self._clock_task: asyncio.Task[None] | None = None
        self._sync_task: asyncio.Task[None] | None = None

    async def setup_hook(self) -> None:
        """Load the games, register the persistent buttons, sync the commands if they changed."""
        if self.user is not None:  # the bot opponent's seats are held by the bot's own user
            self.core.opponent.user_id = str(self.user.id)
        self._unposted = await self.core.start(background=True)
        self.add_dynamic_items(ChoiceButton, PanelButton)
        if self.dev_guild_id:
            self.tree.copy_global_to(guild=discord.Object(self.dev_guild_id))
        if not await self.sync_if_changed(force=self.force_sync):
            self._sync_task = asyncio.create_task(self._sync_later(), name="hexhive-sync")

    def _scope(self) -> tuple[discord.Object | None, str]:
        if self.dev_guild_id:
            return discord.Object(self.dev_guild_id), str(self.dev_guild_id)
        return None, "global"

    async def sync_if_changed(self, *, force: bool = False) -> bool:
        """Sync the commands when their payload changed since the last sync (or when forced).

        Each sync counts against a daily limit and a global sync takes a while to spread,
        so an unchanged payload is not sent again. Returns False when the sync failed:
        it is logged, and retried later; the bot runs on with the commands Discord has."""
        guild, scope = self._scope()
        digest = payload_hash(command_payload(self.tree, guild))
        try:
            known = await self.core.store.place_settings(SYNC_KEY)
            if not force and known.get(scope) == digest:
                log.info("commands unchanged since the last sync (%s): not syncing", scope)
                self.synced.set()
                return True
            await self.sync_commands()
            async with self.core.store.transaction():
                await self.core.store.set_place_settings(SYNC_KEY, known | {scope: digest})
        except Exception as exc:
            log.error("command sync failed (%s: %s); it will be retried", type(exc).__name__, exc)
            return False
        log.info("commands synced (%s)", scope)
        self.synced.set()
        return True

    async def _sync_later(self) -> None:
        delay = SYNC_RETRY_FIRST
        while not await self.sync_if_changed(force=self.force_sync):
            await asyncio.sleep(delay)
            delay = min(SYNC_RETRY_MAX, delay * 2)

    async def sync_commands(self) -> list[app_commands.AppCommand]:
        """Sync to the development server when one is set (instant), else globally."""
        guild, _ = self._scope()
        return await self.tree.sync(guild=guild)

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
        self.hive.delivery.start()
        self.core.opponent.attach(self.hive.deliver, typing=self.typing_in)
        self._clock_task = asyncio.create_task(self._clock_loop(), name="hexhive-clocks")
        self._started.set()

    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        """Note archived threads: edits there are refused until the thread is unarchived."""
        meta = payload.data.get("thread_metadata") or {}
        self.hive.delivery.note_archived(payload.thread_id, bool(meta.get("archived")))

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

    async def tell_moderators(self, place: str, text: str) -> None:
        """A note for the moderators of the server of ``place``, in its alerts channel (``/mod config``), if set."""
        guild_id = await self._guild_of(place)
        if guild_id is None:
            return
        channel = (await self.core.store.place_settings(guild_key(guild_id))).get(ALERTS_KEY)
        if channel and str(channel) != place:
            await self.get_partial_messageable(int(channel)).send(content=text,
                                                                  allowed_mentions=discord.AllowedMentions.none())

    async def open_thread(self, parent: str, title: str) -> str:
        """A public thread for a new game under the channel where it was created.

        When Discord will not open one, the game is refused with the reason (nothing is created),
        rather than played in the channel itself."""
        if not parent.isdigit():
            return parent
        try:
            channel = self.get_channel(int(parent)) or await self.fetch_channel(int(parent))
        except Exception as exc:
            log.warning("could not look up channel %s (%s)", parent, type(exc).__name__)
            raise Refusal("Discord did not answer just now, so the game's thread could not be opened; "
                          "nothing was created, please try again") from None
        if isinstance(channel, discord.Thread):
            if channel.type is discord.ChannelType.private_thread:
                raise Refusal(PRIVATE_THREAD)
            channel = channel.parent or channel
        if isinstance(channel, discord.TextChannel) and channel.is_news():
            raise Refusal(ANNOUNCEMENTS)
        if not isinstance(channel, discord.TextChannel):
            raise Refusal(NOT_TEXT)
        title = TRAILING_ID.sub(lambda m: self.hive.names.get(m.group(1), m.group(1)), title)
        try:
            thread = await channel.create_thread(name=title[:100], type=discord.ChannelType.public_thread,
                                                 auto_archive_duration=THREAD_ARCHIVE_MINUTES)
        except Exception as exc:
            log.warning("could not open a thread under %s (%s, HTTP %s, code %s)", parent, type(exc).__name__,
                        getattr(exc, "status", None), getattr(exc, "code", None))
            raise Refusal(thread_refusal(exc)) from None
        return str(thread.id)

    def typing_in(self, place: str) -> contextlib.AbstractAsyncContextManager[Any]:
        """The typing indicator in a game's thread while the bot opponent thinks."""
        if not place.isdigit():
            return contextlib.nullcontext()
        return _quiet_typing(self.get_partial_messageable(int(place)))

    async def close(self) -> None:
        """Stop the clocks and re-posting, note the time (downtime is measured from it), disconnect."""
        await self.core.opponent.stop()
        if self._clock_task is not None:
            self._clock_task.cancel()
        if self._sync_task is not None:
            self._sync_task.cancel()
        if self.core.loader is not None:
            self.core.loader.cancel()
        await self.hive.delivery.stop()
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
