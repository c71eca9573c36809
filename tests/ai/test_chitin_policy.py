"""The Chitin policy of engine/games/chitin/ai.py (the ``easy`` level, the playouts, and the
greedy opponent of the series): what it remembers between decisions and how it plays."""

from __future__ import annotations

from pathlib import Path
from typing import cast

import pytest

from bot.opponent import hint_job, reason_of, worth
from engine.ai.player import decide
from engine.ai.rng import Rng
from engine.ai.selfplay import Table
from engine.core.dice import FixedDice
from engine.core.hexes import distance
from engine.core.protocol import Action
from engine.games.chitin import ai as chitin_ai
from engine.games.chitin.board import DIRS, Index, geo, in_front
from engine.games.chitin.combat import attack_choices, battle_odds, battles, stack_parts, unmet
from engine.games.chitin.state import Pair, State
from tests.ai.helpers import deadline_ends_the_rollouts, levels_where_postures_differ, rollouts_decide
from tests.chitin.positions import RULES, act, begin, nb, position, put


def _attack_position(seed: str, actions: int) -> tuple[Table, str]:
    """The policy's own game ``seed`` after ``actions`` actions, at the start of an attack phase."""
    t = Table("chitin", "learning", {}, dice_seed=seed)
    for _ in range(actions):
        seat = t.rules.pending_now(t.state)[0].seat
        t.play(seat, chitin_ai.policy(t.state, seat, t.rules.legal_now(t.state, seat)))  # type: ignore[arg-type]
    s = t.state
    assert isinstance(s, State) and s.step == "attack" and not s.plan
    return t, t.rules.pending_now(s)[0].seat


def test_7_064_a_disrupted_defender_changes_the_attack_plan_even_where_a_plan_is_remembered() -> None:
    """The attack plan is remembered for the phase by where the counters stand; a disrupted
    defender (7.064c) stands in the same hex at half strength, so it must not be given the plan
    worked out for the undisrupted one."""
    t, seat = _attack_position("cache-0", 155)
    s = t.state
    assert isinstance(s, State)
    other = s.model_copy(deep=True)
    other.counters["R1"].disrupted = not other.counters["R1"].disrupted
    chitin_ai._PLANS.clear()
    fresh = chitin_ai.policy(other, seat, t.rules.legal_now(other, seat))
    chitin_ai._PLANS.clear()
    chitin_ai.policy(s, seat, t.rules.legal_now(s, seat))
    after = chitin_ai.policy(other, seat, t.rules.legal_now(other, seat))
    assert after == fresh


# -- the patient player (engine/games/chitin/ai.py, ``tactics``) --------------------------------


def _red_to_move(first: str = "Blue") -> State:
    """An empty Learning board, Red (north end) to move, ``first`` having moved first (3.02)."""
    s = position(active="Red")
    s.first = first
    return s


def test_7_041_7_042_attack_strength_is_what_the_rules_count_from_that_hex() -> None:
    """``attack_strength`` (a stack's part in an attack from a hex it may only be moving to) gives
    what the rules' own odds count once it stands there: its strength, +1 a unit from the rear
    (7.041), +1 a warrior unit of the class it is best against (7.042)."""
    s = _red_to_move()
    put(s, "B1", "TR3", "0811", face="N")  # Hackers, facing north
    rear, front = nb("0811", "S"), nb("0811", "N")
    put(s, "R1", "GT3", rear)  # Smashers, best against Hackers, behind them
    put(s, "R2", "PX3", front)  # Thrusters, in front of them
    idx = Index(s)
    g = geo()
    for hx, want in ((rear, 12 + 3 + 3), (front, 9)):
        base, add_rear, add_class, _ = stack_parts(s, idx, "Red", hx, ["0811"])
        got = chitin_ai.attack_strength(idx, "Red", idx.stack(g.hex_of[hx], "Red"), g.hex_of[hx], g.hex_of["0811"])
        assert got == base + add_rear + add_class == want


def test_7_03_warriors_go_at_a_stack_together_only_when_together_they_reach_the_odds() -> None:
    """Gantua 12 and Phlanx 9 within reach of a Low Render 6-3: together 21 against 6, above
    ``GANG`` times its defence, so both are sent next to it (7.03: both may attack it); against a
    Gantua 12-6 (Thrusters +3 against Smashers, 7.042: 24 against 12) they are not."""
    for target, sent in (("LR3", True), ("GT3", False)):
        s = _red_to_move()
        put(s, "B1", target, "0811", face="N")
        put(s, "R1", "GT3", "0808", face="S")
        put(s, "R2", "PX3", "0909", face="S")
        s = begin(s)
        idx = Index(s)
        plan = chitin_ai.gang_up(s, "Red", RULES.legal_actions(s, "Red"), idx)
        if sent:
            assert set(plan) == {"R1", "R2"}
            assert all(distance(geo().hex_of[to], geo().hex_of["0811"]) == 1 for to in plan.values())
            assert len(set(plan.values())) == 2
        else:
            assert plan == {}


def test_7_02_the_second_mover_does_not_step_in_front_of_a_stack_it_would_attack_at_poor_odds() -> None:
    """A lone Low Render 6-3 near a Gantua 12-6: the policy closes on it (and must then attack it,
    7.02, at 1 to 2); the patient player, which moved second (3.02), keeps out of contact. Having
    moved first it plays the policy's move."""
    def start(first: str) -> State:
        s = _red_to_move(first)
        put(s, "B1", "GT3", "0811", face="N")
        put(s, "R1", "LR3", "0807", face="S")
        return begin(s)

    s = start("Blue")
    legal = RULES.legal_actions(s, "Red")
    rushed = chitin_ai.policy(s, "Red", legal)
    waited = chitin_ai.tactics(s, "Red", legal)
    target = geo().hex_of["0811"]
    assert rushed.verb == "move" and distance(geo().hex_of[str(rushed.args["to"])], target) == 1
    assert waited.verb != "move" or distance(geo().hex_of[str(waited.args["to"])], target) > 1
    s = start("Red")
    legal = RULES.legal_actions(s, "Red")
    assert chitin_ai.tactics(s, "Red", legal) == chitin_ai.policy(s, "Red", legal)


def test_7_02_a_patient_stack_faces_the_enemy_it_can_beat_and_turns_its_back_on_the_other() -> None:
    """A Gantua 12-6 moves in between a Low Render 6-3 and a Gantua 12-6. Everything in front of it
    must be attacked (7.02): the policy faces both, the patient player only the Low Render, at 2 to 1."""
    s = _red_to_move()
    h = "0808"
    put(s, "R1", "GT3", nb(h, "N"), face="S")
    put(s, "B1", "LR3", nb(h, "SE"), face="N")
    put(s, "B2", "GT3", nb(h, "SW"), face="N")
    s, _ = act(begin(s), "Red", "move", stack="R1", to=h)
    assert s.step == "face" and s.face_hex == h
    legal = RULES.legal_actions(s, "Red")
    g = geo()

    def in_front_of(a: Action) -> set[str]:
        d = DIRS.index(str(a.args["dir"]))
        return {x for x in (nb(h, "SE"), nb(h, "SW")) if in_front(g.hex_of[h], d, g.hex_of[x])}

    assert in_front_of(chitin_ai.policy(s, "Red", legal)) == {nb(h, "SE"), nb(h, "SW")}
    assert in_front_of(chitin_ai.tactics(s, "Red", legal)) == {nb(h, "SE")}


def test_6_083_late_in_a_game_the_patient_warrior_goes_for_fighters_not_lone_workers() -> None:
    """A lone Worker is replaced the turn after it dies (6.083). Early on, a Low Render makes for
    the nearest enemy, a lone Worker; after player-turn ``LATE`` it makes for the enemy Gantua
    instead, so that two warriors killing Workers at each other's ends cannot go on for ever."""
    g = geo()
    worker, fighter = g.hex_of["0208"], g.hex_of["1508"]
    for turn, towards in ((1, worker), (chitin_ai.LATE + 1, fighter)):
        s = _red_to_move()
        s.turn = turn
        put(s, "R1", "LR3", "0808", face="S")
        put(s, "B5", "W", "0208")
        put(s, "B1", "GT3", "1508", face="N")
        s = begin(s)
        a = chitin_ai.tactics(s, "Red", RULES.legal_actions(s, "Red"))
        assert a.verb == "move"
        to = g.hex_of[str(a.args["to"])]
        assert distance(to, towards) < distance(g.hex_of["0808"], towards) - 2


def test_4_04_6_082_after_stall_turns_the_patient_players_warriors_move_up_to_the_last_chit_instead_of_waiting_for_ever() -> None:
    """The advanced game ends when the original chits are off the map (4.04). Kept from a game of
    ``hard`` (Blue) against ``normal`` in the Advanced scenario (dice seed league-chitin-advanced-3)
    at player-turn 159: chit F lies in 0512 between Blue's Workers in 0513 and 0612 and Red's
    Gantua in 0411; a Worker may not enter an enemy zone of control without a friendly fighter
    (6.082), and no warrior would end its move next to the other side's at the odds it waits for
    (``WAIT``), so both sides passed every turn from player-turn 101 on. After ``STALL`` the warriors
    no longer wait, and Blue moves (played on, the game ends at player-turn 172, 4.04)."""
    state = _kept("chitin-advanced-standoff")
    seat = state.active
    assert (seat, state.step, state.turn) == ("Blue", "move", 159) and state.turn > chitin_ai.STALL
    a = chitin_ai.tactics(state, seat, RULES.legal_now(state, seat))
    assert a.verb in ("move", "charge"), a.text()
    waiting = state.model_copy(update={"turn": chitin_ai.STALL})
    assert chitin_ai.tactics(waiting, seat, RULES.legal_now(waiting, seat)).verb == "done"


def _blue_to_overrun() -> Table:
    """A Learning game of ``tactics`` (Blue) against the policy (Red), at action 104: Blue to move,
    where ``tactics`` overruns (7.07)."""
    t = Table("chitin", "learning", {}, dice_seed="dev-0")
    for _ in range(104):
        s = t.state
        seat = t.rules.pending_now(s)[0].seat
        legal = t.rules.legal_now(s, seat)
        mover = chitin_ai.tactics if seat == "Blue" else chitin_ai.policy
        t.play(seat, mover(s, seat, legal))  # type: ignore[arg-type]
    return t


def test_6_0_7_07_normal_moves_by_tactics_and_takes_the_overrun_the_tree_passed_by() -> None:
    """Chitin's movement (6.0) is ``tactics``'s at every level: the tree, whose playouts end
    before the other side answers, chose a march elsewhere in this position (a Learning game of
    ``tactics`` against the policy, Blue to move, action 104), where ``tactics`` overruns (7.07)."""
    t = _blue_to_overrun()
    s = t.state
    assert isinstance(s, State) and s.step == "move" and s.active == "Blue"
    want = chitin_ai.tactics(s, "Blue", t.rules.legal_now(s, "Blue"))
    assert want.verb == "overrun"
    action, stats = decide("chitin", t.information("Blue"), "normal", "t:104")
    assert action == want
    assert stats == {"why": "tactics"}
    assert "the game's own tactics" in reason_of(action, stats)  # what a hint says of it
    # the attack phase is still searched
    assert chitin_ai.GAME_AI.direct(RULES, s.model_copy(update={"step": "attack"}), "Blue", [want], Rng("x")) is None


def test_7_07_a_hint_of_a_tactics_order_gives_the_evaluations_worth_of_the_position_before_and_after_it() -> None:
    """Issue 15: a hint's reason comes from the evaluation, also for an order the search did not weigh
    (movement is ``tactics``'s): the worth of Blue's position now and after the overrun (7.07)."""
    t = _blue_to_overrun()
    raw, stats = hint_job("chitin", t.information("Blue").model_dump_json(), "t:104", 60.0)
    action = Action.model_validate_json(raw)
    assert action.verb == "overrun" and stats["why"] == "tactics"
    now, then = stats["worth"]
    # nothing is hidden here, so every sampled position is the true one
    assert now == pytest.approx(chitin_ai.GAME_AI.evaluate(RULES, t.state, "Blue"))
    assert 0 <= now < then <= 1  # the overrun gains
    assert f"your position {round(100 * now)}% now and {round(100 * then)}% after it" in reason_of(action, stats)
    # an order refused in every sampled position has no worth, and the reason leaves it out
    wrong = Action(verb="move", args={"stack": "0101", "to": "0102"})
    assert worth("chitin", t.information("Blue"), wrong, "t") is None
    assert "evaluation" not in reason_of(action, {"why": "tactics"})


def test_6_01_7_07_late_in_a_game_a_worker_enters_out_of_an_enemy_warriors_reach_or_waits() -> None:
    """A Worker enters by its own end (6.01). Late in a game the patient player brings it in out
    of reach of enemy warriors (``ENTRY`` hexes: a move and an overrun, 7.07), or keeps it back
    when there is no such hex: a warrior left at a player's end otherwise kills each Worker as it
    enters, and the game never ends."""
    g = geo()

    def first_move(turn: int, guards: list[str]) -> Action:
        s = position(active="Red", chits=True)
        s.first, s.turn = "Blue", turn
        put(s, "R5", "W")
        for i, hx in enumerate(guards):
            put(s, f"B{i + 1}", "GT3", hx, face="N")
        s = begin(s)
        return chitin_ai.tactics(s, "Red", RULES.legal_actions(s, "Red"))

    def reach(a: Action, guard: str) -> int:
        assert a.verb == "move" and a.args["stack"] == "R5"
        return distance(g.hex_of[str(a.args["to"])], g.hex_of[guard])

    late = chitin_ai.LATE + 1
    assert reach(first_move(1, ["1404"]), "1404") <= chitin_ai.ENTRY
    assert reach(first_move(late, ["1404"]), "1404") > chitin_ai.ENTRY
    assert first_move(late, ["0303", "0803", "1303"]).verb == "done"


def _state(t: Table) -> State:
    s = t.state
    assert isinstance(s, State)
    return s


def _at_first_move_choice(scenario: str) -> Table:
    """A game of ``scenario`` at the roll for first move (3.02), the armies chosen by the policy."""
    t = Table("chitin", scenario, {}, dice_seed="ends-0")
    while _state(t).step != "order":
        s = _state(t)
        seat = t.rules.pending_now(s)[0].seat
        t.play(seat, chitin_ai.policy(s, seat, t.rules.legal_now(s, seat)))
    return t


def _advanced_red_to_move() -> State:
    """An empty Advanced board (command control, 8.03), Red to move, Blue having moved first."""
    s = position("advanced", active="Red")
    s.first = "Blue"
    return s


def test_8_031_a_basic_goes_to_warriors_no_other_basic_controls() -> None:
    """Command control (8.031, 8.033): a warrior whose megahex holds none of its Basics when its
    move begins is disrupted. A Gantua and a Low Render share a megahex with a Basic; a Phlanx
    stands alone in the next one. The policy sends the free Basic where the most warriors are,
    to the megahex already controlled; the patient player sends it to the Phlanx."""
    s = _advanced_red_to_move()
    put(s, "R1", "GT3", "0811", face="S")
    put(s, "R2", "LR3", "0810", face="S")
    put(s, "R3", "B", "0812")
    put(s, "R4", "PX3", "1311", face="S")
    put(s, "R5", "B", "1009")
    put(s, "B1", "GT3", "0820", face="N")
    s = begin(s)
    for cid in ("R1", "R2", "R3", "R4"):
        s.counters[cid].moved = True
    g = geo()
    legal = RULES.legal_actions(s, "Red")

    def megahex(a: Action) -> object:
        assert a.verb == "move" and a.args["stack"] == "R5"
        return g.mega[g.hex_of[str(a.args["to"])]]

    assert megahex(chitin_ai.policy(s, "Red", legal)) == g.mega[g.hex_of["0811"]]
    assert megahex(chitin_ai.tactics(s, "Red", legal)) == g.mega[g.hex_of["1311"]]


def test_8_031_7_07_a_basic_controls_its_warriors_from_a_hex_the_enemy_cannot_reach() -> None:
    """A Basic joining a Gantua's megahex (8.031) may stand on either side of it. A Basic alone
    (defence 1) is overrun (7.07) or attacked by any warrior that reaches it; an enemy Gantua five
    hexes south could next turn (charging, 8.021) reach the hexes south of ours. The patient player
    puts the Basic on the far side, where the policy puts it in reach. After player-turn ``LATE``
    it no longer minds the reach: a game where its Basics stayed away from a lone warrior (in reach
    of enemies that could not move up to it, all disrupted, 7.064) went on to the action cap."""
    g = geo()
    for turn, shy in ((1, True), (chitin_ai.LATE + 1, False)):
        s = _advanced_red_to_move()
        s.turn = turn
        put(s, "R1", "GT3", "0811", face="S")
        put(s, "R5", "B", "0807")
        put(s, "B1", "GT3", "0816", face="N")
        put(s, "B2", "B", "0817")
        s = begin(s)
        s.counters["R1"].moved = True
        reach = chitin_ai.enemy_reach(s, Index(s), "Red")
        legal = RULES.legal_actions(s, "Red")
        for player, exposed in ((chitin_ai.policy, True), (chitin_ai.tactics, not shy)):
            a = player(s, "Red", legal)
            assert a.verb == "move" and a.args["stack"] == "R5"
            to = g.hex_of[str(a.args["to"])]
            assert g.mega[to] == g.mega[g.hex_of["0811"]]
            assert (to in reach) is exposed, (turn, player.__name__)


def test_3_02_the_bot_takes_first_move_and_moving_second_the_south_end() -> None:
    """3.02: the high roller chooses first move or an end, the other player the rest. The bot
    rolling high takes the first move; moving second it takes the south end, from which the
    second mover wins far more often on our map (``SECOND_END``), where the policy takes the
    north. Played without a search at ``normal``; at ``hard`` only in the advanced scenarios (the
    next test)."""
    for scenario in ("learning", "basic", "advanced"):
        t = _at_first_move_choice(scenario)
        high = _state(t).high
        action, stats = decide("chitin", t.information(high), "normal", "t:order")
        assert (action.args["pick"], stats) == ("first", {"why": "tactics"})
        t.play(high, action)
        s = _state(t)
        low = t.rules.pending_now(s)[0].seat
        assert low != high and s.step == "order2"
        action, stats = decide("chitin", t.information(low), "normal", "t:order2")
        assert (action.args["pick"], stats) == ("south", {"why": "tactics"}), scenario
        assert chitin_ai.policy(s, low, t.rules.legal_now(s, low)).args["pick"] == "north"
        t.play(low, action)
        s = _state(t)
        assert s.ends == {low: "south", high: "north"} and s.first == high


def _kept(name: str) -> State:
    """A position kept from a soak game (tests/ai/positions/NAME.json)."""
    return State.model_validate_json((Path(__file__).parent / "positions" / f"{name}.json").read_text())


def _declared(state: State, seat: str) -> State:
    """``seat``'s attack phase played by the policy to its ``/done``, every obligation met (7.02, 7.06)."""
    for _ in range(200):
        a = chitin_ai.policy(state, seat, RULES.legal_now(state, seat))
        if a.verb == "done":
            break
        new, _ = RULES.apply(state, seat, a, FixedDice([]))
        assert isinstance(new, State)
        state = new
    assert a.verb == "done" and not unmet(state, Index(state), seat)
    return state


def test_7_02_7_06_on_a_wide_front_a_stack_makes_the_one_attack_it_must_where_all_three_would_be_worse_than_1_5() -> None:
    # Armageddon, Red's attack phase (found by the soak: easy against easy, seed 110): the stack in
    # 0412 must attack the enemy stack in 0512 in front of it (7.02, 7.03); attacking 0512, 0513 and
    # 0413 together is 1 to 24, worse than the 1-5 allowed (RULINGS 1). The policy weighed fronts of
    # more than 9 possible attacks by dropping attacks one at a time from all of them, which dropped
    # the whole of 0412's attack; with no plan meeting the obligations it stopped the game with an
    # error. The attack on 0512 alone meets them, with the air units fighting the air (8.014).
    state = _kept("chitin-armageddon-wide-front")
    seat = state.active
    assert state.step == "attack" and unmet(state, Index(state), seat)
    state = _declared(state, seat)
    assert [p.on for p in state.plan if p.by == "0412"] == ["0512"]


def test_8_015_on_a_wide_front_the_air_units_attack_a_ground_stack_together_where_it_pays() -> None:
    # Armageddon, Red's attack phase at action 3,002 (found by the soak: easy against easy, seed 49,
    # which reached the cap): no Basics are left, Red's eight Plunges in 0312 may attack Blue's
    # stacks in 0112, 0212, 0213 and 0314 (8.015), 32 possible attacks and no ground attack. With
    # more than 10 possible attacks the policy let air units fight only enemy air units, so it
    # declared nothing and both sides passed for good. All eight on 0212 attack at 2-1 (RULINGS 1).
    state = _kept("chitin-armageddon-air-front")
    seat = state.active
    idx = Index(state)
    pairs = attack_choices(state, idx, seat)
    assert state.step == "attack" and seat == "Red" and len(pairs) == 32
    assert all(p.by in state.counters and p.on != "air" for p in pairs)
    state = _declared(state, seat)
    flyers = sorted({p.by for p in pairs})
    assert len(flyers) == 8 and sorted(p.by for p in state.plan) == flyers
    assert {p.on for p in state.plan} == {"0212"}
    (b,) = battles(state, Index(state), seat)
    lookup, _ = battle_odds(state, Index(state), seat, b)
    assert lookup.attack / lookup.defence >= 2


def test_7_02_7_06_an_air_strike_that_makes_the_plan_stand_is_taken_over_a_plan_that_does_not(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The wide front of the test above, with how each plan stands and looks given: the plan
    # without air attacks leaves an obligation unmet (7.02, 7.06), the eight Plunges on 0212 meet
    # it at poorer odds, a strike elsewhere looks better and does not stand. A plan that stands
    # comes first, whatever the odds of one that does not.
    state = _kept("chitin-armageddon-air-front")
    idx = Index(state)
    pairs = attack_choices(state, idx, state.active)

    def judged(state: State, idx: Index, seat: str, plan: list[Pair]) -> tuple[bool, float, int]:
        if not plan:
            return False, 0.0, 1
        return (True, -1.0, 0) if {p.on for p in plan} == {"0212"} else (False, 5.0, 1)

    monkeypatch.setattr(chitin_ai, "_plan_ok", judged)
    plan = chitin_ai._with_air_strike(state, idx, state.active, [], pairs)
    assert len(plan) == 8 and {p.on for p in plan} == {"0212"}


def test_3_02_hard_weighs_first_move_and_the_end_by_whole_games() -> None:
    """3.02 at ``hard``: in Learning and Basic each choice of the high roller is played on to the
    game's end, up to 16 games each, a choice no longer played once it cannot catch up
    (``ChitinAI.deep``). With both sides playing ``tactics``, the low roller answers the first move
    with the south end, from which the second mover wins most games (docs/ai-measurements.md,
    "`hard` and the first move"); so ``hard`` rolling high takes the south end and lets the other
    move first, where ``normal`` takes the first move. In Advanced the end matters
    little and a whole game costs more: ``hard`` keeps ``tactics``'s choice there."""
    t = _at_first_move_choice("learning")
    high = _state(t).high
    action, stats = decide("chitin", t.information(high), "hard", "t:order")
    children = cast(dict[str, tuple[int, float]], stats["children"])
    assert stats["kind"] == "whole games" and set(children) == {
        "/choose pick:first", "/choose pick:north", "/choose pick:south"}
    assert action.args["pick"] == "south"
    assert children["/choose pick:south"][1] > children["/choose pick:first"][1] + 0.25
    # a choice is no longer played once it could not catch up even by winning every game left of
    # the 16; the first move, far behind, is dropped early: fewer than the 48 games are played
    assert all(n <= 16 for n, _ in children.values()) and children["/choose pick:first"][0] < 16
    assert stats["iterations"] == sum(n for n, _ in children.values()) < 48
    t = _at_first_move_choice("advanced")
    action, stats = decide("chitin", t.information(_state(t).high), "hard", "t:order")
    assert (action.args["pick"], stats) == ("first", {"why": "tactics"})


def _advanced_where_postures_differ(actions: int = 301) -> Table:
    """An Advanced game of ``tactics`` for both sides (dice seed adv-0) after ``actions`` actions;
    after 301, Red is to move and the three postures of ``hard`` would each charge a different
    warrior (8.02)."""
    return _by_tactics(actions, "advanced", "adv-0")


def test_6_0_8_02_hard_in_advanced_moves_by_the_posture_whose_rollouts_do_best_and_normal_by_tactics(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """In the advanced scenarios ``hard``'s movement (6.0) is chosen among ``POSTURES`` (how
    strong a warrior must be to stand next to an enemy stack, and a gang to go at it): where
    their next moves differ, each plays the rest of the movement and the playout policy plays on
    through the other side's turn; the posture with the best rollouts is played. ``normal`` moves
    by ``tactics`` (the first posture)."""
    t = _advanced_where_postures_differ()
    s = _state(t)
    assert (s.step, s.active) == ("move", "Red")
    legal = t.rules.legal_now(s, "Red")
    firsts = [chitin_ai._patient_move(s, "Red", legal, w, g) for w, g in chitin_ai.POSTURES]
    assert firsts[0] is chitin_ai.tactics(s, "Red", legal)
    levels_where_postures_differ(chitin_ai, t, "Red", "t:301", firsts)

    # the rollouts decide; ties keep tactics's
    rollouts_decide(monkeypatch, chitin_ai,
                    lambda: chitin_ai.posture_move(chitin_ai.HARD_AI, t.rules, s, "Red", legal, Rng("p")),
                    firsts, chitin_ai.POSTURE_SAMPLES)
    # the caller's deadline (the worker's cap) ends the rounds of rollouts; none taken: tactics's
    deadline_ends_the_rollouts(
        monkeypatch, chitin_ai,
        lambda d: chitin_ai.HARD_AI.direct(t.rules, s, "Red", legal, Rng("p"), d),  # type: ignore[return-value]
        len(chitin_ai.POSTURES), firsts[0], firsts[-1])


def _by_tactics(actions: int, scenario: str = "basic", seed: str = "basic-0") -> Table:
    """A game of ``tactics`` for both sides after ``actions`` actions; in Basic (dice seed basic-0)
    after 273 Red, which moves second (3.02), is to move and the three postures of ``hard`` would
    each move another way; so would Blue's in Learning (dice seed learning-0) after 82."""
    t = Table("chitin", scenario, {}, dice_seed=seed)
    for _ in range(actions):
        s = _state(t)
        seat = t.rules.pending_now(s)[0].seat
        t.play(seat, chitin_ai.tactics(s, seat, t.rules.legal_now(s, seat)))
    return t


def test_3_02_6_0_hard_moving_second_weighs_postures_of_the_patient_player_in_basic_too(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Wherever the bot moves by the patient player (moving second, 3.02; and in the advanced
    scenarios) ``hard`` chooses its movement (6.0) among ``POSTURES`` by rollouts, except in
    Learning (``PLAIN_SCENARIOS``); moving first in Learning and Basic both levels race for the
    centre by the policy, which has no postures."""
    t = _by_tactics(273)
    s = _state(t)
    assert (s.step, s.active, s.first, s.advanced) == ("move", "Red", "Blue", False)
    legal = t.rules.legal_now(s, "Red")
    firsts = [chitin_ai._patient_move(s, "Red", legal, w, g) for w, g in chitin_ai.POSTURES]
    assert firsts[0] is chitin_ai.tactics(s, "Red", legal)
    levels_where_postures_differ(chitin_ai, t, "Red", "t:273", firsts)
    # hard's move is the posture whose rollouts do best
    rollouts_decide(monkeypatch, chitin_ai,
                    lambda: chitin_ai.HARD_AI.direct(t.rules, s, "Red", legal, Rng("p")),  # type: ignore[return-value]
                    firsts, chitin_ai.POSTURE_SAMPLES)
    # Blue, moving first, by the policy at both levels, without rollouts
    t = _by_tactics(273)
    while not (_state(t).step == "move" and _state(t).active == "Blue"):
        s = _state(t)
        seat = t.rules.pending_now(s)[0].seat
        t.play(seat, chitin_ai.tactics(s, seat, t.rules.legal_now(s, seat)))
    s = _state(t)
    legal = t.rules.legal_now(s, "Blue")

    def rollout(*args: object) -> float:
        raise AssertionError("no rollouts for the first mover's race")

    monkeypatch.setattr(chitin_ai, "_rollout", rollout)
    assert chitin_ai.HARD_AI.direct(t.rules, s, "Blue", legal, Rng("x")) is chitin_ai.policy(s, "Blue", legal)

    def no_rollout(*args: object) -> float:
        raise AssertionError("no rollouts in Learning")

    monkeypatch.setattr(chitin_ai, "_rollout", no_rollout)
    # in Learning, moving second, hard moves by tactics as normal does, where the postures differ too
    t = _by_tactics(82, "learning", "learning-0")
    s = _state(t)
    assert (s.step, s.active, s.first, s.scenario) == ("move", "Blue", "Red", "learning")
    legal = t.rules.legal_now(s, "Blue")
    assert len({chitin_ai._patient_move(s, "Blue", legal, w, g).text() for w, g in chitin_ai.POSTURES}) == 3
    assert chitin_ai.HARD_AI.direct(t.rules, s, "Blue", legal, Rng("x")) is chitin_ai.tactics(s, "Blue", legal)


def test_6_0_hard_moves_by_tactics_in_learning_and_where_the_postures_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    """In Learning ``hard`` moves by ``tactics`` as ``normal`` does; where it weighs postures (the
    advanced scenarios here), where every posture's next move is the same, it is played without rollouts."""
    t = Table("chitin", "learning", {}, dice_seed="dev-0")
    for _ in range(104):  # test_6_0_7_07_normal_moves_by_tactics_...'s position: Blue to move, where tactics overruns
        s = _state(t)
        seat = t.rules.pending_now(s)[0].seat
        mover = chitin_ai.tactics if seat == "Blue" else chitin_ai.policy
        t.play(seat, mover(s, seat, t.rules.legal_now(s, seat)))  # type: ignore[arg-type]
    s = _state(t)
    legal = t.rules.legal_now(s, "Blue")
    assert (s.step, s.active) == ("move", "Blue")
    assert chitin_ai.HARD_AI.direct(RULES, s, "Blue", legal, Rng("x")) is chitin_ai.tactics(s, "Blue", legal)
    action, stats = decide("chitin", t.information("Blue"), "hard", "t:104")
    assert action.verb == "overrun" and stats == {"why": "tactics"}
    t = _advanced_where_postures_differ(288)  # Blue to move a warrior, and every posture moves it alike
    s = _state(t)
    legal = t.rules.legal_now(s, "Blue")
    assert (s.step, s.active) == ("move", "Blue")
    first = chitin_ai.tactics(s, "Blue", legal)
    assert all(chitin_ai._patient_move(s, "Blue", legal, w, g) is first for w, g in chitin_ai.POSTURES)

    def rollout(*args: object) -> float:
        raise AssertionError("no rollouts where the postures agree")

    monkeypatch.setattr(chitin_ai, "_rollout", rollout)
    assert chitin_ai.HARD_AI.direct(t.rules, s, "Blue", legal, Rng("x")) is first
