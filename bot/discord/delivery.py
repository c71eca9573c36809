"""Delivering the core's replies on Discord: thread posts with boards and buttons, DMs, ephemeral replies.

Only the users a reply names in ``mentions`` can be pinged; never everyone, here or a role.
A DM that Discord refuses (the member closed their DMs) becomes, for a private decision,
a 'Choose privately' button in the game's thread that opens the panel ephemerally.
Delivered replies are marked posted in the store so a restart never posts them twice.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.boards import board_attachments, render_board_images, render_replay_gif
from bot.discord.components import choices_view, panel_view
from bot.replies import Reply

if TYPE_CHECKING:
    from bot.clocks import ClockKeeper
    from bot.core import Core
    from render import Boards

log = logging.getLogger("hexhive.discord.delivery")

MAX_TEXT = 2000
UPLOAD_LIMIT = 10 * 1024 * 1024
Renderer = Callable[["Core", int, str | None], Awaitable["Boards | bytes | None"]]


def allowed_for(reply: Reply) -> discord.AllowedMentions:
    """Pings allowed for a reply: exactly its ``mentions`` users."""
    users = [discord.Object(int(u)) for u in reply.mentions if u.isdigit()]
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


def chunks(text: str, size: int = MAX_TEXT) -> list[str]:
    """Text cut into messages Discord accepts, at line ends where possible."""
    text = text or "\u200b"
    out: list[str] = []
    while len(text) > size:
        cut = text.rfind("\n", 0, size)
        cut = cut if cut > 0 else size
        out.append(text[:cut])
        text = text[cut:].lstrip("\n")
    out.append(text)
    return out


def done_text(posted: list[Reply], interaction: discord.Interaction) -> str:
    """The private acknowledgement of a command whose answers were all posted elsewhere."""
    here = str(interaction.channel_id)
    places = sorted({r.place for r in posted if r.to == "channel" and r.place.isdigit() and r.place != here})
    if not places:
        return "Done."
    return "Done: see " + ", ".join(f"<#{p}>" for p in places) + "."


class Delivery:
    """Posts replies for a client and a core; tracks each game's status message."""

    def __init__(self, client: discord.Client, core: Core, *, render: Renderer = render_board_images,
                 keeper: ClockKeeper | None = None) -> None:
        self.client = client
        self.core = core
        self.render = render
        self.keeper = keeper
        self._status_lock: dict[int, asyncio.Lock] = {}

    async def deliver(self, replies: list[Reply], interaction: discord.Interaction | None = None) -> None:
        """Post every reply, mark the posted ones in the store, then refresh the games' status messages."""
        games = sorted({r.game_id for r in replies if r.game_id is not None and r.to == "channel"})
        for gid in games:
            await self.status(gid, create_only=True)
        done: list[Reply] = []
        answered = False
        refused = False
        for r in replies:
            try:
                if r.to == "private" and interaction is not None:
                    await self.respond(interaction, **await self._message(r))
                    answered = True
                else:
                    answered = await self._post(r, interaction) or answered
                done.append(r)
            except discord.HTTPException as exc:
                log.warning("could not deliver a %s reply (HTTP %s, code %s)", r.to, exc.status, exc.code)
                if exc.status in (403, 404):
                    done.append(r)  # refused for good: retrying at start-up would not help
                    refused = refused or r.to == "channel"
        await self.core.posted(done)
        if interaction is not None and refused:
            await self.respond(interaction, content=(
                "Sorry, Discord would not let me post in the game's thread; a server manager should check my "
                "permissions there (docs/discord-setup.md)."))
        elif interaction is not None and not answered:
            await self.respond(interaction, content=done_text(done, interaction))
        for gid in games:
            await self.status(gid)

    async def respond(self, interaction: discord.Interaction, **kwargs: Any) -> None:
        """An ephemeral answer to an interaction, whether or not it was deferred."""
        kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
        kwargs = {k: v for k, v in kwargs.items() if v is not None}
        parts = chunks(kwargs.pop("content", ""))
        for n, text in enumerate(parts):
            extra = kwargs if n == len(parts) - 1 else {"allowed_mentions": kwargs["allowed_mentions"]}
            if interaction.response.is_done():
                await interaction.followup.send(content=text, ephemeral=True, **extra)
            else:
                await interaction.response.send_message(content=text, ephemeral=True, **extra)

    async def _post(self, r: Reply, interaction: discord.Interaction | None = None) -> bool:
        """Post in a channel or a DM; True when it went to the interacting member privately instead."""
        if r.to == "channel" and not r.place.startswith("dm:"):
            await self.send(self.client.get_partial_messageable(int(r.place)), r)
            return False
        user = r.user if r.to != "channel" else r.place.removeprefix("dm:")
        if not user.isdigit():
            log.warning("a reply for %r has no Discord user to go to", user)
            return False
        try:
            dm = await self.client.create_dm(discord.Object(int(user)))
            await self.send(dm, self._with_thread_link(r))
        except discord.Forbidden:
            if not r.secret_prompt and interaction is not None and str(interaction.user.id) == user:
                await self.respond(interaction, **await self._message(r))
                return True
            await self.dm_closed(r, user)
        return False

    async def send(self, target: discord.abc.Messageable, r: Reply) -> None:
        """Send one reply to a channel or DM, cut into messages; files and buttons go with the last."""
        msg = await self._message(r)
        parts = chunks(msg.pop("content"))
        for text in parts[:-1]:
            await target.send(content=text, allowed_mentions=msg["allowed_mentions"])
        await target.send(content=parts[-1], **{k: v for k, v in msg.items() if v is not None})

    async def _message(self, r: Reply) -> dict[str, Any]:
        files = []
        note = ""
        if r.board and r.game_id is not None:
            images = board_attachments(await self._board(r))
            if images and sum(len(b) for _, b, _ in images) <= UPLOAD_LIMIT:
                files += [discord.File(io.BytesIO(b), filename=f"game-{r.game_id}-{name}", description=alt or None)
                          for name, b, alt in images]
            elif images:
                note = "\n(The board is too large to attach.)"
        if r.animation and r.game_id is not None:
            gif = await self._animation(r)
            if gif is not None:
                files.append(discord.File(io.BytesIO(gif), filename=f"game-{r.game_id}-replay.gif"))
            else:
                note = "\n(The replay could not be drawn.)"
        if r.file_name:
            files.append(discord.File(io.BytesIO(r.file_text.encode()), filename=r.file_name))
        view = choices_view(r.game_id, r.seq or 0, r.buttons) if r.game_id is not None else None
        return {"content": (r.text + note)[: MAX_TEXT * 10], "files": files or None, "view": view,
                "allowed_mentions": allowed_for(r)}

    async def _animation(self, r: Reply) -> bytes | None:
        try:
            return await render_replay_gif(self.core, r.game_id or 0, UPLOAD_LIMIT)
        except Exception:
            log.exception("replay of game %s could not be drawn", r.game_id)
            return None

    async def _board(self, r: Reply) -> Boards | bytes | None:
        try:
            return await self.render(self.core, r.game_id or 0, r.viewer)
        except Exception:
            log.exception("board of game %s could not be drawn", r.game_id)
            return None

    async def dm_closed(self, r: Reply, user: str) -> None:
        """A refused DM: for a private decision, a 'Choose privately' button in the game's thread."""
        place = self._game_place(r)
        if place is None:
            log.info("DM to %s refused and no game thread to fall back on", user)
            return
        if r.secret_prompt and r.game_id is not None:
            text = (f"<@{user}>, your direct messages are closed, so your private choice for game #{r.game_id} "
                    "waits here: press **Choose privately** (only you can, and only you will see it).")
            view: discord.ui.View | None = panel_view(r.game_id, user)
        else:
            text = (f"<@{user}>, I could not send you a direct message (they are closed); "
                    "/game log shows what only you may read.")
            view = None
        allowed = discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(int(user))])
        kwargs: dict[str, Any] = {"content": text, "allowed_mentions": allowed}
        if view is not None:
            kwargs["view"] = view
        await self.client.get_partial_messageable(int(place)).send(**kwargs)

    def _with_thread_link(self, r: Reply) -> Reply:
        """A direct message about a game says where the game is played."""
        place = self._game_place(r) if r.game_id is not None else None
        if place is None:
            return r
        return r.model_copy(update={"text": f"{r.text}\n(game #{r.game_id}: <#{place}>)"})

    def _game_place(self, r: Reply) -> str | None:
        g = self.core.live.get(r.game_id) if r.game_id is not None else None
        place = g.row.place if g is not None else r.place
        return place if place.isdigit() else None

    # --- the status message at the top of a game's thread ---------------------------------------

    async def status(self, gid: int, *, create_only: bool = False) -> None:
        """Create or edit the status message of a game (turn, phase, whose decision, clock)."""
        lock = self._status_lock.setdefault(gid, asyncio.Lock())
        async with lock:
            try:
                await self._status(gid, create_only)
            except discord.HTTPException as exc:
                log.warning("status message of game %s not updated (HTTP %s)", gid, exc.status)

    async def _status(self, gid: int, create_only: bool) -> None:
        key = f"discord:status:{gid}"
        rec = await self.core.store.place_settings(key)
        if rec and create_only:
            return
        text = await self.status_text(gid)
        if text is None or (rec and rec.get("text") == text):
            return
        if not rec:
            place = await self._place_of(gid)
            if place is None:
                return
            msg = await self.client.get_partial_messageable(int(place)).send(
                content=text, allowed_mentions=discord.AllowedMentions.none())
            rec = {"channel": place, "message": str(msg.id)}
        else:
            channel = self.client.get_partial_messageable(int(rec["channel"]))
            await channel.get_partial_message(int(rec["message"])).edit(content=text)
        async with self.core.store.transaction():
            await self.core.store.set_place_settings(key, rec | {"text": text})

    async def _place_of(self, gid: int) -> str | None:
        g = self.core.live.get(gid)
        row = g.row if g is not None else await self.core.store.game(gid)
        return row.place if row is not None and row.place.isdigit() else None

    async def status_text(self, gid: int) -> str | None:
        """The status message's text."""
        from bot.lifecycle import status_text

        g = self.core.live.get(gid)
        if g is None:
            row = await self.core.store.game(gid)
            if row is None:
                return None
            return f"**Status of game #{gid}** ({row.game}): {row.status}."
        clock = self.keeper.line(gid) if self.keeper is not None and g.state is not None else ""
        return f"**Status of game #{gid}**\n{status_text(g, '')}\n{clock}".rstrip()
