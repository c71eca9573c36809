"""Secret choices (8.2 transformation, 10.4 the accost): nothing public tells an unrevealed aspect.

The property: while a choice is held, everything the other player or a spectator can
see (public events, their view, the refusals they read) is the same whichever choice
was made. So nothing of it can leak, not even indirectly.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.dice import FixedDice
from engine.core.protocol import Action
from engine.games.oneworld.combat import as_args, compositions
from engine.games.oneworld.state import ASPECTS, SEATS, Accost, Fight, other
from tests.oneworld.positions import RULES, position

GODS = {"BORG": "1302", "CHEZ": "1320"}
COMMITS_CHECKED: list[int] = []
PROBES = [
    Action(verb="aspects", args={"stone": 9, "blade": 0, "fog": 0}),
    Action(verb="aspects", args={"stone": 1, "blade": 0, "fog": 0}),
    Action(verb="aspect", args={"aspect": "Stone"}),
    Action(verb="aspect", args={"aspect": "Moss"}),
    Action(verb="move", args={"child": "B1", "to": "0605"}),
    Action(verb="end", args={}),
]


def _observed(state, watcher):
    """All that ``watcher`` (a seat or None) can observe of a state."""
    view = RULES.view(state, watcher).model_dump_json()
    prompts = [p.model_dump_json() for p in RULES.pending(state) if p.seat == watcher or watcher is None]
    refusals = [RULES.explain_illegal(state, watcher, a) for a in PROBES] if watcher else []
    return view, prompts, refusals


def _public(events):
    return [e.model_dump_json() for e in events if e.public]


def _check_commit(state, seat, alternatives):
    """Apply each alternative secret answer of ``seat``; the others must not tell them apart."""
    results = [RULES.apply(state, seat, a, FixedDice([])) for a in alternatives]
    for watcher in (other(seat), None):
        seen = {repr(_observed(s, watcher)) for s, _ in results}
        assert len(seen) == 1, f"{watcher} can tell {seat}'s secret choices apart"
    publics = {repr(_public(ev)) for _, ev in results}
    assert len(publics) == 1
    for _, events in results:
        for e in events:
            if e.public:
                assert not any(a in e.text for a in ASPECTS), e.text
            else:
                assert e.to == (seat,)
    return results


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.data(),
    st.lists(st.sampled_from(ASPECTS), min_size=1, max_size=4),
    st.lists(st.sampled_from(ASPECTS), min_size=1, max_size=4),
)
def test_8_2_unrevealed_combat_aspects_never_leak(data, borg, chez):
    units = [f"B{i + 1} {a} 0606" for i, a in enumerate(borg)] + [
        f"C{i + 1} {a} 0606" for i, a in enumerate(chez)
    ]
    s = position(*units, gods=GODS, rest="lost", step="combat", fight=Fight(hex="0606"))
    for _ in range(6):
        if s.step != "combat":
            break
        first = data.draw(st.sampled_from(SEATS))
        n = len([c for c in s.in_hex("0606") if c.side == first])
        options = [Action(verb="aspects", args=as_args(c)) for c in compositions(n)]
        results = _check_commit(s, first, options)
        s = results[data.draw(st.integers(0, len(results) - 1))][0]
        second = other(first)
        legal = RULES.legal_actions(s, second)
        s, events = RULES.apply(s, second, data.draw(st.sampled_from(legal)), FixedDice([]))
        assert [e.kind for e in events].count("reveal") == 1


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(ASPECTS), st.sampled_from(ASPECTS), st.sampled_from(SEATS))
def test_10_4_the_accosting_childs_aspect_never_leaks(child_aspect, god_aspect, attacker):
    defender = other(attacker)
    gods = {attacker: "1302" if attacker == "BORG" else "1320", defender: "0702"}
    cid = f"{attacker[0]}1"
    s = position(
        f"{cid} Stone 0702",
        gods=gods,
        active=attacker,
        rest="lost",
        step="accost_child",
        accost=Accost(child=cid, hex="0702"),
        accosted=True,
    )
    alternatives = [Action(verb="aspect", args={"aspect": a}) for a in ASPECTS]
    results = _check_commit(s, attacker, alternatives)
    held = results[ASPECTS.index(child_aspect)][0]
    assert child_aspect in RULES.view(held, attacker).model_dump_json()
    s, events = RULES.apply(held, defender, Action(verb="aspect", args={"aspect": god_aspect}), FixedDice([]))
    [reveal] = [e for e in events if e.kind == "reveal"]
    assert (
        reveal.public
        and reveal.data["child_aspect"] == child_aspect
        and reveal.data["god_aspect"] == god_aspect
    )


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 10**6))
def test_8_2_no_secret_leaks_in_random_games(seed):
    import random

    from engine.core.dice import SeededDice
    from engine.core.protocol import GameConfig
    from tests.oneworld.positions import PLAYERS

    rng = random.Random(seed)
    s = RULES.setup(
        GameConfig(game="oneworld", players=PLAYERS, options={"god_lives": 1}), SeededDice(str(seed), 0)
    )
    s, _ = RULES.apply(s, s.active, Action(verb="order", args={"setup": "first"}), FixedDice([]))
    checked = 0
    for n in range(1, 160):
        prompts = RULES.pending(s)
        if not prompts:
            break
        p = rng.choice(prompts)
        legal = RULES.legal_actions(s, p.seat)
        if p.secret and _first_answer(s):
            checked += 1
            _check_commit(s, p.seat, legal if len(legal) <= 6 else rng.sample(legal, 6))
        s, _ = RULES.apply(s, p.seat, rng.choice(legal), SeededDice(str(seed), n))
    COMMITS_CHECKED.append(checked)


def _first_answer(state):
    """Whether the next secret answer is held rather than resolving the round at once."""
    if state.step == "combat":
        return state.fight is not None and not state.fight.chosen
    return state.step == "accost_child"
