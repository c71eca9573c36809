"""Secret force selection under random orders: nothing of an army shows before both are in (3.032)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.dice import FixedDice
from engine.core.protocol import GameConfig
from engine.games.chitin import flow
from engine.games.chitin.state import State
from tests.chitin.positions import RULES


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["Red", "Blue"]), st.integers(0, 40)), max_size=40))
def test_3_032_no_army_leaks_before_the_reveal(orders: list[tuple[str, int]]) -> None:
    state = RULES.setup(GameConfig(game="chitin", scenario="intermediate"), FixedDice([]))
    assert isinstance(state, State)
    public: list[str] = []
    for seat, pick in orders:
        if seat in state.ready or state.step != "forces":
            continue
        legal = RULES.legal_actions(state, seat)
        action = legal[pick % len(legal)]
        if action.verb == "ready" and len(state.ready) == 1:
            break  # the reveal is the next test's business
        state, events = RULES.apply(state, seat, action, FixedDice([]))
        assert isinstance(state, State)
        public += [e.text for e in events if e.public]
        for e in events:
            assert e.public or e.to == (seat,)
        other = "Blue" if seat == "Red" else "Red"
        secret = flow.army_text(state.picks[seat])
        if state.picks[seat]:
            for viewer in (other, None):
                view = RULES.view(state, viewer)
                assert secret not in view.model_copy(update={"private": ()}).model_dump_json()
                assert all(flow.army_text(state.picks[other]) in line or "points used" in line for line in view.private)
                if viewer is not None:
                    assert view.private[0].endswith(flow.army_text(state.picks[other]))
                    assert view.private[1].startswith(f"{flow.army_points(state.picks[other])[0]} of 60 ")
            assert all(secret not in p.text for p in RULES.pending(state))
    assert all(t.endswith("has chosen") for t in public)
