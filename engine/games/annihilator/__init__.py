"""Annihilator: space marines against a planet-killing robot (Metagaming MicroGame 14, 1979)."""

from engine.core.registry import register
from engine.games.annihilator.rules import AnnihilatorRules

RULES = register(AnnihilatorRules())
