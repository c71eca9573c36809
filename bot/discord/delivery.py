"""Delivering the core's replies on Discord: thread posts with boards and buttons, DMs, ephemeral replies.

Only the users a reply names in ``mentions`` can be pinged; never everyone, here or a role.
A DM that Discord refuses (the member closed their DMs) becomes, for a private decision,
a 'Choose privately' button in the game's thread that opens the panel ephemerally.

Delivery heals itself. Each reply is posted on its own and marked posted in the store as soon
as Discord took it, so a failure of one never marks another. A reply Discord did not take
(a 5xx, a dropped connection, a timeout, any exception) waits in a queue that a background
task re-posts with exponential backoff, oldest first and in order for each channel, without
waiting for a restart; Discord's message nonce (derived from the outbox row) makes a re-post
of a message whose answer was lost return the first message instead of a second one. A reply
refused for good (403, 404, 400) is marked so it is not retried; a post refused for lack of
Attach Files is posted once more without its file, with a line saying why.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.boards import (
    ReplaysBusy,
    board_attachments,
    render_board_images,
    render_board_png,
    render_replay_gif,
)
from bot.discord.components import choices_view, panel_view, shown_token
from bot.keyed import KeyedLocks
from bot.replies import Reply

if TYPE_CHECKING:
    from bot.clocks import ClockKeeper
    from bot.core import Core
    from render import Boards

log = logging.getLogger("hexhive.discord.delivery")

MAX_TEXT = 2000
UPLOAD_LIMIT = 10 * 1024 * 1024
RETRY_FIRST = 2.0
"""Seconds before the first re-post of a reply Discord did not take; doubled at each failure."""
RETRY_MAX = 600.0
SWEEP_SECONDS = 300.0
"""How often the store is searched for committed replies nobody is posting (seen on two sweeps running)."""
MISSING_KEY = "discord:missing:{place}"
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


EXPECTED = (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError)
"""Failures of a bad day on Discord or the network: logged in one line, without a traceback."""


def refused_for_good(exc: BaseException) -> bool:
    """True when Discord refused a post in a way a re-post cannot change (403, 404, 400 ...).

    A 5xx, a 429 that outlasted discord.py's own waiting, a dropped connection, a timeout
    or any other exception may pass later: the post is retried."""
    if isinstance(exc, discord.HTTPException) and not isinstance(exc, discord.DiscordServerError):
        return 400 <= exc.status < 500 and exc.status not in (408, 429)
    return False


def nonce_of(r: Reply, part: int, text: str) -> str:
    """Discord's message nonce for one part of a queued reply: the same for every re-post of it, so
    Discord returns the message already made when only its answer was lost (at most 25 characters).
    A reply outside the outbox is never re-posted: a random nonce, as discord.py would choose."""
    if r.outbox_id is None:
        return str(secrets.randbits(64))
    return hashlib.sha256(f"{r.outbox_id}:{part}:{text}".encode()).hexdigest()[:25]


def where(r: Reply) -> str:
    """The channel or member a reply goes to: replies to one place are posted in their order."""
    return r.place if r.to == "channel" else f"dm:{r.user}"


def done_text(posted: list[Reply], interaction: discord.Interaction) -> str:
    """The private acknowledgement of a command whose answers were all posted elsewhere."""
    here = str(interaction.channel_id)
    places = sorted({r.place for r in posted if r.to == "channel" and r.place.isdigit() and r.place != here})
    if not places:
        return "Done."
    return "Done: see " + ", ".join(f"<#{p}>" for p in places) + "."


class Delivery:
    """Posts replies for a client and a core; tracks each game's status message; re-posts what failed."""

    def __init__(self, client: discord.Client, core: Core, *, render: Renderer = render_board_images,
                 keeper: ClockKeeper | None = None) -> None:
        self.client = client
        self.core = core
        self.render = render
        self.keeper = keeper
        self.retry_first = RETRY_FIRST
        self.retry_max = RETRY_MAX
        self.sweep_seconds = SWEEP_SECONDS
        self.alert: Callable[[str, str], Awaitable[None]] | None = None
        """Tells a place's moderators something (the client posts it in the server's alerts channel)."""
        self._status_lock: dict[int, asyncio.Lock] = {}
        self._edit_locks = KeyedLocks()
        """The phase messages being edited (``edit_or_send``)."""
        self._claimed: set[int] = set()
        """Outbox rows being posted right now (by a command or by the retry task)."""
        self._pending: dict[int, Reply] = {}
        """Outbox rows waiting for a re-post, by id."""
        self._due: dict[int, float] = {}
        self._attempts: dict[int, int] = {}
        self._parts: dict[int, int] = {}
        """How many messages of a long reply are already posted (a re-post goes on from there)."""
        self._unmarked: set[int] = set()
        """Posted, but the store could not be told yet."""
        self._swept: set[int] = set()
        self.archived: set[int] = set()
        """Threads known to be archived: unarchived before their status message is edited."""
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    # --- posting a command's replies ------------------------------------------------------------

    async def deliver(self, replies: list[Reply], interaction: discord.Interaction | None = None) -> None:
        """Post every reply, each marked posted as soon as Discord took it, then refresh the status messages.

        A reply Discord did not take waits for the retry task; the member is told its announcement
        will follow, never that nothing changed (the command has committed)."""
        games = sorted({r.game_id for r in replies if r.game_id is not None and r.to == "channel"})
        for gid in games:
            await self.status(gid, create_only=True)
        mine = {r.outbox_id for r in replies if r.outbox_id is not None} - self._claimed - self._pending.keys()
        self._claimed |= mine
        posted: list[Reply] = []
        later: list[Reply] = []
        refused: list[Reply] = []
        lost: list[Reply] = []
        answered = False
        try:
            for r in replies:
                oid = r.outbox_id
                if oid is not None and oid not in mine:
                    continue  # already being posted, or queued, elsewhere
                if oid is not None and self._waiting(where(r)):
                    self._queue(r, now=True)  # an earlier post here waits for its re-post: keep the order
                    later.append(r)
                    continue
                try:
                    answered = await self._deliver_one(r, interaction) or answered
                except Exception as exc:
                    if r.to == "private" and oid is None and interaction is not None:
                        # an answer only this interaction can carry (a refusal, a file): once more, at once
                        if await self._private_again(r, interaction, exc):
                            answered = True
                        else:
                            lost.append(r)
                        continue
                    if await self._failed(r, exc):
                        refused.append(r)
                    elif oid is not None:
                        later.append(r)
                    continue
                posted.append(r)
                await self._mark([r])
        finally:
            self._claimed -= mine
        if interaction is not None:
            taken = any(r.committed or r.outbox_id is not None for r in replies)
            await self._acknowledge(interaction, posted, later, refused, answered, lost, taken)
        for gid in games:
            await self.status(gid)

    async def _deliver_one(self, r: Reply, interaction: discord.Interaction | None) -> bool:
        """Post one reply; True when it (or its fallback) answered the interaction privately."""
        if r.to == "private":
            if interaction is None:
                return False
            await self.respond(interaction, **await self._message(r))
            return True
        return await self._post(r, interaction)

    async def _failed(self, r: Reply, exc: BaseException) -> bool:
        """A post failed: mark it when refused for good (True), else queue it for a re-post."""
        status = getattr(exc, "status", None)
        code = getattr(exc, "code", None)
        if refused_for_good(exc):
            log.warning("Discord refused a %s reply for good (HTTP %s, code %s); not retried", r.to, status, code)
            await self._mark([r])
            return True
        if r.outbox_id is None:
            log.warning("a %s reply could not be delivered (%s) and cannot be retried", r.to, type(exc).__name__)
            return False
        log.warning("a %s reply was not taken by Discord (%s, HTTP %s); it will be re-posted", r.to,
                    type(exc).__name__, status, exc_info=not isinstance(exc, EXPECTED))
        self._queue(r)
        return False

    async def _private_again(self, r: Reply, interaction: discord.Interaction, exc: BaseException) -> bool:
        """Send a private answer Discord did not take once more; True when it went."""
        log.warning("a private reply was not taken by Discord (%s); sending it once more", type(exc).__name__)
        try:  # from the part that failed: those before it went
            await self.respond(interaction, skip=getattr(exc, "parts_sent", 0), **await self._message(r))
        except Exception as again:
            log.warning("a private reply was lost: Discord did not take it twice (%s)", type(again).__name__)
            return False
        return True

    async def _acknowledge(self, interaction: discord.Interaction, posted: list[Reply], later: list[Reply],
                           refused: list[Reply], answered: bool, lost: list[Reply] | None = None,
                           taken: bool = False) -> None:
        """The private word on a command: ``taken`` when its change was saved (``Reply.committed``)."""
        lines = []
        if lost and taken:  # the order stands: asking again could give it twice (a Chitin /pick)
            lines.append("Your command was taken and saved, but Discord did not take my private answer to it just "
                         "now; /game status (or /game log) shows where the game stands.")
        elif lost:  # never "Done." for an answer the member did not see: it may have been a refusal
            lines.append("Sorry, Discord did not take my answer to your command just now, so I cannot show it; "
                         "nothing of it was saved, so please ask again.")
        committed = any(r.outbox_id is not None for r in later + refused)
        if later:
            places = sorted({f"<#{r.place}>" for r in later if r.to == "channel" and r.place.isdigit()})
            lines.append("Your command was taken and saved. Discord did not accept its announcement just now; "
                         f"it will follow{' in ' + ', '.join(places) if places else ''} as soon as Discord "
                         "takes it (it is retried automatically).")
        if any(r.to == "channel" for r in refused):
            lines.append(("Your command was taken, but " if committed and not later else "")
                         + "Discord would not let me post in the game's thread; a server manager should check my "
                         "permissions there (docs/discord-setup.md).")
        if not lines and not answered:
            lines.append(done_text(posted, interaction))
        if lines:
            try:
                await self.respond(interaction, content="\n".join(lines))
            except Exception as exc:  # the command committed and its posts are handled: only the notice is lost
                log.warning("could not acknowledge interaction %s (%s)", interaction.id, type(exc).__name__)

    async def _mark(self, replies: list[Reply]) -> None:
        try:
            await self.core.posted(replies)
        except Exception:
            log.exception("posted replies could not be marked in the store; marking again later")
            self._unmarked |= {r.outbox_id for r in replies if r.outbox_id is not None}
            self._wake.set()
        for r in replies:
            if r.outbox_id is not None:
                self._parts.pop(r.outbox_id, None)

    # --- re-posting what Discord did not take ---------------------------------------------------

    def _queue(self, r: Reply, *, now: bool = False) -> None:
        assert r.outbox_id is not None
        oid = r.outbox_id
        n = self._attempts.get(oid, 0)
        delay = 0.0 if now else min(self.retry_max, self.retry_first * 2 ** n)
        self._pending[oid] = r
        self._due[oid] = asyncio.get_running_loop().time() + delay
        self._attempts[oid] = n + (0 if now else 1)
        self._wake.set()

    def _waiting(self, place: str) -> bool:
        return any(where(r) == place for r in self._pending.values())

    def _next_due(self) -> dict[str, float]:
        """When each place's oldest queued reply is due (the others of that place wait behind it)."""
        out: dict[str, float] = {}
        for oid in sorted(self._pending):
            out.setdefault(where(self._pending[oid]), self._due[oid])
        return out

    def pending(self) -> list[Reply]:
        """The replies waiting for a re-post, oldest first."""
        return [self._pending[oid] for oid in sorted(self._pending)]

    async def retry_pending(self, *, force: bool = False) -> int:
        """One pass of re-posting, one reply at a time, oldest first: each queued reply whose time has come
        (all with ``force``). A channel whose oldest reply fails again waits for its next turn, so its
        replies stay in order. Returns how many were posted."""
        if self._unmarked:
            ids, self._unmarked = sorted(self._unmarked), set()
            await self._mark([Reply(to="channel", text="", outbox_id=oid) for oid in ids])
        now = asyncio.get_running_loop().time()
        blocked: set[str] = set()
        done = 0
        games: set[int] = set()
        for oid in sorted(self._pending):
            r = self._pending.get(oid)
            if r is None or oid in self._claimed or where(r) in blocked:
                continue
            if not force and self._due[oid] > now:
                blocked.add(where(r))
                continue
            self._claimed.add(oid)
            try:
                await self._deliver_one(r, None)
            except Exception as exc:
                self._pending.pop(oid)
                if not await self._failed(r, exc):
                    blocked.add(where(r))
                    continue
            else:
                self._pending.pop(oid)
                await self._mark([r])
                done += 1
                log.info("re-posted a %s reply (outbox %s) after %d attempt(s)", r.to, oid, self._attempts.get(oid))
            finally:
                self._claimed.discard(oid)
            if oid not in self._pending:
                self._due.pop(oid, None)
                self._attempts.pop(oid, None)
            if r.game_id is not None and r.to == "channel":
                games.add(r.game_id)
        for gid in sorted(games):
            await self.status(gid)
        return done

    async def sweep(self) -> int:
        """Queue committed replies nobody is posting (a command that failed after its commit): those seen
        unposted by two sweeps running and neither being posted nor queued. Returns how many."""
        rows = await self.core.store.unposted()
        found: list[Reply] = []
        for oid, _gid, payload in rows:
            if oid in self._swept and oid not in self._claimed and oid not in self._pending \
                    and oid not in self._unmarked:
                r = Reply.model_validate_json(payload)
                r.outbox_id = oid
                found.append(r)
        found = await self.core.opponent.drop_own(found)  # never a DM to hexhive's own account
        for r in found:
            self._queue(r, now=True)
        self._swept = {oid for oid, _, _ in rows}
        return len(found)

    async def adopt(self, replies: list[Reply]) -> None:
        """Queue the still unposted replies of a command whose delivery stopped half-way."""
        unposted = {oid for oid, _, _ in await self.core.store.unposted()}
        for r in replies:
            oid = r.outbox_id
            if oid in unposted and oid not in self._claimed and oid not in self._pending:
                self._queue(r, now=True)

    def start(self) -> None:
        """Start the background task that re-posts what Discord did not take."""
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="hexhive-redelivery")

    async def stop(self) -> None:
        """Stop the re-posting task (what is still queued stays unposted in the store for the next start)."""
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        next_sweep = loop.time() + self.sweep_seconds
        while True:
            now = loop.time()
            wait = min([next_sweep - now, *(due - now for due in self._next_due().values())])
            if self._unmarked:
                wait = min(wait, self.retry_first)
            try:
                await asyncio.wait_for(self._wake.wait(), timeout=max(0.0, wait))
            except TimeoutError:
                pass
            self._wake.clear()
            try:
                if loop.time() >= next_sweep:
                    next_sweep = loop.time() + self.sweep_seconds
                    await self.sweep()
                await self.retry_pending()
            except Exception:  # the task must outlive any one failure
                log.exception("re-posting pass failed; trying again later")
                await asyncio.sleep(self.retry_first)

    async def respond(self, interaction: discord.Interaction, *, skip: int = 0, **kwargs: Any) -> None:
        """An ephemeral answer to an interaction, whether or not it was deferred, in parts of at most
        Discord's length; ``skip``: the parts already sent. An error carries how many parts went
        (``parts_sent``), so a second try sends only the rest."""
        kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
        kwargs = {k: v for k, v in kwargs.items() if v is not None}
        parts = chunks(kwargs.pop("content", ""))
        for n, text in enumerate(parts):
            if n < skip:
                continue
            extra = kwargs if n == len(parts) - 1 else {"allowed_mentions": kwargs["allowed_mentions"]}
            try:
                if interaction.response.is_done():
                    await interaction.followup.send(content=text, ephemeral=True, **extra)
                else:
                    await interaction.response.send_message(content=text, ephemeral=True, **extra)
            except Exception as exc:
                exc.parts_sent = n  # type: ignore[attr-defined]
                raise

    async def _post(self, r: Reply, interaction: discord.Interaction | None = None) -> bool:
        """Post in a channel or a DM; True when it went to the interacting member privately instead."""
        if r.to == "channel" and not r.place.startswith("dm:"):
            if r.edit_key:
                await self.edit_or_send(r)
                return False
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
        """Send one reply to a channel or DM, cut into messages; files and buttons go with the last.

        A re-post goes on after the messages already posted. A last message refused for lack of
        Attach Files (403, code 50013) is posted once more without its files, saying why."""
        msg = await self._message(r)
        parts = chunks(msg.pop("content"))
        first = self._parts.get(r.outbox_id, 0) if r.outbox_id is not None else 0
        for n, text in enumerate(parts[:-1]):
            if n >= first:
                await target.send(content=text, allowed_mentions=msg["allowed_mentions"], nonce=nonce_of(r, n, text))
                if r.outbox_id is not None:
                    self._parts[r.outbox_id] = n + 1
        last = len(parts) - 1
        kwargs = {k: v for k, v in msg.items() if v is not None}
        try:
            await target.send(content=parts[-1], nonce=nonce_of(r, last, parts[-1]), **kwargs)
        except discord.Forbidden as exc:
            if exc.code != 50013 or not kwargs.pop("files", None):
                raise
            note = await self._no_attach(r)
            rest = chunks(parts[-1] + note)
            for n, text in enumerate(rest, start=last):
                extra = kwargs if n == last + len(rest) - 1 else {"allowed_mentions": kwargs["allowed_mentions"]}
                await target.send(content=text, nonce=nonce_of(r, n, "no files\n" + text), **extra)

    async def _no_attach(self, r: Reply) -> str:
        """The line saying a file could not be attached; the moderators are told once which permission is missing."""
        what = "board" if r.board else "replay" if r.animation else "file"
        reason = f"(The {what} could not be attached: I am missing the **Attach Files** permission here.)"
        place = r.place if r.to == "channel" and r.place.isdigit() else self._game_place(r)
        if place is None:
            return "\n" + reason
        key = MISSING_KEY.format(place=place)
        try:
            told = await self.core.store.place_settings(key)
            if told.get("attach_files"):
                return "\n" + reason
            async with self.core.store.transaction():
                await self.core.store.set_place_settings(key, told | {"attach_files": True})
        except Exception:
            log.exception("could not note the missing Attach Files permission of %s", place)
        text = (f"I am missing the Attach Files permission in <#{place}>, so boards and files are posted "
                "without their images. A moderator can grant it to hexhive (docs/discord-setup.md).")
        log.warning("missing the Attach Files permission in %s", place)
        if self.alert is not None:
            try:
                await self.alert(place, text)
            except Exception:
                log.exception("could not tell the moderators of %s about a missing permission", place)
        return f"\n{reason[:-2]}; moderators: please grant it, see docs/discord-setup.md.)"

    async def edit_or_send(self, r: Reply) -> None:
        """A phase message (bot/phaselog.py): edited in place once posted, its buttons replaced by the reply's.

        One edit of a message at a time, and never back to an older text: a member's order and the bot
        opponent's answer to it are delivered by two tasks at once, and the text of the later action
        holds the earlier's lines too (two first posts would make two messages, and the older edit
        landing last would wipe the newer's lines)."""
        key = f"discord:edit:{r.edit_key}"
        async with self._edit_locks.hold(key):
            rec = await self.core.store.place_settings(key)
            if rec and int(rec.get("seq", -1)) > (r.seq or 0):
                return  # a later action's text is already shown
            await self._edit_or_send(r, key, rec)

    async def _edit_or_send(self, r: Reply, key: str, rec: dict[str, Any] | None) -> None:
        msg = await self._message(r)
        text = chunks(msg.pop("content"))[0]
        channel = self.client.get_partial_messageable(int(r.place))
        if rec:
            try:
                await channel.get_partial_message(int(rec["message"])).edit(
                    content=text, view=msg["view"], allowed_mentions=msg["allowed_mentions"])
                if int(rec.get("seq", -1)) != (r.seq or 0):
                    async with self.core.store.transaction():
                        await self.core.store.set_place_settings(key, {**rec, "seq": r.seq or 0})
                return
            except discord.NotFound:
                pass  # the message was deleted: post it again
        # The same nonce on every re-post: a post whose answer was lost is handed back, not made twice.
        kwargs = {k: v for k, v in msg.items() if v is not None}
        try:
            sent = await channel.send(content=text, nonce=nonce_of(r, 0, text), **kwargs)
        except discord.Forbidden as exc:  # no Attach Files: once more without the board, saying why
            if exc.code != 50013 or not kwargs.pop("files", None):
                raise
            text = chunks(text + await self._no_attach(r))[0]
            sent = await channel.send(content=text, nonce=nonce_of(r, 0, "no files\n" + text), **kwargs)
        async with self.core.store.transaction():
            await self.core.store.set_place_settings(key, {"channel": r.place, "message": str(sent.id),
                                                           "seq": r.seq or 0})

    async def _message(self, r: Reply) -> dict[str, Any]:
        files = []
        note = ""
        if r.board and r.game_id is not None:
            images = board_attachments(await self._board(r), r.board_view)
            if images and sum(len(b) for _, b, _ in images) <= UPLOAD_LIMIT:
                files += [discord.File(io.BytesIO(b), filename=f"game-{r.game_id}-{name}", description=alt or None)
                          for name, b, alt in images]
            elif images:
                note = "\n(The board is too large to attach.)"
        if r.animation and r.game_id is not None:
            try:
                gif = await self._animation(r)
            except ReplaysBusy:
                gif, note = None, "\n" + ReplaysBusy.TEXT
            else:
                if gif is not None:
                    files.append(discord.File(io.BytesIO(gif), filename=f"game-{r.game_id}-replay.gif"))
                else:
                    note = "\n(The replay could not be drawn.)"
        if r.file_name:
            files.append(discord.File(io.BytesIO(r.file_text.encode()), filename=r.file_name))
        view = None
        if r.game_id is not None and r.buttons:
            view = choices_view(r.game_id, await shown_token(self.core, r.game_id, r.seq or 0), r.buttons)
        return {"content": (r.text + note)[: MAX_TEXT * 10], "files": files or None, "view": view,
                "allowed_mentions": allowed_for(r)}

    async def _animation(self, r: Reply) -> bytes | None:
        try:
            return await render_replay_gif(self.core, r.game_id or 0, UPLOAD_LIMIT)
        except ReplaysBusy:
            raise
        except Exception:
            log.exception("replay of game %s could not be drawn", r.game_id)
            return None

    async def _board(self, r: Reply) -> Boards | bytes | None:
        try:
            if r.highlights:  # a private board of one unit's moves
                return await render_board_png(self.core, r.game_id or 0, r.viewer, r.highlights)
            if r.around or r.zoc:  # /game board around:HEX zoc:on
                return await render_board_images(self.core, r.game_id or 0, r.viewer, r.around, r.zoc)
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
        key, decision = "", None
        if r.secret_prompt and r.game_id is not None:
            # Once a decision: a private step (a Chitin pick, 3.03) gives a new prompt but not a new
            # decision, and a line a step would let anyone count them. A decision is known by the action
            # that passed it to a player and by the rules of the member's private prompts: an accost
            # (OneWorld 10.4) after a combat round (8.2) the member answered last is a new one, though
            # no decision passed to anyone in between (its clock still runs from the hand-over,
            # bot/clocks.py). The button opens the decision as it is when pressed.
            g = self.core.live.get(r.game_id)
            key = f"discord:dm-closed:{r.game_id}:{user}"
            if g is not None:
                seats = g.seats_of(user)
                rules = sorted({f"{p.rule}/{p.group}" for p in g.pending() if p.secret and p.seat in seats})
                if not rules:  # a prompt delivered late, already answered: nothing private waits
                    return
                decision = [g.row.branch, g.row.settings_dict.get("decision_seq", 0), rules]
                if (await self.core.store.place_settings(key)).get("decision") == decision:
                    return
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
        if decision is not None:
            async with self.core.store.transaction():
                await self.core.store.set_place_settings(key, {"decision": decision})

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
            except Exception as exc:  # a status message is redrawn at the next change: never fatal
                log.warning("status message of game %s not updated (%s, HTTP %s)", gid, type(exc).__name__,
                            getattr(exc, "status", None))

    async def _status(self, gid: int, create_only: bool) -> None:
        key = f"discord:status:{gid}"
        rec = await self.core.store.place_settings(key)
        if rec and create_only:
            return
        text = await self.status_text(gid)
        if text is None or (rec and rec.get("text") == text):
            return
        gone = ""
        if rec:
            try:
                await self._edit_status(int(rec["channel"]), int(rec["message"]), text)
            except discord.NotFound:
                log.info("status message of game %s was deleted; posting a new one", gid)
                gone, rec = str(rec["message"]), {}
        if not rec:
            place = await self._place_of(gid)
            if place is None:
                return
            # One nonce for every attempt at this message: a post whose answer was lost (or whose id a
            # restart did not save) is handed back by Discord at the next attempt, not made twice.
            nonce = hashlib.sha256(f"status:{gid}:{gone}".encode()).hexdigest()[:25]
            msg = await self.client.get_partial_messageable(int(place)).send(
                content=text, allowed_mentions=discord.AllowedMentions.none(), nonce=nonce)
            if msg.content != text:  # the message of an earlier attempt, with its older text
                await self._edit_status(int(place), msg.id, text)
            rec = {"channel": place, "message": str(msg.id)}
        async with self.core.store.transaction():
            await self.core.store.set_place_settings(key, rec | {"text": text})

    async def _edit_status(self, channel_id: int, message_id: int, text: str) -> None:
        """Edit a status message; an archived thread is unarchived first (Discord refuses edits in it, 50083)."""
        if channel_id in self.archived:
            await self._unarchive(channel_id)
        message = self.client.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await message.edit(content=text)
        except discord.HTTPException as exc:
            if exc.code != 50083:
                raise
            await self._unarchive(channel_id)
            await message.edit(content=text)

    def note_archived(self, thread_id: int, archived: bool) -> None:
        """The gateway said a thread was archived or unarchived (discord.py drops archived threads from its cache)."""
        if archived:
            self.archived.add(thread_id)
        else:
            self.archived.discard(thread_id)

    async def _unarchive(self, channel_id: int) -> None:
        thread = self.client.get_channel(channel_id) or await self.client.fetch_channel(channel_id)
        if isinstance(thread, discord.Thread):
            await thread.edit(archived=False)
        self.archived.discard(channel_id)

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
