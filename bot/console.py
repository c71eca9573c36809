"""The console transport: play as several people from one terminal or a script.

Grammar (docs/console.md): ``alice: /move child:B7 dir:NE``; ``alice@#game-1: ...``
names the place; ``alice dm: ...`` speaks in alice's direct messages;
``!moderator carol`` makes carol a moderator; ``#`` starts a comment.
Every reply is printed with who sees it: ``[#game-1]``, ``[DM alice]``, ``[to alice]``.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO

from bot.boards import (
    ReplaysBusy,
    board_attachments,
    render_board_images,
    render_board_png,
    render_replay_gif,
)
from bot.commands import make_core
from bot.core import Core
from bot.parsing import unescape_markdown
from bot.replies import Reply
from bot.store import Store

LINE = re.compile(r"^\s*(?P<user>[\w.-]+)\s*(?:@(?P<place>#?[\w.-]+)|\s+(?P<dm>dm))?\s*:\s*(?P<cmd>/.*)$")
LOBBY = "console:#lobby"
CONSOLE_UPLOAD_LIMIT = 10 * 1024 * 1024
"""Discord's default upload limit, which the console's replays keep to as well."""
MENTION = re.compile(r"<@!?([\w.-]+)>")
AT_NAME = re.compile(r"(\b\w+:)@(?=[\w.-])")
BOARD_FILE = re.compile(r"^board-(\d+)-")


def quiet_stdout() -> None:
    """The reader of standard output went away: what is still buffered, and whatever is written later (the
    flush as a worker process starts, the one at exit), goes nowhere instead of failing with a traceback."""
    with contextlib.suppress(OSError, ValueError):
        nowhere = os.open(os.devnull, os.O_WRONLY)
        os.dup2(nowhere, sys.stdout.fileno())
        os.close(nowhere)


class ConsoleError(Exception):
    """A script line the console cannot read."""


class Console:
    """Feeds lines to the core and prints the replies; boards are written as PNG files."""

    def __init__(self, core: Core, out_dir: Path | None, stream: TextIO = sys.stdout, boards: bool = True) -> None:
        self.core = core
        self.draw_boards = boards
        self.out_dir = out_dir
        self.stream = stream
        self.moderators: set[str] = set()
        self.current: dict[str, str] = {}
        self.boards = 0
        self.edits: dict[str, str] = {}
        """The text each edited message (a phase message) last showed, to print only what changed."""
        self.files: list[Path] = []
        self.printing = asyncio.Lock()
        """One delivery is printed whole, its boards under its posts, before the next begins: the bot
        opponent's orders come from its own task while a line's board is still being drawn."""
        self.gone: BrokenPipeError | None = None
        """Set when the reader of the output went away (``| head``): the console stops at its next line."""
        if stream is sys.stdout and isinstance(stream, io.TextIOWrapper):
            # a line at a time, so a reader gone is found by the print that finds it (``say``), and never by
            # the flush of a full buffer as a worker process starts (the bot opponent's), taken for its error
            stream.reconfigure(line_buffering=True)
        core.open_thread = self.open_thread
        core.opponent.attach(self._deliver_for_bot)  # the bot opponent's orders are printed as they come
        if out_dir:
            out_dir.mkdir(parents=True, exist_ok=True)
            # Boards are numbered on from an earlier run's, so a new run never overwrites them.
            numbers = [int(m[1]) for p in out_dir.glob("board-*.png") if (m := BOARD_FILE.match(p.name))]
            self.boards = max(numbers, default=0)

    async def open_thread(self, parent: str, title: str) -> str:
        """A console 'thread': a new place named after the game's number (the next one in the database)."""
        rows = await self.core.store.games()
        return f"console:#game-{max((r.id for r in rows), default=0) + 1}"

    def say(self, text: str) -> None:
        if self.gone is not None:
            raise self.gone
        try:
            print(text, file=self.stream)
        except BrokenPipeError as exc:
            self.gone = exc
            if self.stream is sys.stdout:
                quiet_stdout()
            raise

    async def _deliver_for_bot(self, replies: list[Reply]) -> None:
        """Print the bot opponent's orders. If the reader went away, the bot stops thinking (its task ends as
        cancelled, not as an error of the bot to be logged and tried again), and the line's ``run_line``
        stops the console; what was not printed is kept in the store, as for any line."""
        try:
            await self.deliver(replies)
        except BrokenPipeError:
            raise asyncio.CancelledError from None

    async def start(self) -> None:
        """Post whatever the store holds committed but unposted."""
        await self.deliver(await self.core.start())

    async def run_line(self, raw: str) -> list[Reply]:
        """One line of the grammar; returns the replies it produced (for tests that count them)."""
        if self.gone is not None:
            raise self.gone
        line = raw.strip()
        if not line or line.startswith("#"):
            return []
        if line.startswith("!moderator"):
            self.moderators.update(line.split()[1:])
            return []
        m = LINE.match(line)
        if not m:
            raise ConsoleError(f"cannot read '{line}': write 'name: /command arg:value'")
        user = m.group("user")
        if self.core.opponent.is_bot(user):  # its orders are its own, and what is said to it is never printed
            raise ConsoleError(f"'{user}' is hexhive's own name in the console, the bot opponent, which gives "
                               "its orders by itself; write as a person, like 'alice: /help'")
        if m.group("dm"):
            place = f"dm:{user}"
        elif m.group("place"):
            place = "console:" + ("#" + m.group("place").lstrip("#"))
            self.current[user] = place
        else:
            place = self.current.get(user, LOBBY)
        self.say(f"{user}> {m.group('cmd')}")
        command = AT_NAME.sub(r"\1", m.group("cmd"))  # opponent:@bob names bob, as a mention would
        replies = await self.core.handle_line(user, place, command, is_moderator=user in self.moderators)
        for r in replies:
            if r.to == "channel" and not place.startswith("dm:"):
                self.current[user] = r.place
            for u in r.mentions:
                if r.to == "channel":
                    self.current[u] = r.place
        await self.deliver(replies)
        await self.core.opponent.idle()  # a line's answer includes the bot opponent's orders it led to
        if self.gone is not None:  # the bot's orders could not be printed: the reader went away meanwhile
            raise self.gone
        return replies

    async def deliver(self, replies: Iterable[Reply]) -> None:
        """Print each reply with its audience, write boards and files."""
        replies = list(replies)
        async with self.printing:
            await self._print(replies)
        await self.core.posted(replies)

    async def _print(self, replies: list[Reply]) -> None:
        for r in replies:
            head = {"channel": f"[{r.place.removeprefix('console:')}]", "dm": f"[DM {r.user}]",
                    "private": f"[to {r.user}]"}[r.to]
            text = unescape_markdown(MENTION.sub(lambda m: "@" + m.group(1), self._edited(r)))
            for i, text_line in enumerate(text.splitlines() or [""]):
                self.say(f"{head if i == 0 else ' ' * len(head)} {text_line}")
            for b in r.buttons:
                self.say(f"{' ' * len(head)}   [button] {b.label} -> {b.command}")
            if r.board and r.game_id is not None and self.draw_boards:
                await self._board(r, head)
            if r.animation and r.game_id is not None and self.draw_boards:
                await self._animation(r, head)
            if r.file_name and self.out_dir:
                path = self.out_dir / r.file_name
                path.write_text(r.file_text)
                self.files.append(path)
                self.say(f"{' ' * len(head)}   (file: {path})")

    def _edited(self, r: Reply) -> str:
        """An edited message is shown again: its new lines, or the whole text when older lines changed."""
        if not r.edit_key:
            return r.text
        before = self.edits.get(r.edit_key)
        self.edits[r.edit_key] = r.text
        if before is None:
            return r.text
        if r.text.startswith(before + "\n"):
            return "(edited) ... " + r.text[len(before) + 1:]
        return "(edited)\n" + r.text

    async def _animation(self, r: Reply, head: str) -> None:
        try:
            gif = await render_replay_gif(self.core, r.game_id or 0, CONSOLE_UPLOAD_LIMIT)
        except ReplaysBusy:
            self.say(f"{' ' * len(head)}   {ReplaysBusy.TEXT}")
            return
        if gif is None:
            return
        if self.out_dir:
            path = self.out_dir / f"replay-game{r.game_id}.gif"
            path.write_bytes(gif)
            self.files.append(path)
            self.say(f"{' ' * len(head)}   (animation: {path})")
        else:
            self.say(f"{' ' * len(head)}   (animation: {len(gif)} bytes)")

    async def _board(self, r: Reply, head: str) -> None:
        if r.highlights:  # a private board of one unit's reachable hexes (/game moves board:yes)
            png = await render_board_png(self.core, r.game_id or 0, r.viewer, r.highlights)
            images = [("board.png", png, "")] if png is not None else []
        else:
            gid = r.game_id or 0
            drawn = await (render_board_images(self.core, gid, r.viewer, r.around, r.zoc) if r.around or r.zoc
                           else render_board_images(self.core, gid, r.viewer))
            images = board_attachments(drawn, r.board_view)
        if not images:
            return
        self.boards += 1
        pad = " " * len(head)
        for name, png, _alt in reversed(images):  # the full map's line first, then the focus view's
            if self.out_dir:
                stem = f"board-{self.boards:04d}-game{r.game_id}"
                path = self.out_dir / (f"{stem}.png" if name == "board.png" else f"{stem}-{name}")
                path.write_bytes(png)
                self.files.append(path)
                what = str(path)
            else:
                what = f"{len(png)} bytes"
            self.say(f"{pad}   ({'board' if name == 'board.png' else 'focus view'}: {what})")
        if images[0][2]:
            self.say(f"{pad}   (alt text: {images[0][2]})")


async def run_script(lines: Iterable[str], db: Path, out_dir: Path | None, stream: TextIO = sys.stdout,
                     seed_base: str | None = None, boards: bool = True) -> int:
    """Run a script of console lines; the exit status is non-zero on an internal error."""
    store = await Store.open(db)
    core = make_core(store)
    try:
        await _seeded(core, seed_base)
        console = Console(core, out_dir, stream, boards=boards)
        await console.start()
        for n, line in enumerate(lines, 1):
            try:
                await console.run_line(line)
            except ConsoleError as exc:
                console.say(f"line {n}: {exc}")
                return 2
        return 1 if core.internal_errors else 0
    finally:
        await core.opponent.stop()  # a line that failed may leave the bot thinking: not on a closed store
        await store.close()


async def _seeded(core: Core, seed_base: str | None) -> None:
    """``--seed``: every new game's dice seed is ``seed_base-1``, ``seed_base-2``, ... (reproducible), numbered
    on from the seeds the database already holds: a seed used again would be one already published."""
    if seed_base is not None:
        mine = re.compile(re.escape(seed_base) + r"-([0-9]+)")
        used = [int(m[1]) for g in await core.store.games() if (m := mine.fullmatch(g.seed))]
        counter = iter(range(max(used, default=0) + 1, 10**9))
        core.new_seed = lambda: f"{seed_base}-{next(counter)}"


async def interactive(db: Path, out_dir: Path | None, seed_base: str | None = None) -> int:
    """Read lines from standard input until end of input or /quit."""
    store = await Store.open(db)
    core = make_core(store)
    try:
        await _seeded(core, seed_base)
        console = Console(core, out_dir)
        await console.start()
        console.say("hexhive console. Write lines like 'alice: /help' or "
                    "'alice: /game new game:oneworld opponent:bob'; '/quit' ends.")
        loop = asyncio.get_running_loop()
        while True:
            line = await loop.run_in_executor(None, sys.stdin.readline)
            if not line or line.strip() in ("/quit", "quit", "exit"):
                break
            try:
                await console.run_line(line)
            except ConsoleError as exc:
                console.say(str(exc))
        return 0
    finally:
        await core.opponent.stop()
        await store.close()
