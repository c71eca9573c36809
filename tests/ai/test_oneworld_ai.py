"""OneWorld's evaluation, move ordering and set-up for the bot (engine/games/oneworld/ai.py;
docs/ai-measurements.md, "OneWorld: combats at their expectation, and a forward set-up"): combats still to be
fought and accosts under way count at their expectation, an attack near the bot's own god is among
the moves the search looks at, and the Children are set up as far forward as 3.3 allows."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import pytest

from engine.ai import choose
from engine.ai.player import decide
from engine.ai.rng import Rng, RngDice
from engine.ai.selfplay import Table
from engine.core.hexes import neighbors
from engine.games.oneworld import ai as oneworld_ai
from engine.games.oneworld.ai import (
    ACCOST_NEXT,
    GAME_AI,
    HARD_AI,
    _dist,
    _own_plan,
    _threats,
    fight_table,
    forward,
    score,
    threat,
)
from engine.games.oneworld.board import board
from engine.games.oneworld.movement import context, walk_targets
from engine.games.oneworld.state import Accost, Child, State, action, fork, other
from tests.ai.helpers import deadline_ends_the_rollouts, drive


def _moving() -> tuple[Table, State, str]:
    t = drive(Table("oneworld", "standard", dice_seed="oneworld-ai"),
              lambda t: getattr(t.state, "step", "") == "move")
    s = t.state
    assert isinstance(s, State)
    return t, s, s.active


def _with(s: State, placed: dict[str, tuple[str, str]], aspect: str = "Stone") -> State:
    """Every Child in reserve but those in ``placed`` (id -> (where, hex))."""
    kids = []
    for c in s.children:
        where, hex_ = placed.get(c.id, ("reserve", ""))
        kids.append(Child(id=c.id, side=c.side, aspect=aspect, where=where, hex=hex_))  # type: ignore[arg-type]
    return fork(s, children=tuple(kids))


def _ids(s: State, side: str) -> list[str]:
    return [c.id for c in s.children if c.side == side]


def _open_hex(s: State, near: str, avoid: set[str]) -> str:
    """A hex on the map next to ``near``, not a god's hex or a Tower's."""
    bd = board()
    h = bd.parse(near)
    assert h is not None
    taken = set(s.god_hex.values()) | set(s.tower_hex.values()) | avoid
    for n in neighbors(h):
        name = bd.name(n) if bd.parse(bd.name(n)) is not None else ""
        if name and name not in taken:
            return name
    raise AssertionError(f"no open hex next to {near}")


def test_8_2_8_3_a_combat_fought_to_its_end_three_children_always_hold_the_hex_against_one() -> None:
    table = fight_table()
    # 8.2: three Children can take every aspect, so one of them beats the lone enemy's whatever it is
    assert table[(3, 1)] == pytest.approx((1.0, 2.0, 0.0), abs=1e-6)
    assert table[(4, 1)] == pytest.approx((1.0, 3.0, 0.0), abs=1e-6)
    assert table[(1, 1)][0] == pytest.approx(0.5, abs=0.01)
    for (n, m), (held, mine, theirs) in table.items():
        # one side holds the hex in the end (8.3): the chances of the two sides add up to one
        assert held + table[(m, n)][0] == pytest.approx(1.0, abs=0.02)
        assert 0 <= mine <= n and 0 <= theirs <= m
        if n > m:
            assert held > 0.5 and mine > theirs


def test_8_1_a_combat_still_to_be_fought_counts_at_its_expected_end() -> None:
    _, s, seat = _moving()
    opp = other(seat)
    where = _open_hex(s, s.god_hex[seat], set())
    mine, theirs = _ids(s, seat), _ids(s, opp)
    # three of the seat's Children share a hex with one enemy Child next to its god: combat is due
    due = _with(s, {mine[0]: ("map", where), mine[1]: ("map", where), mine[2]: ("map", where),
                    theirs[0]: ("map", where)})
    # the same combat fought: the enemy Child is gone and so is one of the three (table: 2 survivors)
    fought = _with(s, {mine[0]: ("map", where), mine[1]: ("map", where), mine[2]: ("tower", ""),
                       theirs[0]: ("tower", "")})
    assert score(due, seat) == pytest.approx(score(fought, seat), abs=1e-6)
    assert score(due, opp) == pytest.approx(score(fought, opp), abs=1e-6)


def test_10_4_an_accost_under_way_counts_as_a_third_of_a_god_s_life() -> None:
    _, s, seat = _moving()
    opp = other(seat)
    god = s.god_hex[opp]
    kid = _ids(s, seat)[0]
    accosting = fork(_with(s, {kid: ("map", god)}), step="accost_child", accosted=True,
                     accost=Accost(child=kid, hex=god))
    spent = _with(s, {kid: ("tower", "")})  # the Child is always destroyed (10.4)
    assert score(accosting, seat) == pytest.approx(score(spent, seat) + 20.0, abs=1e-6)
    assert score(accosting, opp) == pytest.approx(score(spent, opp) - 20.0, abs=1e-6)


def test_8_1_an_attack_next_to_the_bot_s_own_god_comes_first_in_the_move_ordering() -> None:
    t, s, seat = _moving()
    opp = other(seat)
    home = s.god_hex[seat]
    target = _open_hex(s, home, set())
    start = _open_hex(s, target, {home})
    mine, theirs = _ids(s, seat), _ids(s, opp)
    # an enemy Child next to the seat's god, with one of the seat's Children (already moved) in its
    # hex and a Stone one hex away: moving the Stone in makes it two against one (8.2)
    pos = fork(_with(s, {theirs[0]: ("map", target), mine[0]: ("map", target), mine[1]: ("map", start)}),
               moved=(mine[0],))
    legal = t.rules.legal_actions(pos, seat)
    attack = [a for a in legal if a.verb == "move" and a.args.get("child") == mine[1] and a.args.get("to") == target]
    assert attack, f"{mine[1]} cannot move from {start} to {target} in this position"
    for ai in (GAME_AI, HARD_AI):
        ordered = ai.order(t.rules, pos, seat, legal, Rng("order"))
        assert ordered[0].key() == attack[0].key()


def _placing(t: Table) -> bool:
    s = t.state
    return isinstance(s, State) and s.step == "place" and bool(s.god_hex.get(other(s.active)))


def test_3_3_the_bot_sets_up_its_children_forward_within_seven_hexes_of_its_god() -> None:
    t = drive(Table("oneworld", "standard", dice_seed="oneworld-setup"), _placing)
    s = t.state
    assert isinstance(s, State)
    seat, enemy_god = s.active, s.god_hex[other(s.active)]
    # the bot's own path at normal: each Child placed by forward (3.3), as many as it has
    for _ in range(13):
        assert t.state.step == "place" and t.state.active == seat  # type: ignore[attr-defined]
        legal = t.rules.legal_now(t.state, seat)
        placed = choose("oneworld", t.information(seat), "normal", "setup")
        assert placed.key() == forward(t.state, seat, legal).key()  # type: ignore[arg-type, union-attr]
        t.play(seat, placed)
    after = t.state
    assert isinstance(after, State)
    kids = after.on_map(seat)
    assert len(kids) == 13
    # 3.3: within seven hexes of the god; 7.2: at most four a hex (the formation keeps to two)
    assert all(_dist(c.hex, s.god_hex[seat]) <= 7 for c in kids)
    assert max(sum(1 for c in kids if c.hex == k.hex) for k in kids) <= 2
    assert {c.aspect for c in kids} == {"Stone", "Blade", "Fog"}
    # nearer the enemy god than the default formation (/place_all), which keeps within three hexes
    default, _ = t.rules.replay_step(s, seat, action("place_all"), RngDice(Rng("setup")))
    assert isinstance(default, State)

    def mean(st: State) -> float:
        return sum(_dist(c.hex, enemy_god) for c in st.on_map(seat)) / 13

    assert mean(after) + 3 <= mean(default)


def _blade_in_line(s: State, seat: str) -> tuple[State, str, list[str]]:
    """The seat's god with one enemy Blade three hexes away in a straight line that it can run
    down (6.3), every other Child in reserve: the position, the Blade's id and its route's hexes."""
    opp = other(seat)
    bd = board()
    home = bd.parse(s.god_hex[seat])
    assert home is not None
    blade = _ids(s, opp)[0]
    for d in range(6):
        line, h = [], home
        for _ in range(3):
            nxt = bd.step(h, (d + 3) % 6, False)
            if nxt is None:
                break
            line.append(bd.name(nxt))
            h = nxt
        if len(line) < 3 or set(line) & (set(s.tower_hex.values()) | set(s.god_hex.values())):
            continue
        pos = fork(_with(s, {blade: ("map", line[2])}, aspect="Blade"))
        chance, through = threat(pos, seat)
        if chance > 0:
            return pos, blade, line
    raise AssertionError("no straight line of three hexes from the god that a Blade can run down")


def test_10_4_hard_sees_a_god_one_move_from_an_enemy_blade_and_normal_does_not() -> None:
    _, s, seat = _moving()
    pos, _, line = _blade_in_line(s, seat)
    chance, through = threat(pos, seat)
    # the Blade's run stops on entering the god's hex (6.3, 10.4); a Child of the seat stops it in
    # the two hexes between (it halts there to fight, 8.1) or in its own (an attack)
    assert through == set(line)
    assert 0 < chance <= 1
    assert GAME_AI.at("hard") is HARD_AI and GAME_AI.at("normal") is GAME_AI and GAME_AI.at("easy") is GAME_AI
    # the side moving now is the seat: the other side's Blade may accost in its next movement
    assert HARD_AI.evaluate(None, pos, seat) < GAME_AI.evaluate(None, pos, seat)  # type: ignore[arg-type]
    assert score(pos, seat) + _threats(pos, seat) == pytest.approx(score(pos, seat) - ACCOST_NEXT * chance)


def _arrival(s: State, seat: str, option: str, aspect: str, gods: list[str],
             starts: Callable[[str], list[str]]) -> tuple[State, str]:
    """With the optional rule ``option`` on, the first of ``gods`` for the seat's god and of
    ``starts(god)`` for an enemy Child of ``aspect`` from which the game's own movement takes it
    into the god's hex in one move: the position and the Child's hex."""
    opp = other(seat)
    bd = board()
    kid = _ids(s, opp)[0]
    on = fork(s, options=s.options.model_copy(update={option: True}))
    towers = set(s.tower_hex.values())
    for god in (g for g in gods if g not in towers):
        pos = fork(on, god_hex={**s.god_hex, seat: god})
        for h in starts(god):
            there = fork(_with(pos, {kid: ("map", h)}, aspect=aspect))
            start, child = bd.parse(h), there.child(kid)
            if h in towers or h in pos.god_hex.values() or start is None or child is None:
                continue
            ctx = context(there, opp)
            if ctx.enemy_god in walk_targets(ctx, child, start):
                return there, h
    raise AssertionError(f"no {aspect} reaches the god in one move with {option}")


def test_12_0_10_4_hard_sees_a_fog_across_the_seam_of_the_wrap_around_map() -> None:
    _, s, seat = _moving()
    bd = board()
    # a god on the map's edge, and a hex far from it on the flat map (more than five hexes) from
    # which a Fog walks into the god's hex across the seam (Chaos Gambit II, 12.0; 6.4)
    edge = sorted(bd.name(h) for h in bd.hexes if None in bd.nexts(h, False))
    there, h = _arrival(s, seat, "chaos_gambit_2", "Fog", edge, lambda god: sorted(
        bd.name(x) for x in bd.hexes if x not in bd.pylons and _dist(bd.name(x), god) > 5))
    chance, through = threat(there, seat)
    assert chance > 0 and h in through
    assert threat(fork(there, options=s.options), seat) == (0.0, frozenset())  # on the flat map it is far away


def test_12_0_10_4_hard_sees_a_stone_three_pylons_away_with_pylon_movement() -> None:
    _, s, seat = _moving()
    bd = board()
    # a god on a Pylon and an enemy Stone on another two or three hexes away: with Pylon Movement
    # the Stone moves three hexes Pylon to Pylon (12.0), not one (6.2)
    there, h = _arrival(s, seat, "pylon_movement", "Stone", sorted(bd.name(x) for x in bd.pylons),
                        lambda god: sorted(bd.name(x) for x in bd.pylons if 2 <= _dist(bd.name(x), god) <= 3))
    chance, through = threat(there, seat)
    assert chance == 1.0 and h in through  # a Stone does not roll for Faults (6.2)
    assert threat(fork(there, options=s.options), seat) == (0.0, frozenset())


def test_8_1_10_4_a_blade_with_a_combat_still_due_in_its_hex_threatens_at_its_chance_of_holding_it() -> None:
    _, s, seat = _moving()
    pos, blade, line = _blade_in_line(s, seat)
    alone, _ = threat(pos, seat)
    # a Child of the seat in the Blade's hex: they fight first (8.1), and the Blade accosts only
    # if it holds the hex, one time in two between two lone Children (8.2)
    fighter = _ids(s, seat)[0]
    fought = fork(_with(pos, {blade: ("map", line[2]), fighter: ("map", line[2])}, aspect="Blade"))
    chance, _ = threat(fought, seat)
    assert chance == pytest.approx(alone * fight_table()[(1, 1)][0])
    assert 0 < chance < alone


def test_6_3_10_4_a_child_standing_in_the_blade_s_way_stops_the_accost() -> None:
    _, s, seat = _moving()
    pos, blade, line = _blade_in_line(s, seat)
    guard = _ids(s, seat)[0]
    # a Child of the seat in the hex next to its god: the Blade stops there to fight (6.3, 8.1)
    blocked = fork(_with(pos, {blade: ("map", line[2]), guard: ("map", line[0])}, aspect="Blade"))
    assert threat(blocked, seat) == (0.0, frozenset())
    assert HARD_AI.evaluate(None, blocked, seat) == GAME_AI.evaluate(None, blocked, seat)  # type: ignore[arg-type]


def test_10_4_hard_orders_a_move_into_the_blade_s_way_among_the_first() -> None:
    t, s, seat = _moving()
    pos, blade, line = _blade_in_line(s, seat)
    guard = _ids(s, seat)[0]
    # a Stone of the seat next to the route, one step from its first hex (6.2)
    bd = board()
    start = next(bd.name(n) for n in neighbors(bd.parse(line[0]))  # type: ignore[arg-type]
                 if bd.parse(bd.name(n)) is not None
                 and bd.name(n) not in set(line) | set(pos.god_hex.values()) | set(pos.tower_hex.values()))
    # and four Fogs on open flatland midway to the enemy god, each with moves three hexes nearer it
    far = s.god_hex[other(seat)]
    taken = set(line) | {start} | set(pos.god_hex.values()) | set(pos.tower_hex.values())
    mid = sorted(h for h in (bd.name(x) for x in bd.hexes) if h not in taken and bd.parse(h) not in bd.pylons
                  and 7 <= _dist(h, far) <= 9 and _dist(h, s.god_hex[seat]) >= 5)[:2]
    fogs = _ids(s, seat)[1:5]
    where = {guard: start, fogs[0]: mid[0], fogs[1]: mid[0], fogs[2]: mid[1], fogs[3]: mid[1]}
    kids = [c.model_copy(update={"aspect": "Stone" if c.id == guard else "Fog", "where": "map", "hex": where[c.id]})
            if c.id in where else c for c in pos.children]
    pos = fork(pos, children=tuple(kids))
    legal = t.rules.legal_actions(pos, seat)
    into = {a.key() for a in legal if a.verb == "move" and a.args.get("to") in line[:2]}
    assert into, f"the Stone at {start} cannot step into {line[:2]}"
    # normal's ordering ranks the Fogs' advance first; hard's puts a move into the Blade's way among its first
    assert not any(a.key() in into for a in GAME_AI.order(t.rules, pos, seat, legal, Rng("order"))[:4])
    ordered = HARD_AI.order(t.rules, pos, seat, legal, Rng("order"))
    assert any(a.key() in into for a in ordered[:4])


def test_4_1_a_hard_rollout_runs_through_the_other_side_s_whole_turn_to_the_seat_s_next_movement() -> None:
    t, start, seat = _moving()
    rules = t.rules
    seen_other = False
    for _ in range(600):
        s = t.state
        assert isinstance(s, State)
        if HARD_AI.horizon(rules, start, s, seat) or s.step == "over":
            break
        seen_other = seen_other or (s.active != seat and s.step == "move")
        p = rules.pending_now(s)[0]
        t.play(p.seat, HARD_AI.playout(rules, s, p.seat, rules.legal_now(s, p.seat), Rng("h")))
    s = t.state
    assert isinstance(s, State)
    # 4.1: the rest of the seat's turn, then the other side's movement, combats and accost (its
    # answer); the rollout stops as the seat's next movement begins
    assert seen_other
    assert s.step == "over" or (s.active == seat and s.step == "move" and s.turn == start.turn + 2)
    assert not HARD_AI.horizon(rules, start, start, seat)


def test_10_4_hard_s_playouts_make_the_accost_in_hand_where_normal_s_move_a_child_at_random() -> None:
    t, s, seat = _moving()
    pos, blade, _ = _blade_in_line(s, seat)
    opp = other(seat)
    # the other side moving, its Blade one run from the seat's god and three Stones far from it
    far = pos.god_hex[opp]
    kids = {blade: ("map", pos.child(blade).hex)}  # type: ignore[union-attr]
    taken: set[str] = set()
    for kid in _ids(pos, opp)[1:4]:
        h = _open_hex(pos, far, taken)
        taken.add(h)
        kids[kid] = ("map", h)
    moving = fork(_with(pos, kids), active=opp, moved=())
    moving = fork(moving, children=tuple(c.model_copy(update={"aspect": "Blade"}) if c.id == blade else c
                                         for c in moving.children))
    legal = t.rules.legal_actions(moving, opp)

    def accosts(a: object) -> bool:
        after, _ = t.rules.replay_step(moving, opp, a, RngDice(Rng("dice")))  # type: ignore[arg-type]
        return cast(State, after).accost is not None

    hard = [accosts(HARD_AI.playout(t.rules, moving, opp, legal, Rng(f"p{i}"))) for i in range(12)]
    normal = [accosts(GAME_AI.playout(t.rules, moving, opp, legal, Rng(f"p{i}"))) for i in range(12)]
    assert all(hard)
    assert not all(normal)  # normal's playout moves a Child drawn at random


def test_hard_moves_by_whole_plans_of_its_movement_4_2_and_normal_by_the_tree() -> None:
    """``hard``'s move in its own movement is the first of a whole plan: eight candidate moves, each
    followed by two plans for the rest of the movement (4.2), played as a whole in every rollout."""
    t, s, seat = _moving()
    legal = t.rules.legal_now(s, seat)
    first = HARD_AI.order(t.rules, s, seat, legal, Rng("order"))[0]
    for greedy in (True, False):
        plan = _own_plan(HARD_AI, t.rules, s, seat, first, greedy, Rng(f"plan-{greedy}"))
        x = s
        for a in plan:  # every order of the plan is legal in turn, and the plan ends the movement
            assert a.key() in {b.key() for b in t.rules.legal_now(x, seat)}, a.text()
            x, _ = t.rules.replay_step(x, seat, a, RngDice(Rng("dice")))
        assert plan[-1].verb == "end" or cast(State, x).step != "move", [a.text() for a in plan]
        assert len({a.args["child"] for a in plan if a.verb == "move"}) >= 2  # more than the one Child
    picked, hard = decide("oneworld", t.information(seat), "hard", "plans")
    again, _ = decide("oneworld", t.information(seat), "hard", "plans")
    assert picked == again and picked.key() in {a.key() for a in legal}
    assert hard.get("why") == "tactics"  # not the rollout player of one move (``flat``)
    _, normal = decide("oneworld", t.information(seat), "normal", "tree")
    assert "kind" not in normal and int(cast(int, normal["iterations"])) > 0


def test_4_2_hard_s_whole_plans_stop_at_the_callers_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker's wall-clock cap reaches the plans too: the deadline is asked before each round
    of rollouts (one of each of the 16 plans), and with none taken the ordering's first move is played."""
    t, s, seat = _moving()
    legal = t.rules.legal_now(s, seat)
    cands = HARD_AI.order(t.rules, s, seat, legal, Rng("p").fork("order"))[: HARD_AI.candidates]
    assert len({a.key() for a in cands}) == HARD_AI.candidates == 8
    deadline_ends_the_rollouts(
        monkeypatch, oneworld_ai,
        lambda d: HARD_AI.direct(t.rules, s, seat, legal, Rng("p"), d),  # type: ignore[return-value]
        HARD_AI.candidates * oneworld_ai.PLAN_ENDS, cands[0], cands[-1])
