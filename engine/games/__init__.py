"""The built-in games. Importing this package registers each of them."""

import importlib

for _name in ("oneworld", "chitin", "annihilator", "resolve"):
    try:
        importlib.import_module(f"engine.games.{_name}")
    except ModuleNotFoundError as exc:  # a game not built yet
        if exc.name != f"engine.games.{_name}":
            raise
