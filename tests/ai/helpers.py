"""Positions for the bot opponent's tests: games played by the easy bot up to a chosen moment."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import pytest

from engine.ai.player import decide, game_ai
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


def rollouts_decide(monkeypatch: pytest.MonkeyPatch, module: ModuleType, move: Callable[[], Action],
                    firsts: list[Action], samples: int) -> None:
    """A game's ``posture_move`` (``move``, in ``module``) plays the next move of the posture whose
    rollouts do best: with ``module._rollout`` patched so that each posture in turn scores best
    (the calls go posture by posture), ``move()`` picks that posture's next move (``firsts``),
    after ``samples`` rollouts of each; when every rollout scores alike, the first posture's."""
    n = len(firsts)
    for best in range(n):
        calls: list[int] = []

        def rollout(*args: object, best: int = best, calls: list[int] = calls) -> float:
            calls.append(1)
            return 0.9 if (len(calls) - 1) % n == best else 0.3

        monkeypatch.setattr(module, "_rollout", rollout)
        assert move() is firsts[best]
        assert len(calls) == n * samples
    monkeypatch.setattr(module, "_rollout", lambda *args: 0.5)
    assert move() is firsts[0]  # ties keep the first posture


def levels_where_postures_differ(module: ModuleType, table: Table, seat: str, seed: str, firsts: list[Action]) -> None:
    """Where a game's postures (``module.POSTURES``) would each make another next move
    (``firsts``, the policy's first): ``normal`` plays the policy's move, ``hard`` (the game's
    ``HARD_AI``) one of the postures' moves, the same again from the same seed."""
    game = table.rules.name
    assert len({a.text() for a in firsts}) == len(firsts) == len(module.POSTURES)
    assert module.GAME_AI.at("hard") is module.HARD_AI
    assert module.GAME_AI.at("normal") is module.GAME_AI is module.GAME_AI.at("easy")
    normal, stats = decide(game, table.information(seat), "normal", seed)
    assert (normal, stats) == (firsts[0], {"why": "tactics"})
    hard, stats = decide(game, table.information(seat), "hard", seed)
    again, _ = decide(game, table.information(seat), "hard", seed)
    assert hard == again and hard in firsts and stats == {"why": "tactics"}


def deadline_ends_the_rollouts(monkeypatch: pytest.MonkeyPatch, module: ModuleType,
                               move: Callable[[Callable[[], bool] | None], Action], options: int,
                               first: Action, last: Action) -> None:
    """A game's tactics weighed by rollouts (``move(deadline)``: postures, plans; in ``module``)
    ask the caller's deadline before each round of rollouts, one rollout of each of its
    ``options``: once it is up, the rounds taken decide. With ``module._rollout`` patched so that
    the last option scores best, one or two rounds allowed play ``last`` (that option's next move)
    after as many rounds; with the deadline up at once no rollout is played and ``first`` (the
    tactics' own) is."""
    for rounds in (1, 2):
        calls: list[int] = []
        asked: list[int] = []

        def rollout(*args: object, calls: list[int] = calls) -> float:
            calls.append(1)
            return 0.9 if len(calls) % options == 0 else 0.3

        def deadline(asked: list[int] = asked, rounds: int = rounds) -> bool:
            asked.append(1)
            return len(asked) > rounds

        monkeypatch.setattr(module, "_rollout", rollout)
        assert move(deadline) == last
        assert (len(calls), len(asked)) == (rounds * options, rounds + 1)
    played: list[int] = []
    monkeypatch.setattr(module, "_rollout", lambda *args: played.append(1) or 0.5)
    assert move(lambda: True) == first
    assert not played
