"""Positions for the bot opponent's tests: games played by the easy bot up to a chosen moment."""

from __future__ import annotations

from collections.abc import Callable

from engine.ai.player import game_ai
from engine.ai.rng import Rng
from engine.ai.selfplay import Table, bot
from engine.core.protocol import Action


def drive(table: Table, until: Callable[[Table], bool], limit: int = 3000, seed: int = 1) -> Table:
    """Let the easy bot play both seats until ``until(table)`` holds (fails if it never does)."""
    easy = bot("easy", seed)
    for _ in range(limit):
        if until(table):
            return table
        prompts = table.rules.pending_now(table.state)
        assert prompts, "the game ended before the position was reached"
        seat = prompts[0].seat
        table.play(seat, easy(table, seat))
    raise AssertionError("the position was never reached")


def other_legal(table: Table, seat: str, than: Action) -> Action:
    """A legal action of ``seat`` other than ``than`` (same verb when possible)."""
    legal = table.rules.legal_now(table.state, seat)
    same = [a for a in legal if a.key() != than.key() and a.verb == than.verb]
    pool = same or [a for a in legal if a.key() != than.key()]
    assert pool, "no other legal action"
    return pool[len(pool) // 2]


def searched(table: Table) -> bool:
    """Whether the seat to play has a decision the search makes: an open prompt with a choice
    that the game does not play by its own tactics (``GameAI.direct``: Chitin's movement)."""
    prompts = table.rules.pending_now(table.state)
    if not prompts or prompts[0].secret:
        return False
    seat = prompts[0].seat
    legal = table.rules.legal_now(table.state, seat)
    return len(legal) > 1 and game_ai(table.rules).direct(table.rules, table.state, seat, legal, Rng("p")) is None
