"""The bot opponent: an information-set Monte Carlo tree search player over the game protocol.

The one entry point is ``choose(game, information, level, seed, deadline=None) -> Action``;
``observe`` builds the ``Information`` a seat is given from the record. See docs/ai.md.
"""

from engine.ai.info import Information, Known, LogEntry, Sealed, Seen, observe
from engine.ai.player import LEVELS, choose, decide, game_ai
from engine.ai.rng import Rng, seed_for

__all__ = ["LEVELS", "Information", "Known", "LogEntry", "Rng", "Sealed", "Seen", "choose", "decide",
           "game_ai", "observe", "seed_for"]
