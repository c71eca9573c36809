"""Same position and seed, same move; the seed (not the clock or a global generator) decides."""

from __future__ import annotations

import pytest

from engine.ai import choose, decide, player
from engine.ai.determinize import _PREFIX
from engine.ai.rng import Rng
from engine.ai.search import flat
from engine.ai.selfplay import Table
from engine.core.errors import BadArguments
from engine.games.oneworld.ai import HARD_AI
from tests.ai.helpers import drive, searched


@pytest.fixture(autouse=True)
def small_budget(monkeypatch):
    monkeypatch.setitem(player.LEVELS, "normal", 16)


def _moving(t: Table) -> bool:
    return searched(t) and len(t.rules.legal_now(t.state, t.rules.pending_now(t.state)[0].seat)) > 3 \
        and len(t.log) > 30


@pytest.mark.parametrize(("game", "scenario"), [("oneworld", "standard"), ("chitin", "learning"),
                                                ("annihilator", "standard")])
def test_same_position_and_seed_give_the_same_move(game: str, scenario: str) -> None:
    t = drive(Table(game, scenario, dice_seed="det"), _moving)
    seat = t.rules.pending_now(t.state)[0].seat
    info = t.information(seat)
    first, stats = decide(game, info, "normal", "s1")
    assert stats.get("iterations", 0) > 0, "the search ran"
    _PREFIX.clear()  # nothing remembered between calls changes the answer
    assert choose(game, info, "normal", "s1") == first
    assert choose(game, info.model_validate_json(info.model_dump_json()), "normal", "s1") == first
    assert first in t.rules.legal_now(t.state, seat)


def test_8_2_aspects_are_mixed_by_the_seed_not_a_fixed_habit() -> None:
    t = drive(Table("oneworld", dice_seed="det"),
              lambda t: getattr(t.state, "step", "") == "combat" and len(t.rules.pending_now(t.state)) == 2)
    info = t.information("BORG")
    picks = {choose("oneworld", info, "normal", seed).key() for seed in range(12)}
    assert len(picks) > 1
    assert {choose("oneworld", info, "normal", 5).key() for _ in range(3)} == {choose("oneworld", info, "normal", 5).key()}


def test_an_unknown_level_or_no_decision_is_refused_politely() -> None:
    t = Table("chitin", "learning", dice_seed="det")
    seat = t.rules.pending_now(t.state)[0].seat
    other = next(s for s in t.rules.seats if s != seat)
    with pytest.raises(BadArguments, match="levels are: easy, normal, hard"):
        choose("chitin", t.information(seat), "expert", 1)
    with pytest.raises(BadArguments, match="nothing to decide"):
        choose("chitin", t.information(other), "easy", 1)
    with pytest.raises(BadArguments, match="not oneworld"):
        choose("oneworld", t.information(seat), "easy", 1)


def test_the_callers_deadline_stops_the_search_with_a_legal_move() -> None:
    t = drive(Table("oneworld", dice_seed="det"), _moving)
    seat = t.rules.pending_now(t.state)[0].seat
    legal = t.rules.legal_now(t.state, seat)
    # the tree (normal) checks the deadline every iteration; the rollout player (OneWorld's hard
    # outside its movement) every sample, each sample one rollout of each of its candidates
    players = (("normal", 1, lambda d: decide("oneworld", t.information(seat), "normal", "s1", d)),
               ("hard", HARD_AI.candidates,
                lambda d: flat(t.rules, HARD_AI, t.information(seat), legal, 180, Rng("s1"), d)))
    for level, per_check, play in players:
        calls: list[int] = []

        def deadline(calls: list[int] = calls) -> bool:
            calls.append(1)
            return len(calls) > 3

        action, stats = play(deadline)
        assert stats["iterations"] == 3 * per_check, level
        assert action in legal
        action, stats = play(lambda: True)
        assert stats["iterations"] == 0 and action in legal
    # hard's own movement (whole plans) asks it too (tests/ai/test_oneworld_ai.py): a legal move
    action, _ = decide("oneworld", t.information(seat), "hard", "s1", lambda: True)
    assert action in legal
