"""Stand-alone combat resolvers for any game a server plays: ``/resolve dice`` and ``/resolve assault``."""

from engine.core.registry import register
from engine.games.resolve.assaultgame import AssaultGame
from engine.games.resolve.stepgame import StepDiceGame

register(StepDiceGame())
register(AssaultGame())
