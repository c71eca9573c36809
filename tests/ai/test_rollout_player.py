"""The rollout player (`engine.ai.search.flat`; docs/ai.md, "The rollout player"): each candidate
action followed by the playout policy until the opponent has answered, the candidates of one sample
compared on the same dice, the policy's own action kept unless another does better."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import cast
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from bot.opponent import reason_of
from engine.ai import search
from engine.ai.base import GameAI
from engine.ai.player import decide
from engine.ai.rng import Rng
from engine.ai.search import flat
from engine.ai.selfplay import Table, bot
from engine.core.hexes import distance, parse_ccrr
from engine.core.protocol import Action, GameRules
from engine.games.annihilator import ai as annihilator_ai
from engine.games.annihilator import data
from engine.games.annihilator.ai import (
    APART,
    BLOCK,
    RING,
    _in_the_way,
    _spot_field,
    bot_policy,
    policy,
    ring_deployment,
)
from engine.games.annihilator.ai import GAME_AI as ANNIHILATOR_AI
from engine.games.annihilator.flow import TURN_ORDER
from engine.games.annihilator.state import State as AnnihilatorState
from engine.games.chitin.ai import GAME_AI as CHITIN_AI
from engine.games.chitin.state import State as ChitinState
from tests.ai.helpers import deadline_ends_the_rollouts, drive, levels_where_postures_differ, rollouts_decide
from tests.support.toygame import ToyState


class _Guessers(GameAI):
    """The toy game (tests/support/toygame.py) with A always guessing odd and B even, so each round
    one of them scores and the die alone decides which; a rollout stops once the round is scored."""

    candidates = 3

    def playout(self, rules: GameRules, state: BaseModel, seat: str, legal: list[Action], rng: Rng) -> Action:
        want = "odd" if seat == "A" else "even"
        return next((a for a in legal if a.args.get("parity") == want), legal[0])

    def order(self, rules: GameRules, state: BaseModel, seat: str, legal: list[Action], rng: Rng) -> list[Action]:
        return list(legal)

    def horizon(self, rules: GameRules, start: BaseModel, state: BaseModel, seat: str) -> bool:
        return cast(ToyState, state).round > cast(ToyState, start).round and cast(ToyState, state).step == "take"

    def evaluate(self, rules: GameRules, state: BaseModel, seat: str) -> float:
        s = cast(ToyState, state)
        return 0.5 + 0.1 * (s.score[seat] - s.score["B" if seat == "A" else "A"])


def _taking(t: Table) -> bool:
    return cast(ToyState, t.state).step == "take" and cast(ToyState, t.state).pile >= 6


def test_the_rollout_player_compares_its_candidates_on_the_same_dice_and_keeps_the_first_when_they_tie() -> None:
    # how many stones are taken changes nothing before the next round is scored, and that round is
    # the die's alone: on common random numbers every candidate scores the same in every sample, so
    # their means are equal and the first candidate (the policy's) is kept; on fresh dice for each
    # candidate the means would differ and the best-looking one would be taken by chance
    t = drive(Table("toy", "standard", {"pile": "9"}, dice_seed="flat"), _taking)
    seat = cast(ToyState, t.state).taker
    legal = t.rules.legal_now(t.state, seat)
    for seed in range(6):
        best, stats = flat(t.rules, _Guessers(), t.information(seat), legal, 30, Rng(f"flat-{seed}"))
        children = cast(dict[str, tuple[int, float]], stats["children"])
        means = {v for _, v in children.values()}
        assert len(children) == 3 and stats["iterations"] == 30
        assert len(means) == 1, children
        assert best.key() == legal[0].key()


def test_5_00_a_chitin_rollout_runs_until_the_seat_s_next_player_turn_begins_after_the_opponent_s_whole_turn() -> None:
    t = drive(Table("chitin", "learning", dice_seed="horizon"), lambda t: cast(ChitinState, t.state).step == "move")
    start = cast(ChitinState, t.state)
    seat = start.active
    rules = t.rules
    seen_other = False
    for _ in range(400):
        s = cast(ChitinState, t.state)
        if CHITIN_AI.horizon(rules, start, s, seat):
            break
        seen_other = seen_other or (s.active != seat and s.step in ("move", "attack"))
        prompts = rules.pending_now(s)
        t.play(prompts[0].seat, CHITIN_AI.playout(rules, s, prompts[0].seat, rules.legal_now(s, prompts[0].seat),
                                                   Rng("h")))
    s = cast(ChitinState, t.state)
    # 5.00's sequence of play: the rest of the seat's player-turn, then the opponent's movement and
    # attacks (its answer), and the rollout stops as the seat's next movement phase begins
    assert seen_other
    assert s.active == seat and s.step == "move" and s.turn > start.turn
    assert not CHITIN_AI.horizon(rules, start, start, seat)


def test_3_0_an_annihilator_rollout_runs_one_game_turn_through_the_other_side_s_movement_and_combat() -> None:
    t = drive(Table("annihilator", "standard", dice_seed="horizon"),
              lambda t: cast(AnnihilatorState, t.state).step == "h_move" and cast(AnnihilatorState, t.state).turn >= 1)
    start = cast(AnnihilatorState, t.state)
    rules = t.rules
    steps: list[str] = []
    for _ in range(400):
        s = cast(AnnihilatorState, t.state)
        if ANNIHILATOR_AI.horizon(rules, start, s, "Marines") or s.step == "over":
            break
        steps.append(s.step)
        prompts = rules.pending_now(s)
        t.play(prompts[0].seat, ANNIHILATOR_AI.playout(rules, s, prompts[0].seat,
                                                        rules.legal_now(s, prompts[0].seat), Rng("h")))
    s = cast(AnnihilatorState, t.state)
    # 3.0's turn sequence: the Marines' own steps, then the Annihilator's movement and close
    # combat (its answer); the rollout stops at the next turn's first decision from the human
    # movement on (a step with nothing to decide is passed over)
    assert "a_move" in steps and "a_combat" in steps
    assert s.step == "over" or (s.turn == start.turn + 1 and s.step in TURN_ORDER)
    assert not ANNIHILATOR_AI.horizon(rules, start, start, "Marines")


def test_a_hint_from_the_rollout_player_says_what_it_compared() -> None:
    t = drive(Table("toy", "standard", {"pile": "9"}, dice_seed="flat"), _taking)
    seat = cast(ToyState, t.state).taker
    best, stats = flat(t.rules, _Guessers(), t.information(seat), t.rules.legal_now(t.state, seat), 30, Rng("hint"))
    reason = reason_of(best, stats)
    assert reason.startswith("it did best of 3 orders, each played on over the same 10 sampled continuations")
    assert reason.endswith("%)")


class _Reckless(_Guessers):
    """An ordering that offers an order the rules do not allow (more stones than 3) first."""

    def order(self, rules: GameRules, state: BaseModel, seat: str, legal: list[Action], rng: Rng) -> list[Action]:
        return [Action(verb="take", args={"n": "9"}), *legal]


def test_the_rollout_player_weighs_only_actions_the_seat_may_take_now() -> None:
    t = drive(Table("toy", "standard", {"pile": "9"}, dice_seed="flat"), _taking)
    seat = cast(ToyState, t.state).taker
    legal = t.rules.legal_now(t.state, seat)
    best, stats = flat(t.rules, _Reckless(), t.information(seat), legal, 30, Rng("legal"))
    children = cast(dict[str, tuple[int, float]], stats["children"])
    assert sorted(children) == sorted(a.text() for a in legal)
    assert best in legal


def test_5_1_while_the_policy_still_moves_a_unit_the_annihilator_rollout_player_weighs_moves_not_done() -> None:
    # /done ends the movement of every unit not yet moved (5.1); weighed against one unit's moves
    # over a one-turn rollout it won for standing still, and Marines who stood still drew against
    # the random player (docs/ai-measurements.md, "The rollout player and /done"): it comes last in the ordering
    moving = 0
    t = Table("annihilator", "standard", dice_seed="stand-still")
    for _ in range(3):
        t = drive(t, lambda t: cast(AnnihilatorState, t.state).step in ("h_move", "a_move")
                  and cast(AnnihilatorState, t.state).turn >= 1)
        s = cast(AnnihilatorState, t.state)
        seat = "Marines" if s.step == "h_move" else "Annihilator"
        legal = t.rules.legal_now(s, seat)
        ordered = ANNIHILATOR_AI.order(t.rules, s, seat, legal, Rng("order"))
        if ordered[0].verb == "move":
            moving += 1
            assert ordered[-1].verb == "done" and [a.verb for a in ordered].count("done") == 1
            _, stats = flat(t.rules, ANNIHILATOR_AI, t.information(seat), legal, 8, Rng("stand"))
            children = cast(dict[str, tuple[int, float]], stats["children"])
            assert len(children) == ANNIHILATOR_AI.candidates and "/done" not in children, children
        t.play(seat, ordered[0])
    assert moving >= 2


def _bot_decisions(t: Table, steps: tuple[str, ...]) -> dict[str, tuple[str, Action, dict[str, object], Action]]:
    """For each step in turn: the seat, the bot's action at ``normal`` with its statistics, and its policy's."""
    out: dict[str, tuple[str, Action, dict[str, object], Action]] = {}
    for step in steps:
        def there(t: Table, step: str = step) -> bool:
            return cast(AnnihilatorState, t.state).step == step and \
                len(t.rules.legal_now(t.state, t.rules.pending_now(t.state)[0].seat)) > 1

        t = drive(t, there)
        s = cast(AnnihilatorState, t.state)
        seat = t.rules.pending_now(s)[0].seat
        action, stats = decide("annihilator", t.information(seat), "normal", f"direct:{step}")
        out[step] = (seat, action, stats, bot_policy(s, seat, t.rules.legal_now(s, seat)))
        t.play(seat, action)
    return out


def test_5_0_7_1_7_2_the_annihilator_s_movement_and_both_sides_close_combat_are_the_policy_s() -> None:
    # Against the greedy Marines the policy alone won more games as the Annihilator than the
    # rollout player, and the search's choices in close combat cost the most (docs/ai-measurements.md, "The
    # Annihilator: the policy where the search lost"): there the bot plays the policy's action
    found = _bot_decisions(Table("annihilator", "standard", dice_seed="robots-direct"),
                           ("a_move", "a_combat", "h_move", "h_combat"))
    for step, (seat, action, stats, pick) in found.items():
        if step == "h_move":  # the Marines' movement is still searched
            assert seat == "Marines" and stats.get("kind") == "rollouts", stats
        else:
            assert seat == ("Marines" if step == "h_combat" else "Annihilator")
            assert stats == {"why": "tactics"}, (step, stats)
            assert action == pick, step


def _robots_to_move(actions: int) -> Table:
    """A game of the bot's policy for both sides (dice seed postures-2) after ``actions`` actions;
    after 18 the Annihilator is moving (5.0) in game turn 1 and the three postures of ``hard``
    would each move another unit, after 22 they would all move the same."""
    t = Table("annihilator", "standard", dice_seed="postures-2")
    for _ in range(actions):
        seat = t.rules.pending_now(t.state)[0].seat
        t.play(seat, bot_policy(cast(AnnihilatorState, t.state), seat, t.rules.legal_now(t.state, seat)))
    return t


def test_5_0_7_1_hard_moves_the_annihilator_by_the_posture_whose_rollouts_do_best_and_normal_by_the_policy(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # hard's Annihilator movement (5.0) is chosen among POSTURES, the odds its Security Robots gang
    # up for (7.1): where their next moves differ, each plays the rest of the movement and the
    # playout policy plays on through the Marines' turn; the posture with the best rollouts is
    # played. normal moves by the policy (the first posture)
    t = _robots_to_move(18)
    s = cast(AnnihilatorState, t.state)
    assert (s.step, s.turn) == ("a_move", 1)
    legal = t.rules.legal_now(s, "Annihilator")
    firsts = [annihilator_ai._posture(s, legal, odds) for odds in annihilator_ai.POSTURES]
    assert firsts[0] is bot_policy(s, "Annihilator", legal)
    levels_where_postures_differ(annihilator_ai, t, "Annihilator", "t:18", firsts)

    # the rollouts decide; ties keep the bot's own posture
    rollouts_decide(monkeypatch, annihilator_ai,
                    lambda: annihilator_ai.posture_move(annihilator_ai.HARD_AI, t.rules, s, "Annihilator", legal, Rng("p")),
                    firsts, annihilator_ai.POSTURE_SAMPLES)
    # the caller's deadline (the worker's cap) ends the rounds of rollouts; none taken: the bot's own
    deadline_ends_the_rollouts(
        monkeypatch, annihilator_ai,
        lambda d: annihilator_ai.HARD_AI.direct(t.rules, s, "Annihilator", legal, Rng("p"), d),  # type: ignore[return-value]
        len(annihilator_ai.POSTURES), firsts[0], firsts[-1])


def test_5_0_hard_moves_the_annihilator_without_rollouts_where_the_postures_agree(
        monkeypatch: pytest.MonkeyPatch) -> None:
    t = _robots_to_move(22)
    s = cast(AnnihilatorState, t.state)
    assert s.step == "a_move"
    legal = t.rules.legal_now(s, "Annihilator")
    first = bot_policy(s, "Annihilator", legal)
    assert all(annihilator_ai._posture(s, legal, odds) is first for odds in annihilator_ai.POSTURES)

    def rollout(*args: object) -> float:
        raise AssertionError("no rollouts where the postures agree")

    monkeypatch.setattr(annihilator_ai, "_rollout", rollout)
    assert annihilator_ai.HARD_AI.direct(t.rules, s, "Annihilator", legal, Rng("x")) is first
    # the Marines' movement stays the rollout player's at hard, as at normal
    t = drive(t, lambda t: cast(AnnihilatorState, t.state).step == "h_move")
    monkeypatch.undo()
    legal = t.rules.legal_now(t.state, "Marines")
    assert annihilator_ai.HARD_AI.direct(t.rules, t.state, "Marines", legal, Rng("x")) is None


def test_4_1_the_bot_sets_up_its_security_robots_evenly_round_the_brain_cores() -> None:
    ring = ring_deployment()
    cores = [parse_ccrr(c) for c in data.core_hexes()]
    assert len(ring) == 10 and len(set(ring.values())) == 10
    assert all(min(distance(parse_ccrr(h), c) for c in cores) == RING for h in ring.values())
    # evenly spaced: no two robots next to each other
    spots = [parse_ccrr(h) for h in ring.values()]
    assert min(distance(a, b) for i, a in enumerate(spots) for b in spots[i + 1:]) >= 2
    t = Table("annihilator", "standard", dice_seed="ring")
    found = _bot_decisions(t, ("deploy",))
    seat, action, stats, pick = found["deploy"]
    assert seat == "Annihilator" and stats == {"why": "tactics"}
    assert action.verb == "place" and action.args["at"] == ring[str(action.args["unit"])]
    assert pick.verb == "autodeploy"  # the policy, and greedy, keep the default deployment
    t = Table("annihilator", "standard", dice_seed="ring")
    normal = bot("normal", 3)
    for _ in range(30):
        if cast(AnnihilatorState, t.state).step != "deploy":
            break
        t.play("Annihilator", normal(t, "Annihilator"))
    s = cast(AnnihilatorState, t.state)
    assert s.step != "deploy"  # set up and ready within 30 actions
    default = data.deployment().units
    assert {u.id: u.hex for u in s.side_units("Annihilator")} == {**default, **ring}


def test_7_1_with_the_close_assault_system_an_attacker_may_fall_and_the_search_decides_close_combat() -> None:
    found = _bot_decisions(Table("annihilator", "standard", {"close_combat": "assault"}, dice_seed="robots-direct"),
                           ("a_move", "a_combat"))
    assert found["a_move"][2] == {"why": "tactics"}
    assert found["a_combat"][2].get("kind") == "rollouts", found["a_combat"][2]


def _step_by(t: Table, seat: str, pick: Callable[[AnnihilatorState, str, list[Action]], Action]) -> AnnihilatorState:
    """A copy of ``t`` (same dice) played on by ``pick`` for ``seat`` until the current step ends; ``t`` stays."""
    u = Table("annihilator", "standard", dice_seed=t.dice_seed)
    u.states, u.log = list(t.states), list(t.log)
    step = cast(AnnihilatorState, u.state).step
    while cast(AnnihilatorState, u.state).step == step:
        u.play(seat, pick(cast(AnnihilatorState, u.state), seat, u.rules.legal_now(u.state, seat)))
    return cast(AnnihilatorState, u.state)


def test_7_1_7_2_the_bot_s_marines_keep_apart_where_the_greedy_marines_march_in_stacks() -> None:
    # A Mind Weapon strike (7.2) and a robots' attack (7.1) fall on every Marine of the hex: the
    # bot's Marines end their moves apart (docs/ai-measurements.md, "The Marines apart"); the greedy player of
    # tests/support keeps the policy without it and marches in the three stacks it landed in (4.2)
    t = drive(Table("annihilator", "standard", dice_seed="apart"),
              lambda t: cast(AnnihilatorState, t.state).step == "h_move" and cast(AnnihilatorState, t.state).turn >= 1)
    s = cast(AnnihilatorState, t.state)
    assert sorted(Counter(u.hex for u in s.side_units("Marines")).values()) == [3, 3, 3]
    legal = t.rules.legal_now(s, "Marines")
    assert ANNIHILATOR_AI.order(t.rules, s, "Marines", legal, Rng("apart"))[0] == bot_policy(s, "Marines", legal)
    stacks = {}
    for name, pick in (("greedy", policy), ("bot", bot_policy)):
        after = _step_by(t, "Marines", pick)
        stacks[name] = sorted(Counter(m.hex for m in after.side_units("Marines")).values())
    assert stacks == {"greedy": [3, 3, 3], "bot": [1] * 9}


def test_7_1_the_bot_s_security_robots_gang_up_where_the_greedy_robots_come_one_at_a_time() -> None:
    # A robot alone attacks a lone Assault Squad at 1-2 (3 against 4) and falls to its answer at 2-1;
    # a D or X falls on every unit of the hex (7.1). The bot's robots first gang up, as many as reach
    # a Marine for 2-1 or better, or for 1-2 or better near a firing spot (docs/ai-measurements.md, "Robots that
    # gang up"); the greedy player's robots come one by one to the nearest Marines
    t = Table("annihilator", "standard", dice_seed="together")
    while cast(AnnihilatorState, t.state).step != "a_move":
        seat = t.rules.pending_now(t.state)[0].seat
        t.play(seat, policy(cast(AnnihilatorState, t.state), seat, t.rules.legal_now(t.state, seat),
                            apart=APART if seat == "Marines" else 0.0))
    s = cast(AnnihilatorState, t.state)
    assert max(Counter(u.hex for u in s.side_units("Marines")).values()) == 1  # Marines that keep apart
    odds: dict[str, list[float]] = {}
    for name, pick in (("greedy", policy), ("bot", bot_policy)):
        after = _step_by(t, "Annihilator", pick)
        fights = {m.hex for m in after.side_units("Marines")} & {r.hex for r in after.side_units("Annihilator")}
        odds[name] = sorted(sum(r.utype.attack for r in after.at(h) if not r.human)
                            / sum(m.utype.defence for m in after.at(h) if m.human) for h in fights)
    # greedy: five fights, one of them a robot alone against an Assault Squad (1-2), none at 2-1
    assert len(odds["greedy"]) >= 4 and min(odds["greedy"]) < 1 and max(odds["greedy"]) < 2, odds
    # the bot: no robot alone against an Assault Squad, and a fight at 2-1
    assert min(odds["bot"]) >= 1 and max(odds["bot"]) >= 2, odds


def test_5_4_the_bot_s_repairbots_step_into_the_way_of_marines_with_a_charge() -> None:
    # A unit entering a hex with an enemy unit ends its move there (5.4), so a Repairbot, with no
    # attack (2.2.1), still stops the Marines who walk into it: the bot's Repairbots not on a marker
    # go to the next hex of the Marines with a charge within BLOCK of a firing spot (docs/ai-measurements.md,
    # "Repairbots in the way"); the greedy player's Repairbots keep away from the Marines
    t = Table("annihilator", "standard", dice_seed="block")
    while cast(AnnihilatorState, t.state).step != "a_move":
        seat = t.rules.pending_now(t.state)[0].seat
        t.play(seat, policy(cast(AnnihilatorState, t.state), seat, t.rules.legal_now(t.state, seat)))
    s = cast(AnnihilatorState, t.state)
    spot = _spot_field(s)
    marines = {u.hex for u in s.side_units("Marines") if u.charges}
    assert any(0 < spot[h] <= BLOCK for h in marines)

    def in_the_way(after: AnnihilatorState) -> list[str]:
        """The Repairbots' hexes next to Marines with a charge and nearer a firing spot than they are."""
        return sorted(b.hex for b in after.side_units("Annihilator") if b.kind == "repair"
                      and any(distance(parse_ccrr(b.hex), parse_ccrr(h)) == 1 and spot[b.hex] < spot[h]
                              for h in marines))

    assert in_the_way(s) == []
    assert in_the_way(_step_by(t, "Annihilator", policy)) == []
    blocking = in_the_way(_step_by(t, "Annihilator", bot_policy))
    assert len(blocking) >= 2, blocking

    def leaves_the_way(s: AnnihilatorState, seat: str, legal: list[Action]) -> Action:
        a = bot_policy(s, seat, legal)
        u = s.unit(str(a.args["unit"])) if a.verb == "move" else None
        assert u is None or u.kind != "repair" or u.hex not in _in_the_way(s), f"{u.id} leaves {u.hex}"
        return a

    _step_by(t, "Annihilator", leaves_the_way)  # once in the way, a Repairbot stays there


class _Blind(_Guessers):
    """``_Guessers`` whose evaluation knows nothing before the end and whose rollouts stop at
    once: only whole games (``flat`` with ``whole``) can tell the takes apart."""

    candidates = 1

    def horizon(self, rules: GameRules, start: BaseModel, state: BaseModel, seat: str) -> bool:
        return True

    def evaluate(self, rules: GameRules, state: BaseModel, seat: str) -> float:
        return 0.5


def _leading_taker(t: Table) -> bool:
    s = cast(ToyState, t.state)
    return s.step == "take" and s.score[s.taker] > s.score["B" if s.taker == "A" else "A"]


def test_whole_games_weigh_every_legal_action_to_the_game_s_end() -> None:
    # the taker leads with two or three stones left: taking them all ends the game (T.2) and wins it;
    # a smaller take leaves rounds whose die may turn the score. Rollouts to a horizon valued by an
    # evaluation that knows nothing see no difference and keep the ordering's first (take 1);
    # whole games find the win
    t = next(x for x in (drive(Table("toy", "standard", {"pile": "6"}, dice_seed=f"whole-{i}"),
                               lambda t: cast(ToyState, t.state).step == "take" and cast(ToyState, t.state).pile <= 3)
                         for i in range(60))
             if _leading_taker(x))
    seat, pile = cast(ToyState, t.state).taker, cast(ToyState, t.state).pile
    legal = t.rules.legal_now(t.state, seat)
    assert pile in (2, 3) and len(legal) == pile
    near, _ = flat(t.rules, _Blind(), t.information(seat), legal, 12, Rng("near"))
    assert near.args["n"] == "1"
    best, stats = flat(t.rules, _Blind(), t.information(seat), legal, 6 * pile, Rng("whole"), whole=True)
    children = cast(dict[str, tuple[int, float]], stats["children"])
    assert stats["kind"] == "whole games" and stats["iterations"] == sum(n for n, _ in children.values())
    assert set(children) == {a.text() for a in legal} and children[f"/take n:{pile}"][1] == 1.0
    assert all(1 <= n <= 6 for n, _ in children.values())
    assert best.args["n"] == str(pile) and children["/take n:1"][1] < 1.0
    assert "won" in reason_of(best, stats)


def _toy_at_three() -> Table:
    return drive(Table("toy", "standard", {"pile": "6"}, dice_seed="whole-drop"),
                 lambda t: cast(ToyState, t.state).step == "take" and cast(ToyState, t.state).pile == 3)


_TOY_AT_THREE: list[Table] = []


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 12), st.data())
def test_whole_games_drop_a_candidate_only_once_it_can_no_longer_come_out_best(samples: int, data: st.DataObject) -> None:
    # any values in [0, 1] a game might end with (wins, losses, draws, evaluations at the cap):
    # the choice is the one the full count of every candidate on every sample would make, with
    # ties keeping the earlier; a candidate is played on the same samples as the others until it
    # is dropped, and the games it was spared are games not played
    if not _TOY_AT_THREE:
        _TOY_AT_THREE.append(_toy_at_three())
    t = _TOY_AT_THREE[0]
    seat, pile = cast(ToyState, t.state).taker, cast(ToyState, t.state).pile
    legal = t.rules.legal_now(t.state, seat)
    value = st.sampled_from([0.0, 1.0, 0.5]) | st.floats(0.0, 1.0)
    table = data.draw(st.lists(st.lists(value, min_size=len(legal), max_size=len(legal)),
                               min_size=samples, max_size=samples))
    order = [a.text() for a in legal]
    played: list[list[int]] = [[] for _ in legal]

    def game(rules: GameRules, ai: GameAI, state: BaseModel, seat: str, rng: Rng, *rest: object) -> float:
        j = order.index(f"/take n:{pile - cast(ToyState, state).pile}")
        m = int(rng._seed.split("/")[1])  # the sample: flat's generator for it is Rng("drop").fork(m)
        played[j].append(m)
        return table[m][j]

    with mock.patch.object(search, "_rollout", game):
        best, stats = flat(t.rules, _Blind(), t.information(seat), legal, samples * len(legal), Rng("drop"),
                           whole=True)
    full = [sum(row[j] for row in table) / samples for j in range(len(legal))]
    assert order.index(best.text()) == max(range(len(legal)), key=lambda j: (full[j], -j))
    assert all(p == list(range(len(p))) for p in played)  # the first samples, in order, none skipped
    children = cast(dict[str, tuple[int, float]], stats["children"])
    assert [children[a][0] for a in order] == [len(p) for p in played]
    for j, p in enumerate(played):
        if len(p) < samples and j != order.index(best.text()):  # dropped: behind another, even had it won
            # every game still to come (the one chosen stops when it is the last one left)
            n = len(p)
            assert any(sum(row[j] for row in table[:n]) + samples - n
                       < sum(row[k] for row in table[:n]) for k in range(len(legal)) if k != j)
