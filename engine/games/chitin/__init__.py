"""Chitin: I, The Harvest Wars (Metagaming MicroGame #2): registered as "chitin"."""

from engine.core.registry import register
from engine.games.chitin.rules import Chitin

RULES = register(Chitin())

__all__ = ["RULES", "Chitin"]
