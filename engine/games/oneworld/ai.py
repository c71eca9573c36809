"""OneWorld for the bot opponent: evaluation, move ordering, playout policy, aspect rounds.

- Evaluation (for a seat): god lives first (11.2: the last life ends the game), then Children
  still in play (on the map or in reserve), then how close the seat's Children stand to the
  enemy god (an accost, 10.4, needs a Child in the god's hex) against how close the enemy's stand
  to its own god; the difference is squashed to a value in (0, 1). A combat still to be fought
  (8.1) counts at its expected end (``fight_table``), an accost under way at a third of a life.
- Move ordering: moves by how much nearer the enemy god they bring the Child; an attack likely to
  hold the hex ranks higher the nearer it is to the bot's own god.
- Set-up at ``normal`` and ``hard`` (``direct``, not searched): ``forward``, the Children as near
  the enemy god as 3.3 allows.
- Playout policy: in movement a random Child still to move takes the move that brings it
  nearest the enemy god (moves are tried on the position itself, so Blades' lines, faults and
  stacking are the game's own), with a bonus for a combat it almost surely wins; the movement
  ends early with a chance of 12% at each move; combats are fought in order;
  the set-up takes ``place_all``; inside playouts secret aspects are uniform (cheap), at the
  bot's real decisions they come from the round's equilibrium (below).
- Secret choices (8.2 combat rounds, 10.4 accosts): the round is a matrix game. Its payoff for
  each pair of choices is the evaluation of the position after the round resolves (the game's own
  ``resolve_round`` / accost resolution); the mixed strategy is its Nash equilibrium
  (``engine.ai.matrix``), drawn with the seeded generator. The other seat's sealed choice is
  never part of the position the matrix is built from: it is replaced by every possible value.
- ``hard`` (``HardOneWorldAI``): in its own movement, whole plans (``plan_move``): the ordering's
  first eight moves, each followed by two plans for the rest of the movement, every plan played
  as a whole and then on to the side's next movement (the other side's answer seen); elsewhere a
  rollout player over the ordering's first eight actions. The next accost (``threat``) is in the
  evaluation and the ordering, and accosts are made in its playouts.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import cast

from pydantic import BaseModel

from engine.ai.base import GameAI, first_of, squash
from engine.ai.matrix import sample, solve
from engine.ai.rng import Rng, RngDice
from engine.ai.search import _rollout, key_of
from engine.core.hexes import distance
from engine.core.protocol import Action, GameRules
from engine.games.oneworld import combat, gods
from engine.games.oneworld.board import board
from engine.games.oneworld.movement import blade_run, context, walk_targets
from engine.games.oneworld.state import ASPECTS, State, action, fork, other
from engine.games.oneworld.turn import movable, move_options


@lru_cache(maxsize=4096)
def _dist(a: str, b: str) -> int:
    bd = board()
    ha, hb = bd.parse(a), bd.parse(b)
    if ha is None or hb is None:
        return 30
    return distance(ha, hb)


def _landing(rules: GameRules, s: State, seat: str, a: Action, kid: str, rng: Rng) -> str:
    """Where a move given by direction (a Blade's line, 6.x) ends: tried on the position itself."""
    new, _ = rules.replay_step(s, seat, a, RngDice(rng))
    moved = cast(State, new).child(kid)
    return moved.hex if moved is not None and moved.where == "map" else ""


@lru_cache(maxsize=1)
def fight_table() -> dict[tuple[int, int], tuple[float, float, float]]:
    """8.2, 8.3: a combat of ``n`` Children against ``m`` (up to four each, 7.2) fought to its end by
    both sides at the equilibrium of each round (the chance of holding the hex as payoff):
    ``(n, m) -> (chance the n hold the hex, their expected survivors, the m's expected survivors)``.
    Solved once per process from the game's own kill rule; a few tenths of a second."""
    table: dict[tuple[int, int], tuple[float, float, float]] = {}
    for total in range(2, 9):  # every round with a loss leads to a smaller combat, solved before
        for n in range(max(1, total - 4), min(4, total - 1) + 1):
            m = total - n
            mine, theirs = combat.compositions(n), combat.compositions(m)
            after = [[(n - sum(combat.kills(b, a).values()), m - sum(combat.kills(a, b).values())) for b in theirs]
                     for a in mine]
            value, rows, cols = 0.5, [1.0], [1.0]
            for _ in range(10):  # a round without a loss repeats the combat: the value is a fixed point
                payoff = [[_won(x, y, n, m, value, table) for x, y in line] for line in after]
                rows, new = solve(payoff, iterations=200)
                cols, _ = solve([[1.0 - payoff[i][j] for i in range(len(mine))] for j in range(len(theirs))],
                                iterations=200)
                done, value = abs(new - value) < 1e-5, new
                if done:
                    break
            quiet = mine_left = theirs_left = 0.0
            for i, line in enumerate(after):
                for j, (x, y) in enumerate(line):
                    p = rows[i] * cols[j]
                    if (x, y) == (n, m):
                        quiet += p
                    elif x == 0 or y == 0:
                        mine_left, theirs_left = mine_left + p * x, theirs_left + p * y
                    else:
                        _, sx, sy = table[(x, y)]
                        mine_left, theirs_left = mine_left + p * sx, theirs_left + p * sy
            if quiet > 0.999:
                # four against one: the four hold the hex whatever they choose, so the solver may
                # settle on a round without a loss; fought out, they cover every aspect and the
                # lone Child takes one of them at most (8.2)
                assert min(n, m) == 1, (n, m)
                table[(n, m)] = (1.0, n - 1.0, 0.0) if n > m else (0.0, 0.0, m - 1.0)
            else:
                table[(n, m)] = (value, mine_left / (1 - quiet), theirs_left / (1 - quiet))
    return table


def _won(x: int, y: int, n: int, m: int, value: float, table: dict[tuple[int, int], tuple[float, float, float]]) -> float:
    if x == 0 or y == 0:
        return 0.5 if x == y else 1.0 if y == 0 else 0.0
    return value if (x, y) == (n, m) else table[(x, y)][0]


def _attack(s: State, seat: str, start: str, to: str) -> float:
    """The chance that a Child moving from ``start`` into ``to`` leaves ``seat`` holding the hex
    after its combat (8.2), or 0 when ``to`` holds no enemy Child."""
    there = s.in_hex(to)
    mine = sum(1 for c in there if c.side == seat)
    theirs = len(there) - mine
    if not theirs or start == to:
        return 0.0
    return fight_table()[(min(4, mine + 1), min(4, theirs))][0]


ACCOST = 1.0 / 3.0
"""10.4: with both aspects chosen at the equilibrium, an accost takes a life one time in three."""


def score(s: State, seat: str) -> float:
    """The seat's standing in points (positive: ahead).

    A combat still to be fought (a hex holding Children of both gods, 8.1) counts at its expected
    end (``fight_table``): each side's Children there weigh their expected survivors. An accost
    under way (10.4) counts at its expectation, a third of a life, and its Child as gone (it is
    always destroyed)."""
    opp = other(seat)
    lives = s.lives.get(seat, 0) - s.lives.get(opp, 0)
    alive = {x: float(sum(1 for c in s.children if c.side == x and c.where in ("map", "reserve"))) for x in (seat, opp)}
    weights: dict[str, dict[str, float]] = {seat: {}, opp: {}}
    stacks: dict[str, dict[str, int]] = {}
    for c in s.children:
        if c.where == "map":
            stacks.setdefault(c.hex, {seat: 0, opp: 0})[c.side] += 1
    table = fight_table() if any(v[seat] and v[opp] for v in stacks.values()) else {}
    for h, count in stacks.items():
        for x in (seat, opp):
            if count[x]:
                weights[x][h] = 1.0
        if count[seat] and count[opp]:
            _, left_seat, left_opp = table[(count[seat], count[opp])]
            weights[seat][h] = left_seat / count[seat]
            weights[opp][h] = left_opp / count[opp]
            alive[seat] -= count[seat] - left_seat
            alive[opp] -= count[opp] - left_opp
    accost = 0.0
    if s.accost is not None:
        kid = s.child(s.accost.child)
        if kid is not None:
            factor = 1.0 if kid.side == seat else -1.0
            accost = factor * ACCOST * 60.0
            alive[kid.side] -= 1
            weights[kid.side][kid.hex] = 0.0  # alone in the god's hex: no Child may stay there (7.3, 10.4)
    near = 0.0
    for x, god_of in ((seat, opp), (opp, seat)):
        god = s.god_hex.get(god_of, "")
        kids = s.on_map(x)
        if not god or not kids:
            continue
        ds = sorted((_dist(c.hex, god), weights[x].get(c.hex, 1.0)) for c in kids)
        # the nearest Children threaten an accost (10.4); all of them should be on their way
        closeness = 8.0 * sum(w / (1 + d) for d, w in ds[:4]) - 0.5 * sum(d * w for d, w in ds) / 13
        near += closeness if x == seat else -closeness
    dead = 1000.0 if s.lives.get(opp, 1) <= 0 else -1000.0 if s.lives.get(seat, 1) <= 0 else 0.0
    return dead + 60.0 * lives + 6.0 * (alive[seat] - alive[opp]) + near + accost


def threat(s: State, god_side: str, now: bool = False) -> tuple[float, frozenset[str]]:
    """Whether a Child of the other god can accost ``god_side``'s god in one move (10.4): the best
    chance over those Children of arriving, a Fault crossed letting through two in three (5.4),
    and the hexes where a Child of ``god_side`` would stop an arriving route: those it passes
    through (the Child stops there to fight: 6.3, 8.1) and the arriving Child's own (an attack).
    A Child with a combat still to be fought in its hex counts at its side's chance of holding
    the hex (``fight_table``). ``now``: in the movement under way (the Children still to move,
    and none once a Child has accosted), else in the other god's next movement (all of them).

    Only the Children near the god are tried (a Blade within five hexes, a Fog within three, a
    Stone next to it or, with Pylon Movement, within three: 12.0), every one where the map wraps
    around (Chaos Gambit II). A Fog's routes other than the one crossing the fewest Faults are
    not listed, and an aspect a god power changes before moving is not foreseen."""
    god = s.god_hex.get(god_side, "")
    att = other(god_side)
    if not god or (now and (s.accosted or s.active != att or s.step != "move")):
        return 0.0, frozenset()
    # the flat map's distance is no bound where it wraps around (Chaos Gambit II)
    wrap, pylons = s.options.chaos_gambit_2, s.options.pylon_movement
    kids = [c for c in s.on_map(att) if (wrap or _dist(c.hex, god) <= 5) and not (now and c.id in s.moved)]
    if not kids:
        return 0.0, frozenset()
    if s.accosted and not now:
        s = fork(s, accosted=False)  # the accost of this turn does not bar the next one
    ctx = context(s, att)
    target = ctx.enemy_god
    bd = ctx.b
    best = 0.0
    through: set[str] = set()
    for c in kids:
        start = bd.parse(c.hex)
        if start is None or target is None:
            continue
        routes = []
        if c.aspect == "Blade":
            for d in range(6):
                route, _ = blade_run(ctx, c, start, d)
                if route.path and route.path[-1] == target and not route.chaos:
                    routes.append(route)
        elif wrap or _dist(c.hex, god) <= (1 if c.aspect == "Stone" and not pylons else 3):  # 6.2, 6.4, 12.0
            found = walk_targets(ctx, c, start).get(target)
            if found is not None:
                routes.append(found)
        if not routes:
            continue
        # a Child with a combat still due in its hex (8.1) is there to accost only if it holds the hex
        there = s.in_hex(c.hex)
        ours = sum(1 for x in there if x.side == att)
        holds = fight_table()[(min(4, ours), min(4, len(there) - ours))][0] if len(there) > ours else 1.0
        for r in routes:
            best = max(best, holds * (2.0 / 3.0) ** (len(r.faults) if c.aspect != "Stone" else 0))
            through.update(bd.name(h) for h in r.path[:-1])
            through.add(c.hex)
    return best, frozenset(through)


SETUP_ASPECTS = ("Stone", "Blade", "Fog")
"""The aspects the set-up gives the Children in turn (3.3: any combination)."""


def forward(s: State, seat: str, legal: list[Action]) -> Action | None:
    """3.3: the next Child goes to the hex nearest the enemy god (nearest the map's centre while
    that god is not placed yet) among those within seven hexes of the seat's own god, at most two
    Children a hex, aspects in turn; ``None`` once all thirteen are placed."""
    waiting = sum(1 for c in s.children if c.side == seat and c.where == "reserve")
    places = [a for a in legal if a.verb == "place"]
    if not waiting or not places:
        return None
    bd = board()
    target = s.god_hex.get(other(seat)) or bd.name(bd.centre)
    here: dict[str, int] = {}
    for c in s.children:
        if c.where == "map" and c.side == seat:
            here[c.hex] = here.get(c.hex, 0) + 1
    aspect = SETUP_ASPECTS[sum(here.values()) % len(SETUP_ASPECTS)]
    fits = [a for a in places if a.args["aspect"] == aspect] or places
    return min(fits, key=lambda a: (here.get(str(a.args["hex"]), 0) >= 2, _dist(str(a.args["hex"]), target),
                                    str(a.args["hex"])))


class OneWorldAI(GameAI):
    playout_depth = 6
    width = 8
    node_cost = 1.0
    explore = 0.15
    """Moves change the evaluation by little (a hex nearer a god), so with the default 0.7 the
    visits were spread evenly and the most visited child was the ordering's first by the tie rule;
    against greedy, seeds 0-59: 41 of 60 won with 0.7, 47 of 60 with 0.15 (docs/ai-measurements.md, "Strength:
    a small sample")."""

    def at(self, level: str) -> GameAI:
        return HARD_AI if level == "hard" else self

    def evaluate(self, rules: GameRules, state: BaseModel, seat: str) -> float:
        s = cast(State, state)
        if s.step == "over":
            return 1.0 if s.winner == seat else 0.0 if s.winner else 0.5
        return squash(score(s, seat), 25.0)

    def order(self, rules: GameRules, state: BaseModel, seat: str, legal: list[Action], rng: Rng) -> list[Action]:
        s = cast(State, state)
        if s.step != "move":
            out = list(legal)
            rng.shuffle(out)
            pref = self.playout(rules, state, seat, legal, rng)
            return [pref] + [a for a in out if a is not pref]
        target = s.god_hex.get(other(seat), "")
        home = s.god_hex.get(seat, "")
        gains: list[tuple[float, int, Action]] = []
        for i, a in enumerate(legal):
            if a.verb == "move":
                c = s.child(str(a.args["child"]))
                to = str(a.args.get("to", ""))
                if not to and c is not None:
                    to = _landing(rules, s, seat, a, str(c.id), rng)
                if c is not None and target and to and to != "chaos":
                    gain = float(_dist(c.hex, target) - _dist(to, target))
                    # an attack likely to hold the hex (8.2), the nearer its own god the more it is worth
                    held = _attack(s, seat, c.hex, to)
                    if held >= 0.5 and home:
                        gain = max(gain, 1.0 + 8.0 * held / (1 + _dist(to, home)))
                    gains.append((gain + 0.01 * rng.random(), i, a))
                    continue
            if a.verb == "end":
                gains.append((0.5, i, a))
            else:
                gains.append((0.0 + 0.01 * rng.random(), i, a))
        gains.sort(key=lambda t: (-t[0], t[1]))
        return [a for _, _, a in gains]

    def direct(self, rules: GameRules, state: BaseModel, seat: str, legal: list[Action], rng: Rng,
               deadline: Callable[[], bool] | None = None) -> Action | None:
        """The set-up (3.3, 3.4) is ``forward``'s, not searched: its worth shows turns later, beyond a
        playout's few actions, where every formation looks alike (docs/ai-measurements.md, "OneWorld:
        combats at their expectation, and a forward set-up")."""
        s = cast(State, state)
        if s.step == "place":
            return forward(s, seat, legal)
        return None

    def playout(self, rules: GameRules, state: BaseModel, seat: str, legal: list[Action], rng: Rng) -> Action:
        s = cast(State, state)
        if s.step in ("combat", "accost_child", "accost_god"):
            return rng.choice(legal)  # inside playouts: uniform (the equilibrium is for real rounds)
        if s.step == "place":
            return first_of(legal, "place_all") or first_of(legal, "done") or rng.choice(legal)
        if s.step == "fight":
            return legal[0]
        if s.step != "move":
            return rng.choice(legal)
        end = first_of(legal, "end")
        moves = [a for a in legal if a.verb == "move"]
        if not moves or (end is not None and rng.random() < 0.12):
            return end or rng.choice(legal)
        kids = sorted({str(a.args["child"]) for a in moves})
        kid = kids[rng.below(len(kids))]
        target = s.god_hex.get(other(seat), "")
        c = s.child(kid)
        best, best_gain = None, -1e9
        for a in moves:
            if a.args["child"] != kid:
                continue
            to = str(a.args.get("to", ""))
            if not to:
                to = _landing(rules, s, seat, a, kid, rng)
            if not to or to == "chaos" or c is None or not target:
                gain = -5.0
            else:
                gain = _dist(c.hex, target) - _dist(to, target) + 0.3 * rng.random()
                if _attack(s, seat, c.hex, to) >= 0.8:
                    gain += 3.0  # a combat it almost surely wins (8.2)
            if gain > best_gain:
                best, best_gain = a, gain
        return best or end or rng.choice(legal)

    def secret(self, rules: GameRules, state: BaseModel, seat: str, legal: list[Action], rng: Rng) -> Action | None:
        s = cast(State, state)
        if s.step == "combat" and s.fight is not None:
            return self._round(rules, s, seat, legal, rng)
        if s.step in ("accost_child", "accost_god") and s.accost is not None:
            return self._accost(rules, s, seat, legal, rng)
        return None

    def _round(self, rules: GameRules, s: State, seat: str, legal: list[Action], rng: Rng) -> Action:
        """8.2: both sides' compositions as a matrix game over the position after the round."""
        fight = s.fight
        assert fight is not None
        opp = other(seat)
        mine = [combat.from_args(dict(a.args)) for a in legal]
        n_opp = len(combat.fighters(s, fight.hex, opp))
        theirs = combat.compositions(n_opp) if n_opp else [()]
        payoff = []
        for m in mine:
            row = []
            for t in theirs:
                chosen = {seat: m, opp: t}
                trial = fork(s, fight=fight.model_copy(update={"chosen": chosen}))
                after, _, _ = combat.resolve_round(trial)
                row.append(self.evaluate(rules, after, seat))
            payoff.append(row)
        strategy, _ = solve(payoff, iterations=400)
        return legal[sample(strategy, rng)]

    def _accost(self, rules: GameRules, s: State, seat: str, legal: list[Action], rng: Rng) -> Action:
        """10.4: the Child's aspect against the god's, a 3 x 3 matrix game."""
        accost = s.accost
        assert accost is not None
        child_side = s.step == "accost_child"
        mine = [str(a.args["aspect"]) for a in legal]
        payoff = []
        for m in mine:
            row = []
            for t in ASPECTS:
                child_aspect, god_aspect = (m, t) if child_side else (t, m)
                # the other seat's sealed aspect (if any) is replaced by each value in turn
                trial = accost.model_copy(update={"child_aspect": child_aspect, "god_aspect": god_aspect})
                after, _ = gods._resolve(s, trial)
                row.append(self.evaluate(rules, after, seat))
            payoff.append(row)
        strategy, _ = solve(payoff, iterations=400)
        return legal[sample(strategy, rng)]


class HardOneWorldAI(OneWorldAI):
    """``hard``: not the tree. In its own movement (4.2) it plans (``direct``, ``plan_move``): the
    ordering's first eight moves (after its first, up to three to the hexes that would stop an
    enemy Child reaching the god: in its way, or its own hex, an attack), each followed by two
    plans for the rest of the movement (``_own_plan``), and every plan played as a whole and on
    by the playout policy to the side's next movement: its combats and accost, the other side's
    whole turn (its answer); the plans of a sample share the dice (common random numbers). Its
    other decisions (the order of combats, 8.1) are the rollout player's (``search.flat``), the
    same ordering's first eight actions each played on to that horizon. With the rest of the
    movement played by the playout policy (a Child drawn at random) instead of a plan, ``hard``
    won 117 of 200 games against ``normal`` (docs/ai-measurements.md, "OneWorld `hard`: whole
    plans of its movement"). The evaluation also weighs the next accost (``threat``,
    ``_threats``): a god that a Child of the other side can reach in one move stands to lose a
    third of a life (10.4). In playouts an
    accost in hand is made (``accost_move``) and a Stone or Fog next to its own god leaves only
    to attack. With the tree, whose six-action playouts seldom reach the other side's movement,
    ``hard`` was only as strong as ``normal`` (docs/ai-measurements.md, "OneWorld `hard`: the other side's
    answer")."""

    candidates = 8
    horizon_cap = 160

    def at(self, level: str) -> GameAI:
        return self

    def direct(self, rules: GameRules, state: BaseModel, seat: str, legal: list[Action], rng: Rng,
               deadline: Callable[[], bool] | None = None) -> Action | None:
        """The set-up as ``normal``'s; a move of the side's own movement by whole plans (``plan_move``)."""
        s = cast(State, state)
        if s.step == "move" and s.active == seat and len(legal) > 1:
            return plan_move(self, rules, s, seat, legal, rng, deadline)
        return super().direct(rules, state, seat, legal, rng, deadline)

    def horizon(self, rules: GameRules, start: BaseModel, state: BaseModel, seat: str) -> bool:
        """A rollout stops when the decision's side moves again: the rest of its movement, its
        combats and accosts, and the other side's whole turn (its answer, 4.1) are played."""
        s, s0 = cast(State, state), cast(State, start)
        return s.turn >= s0.turn + 2 and s.step == "move"

    def cost(self, rules: GameRules, state: BaseModel) -> float:
        """A rollout to the next movement costs some twenty actions: 180 of them at ``hard``."""
        return ROLLOUT_COST

    def evaluate(self, rules: GameRules, state: BaseModel, seat: str) -> float:
        s = cast(State, state)
        if s.step == "over":
            return 1.0 if s.winner == seat else 0.0 if s.winner else 0.5
        return squash(score(s, seat) + _threats(s, seat), 25.0)

    def order(self, rules: GameRules, state: BaseModel, seat: str, legal: list[Action], rng: Rng) -> list[Action]:
        out = super().order(rules, state, seat, legal, rng)
        s = cast(State, state)
        if s.step != "move" or s.active != seat:
            return out
        chance, through = threat(s, seat)
        if not chance:
            return out
        blocks = [a for a in out[1:] if a.verb == "move" and str(a.args.get("to", "")) in through][:3]
        keep = {id(a) for a in blocks}
        return out[:1] + blocks + [a for a in out[1:] if id(a) not in keep]

    def playout(self, rules: GameRules, state: BaseModel, seat: str, legal: list[Action], rng: Rng) -> Action:
        s = cast(State, state)
        if s.step == "move":
            home = s.god_hex.get(seat, "")
            guards = {c.id for c in s.on_map(seat) if home and _dist(c.hex, home) == 1}
            if guards:  # a guard leaves its place only to attack (8.1)
                enemy = {c.hex for c in s.on_map(other(seat))}
                legal = [a for a in legal if a.verb != "move" or str(a.args["child"]) not in guards
                         or str(a.args.get("to", "")) in enemy] or legal
            found = accost_move(s, seat, legal)
            if found is not None:
                return found
        return super().playout(rules, state, seat, legal, rng)


PLAN_ENDS = 2
"""Plans a candidate move: the rest of the movement by the ordering's first move each time, and
as the playout policy plays it (a Child drawn at random, an early end with a chance of 12% at
each move)."""
PLAN_SAMPLES = 12
"""Rollouts a plan: 8 candidates x 2 plans x 12 = 192 rollouts a decision, some 1.1 s of processor
time (the p95 of ``hard``'s decisions; docs/ai-measurements.md, "OneWorld `hard`: whole plans of its
movement")."""


def _own_plan(ai: HardOneWorldAI, rules: GameRules, s: State, seat: str, first: Action, greedy: bool,
              rng: Rng) -> list[Action]:
    """``first``, then the rest of ``seat``'s movement (4.2) as the ordering's first move each time
    (``greedy``) or as the playout policy plays it, up to its end or an accost (10.4)."""
    plan = [first]
    x, _ = rules.replay_step(s, seat, first, RngDice(rng))
    for _ in range(40):
        xs = cast(State, x)
        if xs.step != "move" or xs.active != seat:
            break
        legal = rules.legal_now(x, seat)
        if not legal:
            break
        a = ai.order(rules, x, seat, legal, rng)[0] if greedy else ai.playout(rules, x, seat, legal, rng)
        plan.append(a)
        if a.verb == "end":
            break
        x, _ = rules.replay_step(x, seat, a, RngDice(rng))
    return plan


def plan_move(ai: HardOneWorldAI, rules: GameRules, s: State, seat: str, legal: list[Action], rng: Rng,
              deadline: Callable[[], bool] | None = None) -> Action:
    """``hard``'s move in its own movement: the ordering's first eight moves, each followed by two
    plans for the rest of the movement, every plan played as a whole and then on by the playout
    policy to the side's next movement (the other side's answer, 4.1), 12 rollouts a plan on common
    random numbers; the first move of the plan with the best mean is played (ties: the earlier).
    The caller's ``deadline`` is asked before each round of rollouts: once it is up, the rounds
    taken decide (none: the ordering's first move)."""
    cands = ai.order(rules, s, seat, legal, rng.fork("order"))[: ai.candidates]
    plans: list[list[Action]] = []
    for j, a in enumerate(cands):
        for k in range(PLAN_ENDS):
            plans.append(_own_plan(ai, rules, s, seat, a, k == 0, rng.fork(f"plan{j}.{k}")))
    sums = [0.0] * len(plans)
    for m in range(PLAN_SAMPLES):
        if deadline is not None and deadline():
            break
        base = rng.fork(f"sample{m}")
        for j, plan in enumerate(plans):
            r = base.copy()
            x: BaseModel = s
            for a in plan:
                xs = cast(State, x)
                if xs.step != "move" or xs.active != seat:
                    break
                here = {key_of(b): b for b in rules.legal_now(x, seat)}
                b = here.get(key_of(a))
                if b is None:
                    continue  # its Child is gone or blocked in this sample: the plan's next move
                x, _ = rules.replay_step(x, seat, b, RngDice(r))
                if b.verb == "end":
                    break

            def answered(y: BaseModel) -> bool:
                return ai.horizon(rules, s, y, seat)

            sums[j] += _rollout(rules, ai, x, seat, r, ai.horizon_cap, answered)
    best = 0
    for j in range(1, len(plans)):
        if sums[j] > sums[best]:
            best = j
    return plans[best][0]


def accost_move(s: State, seat: str, legal: list[Action]) -> Action | None:
    """A legal move that accosts the enemy god this turn (10.4), the likeliest to arrive (fewest
    Faults crossed, 5.4), or ``None``."""
    target = s.god_hex.get(other(seat), "")
    if s.accosted or not target:
        return None
    near = [c for c in movable(s, seat) if s.options.chaos_gambit_2 or _dist(c.hex, target) <= 5]
    if not near:
        return None
    ctx = context(s, seat)
    allowed = {id(a) for a in legal}
    best: tuple[int, Action] | None = None
    for c in near:
        for args, route in move_options(ctx, c):
            if route.chaos or not route.path or ctx.b.name(route.path[-1]) != target:
                continue
            found = action("move", args)  # the shared object the legal list holds
            if id(found) in allowed and (best is None or len(route.faults) < best[0]):
                best = (len(route.faults), found)
    return best[1] if best else None


ROLLOUT_COST = 2.0
"""What ``hard``'s budget is divided by in the decisions ``flat`` makes (not its movement, which is
``plan_move``'s): 180 rollouts, 22 for each candidate, some 1.2 s of processor time a decision.
With four candidates the ordering's first was often the worst and a better move was fifth or sixth (docs/ai-measurements.md, "OneWorld `hard`: the other side's answer")."""


ACCOST_NOW = ACCOST * 60.0 - 6.0
"""An accost the side moving now can still make: a third of a life (10.4), less the Child it costs
(``score`` counts one under way the same; it also drops the Child's closeness, so an accost in
hand looks a few points better than one made)."""
ACCOST_NEXT = ACCOST_NOW / 2
"""One the other side could make in its next movement, if the side moving now does not stop it.
Counted in full (it is seldom stopped), with the side moving now's own next one at half when it
has none in hand, ``hard`` won 6 of 22 games against ``normal``: an accost not made in its turn
kept its value, and in 21 of those games ``hard`` let 32 of 140 go by (docs/ai-measurements.md, "OneWorld
`hard`: accosts made, and counted in full")."""


def _threats(s: State, seat: str) -> float:
    """``threat`` in points for ``seat``: to each god, from the side moving now (its Children still
    to move) or from the other side (its next movement)."""
    out = 0.0
    for god_side in (seat, other(seat)):
        if s.active == other(god_side):
            points = ACCOST_NOW * threat(s, god_side, now=True)[0]
        else:
            points = ACCOST_NEXT * threat(s, god_side)[0]
        out += -points if god_side == seat else points
    return out


HARD_AI = HardOneWorldAI()
GAME_AI = OneWorldAI()
