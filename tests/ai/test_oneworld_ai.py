"""OneWorld's evaluation, move ordering and set-up for the bot (engine/games/oneworld/ai.py;
docs/ai.md, "OneWorld: combats at their expectation, and a forward set-up"): combats still to be
fought and accosts under way count at their expectation, an attack near the bot's own god is among
the moves the search looks at, and the Children are set up as far forward as 3.3 allows."""

from __future__ import annotations

import pytest

from engine.ai import choose
from engine.ai.rng import Rng, RngDice
from engine.ai.selfplay import Table
from engine.core.hexes import neighbors
from engine.games.oneworld.ai import GAME_AI, _dist, fight_table, forward, score
from engine.games.oneworld.board import board
from engine.games.oneworld.state import Accost, Child, State, action, fork, other
from tests.ai.helpers import drive


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
    ordered = GAME_AI.order(t.rules, pos, seat, legal, Rng("order"))
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
