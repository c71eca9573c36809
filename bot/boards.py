"""Boards for transports: the view a person may see, drawn off the event loop."""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any, TypeVar

from engine.core.protocol import HighlightView, View

T = TypeVar("T")

if TYPE_CHECKING:
    from bot.core import Core
    from bot.live import Live
    from render import Boards


async def board_view(core: Core, game_id: int, viewer: str | None) -> View | None:
    """The view of a game for a seat (or a spectator), from memory or rebuilt from the log."""
    g = core.live.get(game_id)
    if g is not None and g.state is not None:
        return g.rules.view(g.state, viewer)
    g = await _finished(core, game_id)
    if g is None or g.state is None:
        return None
    return g.rules.view(g.state, viewer)


async def _finished(core: Core, game_id: int) -> Live | None:
    """A game no longer in memory, from its newest snapshot and the actions after it (no whole replay)."""
    from bot.live import load_live

    row = await core.store.game(game_id)
    if row is None or row.status in ("invited", "declined"):
        return None
    return await load_live(core.store, row)


async def board_views(core: Core, game_id: int, viewer: str | None, zoc: bool = False) -> tuple[View, View] | None:
    """The view of ``viewer`` and the spectator's view of the same position (one replay at most);
    with ``zoc``, both carry a ``zoc`` highlight on each hex in an enemy zone of control of the
    side to move (Chitin: I)."""
    g = core.live.get(game_id)
    if g is None or g.state is None:
        g = await _finished(core, game_id)
    if g is None or g.state is None:
        return None
    view = g.rules.view(g.state, viewer)
    public = view if viewer is None else g.rules.view(g.state, None)
    if zoc:
        lit = zoc_highlights(g)
        view, public = (v.model_copy(update={"highlights": lit + v.highlights}) for v in (view, public))
    return view, public


def zoc_highlights(g: Live) -> tuple[HighlightView, ...]:
    """A ``zoc`` highlight on every hex in the zone of control of the enemies of the side to move,
    from the Chitin engine's own zones (6.04, 6.082: Workers exert none); none in another game, or
    while nobody is to move."""
    if g.row.game != "chitin" or g.state is None:
        return ()
    from engine.core.hexes import format_ccrr
    from engine.games.chitin.board import Index
    from engine.games.chitin.flow import SEATS
    from engine.games.chitin.state import State

    state = g.state
    if not isinstance(state, State) or state.active not in SEATS:
        return ()
    index = Index(state)
    hexes = set().union(*(index.zoc(s) for s in SEATS if s != state.active))
    return tuple(HighlightView(hex=format_ccrr(h), kind="zoc") for h in sorted(hexes))


async def render_board_images(core: Core, game_id: int, viewer: str | None, around: str | None = None,
                              zoc: bool = False) -> Boards | None:
    """A board post's images: the focus view, the full map and their alt text, drawn in a worker
    thread. The framing and the alt text come from the spectator's view (nothing sealed steers them).
    ``zoc``: the enemy zones of control of the side to move hatched (Chitin: I)."""
    views = await board_views(core, game_id, viewer, zoc)
    if views is None:
        return None
    from render import boards

    view, public = views
    return await asyncio.to_thread(boards, view, public=public, around=around or None)


def board_attachments(drawn: Boards | bytes | None, which: str = "") -> list[tuple[str, bytes, str]]:
    """(file name suffix, PNG bytes, alt text) of each image of a board post, focus view first;
    ``which`` = ``focus`` or ``full`` keeps only that one (``/game board view:``).
    Plain bytes (a renderer of the full map alone) are one image without alt text."""
    if drawn is None:
        return []
    if isinstance(drawn, bytes):
        return [("board.png", drawn, "")]
    full_alt = ("Full map. " + drawn.alt)[:1024]
    if drawn.focus == drawn.full:
        return [("board.png", drawn.full, drawn.alt)]
    if which == "focus":
        return [("focus.png", drawn.focus, drawn.alt)]
    if which == "full":
        return [("board.png", drawn.full, full_alt)]
    return [("focus.png", drawn.focus, drawn.alt), ("board.png", drawn.full, full_alt)]


async def render_board_png(core: Core, game_id: int, viewer: str | None,
                           highlights: tuple[str, ...] | list[str] = ()) -> bytes | None:
    """PNG bytes of a game's board, rendered in a worker thread (Pillow releases the GIL).

    ``highlights``: hexes outlined as legal destinations (``/game moves ... board:yes``).
    """
    view = await board_view(core, game_id, viewer)
    if view is None:
        return None
    if highlights:
        from engine.core.protocol import HighlightView

        extra = tuple(HighlightView(hex=h, kind="legal") for h in dict.fromkeys(highlights))
        view = view.model_copy(update={"highlights": view.highlights + extra})
    from render import board

    return await asyncio.to_thread(board, view)


WARM_GAMES = 12
"""How many of the most recently active games have their board drawn (and dropped) at start-up."""


async def warm_up(core: Core, maps: list[str] | None = None, games: int = WARM_GAMES) -> int:
    """At start-up, in the background: build every map's terrain layers, then, once the games are
    loaded, draw and drop the current board of the ``games`` most recently active ones, so their
    counters, stacks and hex numbers are kept too and the first board after a restart is not
    slower than the next. Drawn in a worker thread; returns how many boards were drawn."""
    from render import prewarm

    await asyncio.to_thread(prewarm, maps)
    await core.all_loaded.wait()
    recent = sorted((g for g in core.live.values() if g.state is not None and g.row.status == "active"),
                    key=lambda g: (g.row.updated_at, g.id), reverse=True)[:games]
    views = [(g.rules.view(g.state, None), None) for g in recent if g.state is not None]
    await asyncio.to_thread(prewarm, [], views)
    return len(views)


REPLAY_TIMEOUT = 300.0
"""A replay animation that has run this long in the members' worker is taken for a hung worker, which is
stopped: every later hint and replay would wait behind it."""
MAX_FRAMES = 120
"""At most this many frames in a replay animation (one a turn; evenly thinned beyond it, the last kept)."""
_GIFS: OrderedDict[tuple[int, int, int, int], bytes] = OrderedDict()
_GIF_CACHE = 16
_DRAWING: set[int] = set()
_POOLS: dict[bool, ProcessPoolExecutor] = {}
"""The two worker processes, by ``background``: the bot opponent's decisions (True), and the jobs a member
waits on, hints and replay animations (False)."""


REPLAYS_AT_ONCE = 3
"""Replay animations drawn or waiting for the members' worker at once; one more is refused until one
is done, so a member's hint never waits behind more than these."""


def replay_in_progress(game_id: int) -> bool:
    """Whether a replay animation of this game is being drawn right now."""
    return game_id in _DRAWING


class ReplaysBusy(Exception):
    """``REPLAYS_AT_ONCE`` replay animations are drawn or waiting already: this one is not queued."""

    TEXT = "(Several replays are being drawn right now; ask again with /game replay in a minute.)"


def replays_full() -> bool:
    """Whether ``REPLAYS_AT_ONCE`` replay animations are being drawn or wait for the worker."""
    return len(_DRAWING) >= REPLAYS_AT_ONCE


def replay_views_of(config_json: str, setup_rolls: str, actions: list[tuple[str, str, str]]) -> list[View]:
    """A spectator's view of the game at the end of every phase, from its log (pure, for a worker)."""
    from bot.records import Folder, rules_for
    from engine.core.dice import RecordedDice, Roll
    from engine.core.protocol import Action, GameConfig

    config = GameConfig.model_validate_json(config_json)
    rules = type(rules_for(config))()  # its own copy: a game's rules may keep caches
    state = rules.setup(config, RecordedDice([Roll.model_validate(r) for r in json.loads(setup_rolls)]))
    views = [rules.view(state, None)]
    logged = [Action.model_validate_json(a) for _, a, _ in actions]
    folder = Folder(rules, state, logged, trusted=True)
    for (seat, _, rolls), action in zip(actions, logged, strict=True):
        folder.step(seat, action, RecordedDice([Roll.model_validate(r) for r in json.loads(rolls)]))
        v = rules.view(folder.state, None)
        if (v.turn, v.phase) != (views[-1].turn, views[-1].phase):
            views.append(v)
        else:
            views[-1] = v
    return views


def replay_gif_job(config_json: str, setup_rolls: str, actions: list[tuple[str, str, str]], max_bytes: int,
                   max_frames: int) -> bytes | None:
    """The whole replay animation, from the log to GIF bytes: what a worker process runs."""
    from render import animate
    from render.animate import by_turn

    views = replay_views_of(config_json, setup_rolls, actions)
    if not views:
        return None
    turns = by_turn(views)
    if len(turns) > max_frames:  # thin the turns evenly, keeping the first and the last
        step = (len(turns) - 1) / (max_frames - 1)
        views = [turns[round(i * step)] for i in range(max_frames)]
    return animate(views, max_bytes=max_bytes)


def worker_pool(background: bool = False) -> ProcessPoolExecutor:
    """A worker process of the bot's heavy jobs: the bot opponent's decisions (``background``), or the
    jobs a member waits on (replay animations, hints)."""
    return _pool(background)


_TURNS: dict[asyncio.AbstractEventLoop, dict[bool, asyncio.Lock]] = {}
"""Each event loop's turns of the two workers (a test runs a loop of its own; the bot one)."""


def _turn(background: bool) -> asyncio.Lock:
    """The turn of a worker: its jobs are given to it one at a time, the oldest first."""
    loop = asyncio.get_running_loop()
    for closed in [old for old in _TURNS if old.is_closed()]:  # a lock holds its loop: let those go
        del _TURNS[closed]
    return _TURNS.setdefault(loop, {}).setdefault(background, asyncio.Lock())


async def in_worker(fn: Callable[..., T], *args: Any, timeout: float | None = None, background: bool = False) -> T:
    """``fn(*args)`` in a worker process. A worker that died is replaced once; if the job breaks the
    new one too, ``BrokenProcessPool`` is raised (the next job gets another). Never run in the bot's own
    process instead: a search or a replay holds the interpreter for seconds, and a job that killed its
    worker (its memory) would take the bot with it.

    Two workers: one for the bot opponent's own decisions (``background``), one for the jobs a member
    waits on (hints, replay animations), so those never wait for the bot to finish thinking, which can
    take half a minute (Chitin's 3.02 at `hard`). Each worker is given one job at a time, the oldest
    first: the jobs wait for their turn here, not in the pool, so that ``timeout`` counts a job's run
    and not its wait. A job that has run that long is taken for a hung worker, which would hold up every
    later job: the worker is stopped, the next job gets a new one, and ``TimeoutError`` is raised. A job
    whose caller gives up (a cancelled task) while it waits is never run; while it runs, its worker is
    stopped, since nobody waits for what it is doing and the next job would wait behind it."""
    async with _turn(background):
        for attempt in (1, 2):
            pool = _pool(background)
            job: Future[T] | None = None
            try:
                job = pool.submit(_carried, fn, *args)
                return await asyncio.wait_for(asyncio.wrap_future(job), timeout)
            except TimeoutError:
                _stop(pool)
                raise
            except BrokenProcessPool:
                _forget(pool)
                if attempt == 2:
                    raise
            except asyncio.CancelledError:
                if job is not None and not job.done() and not job.cancel():  # running
                    _stop(pool)
                raise
    raise AssertionError("unreachable")


def _carried(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)``, in the worker, with a StopIteration it raises (a ``next`` run dry) raised as a
    RuntimeError: an asyncio future cannot hold a StopIteration, so the job's future was never done, and
    the wait ended only at the timeout, with a sound worker stopped as hung (``in_worker``)."""
    try:
        return fn(*args)
    except StopIteration as exc:
        raise RuntimeError(f"{getattr(fn, '__name__', 'the job')} raised StopIteration") from exc


def _forget(pool: Executor) -> None:
    """Forget a broken pool, unless another job already did and started a new one (which is kept)."""
    for background, known in list(_POOLS.items()):
        if known is pool:
            del _POOLS[background]


def _stop(pool: Executor) -> None:
    """Stop a pool whose worker hangs, and forget it."""
    for process in list(getattr(pool, "_processes", None) or {}):
        with contextlib.suppress(Exception):
            pool._processes[process].terminate()  # type: ignore[attr-defined]
    with contextlib.suppress(Exception):
        pool.shutdown(wait=False, cancel_futures=False)
    _forget(pool)


def reset_pool() -> None:
    """Shut the worker pools down (their jobs are left to finish) and forget them: the next job starts
    new ones."""
    for pool in list(_POOLS.values()):
        with contextlib.suppress(Exception):
            pool.shutdown(wait=False, cancel_futures=True)
    _POOLS.clear()


def _pool(background: bool = False) -> ProcessPoolExecutor:
    if background not in _POOLS:
        # fork where there is one: the worker knows every game registered in this process.
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        _POOLS[background] = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context(method))
    return _POOLS[background]


async def render_replay_gif(core: Core, game_id: int, max_bytes: int, max_frames: int = MAX_FRAMES) -> bytes | None:
    """An animated GIF of the game so far, under ``max_bytes`` (a channel's upload limit).

    Drawn in a worker process (the replay and Pillow would hold the event loop's GIL for
    seconds in a long game), at most one frame a turn and ``max_frames`` in all, and kept
    per (game, branch, last action, size): asking twice costs nothing.
    """
    row = await core.store.game(game_id)
    if row is None or row.status in ("invited", "declined"):
        return None
    last = await core.store.last_seq(row.id, row.branch)
    key = (row.id, row.branch, last, max_bytes)
    if key in _GIFS:
        _GIFS.move_to_end(key)
        return _GIFS[key]
    if replays_full():  # several asked at once all passed the command's check: the worker takes no more
        raise ReplaysBusy()
    actions = [(a.seat, a.action, a.rolls) for a in await core.store.actions(row.id, row.branch)]
    _DRAWING.add(game_id)
    try:
        job = (row.config, row.setup_rolls, actions, max_bytes, max_frames)
        gif = await in_worker(replay_gif_job, *job, timeout=REPLAY_TIMEOUT)
    finally:
        _DRAWING.discard(game_id)
    if gif is not None:
        _GIFS[key] = gif
        while len(_GIFS) > _GIF_CACHE:
            _GIFS.popitem(last=False)
    return gif
