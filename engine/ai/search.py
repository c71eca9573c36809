"""Information-set Monte Carlo tree search (single observer, open loop).

Each iteration samples a full position from the seat's information (``determinize``), walks the
one tree of action sequences, taking only the children that are legal in that sample (ISMCTS,
Cowling, Powley and Whitehouse 2012), adds one node, plays the game's playout policy for a
bounded number of actions, evaluates the position for the searching seat and backs the value
up. Dice are drawn anew each iteration (the tree branches on actions only), so a node's value
averages over the dice and over the hidden information.

The tree branches at open prompts only; a secret prompt met inside the search is answered by
the playout policy, which for both seats is blind to the other's sealed choice. A node considers
at most ``width`` children, the first of the game's move ordering, widening progressively with
its visits. The search stops after ``budget`` iterations or when ``deadline()`` says so; the
deadline is the caller's (the engine reads no clock).

``flat`` is the other player a game may choose (``GameAI.candidates``): a rollout player that
plays a few candidate actions on to the opponent's answer on common random numbers.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from pydantic import BaseModel

from engine.ai.base import GameAI, terminal_value
from engine.ai.determinize import determinize, has_hidden
from engine.ai.info import Information
from engine.ai.rng import Rng, RngDice
from engine.core.protocol import Action, GameRules

_KEYS: dict[int, tuple[Action, tuple]] = {}


def key_of(a: Action) -> tuple:
    """``a.key()``, remembered by identity (games share their action objects between lists)."""
    known = _KEYS.get(id(a))
    if known is not None and known[0] is a:
        return known[1]
    if len(_KEYS) > 200_000:
        _KEYS.clear()
    k = a.key()
    _KEYS[id(a)] = (a, k)
    return k


class Node:
    """A node of the tree: the seat that chose the edge into it and its statistics."""

    __slots__ = ("actor", "visits", "value", "children", "order", "avail")

    def __init__(self, actor: str) -> None:
        self.actor = actor
        self.visits = 0
        self.value = 0.0
        self.children: dict[tuple, Node] = {}
        self.order: list[tuple[tuple, Action]] | None = None
        self.avail: dict[tuple, int] = {}
        """How often each child was available (legal) when this node was visited (ISMCTS)."""


def search(
    rules: GameRules,
    ai: GameAI,
    info: Information,
    legal: list[Action],
    budget: int,
    rng: Rng,
    deadline: Callable[[], bool] | None = None,
) -> tuple[Action, dict[str, object]]:
    """The action the search prefers for ``info.seat``, and its statistics."""
    seat = info.seat
    root = Node(actor="")
    fixed: BaseModel | None = None
    if not has_hidden(rules, ai, info):
        fixed = determinize(rules, ai, info, rng)
    iterations = 0
    for it in range(budget):
        if deadline is not None and deadline():
            break
        r = rng.fork(it)
        state = fixed if fixed is not None else determinize(rules, ai, info, r)
        _iterate(rules, ai, root, state, seat, r)
        iterations += 1
    root_keys = {a.key(): a for a in legal}
    best: Action | None = None
    best_visits = -1
    if root.order is not None:
        for key, _ in root.order:
            child = root.children.get(key)
            if child is not None and key in root_keys and child.visits > best_visits:
                best, best_visits = root_keys[key], child.visits
    if best is None:
        best = ai.order(rules, fixed if fixed is not None else determinize(rules, ai, info, rng.fork("x")),
                        seat, legal, rng.fork("order"))[0]
    stats = {
        "iterations": iterations,
        "children": {(a.text()): (c.visits, round(c.value / max(c.visits, 1), 3))
                     for key, c in root.children.items() for a in [root_keys.get(key)] if a is not None},
    }
    return best, stats


def _iterate(rules: GameRules, ai: GameAI, root: Node, state: BaseModel, seat: str, rng: Rng) -> None:
    path = [root]
    node = root
    expanded = False
    while True:
        prompts = rules.pending_now(state)
        if not prompts or any(p.secret for p in prompts):
            break
        actor = prompts[0].seat
        legal = rules.legal_now(state, actor)
        if not legal:
            break
        if node.order is None:
            ordered = ai.order(rules, state, actor, legal, rng.fork("order"))[: ai.width]
            node.order = [(key_of(a), a) for a in ordered]
        keys = {key_of(a) for a in legal}
        avail = [(k, a) for k, a in node.order if k in keys]
        if not avail:
            break
        for k, _ in avail:
            node.avail[k] = node.avail.get(k, 0) + 1
        # progressive widening: 1 child, then more as the node is visited
        allowed = max(1, min(len(avail), int(1 + math.sqrt(node.visits))))
        choice: tuple[tuple, Action] | None = None
        for k, a in avail[:allowed]:
            if k not in node.children:
                choice = (k, a)
                break
        if choice is not None:
            child = Node(actor)
            node.children[choice[0]] = child
            expanded = True
        else:
            best_score = -1.0
            for k, a in avail[:allowed]:
                c = node.children[k]
                mean = c.value / c.visits if c.visits else 0.5
                score = mean + ai.explore * math.sqrt(math.log(node.avail.get(k, 1) + 1) / (c.visits + 1))
                if score > best_score:
                    best_score, choice = score, (k, a)
            assert choice is not None
            child = node.children[choice[0]]
        state, _ = rules.replay_step(state, actor, choice[1], RngDice(rng))
        node = child
        path.append(node)
        if expanded:
            break
    value = _rollout(rules, ai, state, seat, rng)
    for n in path:
        n.visits += 1
        n.value += value if n.actor == seat else 1.0 - value


def _rollout(rules: GameRules, ai: GameAI, state: BaseModel, seat: str, rng: Rng,
             steps: int | None = None, stop: Callable[[BaseModel], bool] | None = None) -> float:
    """The playout policy for both seats, ``steps`` actions at most (the game's ``playout_depth``)
    or until ``stop`` says so, then the evaluation for ``seat`` (the outcome at the game's end)."""
    for _ in range(ai.playout_depth if steps is None else steps):
        if stop is not None and stop(state):
            break
        prompts = rules.pending_now(state)
        if not prompts:
            out = rules.outcome(state)
            return terminal_value(out.winner if out else None, seat)
        p = prompts[0] if len(prompts) == 1 else prompts[rng.below(len(prompts))]
        legal = rules.legal_now(state, p.seat)
        if not legal:
            break
        a = ai.playout(rules, state, p.seat, legal, rng)
        state, _ = rules.replay_step(state, p.seat, a, RngDice(rng))
    return ai.evaluate(rules, state, seat)


def flat(
    rules: GameRules,
    ai: GameAI,
    info: Information,
    legal: list[Action],
    budget: int,
    rng: Rng,
    deadline: Callable[[], bool] | None = None,
    whole: bool = False,
) -> tuple[Action, dict[str, object]]:
    """A rollout player: the first ``ai.candidates`` actions of the game's ordering, each followed
    by the playout policy up to the game's ``horizon`` (the opponent's answer), ``budget`` playouts
    in all, the candidates of one sample sharing its position and its random numbers (common random
    numbers: the candidates are compared on the same dice, so a small difference shows). The
    first candidate (the policy's action) is kept unless another's mean is higher.

    ``whole``: every legal action is a candidate and each is played on to the game's end (at most
    ``ai.game_cap`` actions, then the evaluation), for the decisions ``GameAI.deep`` names. A
    candidate is dropped as soon as it could no longer come out best: a game's value lies in [0, 1],
    so one whose sum, plus one for every sample still to come, is below another's sum so far is
    behind that one at the end too; when one is left the decision is made. The candidates left are
    played on every sample, so the one chosen is the one the full count of the same samples would
    choose (``_ahead``; a ``deadline`` may end either after a different number of samples).
    It rests on ``GameAI.evaluate``'s values lying in [0, 1], as every game's do."""
    seat = info.seat
    fixed: BaseModel | None = None
    if not has_hidden(rules, ai, info):
        fixed = determinize(rules, ai, info, rng)
    first = fixed if fixed is not None else determinize(rules, ai, info, rng.fork("x"))
    allowed = {key_of(a) for a in legal}
    cands = [a for a in ai.order(rules, first, seat, legal, rng.fork("order")) if key_of(a) in allowed]
    if whole:  # every legal action, in the ordering's order (ties keep the earlier)
        seen = {key_of(a) for a in cands}
        cands += [a for a in legal if key_of(a) not in seen]
    else:
        cands = cands[: ai.candidates] or legal[:1]
    cand_keys = {key_of(a) for a in cands}
    samples = max(1, budget // len(cands))
    sums = [0.0] * len(cands)
    counts = [0] * len(cands)
    live = list(range(len(cands)))
    for m in range(samples):
        if deadline is not None and deadline():
            break
        base = rng.fork(m)
        state = fixed if fixed is not None else determinize(rules, ai, info, base.fork("det"))
        if fixed is None and not cand_keys <= {key_of(a) for a in rules.legal_now(state, seat)}:
            continue  # a sample in which the seat could not give every candidate: not a fair comparison
        def answered(x: BaseModel, start: BaseModel = state) -> bool:
            return not whole and ai.horizon(rules, start, x, seat)

        for j in live:
            r = base.copy()
            s, _ = rules.replay_step(state, seat, cands[j], RngDice(r))
            sums[j] += _rollout(rules, ai, s, seat, r, ai.game_cap if whole else ai.horizon_cap, answered)
            counts[j] += 1
        if whole:
            live = _ahead(live, sums, samples - m - 1)
            if len(live) == 1:
                break
    means = [v / max(n, 1) for v, n in zip(sums, counts, strict=True)]
    best = live[0]
    for j in live[1:]:
        if means[j] > means[best]:
            best = j
    stats: dict[str, object] = {"kind": "whole games" if whole else "rollouts", "iterations": sum(counts),
             "children": {a.text(): (counts[j], round(means[j], 3)) for j, a in enumerate(cands)}}
    return cands[best], stats


_SURE = 1e-9
"""A margin for ``_ahead``'s comparison, far above the rounding of ``sums[j] + left`` and of the
additions still to come (some 1e-13 over a few dozen games)."""


def _ahead(live: list[int], sums: list[float], left: int) -> list[int]:
    """The candidates of ``live`` that may still come out best after ``left`` more samples: those
    whose sum, plus ``left`` (each sample adds a value of at most 1), reaches the highest sum so far
    (which can only grow). A candidate dropped ends below the one that leads now, whatever the games
    still to come, and so below the best; those kept have played the same samples, so their means
    compare as their sums (``flat``)."""
    lead = max(sums[j] for j in live)
    return [j for j in live if sums[j] + left + _SURE >= lead]
