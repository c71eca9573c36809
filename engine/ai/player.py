"""The bot opponent's one entry point: ``choose(game, information, level, seed) -> Action``."""

from __future__ import annotations

import importlib
from collections.abc import Callable

from engine.ai.base import DEFAULT, GameAI
from engine.ai.determinize import determinize
from engine.ai.info import Information
from engine.ai.rng import Rng
from engine.ai.search import flat, search
from engine.core import registry
from engine.core.errors import BadArguments
from engine.core.protocol import Action, GameRules

LEVELS: dict[str, int] = {"easy": 0, "normal": 72, "hard": 360}
"""Search iterations a decision at each level (divided by the game's ``cost`` of the position, by
default its ``node_cost``); ``easy``: the playout policy alone. ``normal`` answers in about a
second and ``hard`` in about five on a 2-core machine (docs/ai.md has the measured times)."""

_AIS: dict[str, GameAI] = {}


def game_ai(rules: GameRules) -> GameAI:
    """The game's ``GameAI`` (``engine/games/<package>/ai.py``), or the default one."""
    if rules.name in _AIS:
        return _AIS[rules.name]
    ai: GameAI = DEFAULT
    where = type(rules).__module__.split(".")
    if where[:2] != ["engine", "games"] or len(where) < 3:
        _AIS[rules.name] = ai  # a game from elsewhere (a test's toy game): the defaults
        return ai
    package = where[2]
    try:
        module = importlib.import_module(f"engine.games.{package}.ai")
    except ModuleNotFoundError as exc:
        if exc.name != f"engine.games.{package}.ai":
            raise
    else:
        found = getattr(module, "AIS", {}).get(rules.name) or getattr(module, "GAME_AI", None)
        if found is not None:
            ai = found
    _AIS[rules.name] = ai
    return ai


def budget_of(level: str, ai: GameAI, cost: float | None = None) -> int:
    """The level's iterations, divided by ``cost`` (the position's, ``GameAI.cost``) or the game's ``node_cost``."""
    if level not in LEVELS:
        raise BadArguments(f"there is no level '{level}'; the levels are: {', '.join(LEVELS)}")
    return int(LEVELS[level] / (ai.node_cost if cost is None else cost))


def choose(
    game: str,
    information: Information,
    level: str = "normal",
    seed: str | int = 0,
    deadline: Callable[[], bool] | None = None,
) -> Action:
    """The action the bot takes for ``information.seat`` now.

    ``information`` is all it is given (``engine.ai.observe`` builds it from the record, hiding
    what the seat may not see); ``seed`` is the decision's seed (``engine.ai.seed_for``: the
    game's seed and the action number); ``deadline``, when given, is a callable of the caller's
    that returns True once the time allowed is up (the search then stops early). Raises
    ``BadArguments`` when the seat has nothing to decide.
    """
    return decide(game, information, level, seed, deadline)[0]


def decide(
    game: str,
    information: Information,
    level: str = "normal",
    seed: str | int = 0,
    deadline: Callable[[], bool] | None = None,
) -> tuple[Action, dict[str, object]]:
    """``choose`` with the search's statistics (for hints and the benchmarks)."""
    rules = registry.get(game)
    if information.game != rules.name:
        raise BadArguments(f"this information is about {information.game}, not {game}")
    budget_of(level, game_ai(rules))  # an unknown level is refused before anything else
    ai = game_ai(rules).at(level)
    rng = Rng(f"{seed}:{information.seat}:{information.action_no}")
    seat = information.seat
    state = determinize(rules, ai, information, rng.fork("root"))
    prompts = [p for p in rules.pending_now(state) if p.seat == seat]
    if not prompts:
        raise BadArguments(f"{seat} has nothing to decide now")
    legal = rules.legal_now(state, seat)
    if not legal:
        raise BadArguments(f"{seat} has no legal action now")
    if len(legal) == 1:
        return legal[0], {"why": "the only legal action"}
    if any(p.secret for p in prompts):
        picked = ai.secret(rules, state, seat, legal, rng.fork("secret"))
        if picked is not None:
            return picked, {"why": "secret choice"}
        return ai.playout(rules, state, seat, legal, rng.fork("policy")), {"why": "policy (secret prompt)"}
    budget = budget_of(level, ai, ai.cost(rules, state))
    if ai.game_cost > 0 and budget > 0 and ai.deep(rules, state, seat):
        games = int(budget / ai.game_cost)
        if games >= ai.deep_least * len(legal):
            return flat(rules, ai, information, legal, games, rng.fork("whole"), deadline, whole=True)
    if budget > 0:
        known = ai.direct(rules, state, seat, legal, rng.fork("direct"), deadline)
        if known is not None:
            return known, {"why": "tactics"}
    if budget <= 0:
        return ai.playout(rules, state, seat, legal, rng.fork("policy")), {"why": "policy"}
    if ai.candidates > 0:
        return flat(rules, ai, information, legal, budget, rng.fork("search"), deadline)
    return search(rules, ai, information, legal, budget, rng.fork("search"), deadline)
