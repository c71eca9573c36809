"""Seeded random playouts of every scenario, invariants along the way, and byte-identical replays."""

from __future__ import annotations

import os
import random
from collections import Counter as Tally
from concurrent.futures import ProcessPoolExecutor

from engine.core.dice import RecordedDice, SeededDice
from engine.core.protocol import Action, GameConfig, Player
from engine.games.chitin.board import role
from engine.games.chitin.state import State
from tests.chitin.positions import RULES
from tests.support.playout import playout

# (scenario, games, options, action cap): 1,000 uniform random games in all with
# CHITIN_PLAYOUTS=1000 (make soak); the suite plays PLAYOUTS of them, each line in proportion
# (at least 3 games a line), to keep its time. Where armies are
# chosen, a random player needs hundreds of picks and drops to land on exactly the scenario's
# points before it may /ready (RULINGS Chitin 11): those games have higher caps and, to keep
# the test's time, are fewer.
PLAN = [
    ("learning", 540, {"turn_limit": 1}, 400),
    ("learning", 200, {"turn_limit": 1, "combat": "dice"}, 400),
    ("basic", 70, {"turn_limit": 1}, 1500),
    ("small", 60, {"turn_limit": 1}, 2000),
    ("intermediate", 45, {"turn_limit": 1}, 2500),
    ("advanced", 45, {"turn_limit": 1}, 3000),
    ("learning", 20, {"turn_limit": 3}, 1500),
    ("armageddon", 20, {"turn_limit": 1}, 100),
]


PLAYOUTS = int(os.environ.get("CHITIN_PLAYOUTS", "300"))


def _plan() -> list[tuple[str, int, dict, int]]:
    return [(sc, max(3, round(n * PLAYOUTS / 1000)), opts, cap) for sc, n, opts, cap in PLAN]


def _batch(job: tuple[str, list[int], dict, int]) -> tuple[int, int, dict[str, int]]:
    scenario, seeds, options, cap = job
    ended = 0
    verbs: Tally[str] = Tally()
    for seed in seeds:
        res = playout(RULES, scenario, options, seed=seed, max_actions=cap)
        if not res.capped:
            assert res.outcome is not None, (scenario, seed)
            ended += 1
        verbs.update(res.verbs)
    return len(seeds), ended, dict(verbs)


def test_uniform_random_playouts_across_all_scenarios() -> None:
    jobs = []
    plan = _plan()
    for scenario, games, options, cap in plan:
        seeds = list(range(games))
        for k in range(0, games, 25):
            jobs.append((scenario, seeds[k : k + 25], options, cap))
    with ProcessPoolExecutor(max_workers=2) as pool:
        done = list(pool.map(_batch, jobs))
    games = sum(g for g, _, _ in done)
    ended = sum(e for _, e, _ in done)
    verbs: Tally[str] = Tally()
    for _, _, v in done:
        verbs.update(v)
    assert games == sum(n for _, n, _, _ in plan) >= min(PLAYOUTS, 1000)
    capped = sum(n for sc, n, _, _ in plan if sc == "armageddon")
    assert ended >= games - capped - games // 200  # all but the capped Armageddon openings
    assert {"pick", "drop", "ready", "choose", "move", "face", "fly", "done"} <= set(verbs)


# -- a keener random player that seeks battle, for the combat paths -----------------------------

KEEN = ("attack", "overrun", "charge", "lose", "retreat", "advance")


def keen_choice(rng: random.Random, state: State, seat: str, legal: list[Action]) -> Action:
    """Random, but leaning towards fighting and towards the enemy's end; armies filled up to /ready."""
    if state.step == "forces":
        # exactly the scenario's points before /ready (RULINGS Chitin 11): pick until none fits, then drop
        for verb in ("ready", "pick", "drop"):
            some = [a for a in legal if a.verb == verb]
            if some:
                return rng.choice(some)
    keen = [a for a in legal if a.verb in KEEN]
    if state.step == "attack" and not any(a.verb == "done" for a in legal) and rng.random() < 0.5:
        keen = [a for a in legal if a.verb == "cancel"] or keen
    if keen and rng.random() < 0.8:
        return rng.choice(keen)
    if state.step == "attack" and any(a.verb == "done" for a in legal):
        return next(a for a in legal if a.verb == "done")
    if state.step == "face" and rng.random() < 0.8:
        ahead = "S" if state.ends.get(seat) == "north" else "N"
        facing = [a for a in legal if a.args.get("dir") == ahead]
        if facing:
            return facing[0]
    moves = [a for a in legal if a.verb in ("move", "fly") and a.args.get("to") != "off"]
    if moves and rng.random() < 0.85:
        south = state.ends.get(seat) == "north"

        def depth(a: Action) -> int:
            row = int(str(a.args["to"])[2:])
            return row if south else -row

        best = max(depth(a) for a in moves)
        return rng.choice([a for a in moves if depth(a) >= best - 2])
    if state.step == "move" and rng.random() < 0.1:
        return next(a for a in legal if a.verb == "done")
    return rng.choice(legal)


def check_invariants(state: State) -> None:
    """Stacking (6.05, 6.051), no shared hexes, chit limits (8.403), carriers of a chit together (6.081)."""
    hexes: dict[str, list] = {}
    for c in state.counters.values():
        if c.where == "map":
            assert c.units >= 1 and c.hex
            if role(c) != "air":
                hexes.setdefault(c.hex, []).append(c)
        if c.chit:
            assert c.type == "W" and c.id in state.chits[c.chit].carriers
    for h, st in hexes.items():
        assert len({c.side for c in st}) == 1, f"both sides in {h}"
        assert sum(c.units for c in st) <= 3, f"overstacked {h}"
        assert len({c.type for c in st if role(c) == "warrior"}) <= 1, f"mixed warriors in {h}"
        assert len({c.facing for c in st}) == 1, f"two facings in {h}"
    for ch in state.chits.values():
        assert ch.value <= 30
        carrying = sorted(c.id for c in state.counters.values() if c.chit == ch.letter)
        assert carrying == sorted(ch.carriers), f"chit {ch.letter} carried by {carrying}, listed {ch.carriers}"
        assert len({state.counters[i].hex for i in carrying}) <= 1, f"carriers of {ch.letter} apart"  # RULINGS Chitin 7


def keen_game(scenario: str, seed: int, options: dict, cap: int = 1500):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    players = tuple(Player(seat=s, name=s.lower()) for s in RULES.seats)
    config = GameConfig(game="chitin", scenario=scenario, options=options, players=players)
    state = RULES.setup(config, SeededDice(f"keen{seed}", 0))
    log = []
    kinds: Tally[str] = Tally()
    same_phase = 0
    last_phase = None
    for n in range(1, cap + 1):
        prompts = RULES.pending(state)
        # listing the legal actions asks only who is to act, without the prompts' texts
        assert RULES.acting(state) == tuple(dict.fromkeys(p.seat for p in prompts)), state.step
        if not prompts:
            break
        prompt = rng.choice(prompts)
        legal = RULES.legal_actions(state, prompt.seat)
        assert legal, f"dead end: {prompt.text}"
        action = keen_choice(rng, state, prompt.seat, legal)
        dice = SeededDice(f"keen{seed}", n)
        state, events = RULES.apply(state, prompt.seat, action, dice)
        assert isinstance(state, State)
        log.append((prompt.seat, action, dice.rolls))
        kinds.update(e.kind for e in events)
        check_invariants(state)
        phase = (state.turn, state.step)
        same_phase = same_phase + 1 if phase == last_phase else 0
        last_phase = phase
        assert same_phase < 400, f"endless phase {phase}"
    return config, state, log, kinds


def test_keen_playouts_fight_and_keep_the_invariants() -> None:
    kinds: Tally[str] = Tally()
    verbs: Tally[str] = Tally()
    for scenario, seeds in (("learning", range(6)), ("basic", range(4)), ("small", range(5)), ("advanced", range(3))):
        for seed in seeds:
            _, state, log, k = keen_game(scenario, seed, {"turn_limit": 6})
            kinds.update(k)
            verbs.update(a.verb for _, a, _ in log)
            assert RULES.outcome(state) is not None or len(log) == 1500
    for seed in range(2):
        _, state, log, k = keen_game("armageddon", seed, {"turn_limit": 3})
        kinds.update(k)
        verbs.update(a.verb for _, a, _ in log)
        assert RULES.outcome(state) is not None
    assert kinds["combat"] > 20 and kinds["loss"] > 10
    assert {"attack", "lose", "retreat", "advance", "charge", "fly"} <= set(verbs), verbs


def test_keen_playouts_under_the_dice_option() -> None:
    verbs: Tally[str] = Tally()
    kinds: Tally[str] = Tally()
    for scenario, seeds in (("learning", range(4)), ("small", range(3))):
        for seed in seeds:
            _, state, log, k = keen_game(scenario, seed, {"turn_limit": 6, "combat": "dice"})
            verbs.update(a.verb for _, a, _ in log)
            kinds.update(k)
            assert RULES.outcome(state) is not None or len(log) == 1500
    assert {"attack", "defend", "press"} <= set(verbs), verbs
    assert kinds["loss"] > 0 and kinds["defend"] > 0


def test_replay_with_recorded_dice_is_byte_identical() -> None:
    for seed in range(20):
        config, final, log, kinds = keen_game("small", seed, {"turn_limit": 6})
        if kinds["combat"] and kinds["loss"]:
            break
    assert kinds["combat"] > 0
    state = RULES.setup(config, SeededDice(f"keen{seed}", 0))
    for seat, action, rolls in log:
        dice = RecordedDice(list(rolls))
        state, _ = RULES.apply(state, seat, action, dice)
        assert dice.unused == 0
    assert state.model_dump_json() == final.model_dump_json()
    again = State.model_validate_json(final.model_dump_json())
    assert again.model_dump_json() == final.model_dump_json()
