"""The search player ends every phase it plays: no position where it goes round in circles.

Chitin: I has no turn limit; a Basic or Learning game ends when every Harvest Chit is off the
map (4.03). A player that never ends a phase never ends the game. The attack phase is the one
where that can happen: an attack may be declared and cancelled again as often as one likes
(7.02, 7.03), and a search whose evaluation cannot tell two plans apart used to declare and
cancel for hundreds of actions (a Basic game against the greedy policy was stopped after 22
minutes). Now each declaration brings the plan nearer the one the search settles on, so the
phase takes at most one action a possible attack, plus the /done.
"""

from __future__ import annotations

from engine.ai.selfplay import Table, bot
from tests.ai.helpers import drive


def _attack_phase_with_choices(t: Table) -> bool:
    state = t.state
    if getattr(state, "step", "") != "attack" or state.plan:  # type: ignore[attr-defined]
        return False
    seat = t.rules.pending_now(state)[0].seat
    legal = t.rules.legal_now(state, seat)
    return sum(1 for a in legal if a.verb == "attack") >= 2


def test_chitin_7_03_the_search_player_declares_its_attacks_and_ends_the_phase() -> None:
    t = Table("chitin", "basic", dice_seed="phase-bounds")
    normal = bot("normal", 5)
    phases = 0
    while phases < 3:
        drive(t, _attack_phase_with_choices, seed=phases + 1)
        seat = t.rules.pending_now(t.state)[0].seat
        turn = t.state.turn  # type: ignore[attr-defined]
        pairs = sum(1 for a in t.rules.legal_now(t.state, seat) if a.verb == "attack")
        bound = pairs + 1  # each possible attack declared at most once, then /done (7.03)
        played = []
        while t.state.step == "attack" and t.state.turn == turn:  # type: ignore[attr-defined]
            assert len(played) < bound, (
                f"turn {turn}: {seat} took {len(played)} actions in an attack phase with {pairs} possible "
                f"attacks and has not ended it: {[a.text() for a in played[-8:]]}")
            action = normal(t, seat)
            played.append(action)
            t.play(seat, action)
        assert all(a.verb != "cancel" for a in played), [a.text() for a in played]
        phases += 1
