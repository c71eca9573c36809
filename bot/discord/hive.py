"""The Discord side's shared context: the core, delivery, rate limits and clocks, and how a command runs."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

import discord

from bot.clocks import ClockKeeper
from bot.discord.convert import command_of
from bot.discord.delivery import Delivery, Renderer
from bot.discord.errors import AfterCommit
from bot.parsing import ParseError, parse_command
from bot.ratelimit import RateLimiter, cooldown_notice
from bot.replies import Reply

if TYPE_CHECKING:
    from bot.core import Core

log = logging.getLogger("hexhive.discord")


class Hive:
    """Everything a command callback needs; reached from an interaction as ``interaction.client.hive``."""

    def __init__(self, client: discord.Client, core: Core, *, limiter: RateLimiter | None = None,
                 keeper: ClockKeeper | None = None, render: Renderer | None = None) -> None:
        self.client = client
        self.core = core
        self.limiter = limiter or RateLimiter()
        self.keeper = keeper
        kwargs: dict[str, Any] = {"keeper": keeper}
        if render is not None:
            kwargs["render"] = render
        self.delivery = Delivery(client, core, **kwargs)
        self.names: dict[str, str] = {}
        """Display names of members named in recent commands (for thread titles)."""
        self._inflight = 0
        self._idle = asyncio.Event()
        self._idle.set()

    @asynccontextmanager
    async def busy(self) -> AsyncIterator[None]:
        """Mark a command or click in progress (shutdown waits for them to finish)."""
        self._inflight += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._inflight -= 1
            if not self._inflight:
                self._idle.set()

    async def idle(self) -> None:
        """Wait until no command or click is in progress."""
        await self._idle.wait()

    async def run(self, interaction: discord.Interaction, name: str, args: dict[str, str],
                  shown: int | None = None) -> list[Reply]:
        """Defer privately, hand the command to the core, deliver what it answers. ``shown``: the action
        number of the message whose button sent it (``Command.shown``)."""
        async with self.busy():
            if not interaction.response.is_done():
                await interaction.response.defer(ephemeral=True, thinking=True)
            cmd = await command_of(interaction, self.core.store, name, args)
            if shown is not None:
                cmd = cmd.model_copy(update={"shown": shown})
            replies = await self.core.handle(cmd)
            try:
                timed = await self.clocks_for(replies)
                await self.delivery.deliver(replies, interaction)
                await self.delivery.deliver(timed)
                await self.redraw_changed_clocks(replies + timed)
            except Exception as exc:
                if not any(r.outbox_id is not None for r in replies):
                    raise
                # Committed: what was not posted is re-posted, and the member hears that, not "nothing changed".
                try:
                    await self.delivery.adopt(replies)
                except Exception:
                    log.exception("could not queue the unposted replies of /%s; the next sweep will", name)
                raise AfterCommit(f"/{name} committed, then failed") from exc
            return replies

    async def deliver(self, replies: list[Reply]) -> None:
        """Post what the core said without a member's command (the bot opponent's orders), with the clocks."""
        timed = await self.clocks_for(replies)
        await self.delivery.deliver(replies)
        await self.delivery.deliver(timed)
        await self.redraw_changed_clocks(replies + timed)

    def remember(self, user: discord.abc.User) -> None:
        """Note a member's display name, so titles can show it instead of an id."""
        if len(self.names) > 10_000:
            self.names.clear()
        self.names[str(user.id)] = user.display_name

    async def run_line(self, interaction: discord.Interaction, line: str, shown: int | None = None) -> list[Reply]:
        """Run a console-style command line (a button's command) as the member who clicked; ``shown``: the
        action number of the button's message."""
        try:
            name, args = parse_command(line)
        except ParseError as exc:
            await self.delivery.respond(interaction, content=f"Sorry, {exc}.")
            return []
        return await self.run(interaction, name, args, shown)

    async def clocks_for(self, replies: list[Reply]) -> list[Reply]:
        """Start or move the clocks of the games a command touched (before its replies are posted,
        so the status message shows the new deadline at once)."""
        if self.keeper is None or not self.keeper.started:
            return []  # the saved clocks are not read yet: the first tick after start-up looks at these games
        out: list[Reply] = []
        for gid in sorted({r.game_id for r in replies if r.game_id is not None}):
            g = self.core.live.get(gid)
            if g is not None and g.state is not None:
                out += await self.keeper.check(g)
        return out

    async def tick(self) -> None:
        """One pass of the clocks: reminders, expiries, and status messages kept current."""
        if self.keeper is None:
            return
        self.limiter.forget_idle()
        out = await self.keeper.tick()
        await self.delivery.deliver(out)
        await self.redraw_changed_clocks(out)

    async def redraw_changed_clocks(self, delivered: list[Reply]) -> None:
        """Redraw the status of games whose clock changed, unless a channel post just redrew it."""
        if self.keeper is None:
            return
        redrawn = {r.game_id for r in delivered if r.to == "channel"}
        for gid in sorted(self.keeper.take_changed() - redrawn):
            await self.delivery.status(gid)

    async def too_fast(self, interaction: discord.Interaction) -> bool:
        """True (after a polite private notice) when the member is over their rate."""
        wait = self.limiter.hit(str(interaction.user.id))
        if not wait:
            return False
        log.info("rate limit: user %s must wait %.1f s", interaction.user.id, wait)
        await self.delivery.respond(interaction, content=cooldown_notice(wait))
        return True


def hive_of(interaction: discord.Interaction) -> Hive:
    """The hive of the client an interaction came to."""
    return interaction.client.hive  # type: ignore[attr-defined]
