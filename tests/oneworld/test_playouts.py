"""Seeded random legal playouts: a thousand games across mixes of the optional rules (12.0),
each ending at a god's death (11.2), a draw, or the action cap, with no crash and no dead end;
and replays that rebuild a game byte for byte from its actions and recorded dice."""

from __future__ import annotations

import random

import pytest

from engine.core.dice import RecordedDice, SeededDice
from engine.core.protocol import GameConfig
from engine.games.oneworld.options import OPTIONS_HELP
from engine.games.oneworld.rules import OneWorld
from tests.oneworld.positions import PLAYERS, RULES
from tests.support.playout import playout

MIXES: dict[str, dict[str, object]] = {
    "basic": {},
    "one life": {"god_lives": 1},
    "quick": {"god_lives": "1/2", "frustration_clause": True, "singing_grasses": True},
    "geography": {"new_geography": True, "god_lives": 1, "moving_towers": "cw", "more_balance": True},
    "no towers": {"tower_elimination": True, "friendly_obstacle": True, "pylon_movement": True},
    "chaos": {
        "chaos_gambit_1": True,
        "non_aligned_towers": True,
        "moving_towers": "ccw",
        "stacking_limit": "roll",
    },
    "curved": {"chaos_gambit_2": True, "god_powers": "on", "flee_while_you_can": True, "god_lives": 1},
    "scenario": {
        "god_powers": "scenario",
        "stacking_limit": 2,
        "friendly_obstacle": True,
        "flee_while_you_can": True,
    },
}
GAMES = 1000
MAX_ACTIONS = 100
"""Set-up takes about thirty actions; the rest is four to six turns of random play."""


class Watched(OneWorld):
    """OneWorld that notes the longest combat and how games end, for the report."""

    def __init__(self) -> None:
        self.longest = 0
        self.ends: dict[str, int] = {}

    def _apply(self, state, seat, action, dice):
        new, events = super()._apply(state, seat, action, dice)
        self.longest = max(self.longest, new.longest_combat, new.fight.round - 1 if new.fight else 0)
        for e in events:
            if e.kind == "end":
                key = "draw" if "drawn" in e.text else "god's death"
                self.ends[key] = self.ends.get(key, 0) + 1
        return new, events


def test_12_0_every_optional_rule_is_on_in_some_mix():
    assert set(OPTIONS_HELP) <= {k for mix in MIXES.values() for k in mix}


@pytest.mark.slow
@pytest.mark.parametrize("mix", sorted(MIXES))
def test_11_2_random_playouts_end_or_reach_the_cap_without_crash_or_dead_end(mix):
    rules = Watched()
    per_mix = GAMES // len(MIXES)
    verbs: dict[str, int] = {}
    finished = 0
    for seed in range(per_mix):
        result = playout(rules, "standard", MIXES[mix], seed=seed, max_actions=MAX_ACTIONS)
        for verb, n in result.verbs.items():
            verbs[verb] = verbs.get(verb, 0) + n
        if not result.capped:
            finished += 1
            assert result.outcome is not None and result.outcome.winner in ("BORG", "CHEZ", None)
        else:
            assert result.outcome is None and result.actions == MAX_ACTIONS
    assert finished == sum(rules.ends.values())
    assert {"place", "done", "move", "end"} <= set(verbs)
    LONGEST[mix] = rules.longest
    ENDINGS[mix] = dict(rules.ends)


LONGEST: dict[str, int] = {}
ENDINGS: dict[str, dict[str, int]] = {}


def _record(seed: int, options: dict[str, object], length: int):
    rng = random.Random(seed)
    config = GameConfig(game="oneworld", scenario="standard", options=options, players=PLAYERS)
    dice = SeededDice(f"replay{seed}", 0)
    state = RULES.setup(config, dice)
    log = [(None, None, dice.rolls)]
    for n in range(1, length + 1):
        prompts = RULES.pending(state)
        if not prompts:
            break
        p = rng.choice(prompts)
        action = rng.choice(RULES.legal_actions(state, p.seat))
        d = SeededDice(f"replay{seed}", n)
        state, _ = RULES.apply(state, p.seat, action, d)
        log.append((p.seat, action, d.rolls))
    return config, log, state


@pytest.mark.parametrize("seed", range(6))
def test_3_0_replay_with_recorded_dice_gives_byte_identical_state(seed):
    options = list(MIXES.values())[seed % len(MIXES)]
    config, log, live = _record(seed, options, 220)
    _, _, setup_rolls = log[0]
    replay_dice = RecordedDice(setup_rolls)
    state = RULES.setup(config, replay_dice)
    assert replay_dice.unused == 0
    for seat, action, rolls in log[1:]:
        dice = RecordedDice(rolls)
        state, _ = RULES.apply(state, seat, action, dice)
        assert dice.unused == 0
    assert state.model_dump_json() == live.model_dump_json()
    assert type(state).model_validate_json(live.model_dump_json()).model_dump_json() == live.model_dump_json()
