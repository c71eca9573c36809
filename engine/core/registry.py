"""The registry of games: names to rules objects."""

from __future__ import annotations

from engine.core.errors import BadArguments
from engine.core.protocol import GameRules

_GAMES: dict[str, GameRules] = {}


def register(rules: GameRules) -> GameRules:
    """Make a game available under ``rules.name``."""
    _GAMES[rules.name] = rules
    return rules


def get(name: str) -> GameRules:
    """The rules of a registered game; a readable error names the known ones."""
    _load_builtin()
    try:
        return _GAMES[name]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise BadArguments(f"there is no game called '{name}'; the games are: {known}") from None


def names() -> list[str]:
    """Every registered game's name."""
    _load_builtin()
    return sorted(_GAMES)


def _load_builtin() -> None:
    import engine.games  # noqa: F401  (registers the built-in games)
