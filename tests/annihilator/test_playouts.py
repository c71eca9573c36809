"""Random legal playouts to the end (every step of 3.0 to 10.0 under a fuzzer) and replay."""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor

import pytest

from engine.core.dice import RecordedDice, SeededDice
from engine.core.protocol import Player
from engine.games.annihilator import RULES
from tests.annihilator.helpers import config
from tests.support.playout import playout

# Set ANNIHILATOR_PLAYOUTS=1000 for the full soak; the default keeps the suite quick.
GAMES = int(os.environ.get("ANNIHILATOR_PLAYOUTS", "40"))


def _batch(seeds: list[int], options: dict) -> list[tuple[int, bool, dict[str, int]]]:
    out = []
    for seed in seeds:
        r = playout(RULES, "standard", options, seed=seed, max_actions=5000)
        out.append((seed, r.capped, r.verbs))
    return out


@pytest.mark.slow
def test_10_0_random_playouts_end_without_crash_or_dead_end():
    seeds = list(range(GAMES))
    options = [{}, {"hidden_charges": True}, {"close_combat": "assault"}, {"hidden_charges": True,
                                                                         "close_combat": "assault"}]
    chunks = [(seeds[i::4], options[i]) for i in range(4)]
    with ProcessPoolExecutor(max_workers=min(2, os.cpu_count() or 1)) as pool:
        results = [r for batch in pool.map(_batch, *zip(*chunks, strict=True)) for r in batch]
    assert len(results) == GAMES
    capped = [seed for seed, c, _ in results if c]
    assert not capped, f"games that never ended: seeds {capped[:10]}"
    used = {verb for _, _, verbs in results for verb in verbs}
    # Every step of the turn was reached and answered, not passed over.
    assert {"place", "ready", "land", "move", "attack", "charge", "advance", "mind", "repair", "done"} <= used


def test_3_0_a_recorded_game_replays_byte_for_byte():
    import random

    rng = random.Random(7)
    cfg = config(hidden_charges=True)
    setup_dice = SeededDice("replay", 0)
    state = RULES.setup(cfg, setup_dice)
    log = []
    for n in range(1, 400):
        prompts = RULES.pending(state)
        if not prompts:
            break
        seat = prompts[0].seat
        action = rng.choice(RULES.legal_actions(state, seat))
        dice = SeededDice("replay", n)
        state, _ = RULES.apply(state, seat, action, dice)
        log.append((seat, action, dice.rolls))
    again = RULES.setup(cfg, RecordedDice(setup_dice.rolls))
    for seat, action, rolls in log:
        d = RecordedDice(rolls)
        again, _ = RULES.apply(again, seat, action, d)
        assert d.unused == 0
    assert again.model_dump_json() == state.model_dump_json()
    assert any(r for _, _, r in log), "the game rolled dice"
    assert Player(seat="Marines", name="x").seat in RULES.seats
