"""The bot core: (user, place, command, arguments) in, replies out. Transport-agnostic.

Each accepted command is one transaction: validate, apply, append to the log,
queue the replies in the outbox, commit; only then does the transport post them
and mark them posted. On start-up whatever was committed but not posted is
posted again, and nothing is applied twice.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import secrets
import uuid
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from datetime import UTC, datetime

from pydantic import BaseModel

from bot import confirm, lookup, phaselog, words
from bot.answers import Handler, Limits, Refusal, polite, private, visible
from bot.keyed import KeyedLocks
from bot.live import SNAPSHOT_EVERY, Live, load_live
from bot.opponent import Opponent
from bot.parsing import ParseError, check_args, parse_command, parse_int
from bot.records import commitment, dumps, key_announced
from bot.replies import MAX_BUTTONS, Button, Command, Reply
from bot.store import COMMITTED, GameRow, Store
from engine.core.dice import SeededDice
from engine.core.errors import RuleError
from engine.core.protocol import MODERATOR, Action, Event, Prompt

log = logging.getLogger("hexhive.core")

PUBLIC_BUTTONS = 10
"""A decision in the channel gets buttons when it has at most this many answers (two rows)."""


def utcnow() -> datetime:
    return datetime.now(UTC)


OpenThread = Callable[[str, str], Awaitable[str]]

MAX_GAME_ID = 10**12
CONSOLE = "console"
"""The one community of the local console."""


def community_of_place(place: str) -> str:
    """The console's community for a console place; none for a direct message."""
    return "" if place.startswith("dm:") else CONSOLE


def _spelt(legal: list[Action], args: Mapping[str, str | int]) -> dict[str, str | int]:
    """``args`` with each value spelt as the game spells it among ``legal`` (the verb's legal
    actions), whatever its letter case and spaces around it; a value spelt exactly as one legal
    action has it stays so, and a value no legal action has is kept."""
    exact = {(k, str(v)) for a in legal for k, v in a.args.items()}
    spelling = {(k, str(v).casefold()): str(v) for a in legal for k, v in a.args.items()}
    return {k: v if (k, str(v)) in exact else spelling.get((k, str(v).strip().casefold()), v)
            for k, v in args.items()}


def _check_given(g: Live, seat: str, action: Action) -> None:
    """An order that leaves out an argument its verb needs (``/move stack:R3`` without ``to:``, or ``to:``
    written empty) is refused by naming what is missing, not by the game's reading of an empty value
    ("there is no counter ;"). An order the game accepts as it is never is, nor one of a verb that is no
    answer now (the game's refusal says which are)."""
    assert g.state is not None
    spec = next((v for v in g.rules.verbs() if v.verb == action.verb), None)
    if spec is None or g.rules.is_legal(g.state, seat, action):
        return
    missing = [a for a in spec.args if a.required and not str(action.args.get(a.name, "")).strip()]
    if not missing:
        return
    legal = [a for a in g.rules.legal_now(g.state, seat) if a.verb == action.verb]
    if not legal:
        return  # no answer now at all: the game refuses it by naming the orders that are
    needs = " and ".join(f"{a.name}: ({a.help})" for a in missing)
    # The example keeps what was given (the unit named, OneWorld's to:), but for arguments no legal order
    # carries (Chitin's dir:, asked for after the move), and then, failing that, what the verb needs.
    carried = {k for a in legal for k in a.args}
    needed = {a.name for a in spec.args if a.required}
    given = {k: str(v).casefold() for k, v in action.args.items() if k in carried and str(v).strip()}

    def like(keys: set[str]) -> list[Action]:
        return [a for a in legal if all(str(a.args.get(k, "")).casefold() == v for k, v in given.items() if k in keys)]

    example = (like(carried) or like(needed) or legal)[0]
    rule = f" (rule {spec.rule})" if spec.rule else ""
    raise Refusal(f"/{spec.verb} needs {needs}; write it as {words.usage(spec)}, for example {example.text()}{rule}")


async def same_place(parent: str, title: str) -> str:
    """A transport without threads plays the game where it was created."""
    return parent


BUTTON_SECRET_KEY = "hexhive:button-secret"
"""The place_settings row holding ``Core.button_secret`` (no channel or server has such a name)."""


KEYS_ANNOUNCED = "store:keys-announced"
"""The store's note that every dice key made before rollbacks announced them has been announced."""


class Core:
    """Takes commands, runs them against the store and the engine, returns replies."""

    def __init__(
        self,
        store: Store,
        *,
        commands: Mapping[str, Handler],
        clock: Callable[[], datetime] = utcnow,
        new_seed: Callable[[], str] = lambda: secrets.token_hex(16),
        open_thread: OpenThread = same_place,
        limits: Limits | None = None,
    ) -> None:
        self.store = store
        self.commands = dict(commands)
        """The command table (``bot.commands.table()``): ``"game new"`` -> its handler."""
        self.clock = clock
        self.new_seed = new_seed
        self.open_thread = open_thread
        self.limits = limits or Limits()
        self.live: dict[int, Live] = {}
        self.creating = KeyedLocks()
        """The members and communities whose challenges are being made (bot/lifecycle.py)."""
        self.locks: dict[int, asyncio.Lock] = {}
        """One lock a game, kept by id: a rollback that replaces the in-memory game keeps its lock."""
        self.internal_errors: deque[str] = deque(maxlen=200)
        self.damaged: dict[int, str] = {}
        """Games kept out of play because their log is damaged, with what is wrong."""
        self.damaged_rows: dict[int, GameRow] = {}
        """The rows of the damaged games: who may be told that one is (``visible``)."""
        self.unloaded: dict[int, GameRow] = {}
        """Games in play not loaded into memory yet (start-up loads them in the background)."""
        self.places: dict[str, tuple[int, str]] = {}
        """Each place a game was created in (its own thread) -> the newest such game and, once it has
        left play, how it ended (``over`` or ``declined``; empty while in play): a thread stays its
        game's, so an order there never falls to a game elsewhere (``find_game``)."""
        self._loading: dict[int, asyncio.Future[None]] = {}
        self.loader: asyncio.Task[None] | None = None
        self.all_loaded = asyncio.Event()
        """Set once start-up has loaded every game in play (``start``)."""
        self.opponent = Opponent(self)
        """The bot opponent: plays the seats a game gives the bot (bot/opponent.py)."""
        self._button_secret: str | None = None
        self._button_lock = asyncio.Lock()

    async def _announce_old_keys(self) -> None:
        """Dice keys made before rollbacks announced them (by hash, from their first action): each is
        announced once in its game's moderation log, so ``hexhive replay`` takes it; a key is fixed in
        the store from its branch's creation, so a late announcement tells nothing false."""
        if (await self.store.place_settings(KEYS_ANNOUNCED)).get("done"):
            return
        now = self.now()
        async with self.store.transaction():
            for gid, branch, fork_seq, key in await self.store.keyed_branches():
                said = key_announced(key, fork_seq + 1)
                if not any(said in m["what"] for m in await self.store.modlog(gid)):
                    await self.store.add_modlog(gid, "hexhive", f"announced the dice key of branch {branch}: {said}",
                                                "a key made before rollbacks announced their keys", now)
            await self.store.set_place_settings(KEYS_ANNOUNCED, {"done": True})

    async def _renew_exposed_keys(self) -> None:
        """Games rolled back before dice keys were kept secret in play: their key was in every export
        (16 hex digits), and if the game had ended first, its seed was posted too, so their rolls could be
        foreseen. Whether it had ended is not kept, so every such game (several branches, a secret seed,
        a line on `main` or on such a key, not yet renewed) goes on from a new branch with a fresh key,
        as a rollback of a finished game does (bot/moderation.py); the moderation log says so."""
        rows = await self.store.games("status IN ('active', 'paused') AND seed_public = 0 AND "
                                      "json_extract(settings, '$.seed_published') IS NULL AND id IN "
                                      "(SELECT game_id FROM branches GROUP BY game_id HAVING COUNT(*) > 1)")
        for row in rows:
            if row.id in self.damaged or row.id in self.live:  # memory would say another branch
                continue
            info = {b["branch"]: b for b in await self.store.branches(row.id)}
            key = info.get(row.branch, {}).get("dice_key", "main")
            if len(info) < 2 or len(key) > 17:
                continue
            now = self.now()
            fresh = "k" + secrets.token_hex(16)
            async with self.store.transaction():
                new = await self.store.fork(row.id, row.branch, info[row.branch]["length"], fresh, "dice key renewed", now)
                settings = row.settings_dict | {"seed_published": True}
                await self.store.update_game(row.id, now, settings=json.dumps(settings))
                await self.store.add_modlog(row.id, "hexhive", f"renewed the dice key of game #{row.id}: branch "
                                            f"{row.branch} goes on as branch {new} with a fresh, secret key, "
                                            f"{key_announced(fresh, info[row.branch]['length'] + 1)}",
                                            "a key made before keys were kept secret in play", now)
            log.warning("game #%s: dice key renewed (branch %s -> %s)", row.id, row.branch, new)

    async def button_secret(self) -> str:
        """The installation's secret that keys the action tokens of buttons' ids (bot/discord/components.py):
        made once and kept in the database, so buttons posted before a restart keep working."""
        async with self._button_lock:
            if self._button_secret is None:
                held = (await self.store.place_settings(BUTTON_SECRET_KEY)).get("secret")
                if not held:
                    held = secrets.token_hex(32)
                    async with self.store.transaction():
                        await self.store.set_place_settings(BUTTON_SECRET_KEY, {"secret": held})
                self._button_secret = str(held)
            return self._button_secret

    def command_words(self) -> set[str]:
        """The first word of every command in the table (``game``, ``mod``, ``help`` ...)."""
        return {name.split(" ")[0] for name in self.commands}

    def game_ids(self) -> list[int]:
        """Every game in play, loaded or not."""
        return sorted(set(self.live) | set(self.unloaded) | set(self._loading))

    async def load_all(self) -> None:
        """Load every game still waiting, one at a time, letting other work run in between."""
        for gid in list(self.unloaded):
            await self.load(gid)
            await asyncio.sleep(0)
        self.all_loaded.set()

    async def load(self, gid: int) -> Live | None:
        """The game ``gid`` in memory, loading it first if start-up has not yet (None if not in play)."""
        if gid in self._loading:
            await self._loading[gid]
        row = self.unloaded.pop(gid, None)
        if row is None:
            return self.live.get(gid)
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._loading[gid] = done
        try:
            self.live[gid] = await load_live(self.store, row)
            self.opponent.poke(gid)
        except Exception as exc:
            log.exception("game #%s cannot be loaded", gid)
            self.damaged[gid] = f"its log does not replay ({type(exc).__name__})"
            self.damaged_rows[gid] = row
        finally:
            del self._loading[gid]
            done.set_result(None)
        return self.live.get(gid)

    async def _preload(self, cmd: Command) -> None:
        """While start-up is still loading games, load first the ones this command may be about."""
        if not self.unloaded and not self._loading:
            return
        try:
            gid = self.game_id_arg(cmd)
        except (ParseError, Refusal):
            return
        if gid is not None:
            wanted = {gid}
        else:
            wanted = {i for i, r in list(self.unloaded.items())
                      if r.place == cmd.place or cmd.user in r.settings_dict.get("seats", {}).values()}
            wanted |= set(self._loading)
        for i in sorted(wanted):
            await self.load(i)

    # --- start-up ---------------------------------------------------------------------------

    async def start(self, *, background: bool = False) -> list[Reply]:
        """Find the games in play and load them; return the replies committed but never posted.

        With ``background`` the games are loaded by a task after this returns, so the bot answers
        at once whatever the number of games: a command about a game not loaded yet loads that
        game first (``_preload``). A game whose log is damaged is found now, not later as an
        internal error: it is kept out of play, and every command on it says so.
        """
        self.damaged = await self.store.damaged_games()
        for gid, problem in self.damaged.items():
            log.error("game #%s is damaged: %s; restore the database from a backup", gid, problem)
            if (damaged := await self.store.game(gid)) is not None:
                self.damaged_rows[gid] = damaged
        await self._renew_exposed_keys()
        await self._announce_old_keys()
        for row in await self.store.games("status IN ('invited', 'active', 'paused')"):
            if row.id not in self.damaged and row.id not in self.live:
                self.unloaded[row.id] = row
        for place, gid, status in await self.store.newest_by_place():
            self.places[place] = (gid, status if status in ("over", "declined") else "")
        if background:
            self.loader = asyncio.create_task(self.load_all(), name="hexhive-load-games")
        else:
            await self.load_all()
        out = []
        for oid, _gid, payload in await self.store.unposted():
            r = Reply.model_validate_json(payload)
            r.outbox_id = oid
            out.append(r)
        return await self.opponent.drop_own(out)

    def new_bot_key(self) -> str:
        """The secret key of the bot's draws in a game whose dice seed is fixed and public (``GameRow.bot_key``);
        not ``new_seed``, which the console's ``--seed`` makes foreseeable. Tests may set their own."""
        return secrets.token_hex(16)

    async def posted(self, replies: list[Reply]) -> None:
        """The transport delivered these replies: mark them so they are never posted again."""
        ids = [r.outbox_id for r in replies if r.outbox_id is not None]
        if ids:
            async with self.store.transaction():
                await self.store.mark_posted(ids)

    def now(self) -> str:
        return self.clock().isoformat(timespec="seconds")

    # --- entry points ------------------------------------------------------------------------

    async def handle_line(self, user: str, place: str, line: str, *, is_moderator: bool = False,
                          community: str | None = None) -> list[Reply]:
        """Parse a console-style line and handle it (in the console's community unless told otherwise)."""
        try:
            name, args = parse_command(line)
        except ParseError as exc:
            return [private(user, place, words.unknown_command(line, self.command_words()) or f"Sorry, {exc}.")]
        if community is None:
            community = community_of_place(place)
        return await self.handle(Command(user=user, place=place, name=name, args=args, is_moderator=is_moderator,
                                         community=community))

    async def handle(self, cmd: Command) -> list[Reply]:
        """Run one command. Refusals become private replies and change nothing."""
        COMMITTED.set(False)
        try:
            check_args(cmd.args)
            await self._preload(cmd)
            # a game that now waits on the bot opponent: it thinks (bot/opponent.py)
            return await self.opponent.after(await self._dispatch(cmd))
        except (RuleError, Refusal, ParseError) as exc:
            return [private(cmd.user, cmd.place, polite(str(exc)))]
        except Exception:
            error_id = uuid.uuid4().hex[:8]
            log.exception("internal error %s handling %s from %s", error_id, cmd.name, cmd.user)
            self.internal_errors.append(error_id)
            if COMMITTED.get():  # the order is in the log: never say that nothing changed
                return [private(cmd.user, cmd.place,
                                f"Your command was taken and saved, but something went wrong on our side afterwards "
                                f"(error id {error_id}); its announcement will follow, and a moderator can look it up.")]
            return [private(cmd.user, cmd.place,
                            f"Sorry, something went wrong on our side (error id {error_id}). "
                            "Nothing was changed; a moderator can look it up.")]

    async def _dispatch(self, cmd: Command) -> list[Reply]:
        handler = self.commands.get(cmd.name)
        if handler is not None:
            return await handler(self, cmd)
        group = cmd.name.split(" ")[0]
        if group in ("game", "mod", "resolve"):
            subs = sorted(n.split(" ", 1)[1] for n in self.commands if n.startswith(group + " "))
            if cmd.name == group and subs:
                raise Refusal(f"/{group} needs one more word: " + ", ".join(f"/{group} {w}" for w in subs)
                              + "; /help says what each does")
            raise Refusal(f"there is no command /{cmd.name}; /help lists them")
        unknown = words.unknown_command("/" + cmd.name, self.command_words())
        if unknown:
            raise Refusal(unknown.removeprefix("Sorry, "))
        return await self.play(cmd)

    # --- finding games --------------------------------------------------------------------------

    def game_id_arg(self, cmd: Command) -> int | None:
        """The number of ``game:N``, if given (a ``ParseError`` unless it is a plain number)."""
        if "game" not in cmd.args:
            return None
        gid = parse_int(cmd.args["game"], "game", 1, MAX_GAME_ID)
        self._check_damaged(gid, cmd)
        return gid

    def _check_damaged(self, gid: int, cmd: Command) -> None:
        """A damaged game's refusal says what is wrong, to those who may find the game; anyone else
        is answered by the command's own lookup, as for a number never used."""
        if gid in self.damaged and (row := self.damaged_rows.get(gid)) is not None and visible(row, cmd):
            raise Refusal(f"game #{gid} cannot be played: {self.damaged[gid]}. A moderator can restore the "
                          "database from a backup (hexhive db backup); nothing was changed")

    def find_game(self, cmd: Command, *, statuses: tuple[str, ...] = ("active", "paused")) -> Live:
        """The game a command is about: ``game:ID``, else the game in this place, else the user's only game.

        ``game:N`` finds only a game of the asker's own community, or one they play in: a
        game of another server is as unknown to its strangers as a game that does not exist.
        """
        gid = self.game_id_arg(cmd)
        if gid is not None:
            g = self.live.get(gid)
            if g is None or not visible(g.row, cmd):
                raise Refusal(f"there is no game #{gid} in play here")
            if g.row.status not in statuses:
                raise Refusal(f"game #{g.id} is {_STATUS_WORDS.get(g.row.status, g.row.status)}")
            return g
        here = [g for g in self.live.values() if g.row.place == cmd.place and g.row.status in statuses]
        if len(here) == 1:
            return here[0]
        if not here:
            self._check_thread(cmd, statuses)
        mine = [g for g in self.live.values() if cmd.user in g.seats.values() and g.row.status in statuses]
        if len(here) > 1:
            mine = [g for g in here if cmd.user in g.seats.values()] or here
        if len(mine) == 1:
            return mine[0]
        if not mine:
            raise Refusal("there is no game in play here; /game new starts one, /game list shows the games")
        ids = ", ".join(f"#{g.id}" for g in mine)
        raise Refusal(f"you are in several games ({ids}); add game:ID to say which")

    def _check_thread(self, cmd: Command, statuses: tuple[str, ...]) -> None:
        """In a game's own thread, with that game not in a state the command needs, a refusal naming
        it: the command is never taken for one of the asker's games elsewhere (``game:N`` names one)."""
        known = self.places.get(cmd.place)
        if known is None:
            return
        gid, ended = known
        self._check_damaged(gid, cmd)
        g = self.live.get(gid)
        row = g.row if g is not None else self.unloaded.get(gid)
        status = row.status if row is not None else ended or "gone"
        if status in statuses:
            if g is None:  # still loading after a restart (a command loads it first: ``_preload``)
                raise Refusal(f"game #{gid} is still being loaded after a restart; try again in a moment")
            return
        raise Refusal(f"game #{gid}, the game of this thread, is {_STATUS_WORDS.get(status, status)}; "
                      "nothing was changed. To act in another game, add game:ID (/game list shows the games)")

    def placed(self, g: Live) -> None:
        """A new game is in play in its place (``places``)."""
        self.places[g.row.place] = (g.id, "")

    def retire(self, g: Live) -> None:
        """A game has left play (over, or an invitation declined): out of memory, its place remembered."""
        self.live.pop(g.id, None)
        if self.places.get(g.row.place, (g.id, ""))[0] <= g.id:
            self.places[g.row.place] = (g.id, g.row.status)

    async def find_any(self, cmd: Command) -> Live:
        """Like ``find_game``, but ``game:N`` may also name a finished game (for reading, never for orders)."""
        gid = self.game_id_arg(cmd)
        if gid is not None:
            if gid in self.live and visible(self.live[gid].row, cmd):
                return self.live[gid]
            row = await self.store.game(gid)
            if row is None or not visible(row, cmd):
                raise Refusal(f"there is no game #{gid} here")
            return await load_live(self.store, row)
        try:
            return self.find_game(cmd, statuses=("invited", "active", "paused"))
        except Refusal:
            finished = await lookup.finished_here(self, cmd)  # a finished game's own thread knows its game
            if finished is None:
                raise
            return finished

    def lock_of(self, game_id: int) -> asyncio.Lock:
        """The one lock of a game; every command that changes the game holds it."""
        return self.locks.setdefault(game_id, asyncio.Lock())

    @asynccontextmanager
    async def locked(self, cmd: Command, *, statuses: tuple[str, ...] = ("active", "paused"),
                     moderating: bool = False) -> AsyncIterator[Live]:
        """The game of ``cmd``, under its lock, looked up again once the lock is held.

        While this command waited, another may have ended, declined, begun, rolled back or
        restored the game: the game is taken from ``self.live`` afresh and refused politely
        if it no longer allows the command.
        """
        first = self.find_game(cmd, statuses=statuses)
        if moderating:
            self.check_moderator(first, cmd)
        async with self.lock_of(first.id):
            g = self.live.get(first.id)
            if g is None or g.row.status not in statuses:
                row = await self.store.game(first.id)
                status = row.status if row else "gone"
                raise Refusal(f"game #{first.id} is {_STATUS_WORDS.get(status, status)} now; nothing was changed")
            if cmd.at is not None and cmd.at != (g.row.branch, g.seq):
                raise Refusal(f"game #{g.id} has moved on since this order was decided; nothing was changed")
            if cmd.at is not None and g.row.status != "active":
                raise Refusal(f"game #{g.id} is paused by a moderator; nothing was changed")
            if cmd.holders is not None and any(g.user_of(s) != u for s, u in cmd.holders.items()):
                raise Refusal(f"a seat of game #{g.id} has been given to someone else since this order was "
                              "decided; nothing was changed")
            if cmd.level is not None and g.row.settings_dict.get("bots", {}).get(cmd.args.get("as", "")) != cmd.level:
                raise Refusal(f"the bot's seat in game #{g.id} has another level since this order was decided; "
                              "nothing was changed")
            if cmd.shown is not None and not await self.still_current(g, cmd.shown, cmd.user):
                raise Refusal(f"that choice is out of date: game #{g.id} has moved on, so nothing was changed. "
                              "/game status shows what it waits on now.")
            yield g

    async def still_current(self, g: Live, seq: int, user: str) -> bool:
        """True when nothing since action ``seq`` changed ``user``'s decision (a button shown then still
        stands). Only other players' sealed choices may have come in since (their answers to the same
        simultaneous prompt); any public action, or any action of this user's, makes it stale."""
        if seq == g.seq:
            return True
        if seq > g.seq:
            return False
        mine = set(g.seats_of(user))
        later = await self.store.actions(g.id, g.row.branch, after=seq)
        return all(a.secret and a.seat not in mine for a in later)

    @asynccontextmanager
    async def changing(self, g: Live) -> AsyncIterator[None]:
        """A transaction that changes game ``g`` in memory too (its row, seats, position, or the game
        ``self.live`` holds for it): if the transaction fails, memory is put back as it was, so it never
        says what the database does not (nothing was changed)."""
        saved = (g.row, dict(g.seats), g.state, g.seq, g.board_key)
        held = self.live.get(g.id)
        try:
            async with self.store.transaction():
                yield
        except BaseException:
            g.row, g.seats, g.state, g.seq, g.board_key = saved
            if held is None:
                self.live.pop(g.id, None)
            else:
                self.live[g.id] = held
            raise

    def check_moderator(self, g: Live, cmd: Command) -> None:
        """A moderator acts only on games of the community where they are a moderator."""
        if not cmd.is_moderator:
            raise Refusal("only moderators (Manage Server, or the moderator role) may use /" + cmd.name)
        if not cmd.community or cmd.community != g.row.community:
            raise Refusal(f"game #{g.id} belongs to another community; only its own moderators may use /{cmd.name} "
                          "on it, from a channel of that server")

    def autocomplete(self, cmd: Command, arg: str, typed: str, limit: int = MAX_BUTTONS) -> list[str]:
        """Legal values of ``arg`` for the order ``cmd.name``, filtered by what was typed (at most ``limit``)."""
        try:
            g = self.find_game(cmd)
        except Refusal:
            return []
        if g.state is None:
            return []
        # the other arguments read as an order is (dir:north is N, fog:01 is 1, pattern:c is C)
        kinds = {a.name: a.kind for v in g.rules.verbs() if v.verb == cmd.name for a in v.args}
        raw = {k: v for k, v in cmd.args.items() if k not in ("game", "as", arg)}
        given = {k: str(v) for k, v in words.forgiving_args(raw, kinds).items()}
        typed = typed.strip().lower()
        out: list[str] = []
        for seat in g.seats_of(cmd.user):
            legal = [a for a in g.rules.legal_now(g.state, seat) if a.verb == cmd.name]
            spelt = {k: str(v) for k, v in _spelt(legal, given).items()}
            for v in g.rules.choices(g.state, seat, cmd.name, arg, spelt):
                if typed in v.lower() and v not in out:
                    out.append(v)
        out.sort(key=lambda v: (not v.lower().startswith(typed), v))
        return out[:limit]

    # --- playing ----------------------------------------------------------------------------------

    async def play(self, cmd: Command) -> list[Reply]:
        """A game order: check who may give it, apply it, log it, say what happened."""
        async with self.locked(cmd) as g:
            if g.row.status == "paused":
                raise Refusal(f"game #{g.id} is paused by a moderator; orders wait until it resumes")
            assert g.state is not None
            seats = g.seats_of(cmd.user)
            if not seats:
                players = " and ".join(g.name_of(s) for s in g.rules.seats)
                raise Refusal(f"you are not playing in game #{g.id} ({players} are)")
            args = {k: v for k, v in confirm.bot_args(cmd.args).items() if k not in ("game", "as")}
            action = Action(verb=cmd.name, args=args)
            seat = self._seat_for(g, seats, cmd)
            await self._check_waiting(g, seat, action.verb)
            action = self._canonical(g, seat, action)
            _check_given(g, seat, action)
            if not confirm.confirmed(cmd.args) and g.rules.is_legal(g.state, seat, action):
                warning = g.rules.caution(g.state, seat, action)
                if warning:
                    return [confirm.ask(g, cmd, seat, action, warning)]
            prompt = g.rules.prompt_for(g.state, seat, action.verb)
            seq = g.seq + 1
            dice = SeededDice(g.row.seed, seq, g.dice_key)
            before = g.rules.pending_now(g.state)
            state, events = g.rules.apply(g.state, seat, action, dice)
            return await self._commit(g, cmd, seat, action, prompt, state, events, dice.rolls, before)

    async def _check_waiting(self, g: Live, seat: str, verb: str) -> None:
        """Only the player a prompt waits on may answer it; say plainly who is awaited."""
        pending = g.pending()
        if not pending:
            raise Refusal(f"game #{g.id} is over")
        mine = [p for p in pending if p.seat == seat]
        if mine:
            return
        if any(p.secret for p in pending) and await self._has_sealed(g, seat):
            others = " and ".join(sorted({g.name_of(p.seat) for p in pending}))
            raise Refusal(f"you have already made your choice in game #{g.id}; it is sealed until {others} "
                          "has chosen too, then every choice is revealed together")
        waits = "; ".join(f"{g.name_of(p.seat)} ({p.seat})" + ("" if p.secret else f": {p.text}") for p in pending)
        raise Refusal(f"it is not your decision now; game #{g.id} waits on {waits}")

    def _canonical(self, g: Live, seat: str, action: Action) -> Action:
        """The legal action spelt as the player meant it: ``dir:ne`` for ``dir:NE``, ``aspect:stone`` for ``Stone``."""
        assert g.state is not None
        if g.rules.is_legal(g.state, seat, action):
            return action
        specs = [a for v in g.rules.verbs() if v.verb == action.verb for a in v.args]
        action = Action(verb=action.verb, args=words.forgiving_args(action.args, {a.name: a.kind for a in specs}))
        if g.rules.is_legal(g.state, seat, action):
            return action
        want = {k: str(v).strip().casefold() for k, v in action.args.items()}
        legal = [a for a in g.rules.legal_now(g.state, seat) if a.verb == action.verb]
        for a in legal:
            if {k: str(v).casefold() for k, v in a.args.items()} == want:
                return a
        # An optional count left out means none (OneWorld's /aspects blade:3 is stone:0 blade:3
        # fog:0), when no legal order leaves it out (that one was matched above) and exactly one
        # agrees with what was given and has 0 for every count left out.
        counts = {a.name for a in specs if a.kind == "int" and not a.required}

        def none_left_out(a: Action) -> bool:
            left = set(a.args) - set(want)
            return (set(want) <= set(a.args) and left <= counts and all(str(a.args[k]) == "0" for k in left)
                    and all(str(a.args[k]).casefold() == want[k] for k in want))

        zeros = [a for a in legal if none_left_out(a)]
        if len(zeros) == 1:
            return zeros[0]
        # Not legal in any case; still spell each value as the game does, so the refusal
        # names the real problem rather than the letter case.
        return Action(verb=action.verb, args=_spelt(legal, action.args))

    async def _has_sealed(self, g: Live, seat: str) -> bool:
        return any(by == seat for _, by in await self.store.sealed(g.id, g.row.branch))

    def _seat_for(self, g: Live, seats: list[str], cmd: Command) -> str:
        if "as" in cmd.args:
            if cmd.args["as"] not in seats:
                raise Refusal(f"you do not hold the seat '{cmd.args['as']}' in game #{g.id}")
            return cmd.args["as"]
        if len(seats) == 1:
            return seats[0]
        assert g.state is not None
        waiting = [p.seat for p in g.rules.pending_now(g.state) if p.seat in seats and cmd.name in p.verbs]
        return waiting[0] if waiting else seats[0]

    async def _commit(self, g: Live, cmd: Command, seat: str, action: Action, prompt: Prompt | None,
                      state: BaseModel, events: list[Event], rolls: list, before: list[Prompt],
                      modlog: tuple[str, str] | None = None, notes: list[Reply] | None = None) -> list[Reply]:
        """Append one action and queue what it says, in one transaction (with its moderation log line and
        ``notes``, posts of the command queued before the action's own)."""
        seq = g.seq + 1
        secret = bool(prompt and prompt.secret)
        nonce = secrets.token_hex(16) if secret else ""
        digest = commitment(nonce, action) if secret else ""
        replies: list[Reply] = []
        shown = await self._sealed_digest(g, seat, digest) if secret else ""
        over = g.rules.outcome(state)
        if secret:  # the same string the thread shows when the choice is announced
            ends = over is not None or not any(p.secret for p in g.rules.pending_now(state))  # see _phase_over
            if any(e.kind == "reveal" for e in events) or (ends and (over is not None
                                                                     or not g.rules.keeps_sealed(state))):
                opens = "every choice is now in, so it opens at once with the others"
            elif ends:
                opens = "this game keeps such choices hidden for now, so it stays sealed until the game reveals it"
            else:
                opens = "it opens when every choice is in"
            ack = private(cmd.user, cmd.place, f"Your choice is sealed: {action.text()}. "
                          f"Commitment `{shown[:16]}`; {opens}.")
            if any(h.kind.startswith("preview") for h in g.rules.view(state, seat).highlights):
                # RULINGS Annihilator 4 and 11: the player sees the sealed order drawn on their own board.
                ack = ack.model_copy(update={"board": True, "viewer": seat, "game_id": g.id, "seq": seq})
            replies.append(ack)
        replies += self._event_replies(g, events, seq, shown)
        now = self.now()
        # if nothing is committed, the game in memory is put back as it was before the command
        async with self.changing(g):
            await self.store.append_action(
                g.id, g.row.branch, seq, seat=seat, user=cmd.user, action=action.model_dump_json(),
                rolls=dumps([r.model_dump() for r in rolls]), dice_key=g.dice_key, dice_seq=seq, secret=secret,
                now=now, events=event_lines(events),
            )
            if secret:
                await self.store.add_secret(g.id, g.row.branch, seq, nonce, digest)
            if any(e.kind == "reveal" for e in events):
                opened = await self.store.reveal_secrets(g.id, g.row.branch, seq)
                replies += await self._reveal_lines(g, opened, seq)
            after = g.rules.pending_now(state)
            if over is not None or not any(p.secret for p in after):
                replies += await self._phase_over(g, state, seq, ending=over is not None)
            if {p.seat for p in after} - {p.seat for p in before}:
                await self._hand_over(g, seq, now)
            if modlog is not None:
                await self.store.add_modlog(g.id, cmd.user, modlog[0], modlog[1], now, seq=seq)
            if seq % SNAPSHOT_EVERY == 0:
                await self.store.put_snapshot(g.id, g.row.branch, seq, state.model_dump_json())
            g.state, g.seq = state, seq
            board = self.board_replies(g, force=over is not None)
            replies += board
            if over is not None:
                replies += self.end_lines(g, over.winner, over.reason)
                await self.store.update_game(g.id, now, status="over")
            else:
                replies += self.prompt_replies(g, before, phase_changed=bool(board), actor=cmd.user,
                                               place=cmd.place)
            offer = over is None and seat != MODERATOR and phaselog.may_offer_undo(g, seat, rolls, secret, events,
                                                                          bool(board))
            replies = phaselog.shape(g, replies, seq=seq, actor=cmd.user, place=cmd.place,
                                     over=over is not None, undo=phaselog.undo_button(g) if offer else None)
            await phaselog.save(self, g, now)
            await self._save_board_key(g, now)
            replies = await self.queue(g.id, list(notes or []) + replies)
        if over is not None:
            g.row = (await self.store.game(g.id)) or g.row
            self.retire(g)
        return replies

    async def _hand_over(self, g: Live, seq: int, now: str) -> None:
        """A decision passed to a player at action ``seq``: their clock starts afresh (bot/clocks.py)."""
        settings = g.row.settings_dict
        settings["decision_seq"] = seq
        await self.store.update_game(g.id, now, settings=json.dumps(settings))
        g.row = _with_settings(g.row, json.dumps(settings))

    async def _save_board_key(self, g: Live, now: str) -> None:
        settings = g.row.settings_dict
        if g.board_key is not None and settings.get("board_key") != list(g.board_key):
            settings["board_key"] = list(g.board_key)
            await self.store.update_game(g.id, now, settings=json.dumps(settings))
            g.row = _with_settings(g.row, json.dumps(settings))

    async def queue(self, game_id: int | None, replies: list[Reply]) -> list[Reply]:
        """Put the posts of a command in the outbox (inside its transaction)."""
        now = self.now()
        for r in replies:
            r.committed = True
            if r.to != "private":
                r.outbox_id = await self.store.add_outbox(game_id, r.model_dump_json(exclude={"outbox_id"}), now)
        return replies

    # --- replies ------------------------------------------------------------------------------------

    def _event_replies(self, g: Live, events: list[Event], seq: int, digest: str) -> list[Reply]:
        public_lines: list[str] = []
        private_lines: dict[str, list[str]] = {}
        for e in events:
            if e.public:
                text = e.text
                if e.kind == "committed" and digest:
                    text += f" (commitment `{digest[:16]}`)"
                public_lines.append(text)
            else:
                for s in e.to:
                    private_lines.setdefault(s, []).append(e.text)
        out = []
        if public_lines:
            out.append(Reply(to="channel", place=g.row.place, text="\n".join(public_lines), game_id=g.id, seq=seq))
        for s, lines in private_lines.items():
            user = g.user_of(s)
            if user:
                out.append(Reply(to="dm", user=user, place=g.row.place, text="\n".join(lines), game_id=g.id, seq=seq))
        return out

    async def _sealed_digest(self, g: Live, seat: str, digest: str) -> str:
        """The commitment shown in public: over every still-sealed choice of this seat, this one last.

        A choice made in several private steps (an army picked unit by unit) is announced
        once, when the engine says the player has chosen; this hash then binds every step.
        """
        mine = [s.commitment for s, by in await self.store.sealed(g.id, g.row.branch)
                if by == seat and s.closed_at is None]
        if not mine:
            return digest
        return hashlib.sha256(":".join(mine + [digest]).encode()).hexdigest()

    async def _phase_over(self, g: Live, state: BaseModel, seq: int, *, ending: bool) -> list[Reply]:
        """No secret decision waits any more: its sealed choices are opened now (DESIGN: a secret is
        sealed, then always opened), unless the game keeps them sealed for now (hidden charges);
        then they are only closed, so the log can go on past them. At the end of a game every
        choice still sealed is opened, so the record is whole and every commitment can be checked."""
        if ending or not g.rules.keeps_sealed(state):
            opened = await self.store.reveal_secrets(g.id, g.row.branch, seq)
            return await self._reveal_lines(g, opened, seq, show=True)
        await self.store.close_secrets(g.id, g.row.branch, seq)
        return []

    async def _reveal_lines(self, g: Live, opened: list, seq: int, *, show: bool = False) -> list[Reply]:
        if not opened:
            return []
        actions = {a.seq: a for a in await self.store.actions_at(g.id, g.row.branch, [s.seq for s in opened])}
        reply = phaselog.sealed_reveal(g, opened, actions)
        reply.seq = seq
        if show:  # opened by the bot (the phase or the game ended), not by the game's own reveal
            shown = [f"#{s.seq} {g.name_of(actions[s.seq].seat)}: "
                     + Action.model_validate_json(actions[s.seq].action).text() for s in opened if s.seq in actions]
            reply.text += "\nThey were: " + "; ".join(shown) + "."
        return [reply]

    def board_replies(self, g: Live, *, force: bool = False) -> list[Reply]:
        """A board for the channel when the turn or phase changed since the last one (at most one a phase)."""
        assert g.state is not None
        view = g.rules.view(g.state, None)
        key = (view.turn, view.phase)
        if key == g.board_key and not force:
            return []
        g.board_key = key
        turn = f"turn {view.turn}, " if view.turn else ""
        return [Reply(to="channel", place=g.row.place, text=f"Game #{g.id}: {turn}{view.phase}".rstrip(", "),
                      game_id=g.id, seq=g.seq, board=True)]

    def prompt_replies(self, g: Live, before: list[Prompt], *, phase_changed: bool = True, actor: str = "",
                       place: str = "") -> list[Reply]:
        """Tell each player when a decision starts waiting on them; ping only when it passed to them.

        A player who goes on deciding in the same phase is told privately what comes next
        (``actor``'s acknowledgement); a new phase of the same player is posted without a ping.
        """
        assert g.state is not None
        old = {(p.seat, p.verbs, p.text, p.group) for p in before}
        deciding = {p.seat for p in before if not p.secret}
        bots = g.row.settings_dict.get("bots", {})
        out = []
        for p in g.rules.pending_now(g.state):
            if (p.seat, p.verbs, p.text, p.group) in old:
                continue
            if p.seat in bots and g.user_of(p.seat) == self.opponent.user_id:
                continue  # the bot reads the game, not prompts: its order's result is posted instead
            user = g.user_of(p.seat)
            rule = f" (rule {p.rule})" if p.rule else ""
            if p.secret:
                out.append(Reply(to="dm", user=user, place=g.row.place, game_id=g.id, seq=g.seq,
                                 text=f"Game #{g.id}, your private choice: {p.text}{rule}",
                                 buttons=self.buttons(g, p.seat, p), secret_prompt=True))
            elif p.seat not in deciding:
                out.append(Reply(to="channel", place=g.row.place, game_id=g.id, seq=g.seq, mentions=[user],
                                 text=f"<@{user}> ({g.name_of(p.seat)}): {p.text}{rule}", prompt=True,
                                 buttons=self.buttons(g, p.seat, p, limit=PUBLIC_BUTTONS)))
            elif phase_changed:
                out.append(Reply(to="channel", place=g.row.place, game_id=g.id, seq=g.seq, prompt=True,
                                 text=f"{g.name_of(p.seat)} ({p.seat}): {p.text}{rule}",
                                 buttons=self.buttons(g, p.seat, p, limit=PUBLIC_BUTTONS)))
            elif user == actor:
                out.append(Reply(to="private", user=user, place=place or g.row.place, game_id=g.id, seq=g.seq,
                                 text=f"Next: {p.text}{rule}", buttons=self.buttons(g, p.seat, p)))
        return out

    def buttons(self, g: Live, seat: str, prompt: Prompt, limit: int = MAX_BUTTONS) -> list[Button]:
        """The prompt's legal answers as buttons, when they fit (else the player types the order)."""
        assert g.state is not None
        legal = [a for a in g.rules.legal_now(g.state, seat) if a.verb in prompt.verbs]
        if len(legal) > limit:
            return []
        return [Button(label=g.rules.label(a), command=f"{a.text()} game:{g.id}", style=g.rules.button_style(a))
                for a in legal]

    def end_lines(self, g: Live, winner: str | None, reason: str) -> list[Reply]:
        """The result, and the dice seed so anyone can check every roll."""
        who = f"{g.name_of(winner)} ({winner}) wins" if winner else "The game is drawn"
        reason = words.said_once(reason, winner)
        if g.rules.name in phaselog.RESOLVERS:  # a stand-alone combat is resolved, not won or drawn
            who = "Resolved" + (f", {g.name_of(winner)} ({winner}) ahead" if winner else "")
            reason = phaselog.named(g, reason)
        seed = (f"\nDice seed: `{g.row.seed}` (fixed when the game was created)." if g.row.seed_public else
                f"\nDice seed: `{g.row.seed}`; its SHA-256 was published when the game began, so anyone "
                "can check every roll (docs/record-format.md).")
        mentions = list(g.seats.values())
        return [Reply(to="channel", place=g.row.place, game_id=g.id, seq=g.seq, mentions=mentions,
                      text=f"Game #{g.id} is over. {who}: {reason.rstrip('.')}.{seed}")]


_STATUS_WORDS = {"over": "over", "declined": "declined", "invited": "still waiting to be accepted",
                 "active": "already under way", "paused": "paused by a moderator", "gone": "no longer there"}


def event_lines(events: list[Event]) -> str:
    """What an action said, as the store keeps it: ``[[text, [seats]], ...]`` (no seats: public)."""
    return dumps([[e.text, list(e.to)] for e in events])


def _with_settings(row, settings: str):  # type: ignore[no-untyped-def]
    from dataclasses import replace

    return replace(row, settings=settings)
