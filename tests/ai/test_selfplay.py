"""Bot against bot, every game and scenario, to a natural end (issue 12: whole games; issue 15).

In CI each game and scenario is played once, easy against easy (the playout policies alone),
and a few games with the search player on a small budget; ``make soak`` plays many more
(tests/ai/test_soak.py). A game that reaches the action cap, or a prompt without a legal answer,
fails.
"""

from __future__ import annotations

import pytest

from engine.ai import player
from engine.ai.selfplay import Table, bot, play
from engine.core import registry
from engine.core.dice import RecordedDice
from tests.support.samples import playable_games, sample_options

CAP = 4000


def cases() -> list[tuple[str, str, dict[str, str]]]:
    out = []
    for name in playable_games():
        rules = registry.get(name)
        for scenario in rules.scenarios:
            out.append((name, scenario, sample_options(name)))
    out.append(("annihilator", "standard", {"hidden_charges": "on"}))
    out.append(("annihilator", "standard", {"close_combat": "assault"}))
    return out


@pytest.mark.parametrize(("game", "scenario", "options"), cases(),
                         ids=[f"{g}-{s}-{'-'.join(o.values())}" if o and g == "annihilator" else f"{g}-{s}"
                              for g, s, o in cases()])
def test_easy_against_easy_reaches_a_natural_end(game: str, scenario: str, options: dict[str, str]) -> None:
    table = Table(game, scenario, options, dice_seed=f"ci-{game}-{scenario}")
    seats = table.rules.seats
    result = play(table, {seats[0]: bot("easy", 1), seats[1]: bot("easy", 2)}, seed=1, max_actions=CAP)
    assert not result.capped, f"{game} {scenario}: no end after {CAP} actions"
    assert result.outcome is not None and result.outcome.reason
    assert table.rules.pending_now(table.state) == []


@pytest.mark.parametrize("game", ["oneworld", "toy"])
def test_the_search_player_plays_a_whole_game_and_its_record_replays_exactly(game: str, monkeypatch) -> None:
    monkeypatch.setitem(player.LEVELS, "normal", 3)
    logs = []
    for _ in range(2):
        table = Table(game, dice_seed="rec")
        seats = table.rules.seats
        result = play(table, {seats[0]: bot("normal", 7), seats[1]: bot("easy", 8)}, seed=3, max_actions=CAP)
        assert not result.capped and result.outcome is not None
        logs.append([e.model_dump_json() for e in table.log])
        # the record replays to the same end, roll for roll
        state = table.rules.setup(table.config, RecordedDice(table.setup_rolls))
        for e in table.log:
            dice = RecordedDice(list(e.rolls))
            state, _ = table.rules.replay_step(state, e.seat, e.action, dice)
            assert dice.unused == 0
        assert state.model_dump_json() == table.state.model_dump_json()
    assert logs[0] == logs[1], "the same seeds must give the same game"
