"""The bot opponent in play: a seat held by hexhive itself, and hints for teaching games.

A game against the bot keeps ``settings["bots"] = {seat: level}``; that seat's user is the
bot's own user id (``Opponent.user_id``: the Discord application's user, ``bot`` in the
console). Whenever such a seat has a decision the core calls ``Opponent.poke`` (after every
command it handles, and when a game is loaded at start-up), and the opponent:

1. builds the seat's ``Information`` with ``engine.ai.observe`` from the store's record (a
   choice still sealed in the ``secrets`` table is sealed to it: it cannot read it);
2. runs ``engine.ai.choose`` in a worker process (the pool of bot/boards.py; a thread or an
   inline executor in tests), with a typing indicator in the game's thread meanwhile (none for a
   sealed choice, whose timing a member's never shows either);
3. gives the order through ``Core.handle`` like a member's, marked with the position it was
   decided at (``Command.at``): the core refuses it, changing nothing, if the game moved on
   meanwhile, and the opponent thinks again. Secret choices are therefore committed (hash first)
   and revealed exactly as a member's are.

At most one decision a game is being thought about at a time. Nothing is played while a game is
paused; ``/mod resume`` pokes it again. Hints (``hints:on``) run the same player for the asker's
seat and answer privately; the thread only hears that a hint was asked.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from concurrent.futures import Executor
from typing import TYPE_CHECKING, Any, cast

from bot import words
from bot.answers import Refusal, private
from bot.records import UNDO, fold, load_state, replay
from bot.replies import Command, Reply
from engine.ai import LEVELS, Information, LogEntry, decide, observe, seed_for
from engine.ai.determinize import determinize
from engine.ai.info import Sealed
from engine.ai.player import game_ai
from engine.ai.rng import Rng, RngDice
from engine.core import registry
from engine.core.dice import Roll
from engine.core.protocol import Action, Prompt

if TYPE_CHECKING:
    from bot.core import Core
    from bot.live import Live

log = logging.getLogger("hexhive.opponent")

CONSOLE_BOT = "bot"
"""The bot's user in the console: ``opponent:bot``."""
BOT_NAME = "hexhive"
DEFAULT_LEVEL = "normal"
HINT_LEVEL = "normal"
SAFETY_SECONDS = {"easy": 20.0, "normal": 30.0, "hard": 60.0}
"""A wall-clock cap on one decision in the worker (the node budget, not this, bounds the search;
docs/ai.md): only a machine far slower than planned ever reaches it."""

WORKER_TIMEOUT = 300.0
"""A decision or hint that has run this long in the worker (its wait for its turn not counted) is taken for
a hung worker, which is stopped (bot/boards.py ``in_worker``): every other game would wait behind it."""

HINTS_KEPT = 64
"""Hints kept for asking again (each a short line of text and the search's statistics)."""

RETRY_SECONDS = (10.0, 60.0, 300.0, 1800.0)
"""After an error (a worker that died, the store busy), the bot tries the game again by itself after
these delays, then every last one, until a decision goes through."""

STUCK_AFTER = 3
"""Errors in a row after which the game's thread is told that the bot cannot move (once a streak)."""

Deliver = Callable[[list[Reply]], Awaitable[None]]
Typing = Callable[[str], contextlib.AbstractAsyncContextManager[Any]]


class Refused(Exception):
    """The core refused an order of the bot in the very position it was decided in."""


def level_of(text: str) -> str:
    """A level as typed (any case), or a polite refusal listing the levels."""
    level = text.strip().casefold()
    if level not in LEVELS:
        raise Refusal(f"there is no level '{text.strip()[:20]}'; the levels are {', '.join(LEVELS)}")
    return level


def bot_seats(g: Live) -> dict[str, str]:
    """The seats of a game the bot plays, with their levels."""
    return dict(g.row.settings_dict.get("bots", {}))


def hints_on(g: Live) -> bool:
    return bool(g.row.settings_dict.get("hints"))


# --- the worker's side (pure: no store, no loop) -------------------------------------------------------------


def decision_seed(game_seed: str, dice_key: str, action_no: int, seat: str, bot_key: str = "") -> str:
    """The seed of the bot's decision: from the game's seed and the action number and, on a branch a
    rollback made, its dice key. That key is secret while the game is in play (bot/lifecycle.py
    ``build_record``), so a rolled-back finished game, whose seed was posted at its end, does not
    make the bot's choices foreseeable. A game whose seed was fixed with ``seed:`` and posted at once
    has a secret ``bot_key`` (never published), without which anyone could work out the bot's sealed
    choices from the posted seed and the position."""
    base = game_seed if dice_key == "main" else f"{game_seed}:{dice_key}"
    return seed_for(f"{base}:bot:{bot_key}" if bot_key else base, action_no, seat)


def think(game: str, info_json: str, level: str, seed: str, cap: float) -> str:
    """One decision, from the seat's ``Information`` only; the action as JSON (runs in a worker)."""
    info = Information.model_validate_json(info_json)
    stop = time.monotonic() + cap
    try:
        action, _ = decide(game, info, level, seed, lambda: time.monotonic() > stop)
    except Exception:
        with _carried_out(game):
            mended = mend_army(game, info, seed)
        if mended is None:  # a fault of the player: the error path (logged, tried again, told)
            with _carried_out(game):
                raise
        action = mended
    return action.model_dump_json()


@contextlib.contextmanager
def _carried_out(game: str) -> Iterator[None]:
    """A StopIteration (a ``next`` of the player's run dry) raised as a RuntimeError, which an asyncio
    future can hold: a worker's job that raised it was never done (bot/boards.py ``_carried``)."""
    try:
        yield
    except StopIteration as exc:
        raise RuntimeError(f"the {game} player raised StopIteration") from exc


def mend_army(game: str, info: Information, seed: str) -> Action | None:
    """The bot's step for a Chitin army that its player cannot finish (3.032), or None for any other
    position. A member may begin a secret army and leave before it is ready; a moderator then gives the
    seat to the bot (``/mod replace``), or the member asks for a hint. The picks may fit none of the
    armies the player fields (``armies``), with too few points left for what they lack and ``/ready``
    refused (RULINGS Chitin 11: an army spends exactly the scenario's points); the player then has no
    step. This is one: the drop of a picked counter that the nearest of those armies has no room for.
    The player picks again where it can, and is stuck again until each counter too many is dropped
    (it never picks those): then the picks fit the army, and the player finishes it."""
    if game != "chitin":
        return None
    from engine.games.chitin.ai import armies

    rules = registry.get(game)
    state = determinize(rules, game_ai(rules).at("easy"), info, Rng(f"{seed}:mend:{info.seat}").fork("position"))
    if getattr(state, "step", "") != "forces":
        return None
    picked = sorted(cast(Any, state).picks.get(info.seat, []))
    excess: list[str] | None = None
    for army in armies(cast(Any, state)):
        left, extra = list(army), []
        for kind in picked:
            if kind in left:
                left.remove(kind)
            else:
                extra.append(kind)
        if excess is None or len(extra) < len(excess):
            excess = extra
    legal = rules.legal_now(state, info.seat)
    for kind in excess or []:
        for a in legal:
            if a.verb == "drop" and a.args.get("kind") == kind:
                return a
    return None


SECRET_WAYS = {
    "chitin": "it is the next counter of an army hexhive fields in this scenario that your picks so far still "
              "fit (3.03)",
    "annihilator": "it is the demolition order its policy values most, the charges worth most, a little varied "
                   "by the seed (8.1)",
}
"""How each game's player makes a secret choice, where it is not OneWorld's mixed strategy (8.2), which
``reason_of`` says of a "secret choice" otherwise."""

MENDED = ("your secret army so far fits none of the armies hexhive fields in this scenario, with too few "
          "points left to finish it (3.032): it drops a counter that the nearest of them has no room for")
"""The reason given with a hint of ``mend_army``'s step."""


def hint_job(game: str, info_json: str, seed: str, cap: float) -> tuple[str, dict[str, Any]] | None:
    """The hint for a seat: the action the player would take, and the search's statistics; ``mend_army``'s
    step where the player has none; None when neither has one (a hint drawn at random would mislead). An
    order the search did not weigh (the game's own tactics, the policy) gets the evaluation's worth of the
    seat's position before and after it (``worth``), so its reason too comes from the evaluation."""
    info = Information.model_validate_json(info_json)
    stop = time.monotonic() + cap
    try:
        action, stats = decide(game, info, HINT_LEVEL, seed, lambda: time.monotonic() > stop)
    except Exception as exc:
        with _carried_out(game):
            mended = mend_army(game, info, seed)
        if mended is None:  # only the kind of failure: its message might name the seat's sealed choices
            log.warning("the %s player failed on a position asked for a hint (%s)", game, type(exc).__name__)
            return None
        return mended.model_dump_json(), {"why": MENDED}
    if stats.get("why") == "secret choice" and game in SECRET_WAYS:
        stats = stats | {"why": SECRET_WAYS[game]}
    if "children" not in stats and stats.get("why") in ("tactics", "policy"):
        try:
            weighed = worth(game, info, action, seed)
        except Exception:  # the figures only add to the reason: the hint is given without them
            log.exception("the evaluation's worth of a hint in %s could not be worked out", game)
            weighed = None
        if weighed is not None:
            stats = stats | {"worth": weighed}
    return action.model_dump_json(), stats


WORTH_SAMPLES = 8
"""Positions sampled from a seat's information to weigh an order by the evaluation (``worth``)."""


def worth(game: str, info: Information, action: Action, seed: str) -> tuple[float, float] | None:
    """The game's evaluation for ``info.seat`` of its position now and just after ``action``, each the
    mean over ``WORTH_SAMPLES`` positions sampled from what the seat knows (its ``Information`` only:
    never the other side's sealed choices), the action's dice drawn from the seeded generator. A
    sampled position where the order would be refused is left out; None when every one is."""
    rules = registry.get(game)
    ai = game_ai(rules).at(HINT_LEVEL)
    base = Rng(f"{seed}:worth:{info.seat}")
    before = after = 0.0
    n = 0
    for i in range(WORTH_SAMPLES):
        rng = base.fork(i)
        state = determinize(rules, ai, info, rng.fork("det"))
        if not rules.is_legal(state, info.seat, action):
            continue
        later, _ = rules.replay_step(state, info.seat, action, RngDice(rng.fork("dice")))
        before += ai.evaluate(rules, state, info.seat)
        after += ai.evaluate(rules, later, info.seat)
        n += 1
    return (before / n, after / n) if n else None


def reason_of(action: Action, stats: dict[str, Any]) -> str:
    """One line on why, from ``decide``'s statistics."""
    children = stats.get("children")
    if isinstance(children, dict) and action.text() in children and stats.get("kind") == "whole games":
        samples, value = children[action.text()]
        dropped = len({n for n, _ in children.values()}) > 1
        return (f"it won most often of {len(children)} orders, each played on to the end of the same "
                f"{samples} sampled games{' or until it could no longer catch up' if dropped else ''} "
                f"(won {round(100 * float(value))}%)")
    if isinstance(children, dict) and action.text() in children and stats.get("kind") == "rollouts":
        samples, value = children[action.text()]
        return (f"it did best of {len(children)} orders, each played on over the same {samples} sampled "
                f"continuations to the other side's answer (expected value {round(100 * float(value))}%)")
    if isinstance(children, dict) and action.text() in children:
        visits, value = children[action.text()]
        total = sum(v for v, _ in children.values()) or 1
        return (f"it scored best in a search of {stats.get('iterations', total)} sampled continuations "
                f"(chosen in {visits} of {total}, expected value {round(100 * float(value))}%)")
    why = str(stats.get("why", ""))
    said = {"the only legal action": "it is the only legal order now",
            "secret choice": "it is drawn from a mixed strategy for this secret choice, weighed against every choice the other side might make (never the one it made)",
            "policy": "it is what the quick policy plays here",
            "policy (secret prompt)": "it is what the quick policy plays for this secret choice",
            "tactics": "it is the game's own tactics for this kind of order (the search does not see far enough ahead to improve on them)"}.get(why, why or "the evaluation prefers it")
    weighed = stats.get("worth")
    if isinstance(weighed, (tuple, list)) and len(weighed) == 2:
        now, then = (round(100 * float(v)) for v in weighed)
        said += (f"; the evaluation, which looks less far ahead than these tactics, gives your position "
                 f"{now}% now and {then}% after it")
    return said


# --- the bot's side ------------------------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def _no_typing(place: str) -> AsyncIterator[None]:
    yield


class Opponent:
    """Schedules the bot's decisions of a core's games and gives its orders through the core."""

    def __init__(self, core: Core, *, user_id: str = CONSOLE_BOT, executor: Executor | None = None) -> None:
        # A weak reference: the core owns its opponent, and a core dropped without closing its store
        # must still free the store at once (aiosqlite then stops its thread; a cycle would keep it).
        self.core: Core = cast("Core", weakref.proxy(core))
        self.user_id = user_id
        self.executor = executor
        """Where decisions are computed; None: the worker process of bot/boards.py for the bot's decisions."""
        self.deliver: Deliver | None = None
        self.typing: Typing = _no_typing
        self.tasks: dict[int, asyncio.Task[None]] = {}
        self.dirty: set[int] = set()
        self.waiting: set[int] = set()
        """Games poked before a transport attached (start-up): scheduled on ``attach``."""
        self.errors: list[str] = []
        self.thinking: set[int] = set()
        self.failures: dict[int, int] = {}
        """Errors in a row per game, for the retry's backoff."""
        self.told: set[int] = set()
        """Games whose thread has been told of the present streak of errors (``STUCK_AFTER``)."""
        self.retries: dict[int, asyncio.TimerHandle] = {}
        self.hinted: OrderedDict[tuple[int, int, int, str], tuple[str, dict[str, Any]]] = OrderedDict()
        """The hints worked out, by (game, branch, action number, seat): the same position's hint again is
        not worked out again (``HINTS_KEPT`` of them)."""
        self.hinting: dict[tuple[int, str], tuple[asyncio.Lock, list[int]]] = {}
        """One hint at a time per (game, seat): a double click waits for the first, then finds it kept.
        With each lock, how many asks hold or wait for it (the entry goes with the last)."""

    def is_bot(self, user: str) -> bool:
        """Whether ``user`` (an id, or the console's ``bot``/``@bot``, or ``hexhive`` as the bot is shown)
        names the bot."""
        name = user.strip().lstrip("@")
        return name == self.user_id or (self.user_id == CONSOLE_BOT and name.casefold() in (CONSOLE_BOT, BOT_NAME))

    def attach(self, deliver: Deliver, typing: Typing | None = None) -> None:
        """A transport is ready: it delivers the bot's replies (and shows a typing indicator)."""
        self.deliver = deliver
        if typing is not None:
            self.typing = typing
        for gid in sorted(self.waiting):
            self.poke(gid)
        self.waiting.clear()

    async def after(self, replies: list[Reply]) -> list[Reply]:
        """After a command: every game it spoke about may now wait on the bot, which thinks. What a
        command says to the bot itself (its private prompts and acknowledgements) is taken out and
        marked delivered: the bot reads the game, not its messages."""
        for gid in sorted({r.game_id for r in replies if r.game_id is not None}):
            self.poke(gid)
        return await self.drop_own(replies)

    def said_to_it(self, r: Reply) -> bool:
        """Whether ``r`` is said to the bot itself (a private prompt, an acknowledgement of its order)."""
        return r.to != "channel" and r.user == self.user_id

    async def drop_own(self, replies: list[Reply]) -> list[Reply]:
        """``replies`` without those said to the bot, which are marked delivered and never sent: after a
        command, and wherever unposted replies are posted again (a restart, the Discord sweep), which
        would otherwise send hexhive a direct message of its own. If marking them fails, they are left out
        all the same (the command went through: its announcement still goes), and left out again later."""
        own = [r for r in replies if self.said_to_it(r)]
        if not own:
            return replies
        try:
            await self.core.posted(own)
        except Exception as exc:  # no traceback: while the store is busy, every sweep would log one
            log.warning("could not mark what was said to the bot as delivered (%s); it stays queued, never sent",
                        exc)
        return [r for r in replies if not self.said_to_it(r)]

    def poke(self, gid: int) -> None:
        """Game ``gid`` may wait on the bot: think about it, unless that is already under way."""
        self._drop_retry(gid)  # this look replaces a retry still waiting (harmless when it is that retry)
        try:
            g = self.core.live.get(gid)
        except ReferenceError:  # a retry's timer outlived its core
            return
        if g is None or not bot_seats(g):
            return
        if self.deliver is None:
            self.waiting.add(gid)
            return
        task = self.tasks.get(gid)
        if task is not None and not task.done():
            self.dirty.add(gid)  # looked at again once the present decision is done
            return
        task = self.tasks[gid] = asyncio.get_running_loop().create_task(self._run(gid), name=f"hexhive-bot-{gid}")
        task.add_done_callback(functools.partial(self._forget, gid))

    def _forget(self, gid: int, task: asyncio.Task[None]) -> None:
        """A finished task leaves (a bot up for months would keep one for every game it played)."""
        if self.tasks.get(gid) is task:
            del self.tasks[gid]

    def _drop_retry(self, gid: int) -> None:
        """Cancel game ``gid``'s retry if one is waiting."""
        pending = self.retries.pop(gid, None)
        if pending is not None:
            pending.cancel()

    async def idle(self) -> None:
        """Wait until the bot has nothing left to decide (the console waits after each line)."""
        while True:
            running = [t for t in self.tasks.values() if not t.done()]
            if not running:
                return
            await asyncio.gather(*running, return_exceptions=True)

    async def stop(self) -> None:
        for h in self.retries.values():
            h.cancel()
        self.retries.clear()
        for t in self.tasks.values():
            t.cancel()
        await asyncio.gather(*self.tasks.values(), return_exceptions=True)
        self.tasks.clear()

    async def _run(self, gid: int) -> None:
        try:
            while True:
                self.dirty.discard(gid)
                again = await self._one(gid)
                if not again and gid not in self.dirty:
                    break  # not return: the else below, which ends a streak of errors, runs only after a break
        except asyncio.CancelledError:
            raise
        except Exception:
            n = self.failures.get(gid, 0)
            self.failures[gid] = n + 1
            delay = RETRY_SECONDS[min(n, len(RETRY_SECONDS) - 1)]
            log.exception("the bot could not move in game #%s; trying again in %.0f s", gid, delay)
            self.errors.append(f"game #{gid}")
            del self.errors[:-100]  # the latest errors, for diagnosis
            if n + 1 >= STUCK_AFTER and gid not in self.told:
                # before the retry is set: a command meanwhile finds this task running and leaves the game
                # to it (``dirty``), so the retry set below must not be one it has already cancelled
                await self._tell_stuck(gid)
            self._drop_retry(gid)
            self.retries[gid] = asyncio.get_running_loop().call_later(delay, self.poke, gid)
        else:
            g = self.core.live.get(gid)
            if g is None or g.row.status != "paused":  # a pause leaves the bot's decision as it was: unmade
                self._moved(gid)

    def _moved(self, gid: int) -> None:
        """A streak of errors in game ``gid`` is over: the next error waits the first delay again, and
        a new streak is told again."""
        self.failures.pop(gid, None)
        self.told.discard(gid)

    async def _tell_stuck(self, gid: int) -> None:
        """The game's thread is told, once a streak of errors, that the bot cannot move: its seat has no
        clock, so nothing else would show that the game waits on it. Nothing of the error is said (it may
        name a sealed choice); it is in the bot's log. Told when the notice is stored: a store that fails
        now (a cause of such a streak) leaves it to the next error to try again."""
        try:
            g = self.core.live.get(gid)
            if g is None:
                return
            notice = Reply(to="channel", place=g.row.place, game_id=gid,
                           text=f"{BOT_NAME} could not make its move in game #{gid} after {self.failures.get(gid, 0)} "
                                "tries (an error on its side, written to its log); it keeps trying, at least every "
                                "half hour. A moderator may give its seat to a member with /mod replace.")
            async with self.core.store.transaction():
                queued = await self.core.queue(gid, [notice])
            self.told.add(gid)
            if self.deliver is not None:
                await self.deliver(queued)
        except Exception:
            log.exception("could not tell game #%s that the bot cannot move", gid)

    def _prompt(self, g: Live) -> Prompt | None:
        """The decision the game waits on the bot for, if any."""
        bots = bot_seats(g)
        if g.row.status != "active" or g.state is None:
            return None
        for p in g.pending():
            if p.seat in bots:
                return p
        return None

    async def _one(self, gid: int) -> bool:
        """Decide and give one order if the bot is awaited; True when it should look again."""
        g = self.core.live.get(gid)
        if g is None:
            return False
        prompt = self._prompt(g)
        if prompt is None:
            return False
        seat = prompt.seat
        level = bot_seats(g)[seat]
        at = (g.row.branch, g.seq)
        info = await information(self.core, g, seat)
        tries = self.failures.get(gid, 0)  # after an error, another seed: a refused order is not made again
        seed = decision_seed(g.row.seed, g.dice_key, g.seq, seat, g.row.bot_key)
        seed += f":again{tries}" if tries else ""
        self.thinking.add(gid)
        try:
            # A sealed choice (8.2, 3.032) shows no sign in the thread, as a member's, made by direct
            # message, shows none: the indicator would tell when each sealed step was taken, and how long.
            async with (_no_typing if prompt.secret else self.typing)(g.row.place):
                raw = await self._compute(think, g.rules.name, info.model_dump_json(), level, seed,
                                          SAFETY_SECONDS.get(level, 60.0), background=True)
        finally:
            self.thinking.discard(gid)
        action = Action.model_validate_json(raw)
        user = g.user_of(seat)
        g = self.core.live.get(gid)
        if g is None or not _still(g, seat, user, at, level):
            return True  # the game moved on, was paused, or its seat handed over or its level changed meanwhile
        args = {k: str(v) for k, v in action.args.items()}
        if "confirm" not in args:
            args["confirm"] = "yes"  # the bot has weighed its order: no "are you sure?"
        cmd = Command(user=user, place=g.row.place, name=action.verb, display=BOT_NAME,
                      community=g.row.community, args=args | {"game": str(gid), "as": seat}, at=at, level=level)
        replies = await self.core.handle(cmd)
        if not any(r.outbox_id is not None for r in replies):
            g = self.core.live.get(gid)
            if g is None or not _still(g, seat, user, at, level):
                return True
            # Refused though the position is the one it was decided in (a fault between the player and
            # the rules): not at once again, and not left waiting unseen (its seat has no clock): the error
            # path tries later, with another seed. The order may be a sealed choice, and the refusal names
            # it: neither is logged.
            raise Refused(f"game #{gid}: the core refused the bot's order in the position it was decided in")
        self._moved(gid)  # its order went through: a streak of errors before it is over
        if self.deliver is not None:
            await self.deliver(replies)
        return True

    async def _compute(self, fn: Callable[..., Any], *args: Any, background: bool) -> Any:
        """``fn(*args)`` in a worker: ``background``, the bot's own decision, in the bot's worker; a hint,
        which a member waits on, in the members' worker (bot/boards.py ``in_worker``)."""
        loop = asyncio.get_running_loop()
        if self.executor is not None:
            return await loop.run_in_executor(self.executor, fn, *args)
        from bot import boards

        # a worker that died twice, or hangs: the error path tries later
        return await boards.in_worker(fn, *args, timeout=WORKER_TIMEOUT, background=background)

    # --- hints ---------------------------------------------------------------------------------------------

    async def hint(self, cmd: Command) -> list[Reply]:
        """``/game hint``: privately, an order for the asker's seat and why; the thread hears only that
        a hint was asked. The hint is kept in the store (``hints``): the log and the record show that it
        was asked and, only once the game is over, what it said; never the outbox."""
        g = self.core.find_game(cmd)
        seats = [s for s in g.seats_of(cmd.user) if s not in bot_seats(g)]
        if not seats:
            raise Refusal(f"only a player of game #{g.id} may ask for a hint")
        if not hints_on(g):
            raise Refusal(f"game #{g.id} was not started with hints:on, so it gives no hints")
        if g.row.status == "paused":
            raise Refusal(f"game #{g.id} is paused by a moderator; hints wait until it resumes")
        waiting = {p.seat for p in g.pending()}
        seat = next((s for s in seats if s in waiting), None)
        if seat is None:
            raise Refusal(f"game #{g.id} is not waiting on you now, so there is nothing to hint")
        lock, users = self.hinting.setdefault((g.id, seat), (asyncio.Lock(), [0]))
        users[0] += 1
        try:
            async with lock:
                seq, branch = g.seq, g.row.branch
                hint = await self._hint_of(g, seat)
        finally:
            users[0] -= 1
            if not users[0]:
                del self.hinting[(g.id, seat)]
        if hint is None:
            raise Refusal(f"hexhive could not work out a hint for this position of game #{g.id} (an error on "
                          "its side, written to its log); you may ask again, or go on without one")
        raw, stats = hint
        action = Action.model_validate_json(raw)
        # Stale only if the asker's own decision changed: the other side's sealed steps meanwhile (3.03
        # picks) leave it as it was, and saying "moved on" for them would tell that they were taken.
        # Under the game's lock: a pause or a /mod replace either came before these checks or waits for the
        # hint to be kept.
        async with self.core.lock_of(g.id):
            now = self.core.live.get(g.id)
            if now is None or now.row.branch != branch or not await self.core.still_current(now, seq, cmd.user):
                raise Refusal(f"game #{g.id} moved on while your hint was being worked out; ask again for the "
                              "position as it is now")
            if now.row.status == "paused":
                raise Refusal(f"game #{g.id} was paused by a moderator while your hint was being worked out; "
                              "hints wait until it resumes")
            if seat not in now.seats_of(cmd.user) or seat in bot_seats(now):
                raise Refusal(f"seat {seat} of game #{g.id} was given to someone else while your hint was being "
                              "worked out, so it is not yours to hint")
            # no action number: during secret choices it would count the other side's (3.03, 8.2)
            text = (f"Hint for game #{g.id} ({seat}): {action.text()} — {reason_of(action, stats)}. "
                    "Only you see this.")
            notice = Reply(to="channel", place=g.row.place, game_id=g.id,
                           text=f"{now.name_of(seat)} ({seat}) asked for a hint.")
            async with self.core.store.transaction():
                await self.core.store.add_hint(g.id, branch, seq, seat, cmd.user, action.text(), self.core.now())
                queued = await self.core.queue(g.id, [notice])
        return [private(cmd.user, cmd.place, text)] + queued


    async def _hint_of(self, g: Live, seat: str) -> tuple[str, dict[str, Any]] | None:
        """The hint for ``seat`` in the game's present position: kept, or worked out in the worker. Both
        the seat's information and the seed are those of (branch, the number of actions the seat may
        see), so it is kept by them: the other side's sealed steps meanwhile (3.03 picks) change neither
        the hint nor how soon it comes, which would tell that they were taken."""
        branch = g.row.branch
        info = await information(self.core, g, seat, seen_only=True)
        key = (g.id, branch, info.action_no, seat)
        if key in self.hinted:
            self.hinted.move_to_end(key)
            return self.hinted[key]
        hint = await self._compute(hint_job, g.rules.name, info.model_dump_json(),
                                   decision_seed(g.row.seed, g.dice_key, key[2], "hint:" + seat, g.row.bot_key),
                                   SAFETY_SECONDS[HINT_LEVEL],
                                   background=False)
        if hint is None:  # not kept: asked again, it is tried again
            return None
        self.hinted[key] = hint
        while len(self.hinted) > HINTS_KEPT:
            self.hinted.popitem(last=False)
        return hint


def _still(g: Live, seat: str, user: str, at: tuple[int, int], level: str) -> bool:
    """The game is where the bot decided its order: same position, in play, the seat still the bot's, at
    the level it thought at (a moderator may change it meanwhile)."""
    return ((g.row.branch, g.seq) == at and g.row.status == "active" and bot_seats(g).get(seat) == level
            and g.user_of(seat) == user)


async def information(core: Core, g: Live, seat: str, seen_only: bool = False) -> Information:
    """``seat``'s ``Information`` from the store's record: a choice still sealed is sealed to it.
    ``seen_only`` (a hint's): its ``action_no`` counts only the actions the seat may see, not the
    other side's steps still sealed.

    What it costs does not grow with the game: when nothing is sealed from the seat, no action is
    read (its checkpoint is the game's position); otherwise only the actions after the newest
    snapshot before the first choice it may not read. The folding runs in a worker thread, with the
    game's own copy of its rules."""
    # The position is taken first, before any read: another order on the game may be handled while
    # this one waits on the store (a hint holds no lock), and what it commits (the other side's sealed
    # choice, 3.03, 8.2) comes after ``seq``, so it is neither in ``current`` nor in the rows kept below.
    # The core puts an action's rows in the store before the game in memory moves on, so every sealed
    # choice up to ``seq`` is among those read.
    branch, seq, current = g.row.branch, g.seq, g.state
    sealed = [(s, who) for s, who in await core.store.sealed(g.id, branch) if s.seq <= seq]
    hidden = [s.seq for s, who in sealed if who != seat]
    number = seq - len(hidden) if seen_only else seq
    setup = [Roll.model_validate(r) for r in json.loads(g.row.setup_rolls)]
    if not hidden:
        info = await asyncio.to_thread(observe, type(g.rules)(), g.config, setup, [], seat, lambda _: current)
        return info.model_copy(update={"action_no": number})
    snap = await core.store.snapshot_upto(g.id, branch, min(hidden) - 1)
    start = snap[0] if snap is not None else 0
    rows = await core.store.actions(g.id, branch, upto=seq, after=start)
    sealed_seqs = {s.seq for s, _ in sealed}
    steps = [(a.seq, _entry(a, a.seq in sealed_seqs)) for a in rows]
    if any(e.action.verb == UNDO for _, e in steps):  # rare: a take-back nearby; the whole record, from the start
        rows = await core.store.actions(g.id, branch, upto=seq)
        steps = [(a.seq, _entry(a, a.seq in sealed_seqs)) for a in rows]
        snap, entries = None, _without_takebacks(steps)
    else:
        entries = [e for _, e in steps]
    info = await asyncio.to_thread(_observe_from, type(g.rules)(), g.config, setup, snap, entries, seat, seen_only)
    return info.model_copy(update={"action_no": number})


def _entry(a: Any, sealed: bool) -> LogEntry:
    return LogEntry(seat=a.seat, action=Action.model_validate_json(a.action),
                    rolls=tuple(Roll.model_validate(r) for r in json.loads(a.rolls)), sealed=sealed)


def _observe_from(rules: Any, config: Any, setup: list[Roll], snap: tuple[int, str] | None,
                  entries: list[LogEntry], seat: str, seen_only: bool = False) -> Information:
    """``observe`` of the actions after a snapshot (or after the set-up when there is none): the
    real position after the first ``i`` of them is folded from the snapshot (worker side).

    ``seen_only`` (a hint's): the other side's sealed steps at the end (3.03 picks, 8.2 aspects),
    when they showed the seat nothing and it decides as it did before them, are left out, so the
    information is the one it had before them: a hint worked out anew after them (the kept one lost
    to a restart) must not differ, or come otherwise, for steps the asker may not know were taken."""

    def state_at(i: int) -> object:
        steps = [(e.seat, e.action, list(e.rolls)) for e in entries[:i]]
        if snap is None:
            state, _ = replay(rules, config, setup, steps, trusted=True)
            return state
        state, _ = fold(rules, load_state(rules, snap[1]), steps, first=snap[0] + 1, trusted=True)
        return state

    info = observe(rules, config, setup, entries, seat, state_at)
    seen = len(entries)
    while seen and entries[seen - 1].sealed and entries[seen - 1].seat != seat:
        seen -= 1
    tail = []  # the runs of those steps (one a seat), each with the public events they caused
    for step in reversed(info.steps):
        if not isinstance(step, Sealed):
            break
        tail.append(step)
    if not seen_only or seen == len(entries) or not tail or any(run.events for run in tail):
        return info
    before, now = state_at(seen), state_at(len(entries))
    if _decides_alike(rules, before, now, seat):
        return observe(rules, config, setup, entries[:seen], seat, state_at)
    return info


def _decides_alike(rules: Any, before: Any, now: Any, seat: str) -> bool:
    """``seat`` sees and decides the same in both positions: its view, its prompts, its legal actions."""
    return (rules.view(before, seat) == rules.view(now, seat)
            and [p for p in rules.pending(before) if p.seat == seat] == [p for p in rules.pending(now) if p.seat == seat]
            and rules.legal_actions(before, seat) == rules.legal_actions(now, seat))


def _without_takebacks(steps: list[tuple[int, LogEntry]]) -> list[LogEntry]:
    """The line of play without taken-back actions: a take-back of action N (bot/undo.py) puts the
    game back to just before N, so N up to the take-back itself are dropped (same positions)."""
    out: list[tuple[int, LogEntry]] = []
    for seq, e in steps:
        if e.action.verb == UNDO:
            back = int(str(e.action.args.get("seq", "0")) or 0)
            out = [(s, x) for s, x in out if s < back]
            continue
        out.append((seq, e))
    return [e for _, e in out]


def new_game_settings(core: Core, cmd: Command, args: dict[str, str], bot_seat: str | None) -> dict[str, Any]:
    """The bot's part of a new game's settings: ``bots`` and ``hints`` (refusing what does not fit)."""
    out: dict[str, Any] = {}
    if "level" in args and bot_seat is None:
        raise Refusal("level: is for a game against the bot: name it as the opponent (opponent:@hexhive on "
                      "Discord, opponent:bot in the console)")
    if bot_seat is not None:
        out["bots"] = {bot_seat: level_of(args.get("level", DEFAULT_LEVEL))}
    hints = args.get("hints", "").strip().casefold()
    if hints not in ("", *words.YES_WORDS, *words.NO_WORDS):
        raise Refusal("hints must be on or off")
    if hints in words.YES_WORDS:
        out["hints"] = True
    return out
