"""Sample game configurations for tests that run over every registered game."""

from __future__ import annotations

from engine.core import registry
from engine.core.dice import SeededDice
from engine.core.errors import RuleError
from engine.core.protocol import GameConfig, Player

# Games whose set-up needs options (stand-alone combats name their forces).
SAMPLE_OPTIONS: dict[str, dict[str, str]] = {
    "dice": {"attack": "8", "defence": "6"},
    "assault": {"attackers": "marine", "defenders": "bug,bug"},
}


def sample_options(name: str) -> dict[str, str]:
    """Options with which ``name`` sets up (empty for most games)."""
    return dict(SAMPLE_OPTIONS.get(name, {}))


def playable_games() -> list[str]:
    """Registered games that set up with their sample options."""
    out = []
    for name in registry.names():
        rules = registry.get(name)
        players = tuple(Player(seat=s, name=s) for s in rules.seats)
        cfg = GameConfig(game=name, scenario=rules.scenarios[0] if rules.scenarios else "",
                         options=sample_options(name), players=players)
        try:
            rules.setup(cfg, SeededDice("probe", 0))
        except RuleError:
            continue
        out.append(name)
    return out
