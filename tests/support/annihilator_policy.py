"""The Annihilator player the script generator uses (tests/support/make_script.py): the bot opponent's own
playout policy, ``engine.games.annihilator.ai.policy`` (docs/ai.md says how it plays)."""

from __future__ import annotations

from engine.games.annihilator.ai import policy as choose

__all__ = ["choose"]
