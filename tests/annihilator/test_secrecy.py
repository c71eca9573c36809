"""8.1 with the option hidden_charges: nothing the Annihilator seat or a spectator sees
tells two sets of charge orders apart until the charges go off (a hypothesis property)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.dice import SeededDice
from engine.core.errors import RuleError
from engine.core.hexes import DIRECTION_NAMES
from engine.core.protocol import Action
from engine.games.annihilator import RULES
from engine.games.annihilator.state import State
from tests.annihilator.helpers import A, M, hexes_of, position

SQUADS = {"D1": hexes_of("passage")[20], "D2": hexes_of("passage")[50], "D3": hexes_of("obstructed")[40]}
ROBOTS = {"R1": hexes_of("passage")[21], "R2": hexes_of("passage")[80], "B1": hexes_of("passage")[81]}
PROBES = [Action(verb="move", args={"unit": "R1", "to": SQUADS["D1"]}),
          Action(verb="mind", args={"at": SQUADS["D2"]}),
          Action(verb="charge", args={"unit": "D1", "pattern": "A", "at": SQUADS["D1"], "facing": "N"}),
          Action(verb="done", args={})]

order = st.tuples(st.sampled_from("ABCD"), st.sampled_from(DIRECTION_NAMES))


def seen_by_others(state: State, events) -> list[str]:
    """Everything the Annihilator seat and a spectator can observe in this state."""
    out = [RULES.view(state, A).model_dump_json(), RULES.view(state, None).model_dump_json()]
    out += [e.model_dump_json() for e in events if e.public or A in e.to]
    out += [a.model_dump_json() for a in RULES.legal_actions(state, A)]
    out += [p.model_dump_json() for p in RULES.pending(state) if not p.secret]
    for probe in PROBES:
        try:
            RULES.apply(state, A, probe, SeededDice("probe", 0))
        except RuleError as exc:
            out.append(str(exc))
    return out


def run(orders: dict[str, tuple[str, str]]) -> tuple[list[str], list[str]]:
    """Give the orders, play on to the detonation; what others saw before it, and the reveal lines."""
    s = position(step="h_demo", hidden_charges=True, units={**SQUADS, **ROBOTS})
    seen: list[str] = []
    script = [(M, Action(verb="charge", args={"unit": u, "pattern": p, "at": SQUADS[u], "facing": f}))
              for u, (p, f) in orders.items()] + [(M, Action(verb="done", args={}))]
    n = 0
    while s.step != "over":
        if not script:
            seat = RULES.pending(s)[0].seat
            movers = [a for a in RULES.legal_actions(s, seat) if a.verb == "move" and a.args["unit"] in orders
                      and s.unit(str(a.args["unit"])).hex == s.unit(str(a.args["unit"])).leave]
            script = [(seat, sorted(movers, key=Action.text)[0] if movers else Action(verb="done", args={}))]
        seat, action = script.pop(0)
        n += 1
        s, events = RULES.apply(s, seat, action, SeededDice("secrecy", n))
        if any(e.kind == "reveal" for e in events):
            return seen, [e.text for e in events if e.kind == "reveal"]
        seen += seen_by_others(s, events)
    raise AssertionError("the charges never went off")


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(who=st.lists(st.sampled_from(sorted(SQUADS)), min_size=1, max_size=3, unique=True),
       first=st.lists(order, min_size=3, max_size=3), second=st.lists(order, min_size=3, max_size=3))
def test_8_1_hidden_charges_reveal_nothing_before_detonation(who, first, second):
    a = run({u: first[i] for i, u in enumerate(who)})
    b = run({u: second[i] for i, u in enumerate(who)})
    assert a[0] == b[0]
    if [first[i] for i in range(len(who))] != [second[i] for i in range(len(who))]:
        assert a[1] != b[1]  # the reveal does tell them apart: the comparison above could fail
