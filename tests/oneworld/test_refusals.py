"""Every refused order gets a polite, specific message that cites the rule (3.0-12.0), and never a crash."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.dice import FixedDice, SeededDice
from engine.core.errors import IllegalAction, RuleError
from engine.core.protocol import Action, GameConfig
from engine.games.oneworld.verbs import SPECS
from tests.oneworld.positions import PLAYERS, RULES

HEXES = ["0101", "0606", "0702", "0111", "1321", "0710", "9999", "07", ""]
WORDS = [
    "N",
    "ne",
    "SE",
    "Stone",
    "fog",
    "Blade",
    "B1",
    "C13",
    "B14",
    "chaos",
    "lost",
    "2",
    "first",
    "north",
    "x",
]


def _random_action(rng: random.Random) -> Action:
    verb = rng.choice([v.verb for v in SPECS])
    names = [
        "setup",
        "end",
        "hex",
        "aspect",
        "child",
        "to",
        "dir",
        "confirm",
        "steps",
        "stone",
        "blade",
        "fog",
    ]
    args = {rng.choice(names): rng.choice(HEXES + WORDS) for _ in range(rng.randint(0, 3))}
    return Action(verb=verb, args=args)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.integers(0, 10**6),
    st.sampled_from(
        [
            {},
            {"god_powers": "on", "flee_while_you_can": True},
            {"friendly_obstacle": True, "chaos_gambit_1": True},
        ]
    ),
)
def test_12_0_refusals_are_specific_and_cite_the_rule(seed, options):
    rng = random.Random(seed)
    config = GameConfig(game="oneworld", options=options, players=PLAYERS)
    state = RULES.setup(config, SeededDice(str(seed), 0))
    for n in range(1, rng.randint(2, 140)):
        prompts = RULES.pending(state)
        if not prompts:
            break
        p = rng.choice(prompts)
        state, _ = RULES.apply(
            state, p.seat, rng.choice(RULES.legal_actions(state, p.seat)), SeededDice(str(seed), n)
        )
    for _ in range(25):
        seat = rng.choice(["BORG", "CHEZ"])
        action = _random_action(rng)
        legal = {a.key() for a in RULES.legal_actions(state, seat)}
        if action.key() in legal:
            continue
        try:
            RULES.apply(state, seat, action, FixedDice([6] * 10))
        except IllegalAction as exc:
            msg = str(exc)
            assert msg and len(msg) < 400 and "None" not in msg, msg
            assert "rule" in msg or "Write it as" in msg or "hex number" in msg or "not a hex" in msg, msg
        except RuleError as exc:
            assert str(exc)
        else:
            raise AssertionError(f"{action.text()} by {seat} was accepted but is not listed as legal")
