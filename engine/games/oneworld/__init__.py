"""OneWorld: the War between the Gods, BORG against CHEZ (rules 1.0-13.3)."""

from engine.core.registry import register
from engine.games.oneworld.rules import OneWorld

RULES = register(OneWorld())

__all__ = ["RULES", "OneWorld"]
