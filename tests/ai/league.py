"""Series of seeded games between players, with the figures ``make soak`` and ``make bench-ai`` print.

Players: the bot at a level (``easy``, ``normal``, ``hard``: it sees its ``Information`` only),
``greedy`` (the policies of tests/support, which read the whole state: an opponent, not the
bot) and ``random`` (uniform over the legal actions). Seats alternate game by game.

A series of 200 games takes hours, so with ``AI_BENCH_RESULTS`` set (``make bench-ai`` and
``make soak`` set it) every finished game is written to that file as soon as it ends, and a
series asked again plays only the games the file does not hold for the same code: a run that is
stopped loses only the games under way, and the figures are the same as from one run.
"""

from __future__ import annotations

import ast
import hashlib
import json
import math
import multiprocessing
import os
import random
import re
import statistics
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import SimpleNamespace

from engine.ai.selfplay import Decider, Table, bot, play, uniform
from engine.core.protocol import Action
from tests.support import annihilator_policy, chitin_policy, make_script


def greedy(seed: int) -> Decider:
    """The greedy players of tests/support (make_script's choice for OneWorld)."""
    rng = random.Random(seed)

    def decide(table: Table, seat: str) -> Action:
        legal = table.rules.legal_now(table.state, seat)
        name = table.rules.name
        if name == "chitin":
            return chitin_policy.choose(table.state, seat, legal)  # type: ignore[arg-type]
        if name == "annihilator":
            return annihilator_policy.choose(table.state, seat, legal)  # type: ignore[arg-type]
        g = SimpleNamespace(rules=table.rules, state=table.state)
        return make_script.choose(g, seat, legal, rng, len(table.log) + 1)  # type: ignore[arg-type]

    return decide


def clock() -> float:
    """The clock decision times are read by: wall time, or with ``AI_BENCH_CLOCK=process`` this
    process's processor time (on a shared machine wall time also counts the other work running)."""
    return time.process_time() if os.environ.get("AI_BENCH_CLOCK") == "process" else time.perf_counter()


def make(kind: str, seed: int, times: list[float] | None = None) -> Decider:
    if kind == "greedy":
        return greedy(seed)
    if kind == "random":
        return uniform(seed)
    inner = bot(kind, seed)
    if times is None:
        return inner

    def timed(table: Table, seat: str) -> Action:
        t0 = clock()
        a = inner(table, seat)
        times.append(round(clock() - t0, 6))  # microseconds: the results file stays small
        return a

    return timed


ROOT = Path(__file__).resolve().parents[2]
CODE = ("engine", "data", "tests/support", "tests/ai/league.py")
"""What a game's result depends on: the rules and the players, their data, the greedy opponents
and this file. A stored result counts only for the code it was played with."""


GAMES = ("annihilator", "chitin", "oneworld")
"""The games whose own files (``engine/games/NAME/``, ``data/maps/NAME.json``,
``data/tables/NAME-crt.json``, ``tests/support/NAME_policy.py``) no other game's result depends on."""


def _of_another_game(f: Path, root: Path, game: str | None) -> bool:
    if game is None:
        return False
    return any(re.match(rf"{other}([._-]|$)", part)
               for part in f.relative_to(root).parts for other in GAMES if other != game)


def _meaning(f: Path) -> bytes:
    """What a file of the code does: a Python file's syntax tree without its docstrings (every
    string standing alone as a statement), so comments, docstrings and layout are left out and a
    pointer to the docs can be mended without playing the stored games again; any other file, or
    one that does not parse, by its bytes."""
    data = f.read_bytes()
    if f.suffix != ".py":
        return data
    try:
        tree = ast.parse(data)
    except SyntaxError:
        return data
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            kept = [s for s in body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)
                                            and isinstance(s.value.value, str))]
            node.body = kept or [ast.Pass()]  # type: ignore[attr-defined]
    return ast.dump(tree).encode()


def fingerprint(root: Path = ROOT, game: str | None = None) -> str:
    """A hash of every file of ``CODE`` (paths and what each does, ``_meaning``): any change of the
    code gives another, a change of its comments or docstrings does not. With ``game``, the files
    of the other games are left out: a change to one game's rules or player keeps the stored
    results of the others (the engine's shared code counts for all)."""
    h = hashlib.sha256()
    for part in CODE:
        top = root / part
        files = [top] if top.is_file() else sorted(f for f in top.rglob("*") if f.is_file())
        for f in files:
            if "__pycache__" in f.parts or f.suffix == ".pyc" or _of_another_game(f, root, game):
                continue
            h.update(f.relative_to(root).as_posix().encode() + b"\0" + _meaning(f) + b"\0")
    return h.hexdigest()[:16]


@dataclass
class Series:
    game: str
    scenario: str
    options: dict[str, str]
    a: str
    b: str
    games: int = 0
    natural: int = 0
    a_wins: int = 0
    draws: int = 0
    lengths: list[int] = field(default_factory=list)
    longest: int = 0
    a_times: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    by_seat: dict[str, list[int]] = field(default_factory=dict)
    """``a``'s wins and games by the seat it held (issue 15 asks for Annihilator "as each side")."""
    stored: int = 0
    """Games read from the results file (played by an earlier run of the same code), not played now."""

    def seats_text(self) -> str:
        """``a``'s wins by seat, as "as Marines 7/10, as Annihilator 6/10"."""
        return ", ".join(f"as {seat} {w}/{n}" for seat, (w, n) in self.by_seat.items())

    def line(self) -> str:
        n = max(self.games, 1)
        lengths = sorted(self.lengths) or [0]
        p95 = _p95(self.a_times)
        opts = " ".join(f"{k}:{v}" for k, v in self.options.items())
        lo, hi = wilson(self.a_wins, self.games)
        return (f"{self.game:11} {self.scenario:12} {opts:22} {self.a:6} vs {self.b:6} games {self.games:4} "
                f"natural {100 * self.natural / n:5.1f}%  {self.a} wins {100 * self.a_wins / n:5.1f}% "
                f"(95% interval {100 * lo:3.0f}-{100 * hi:3.0f}%) "
                f"draws {self.draws:3}  length median {lengths[len(lengths) // 2]:5} longest {self.longest:5}"
                + (f"  {self.a} decision p95 {p95:.2f}s" if self.a_times else "")
                + (f"  ({self.seats_text()})" if len(self.by_seat) > 1 else "")
                + (f"  ERRORS {len(self.errors)}: {self.errors[0]}" if self.errors else "")
                + (f"  [{self.stored} of the games from {results_path()}]" if self.stored else ""))


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% for ``z`` 1.96): how far a sample's share
    may be from the true one (10 games at 60%: 31% to 83%; 200 at 75%: 69% to 80%)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def _p95(xs: list[float]) -> float:
    if not xs:
        return 0.0
    if len(xs) < 20:
        return max(xs)
    return statistics.quantiles(xs, n=20)[-1]


def workers() -> int:
    """Processes a series spreads its games over: ``AI_WORKERS`` (default 1, the suite's)."""
    return max(1, int(os.environ.get("AI_WORKERS", "1")))


@dataclass
class _Game:
    """One game of a series: what ``series`` adds up (the same from a worker process as from this one)."""

    length: int = 0
    capped: bool = True
    winner: str | None = None
    """``"a"``, ``"b"``, ``""`` for a draw; None when the game did not end."""
    a_times: list[float] = field(default_factory=list)
    error: str = ""
    seat_a: str = ""


Job = tuple[str, str, dict[str, str], str, str, int, int, bool]


def _game(job: Job) -> _Game:
    game, scenario, options, a, b, i, cap, time_a = job
    out = _Game()
    table = Table(game, scenario, options, dice_seed=f"league-{game}-{scenario}-{i}")
    seats = table.rules.seats
    seat_a = seats[i % 2]
    seat_b = seats[1 - i % 2]
    out.seat_a = seat_a
    deciders = {seat_a: make(a, 2 * i, out.a_times if time_a else None), seat_b: make(b, 2 * i + 1)}
    try:
        res = play(table, deciders, seed=i, max_actions=cap)
    except Exception as exc:  # a crash is a finding of the soak, reported with its seed
        out.error = f"seed {i}: {type(exc).__name__}: {exc}"[:200]
        return out
    out.length, out.capped = res.actions, res.capped
    if not res.capped and res.outcome is not None:
        w = res.outcome.winner
        out.winner = "a" if w == seat_a else "b" if w else ""
    return out


def results_path() -> Path | None:
    """The results file (``AI_BENCH_RESULTS``), or None: every game is played."""
    name = os.environ.get("AI_BENCH_RESULTS", "")
    return Path(name) if name else None


def _key(job: Job, code: str) -> str:
    game, scenario, options, a, b, i, cap, time_a = job
    # decision times are kept only for the clock they were read by (AI_BENCH_CLOCK)
    timing = os.environ.get("AI_BENCH_CLOCK", "wall") if time_a else ""
    return json.dumps([code, game, scenario, sorted(options.items()), a, b, i, cap, timing])


class Results:
    """The results file: one JSON line a finished game, ``{"key": ..., "game": ...}``.

    Lines are only ever appended, each with one write, flushed and synced before the next game
    is counted; a line cut short by a stop (or not JSON) is skipped when read, and the first of
    two lines with the same key is the one used."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def read(self) -> dict[str, _Game]:
        out: dict[str, _Game] = {}
        if not self.path.exists():
            return out
        for line in self.path.read_text(encoding="utf-8").splitlines():
            try:
                row = json.loads(line)
                out.setdefault(row["key"], _Game(**row["game"]))
            except (ValueError, KeyError, TypeError):
                continue
        return out

    def add(self, key: str, result: _Game) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        line = json.dumps({"key": key, "game": asdict(result)}) + "\n"
        with self.path.open("ab") as f:
            if f.tell() and not self._ends_a_line():  # after a line cut short: a line of its own
                line = "\n" + line
            f.write(line.encode())
            f.flush()
            os.fsync(f.fileno())

    def _ends_a_line(self) -> bool:
        with self.path.open("rb") as f:
            f.seek(-1, os.SEEK_END)
            return f.read(1) == b"\n"


def _played(jobs: list[Job], n: int) -> Iterator[tuple[Job, _Game]]:
    """Each job with its game, as the games end, over ``n`` processes."""
    if n <= 1:
        for job in jobs:
            yield job, _game(job)
        return
    # fork where there is one, as bot/boards.py: a worker knows the games registered here (the toy game too)
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    pool = ProcessPoolExecutor(max_workers=n, mp_context=multiprocessing.get_context(method))
    finished = False
    try:
        futures = {pool.submit(_game, job): job for job in jobs}
        for done in as_completed(futures):
            yield futures[done], done.result()
        finished = True
    finally:  # stopped (Ctrl-C): the games not begun are dropped, not played out first
        pool.shutdown(wait=finished, cancel_futures=not finished)


def series(game: str, scenario: str, options: dict[str, str], a: str, b: str, games: int,
           cap: int = 6000, first_seed: int = 0, time_a: bool = False, processes: int | None = None) -> Series:
    """``games`` games of ``a`` against ``b``, ``a`` taking each seat in turn, over ``processes``
    worker processes (default ``workers()``); the figures do not depend on how many, nor on how
    many of the games come from the results file (``AI_BENCH_RESULTS``)."""
    out = Series(game, scenario, options, a, b)
    jobs: list[Job] = [(game, scenario, options, a, b, i, cap, time_a) for i in range(first_seed, first_seed + games)]
    path = results_path()
    store = Results(path) if path else None
    code = fingerprint(game=game) if store else ""
    found = store.read() if store else {}
    results = {job[5]: found[_key(job, code)] for job in jobs if _key(job, code) in found}
    out.stored = len(results)
    todo = [job for job in jobs if job[5] not in results]
    for job, r in _played(todo, min(processes or workers(), len(todo))):
        results[job[5]] = r
        if store and not r.error:  # a crash is played again next time, to be seen again
            store.add(_key(job, code), r)
    for _, r in sorted(results.items()):  # in seed order, whichever process played it
        out.games += 1
        out.a_times.extend(r.a_times)
        if r.error:
            out.errors.append(r.error)
            continue
        out.lengths.append(r.length)
        out.longest = max(out.longest, r.length)
        if r.winner is not None:
            tally = out.by_seat.setdefault(r.seat_a, [0, 0])
            tally[0] += r.winner == "a"
            tally[1] += 1
            out.natural += 1
            out.a_wins += r.winner == "a"
            out.draws += r.winner == ""
    return out
