"""Hostile encounters (8.x, 13.1): Stone defeats Blade, Blade defeats Fog, Fog defeats Stone."""

from __future__ import annotations

from collections import Counter

from engine.core.protocol import Action, Event
from engine.games.oneworld.state import (
    ASPECTS,
    BEATS,
    SEATS,
    Child,
    Fight,
    State,
    action,
    fork,
    replace_children,
)

ARG = {"Stone": "stone", "Blade": "blade", "Fog": "fog"}


def kills(mine: tuple[str, ...], theirs: tuple[str, ...]) -> Counter[str]:
    """8.2: for every friendly Blade an enemy Fog dies, every Fog a Stone, every Stone a Blade."""
    have, against = Counter(mine), Counter(theirs)
    return Counter(
        {BEATS[a]: min(have[a], against[BEATS[a]]) for a in ASPECTS if min(have[a], against[BEATS[a]])}
    )


def compositions(n: int) -> list[tuple[str, ...]]:
    """Every way to give ``n`` Children aspects (8.2 Transformation), Stone first."""
    out = []
    for s in range(n, -1, -1):
        for b in range(n - s, -1, -1):
            out.append(("Stone",) * s + ("Blade",) * b + ("Fog",) * (n - s - b))
    return out


def as_args(aspects: tuple[str, ...]) -> dict[str, str | int]:
    """A composition as the arguments of ``/aspects``: ``stone:2 blade:1 fog:0``."""
    c = Counter(aspects)
    return {ARG[a]: c[a] for a in ASPECTS}


def from_args(args: dict[str, str | int]) -> tuple[str, ...]:
    """The composition that ``/aspects`` arguments describe."""
    return tuple(a for a in ASPECTS for _ in range(int(str(args.get(ARG[a], 0)))))


def describe(aspects: tuple[str, ...]) -> str:
    """``2 Stone, 1 Blade`` for a composition."""
    c = Counter(aspects)
    return ", ".join(f"{c[a]} {a}" for a in ASPECTS if c[a]) or "nothing"


def assign(children: list[Child], aspects: tuple[str, ...]) -> list[tuple[Child, str]]:
    """Give each Child an aspect of the chosen composition, keeping a Child's own aspect where it can (6.1: they are alike)."""
    left = Counter(aspects)
    pairs: dict[str, str] = {}
    for c in children:
        if left[c.aspect] > 0:
            left[c.aspect] -= 1
            pairs[c.id] = c.aspect
    rest = [a for a in ASPECTS for _ in range(left[a])]
    for c in children:
        if c.id not in pairs:
            pairs[c.id] = rest.pop(0)
    return [(c, pairs[c.id]) for c in children]


def fighters(state: State, hex_: str, side: str) -> list[Child]:
    """The Children of ``side`` in a hex, in id order."""
    return sorted((c for c in state.in_hex(hex_) if c.side == side), key=lambda c: int(c.id[1:]))


def contested(state: State) -> list[str]:
    """Every hex holding Children of both gods (8.1), in hex-number order."""
    sides: dict[str, set[str]] = {}
    for c in state.children:
        if c.where == "map":
            sides.setdefault(c.hex, set()).add(c.side)
    return sorted(h for h, s in sides.items() if len(s) == 2)


def legal_choices(state: State, seat: str) -> list[Action]:
    """The compositions ``seat`` may choose in this combat round, or none once chosen."""
    fight = state.fight
    if fight is None or seat in fight.chosen:
        return []
    n = len(fighters(state, fight.hex, seat))
    return [action("aspects", as_args(comp)) for comp in compositions(n)]


def choose(state: State, seat: str, aspects: tuple[str, ...]) -> tuple[State, list[Event], bool]:
    """Hold one side's secret choice; True when both are in and the round can be resolved."""
    assert state.fight is not None
    chosen = dict(state.fight.chosen)
    chosen[seat] = aspects
    fight = state.fight.model_copy(update={"chosen": chosen})
    events = [
        Event(
            kind="committed",
            text=f"{seat} has chosen the aspects for {fight.hex} (round {fight.round})",
            data={"seat": seat, "hex": fight.hex},
        ),
        Event(
            kind="private",
            text=f"You have chosen {describe(aspects)} in {fight.hex} (round {fight.round})",
            to=(seat,),
        ),
    ]
    return fork(state, fight=fight), events, len(chosen) == 2


def resolve_round(state: State) -> tuple[State, list[Event], bool]:
    """8.2 Act of Hurling and Resolution; returns the new state, the reveal, and whether the combat is over."""
    fight = state.fight
    assert fight is not None and len(fight.chosen) == 2
    updates: dict[str, Child] = {}
    dead: dict[str, list[str]] = {}
    for seat in SEATS:
        mine = fighters(state, fight.hex, seat)
        aspects = fight.chosen[seat]
        losses = kills(fight.chosen[_other(seat)], aspects)
        for child, aspect in assign(mine, aspects):
            if losses[aspect] > 0:
                losses[aspect] -= 1
                updates[child.id] = child.model_copy(update={"aspect": aspect, "where": "tower", "hex": ""})
                dead.setdefault(seat, []).append(child.id)
            else:
                updates[child.id] = child.model_copy(update={"aspect": aspect})
    quiet = 0 if dead else fight.quiet + 1
    text = (
        f"Combat in {fight.hex}, round {fight.round}: BORG hurls {describe(fight.chosen['BORG'])}; "
        f"CHEZ hurls {describe(fight.chosen['CHEZ'])}. " + _losses_text(dead, state.options.towers)
    )
    new = fork(state, children=replace_children(state, updates))
    frustrated = state.options.frustration_clause and quiet >= 3
    if frustrated:
        new, extra = _frustrate(new, fight.hex)
        text += " " + extra
    events = [
        Event(
            kind="reveal",
            text=text,
            hexes=(fight.hex,),
            data={
                "hex": fight.hex,
                "round": fight.round,
                "BORG": list(fight.chosen["BORG"]),
                "CHEZ": list(fight.chosen["CHEZ"]),
                "dead": dead,
            },
        )
    ]
    left = {c.side for c in new.in_hex(fight.hex)}
    over = len(left) < 2
    changes = new.changes
    if dead or frustrated:
        changes = changes.model_copy(update={"losses": changes.losses + (fight.hex,)})
    if over:
        survivors = ", ".join(sorted(left)) or "nobody"
        events.append(
            Event(
                kind="combat",
                text=f"The combat in {fight.hex} is over after {fight.round} "
                f"round{'s' if fight.round > 1 else ''}; {survivors} holds the hex (rule 8.3)",
                hexes=(fight.hex,),
            )
        )
        new = fork(new, fight=None, changes=changes, longest_combat=max(new.longest_combat, fight.round))
    else:
        new = fork(new, fight=Fight(hex=fight.hex, round=fight.round + 1, quiet=quiet), changes=changes)
    return new, events, over


def _losses_text(dead: dict[str, list[str]], towers: bool) -> str:
    if not dead:
        return "No Child falls."
    parts = [f"{seat} loses {', '.join(ids)}" for seat, ids in sorted(dead.items())]
    return "; ".join(parts) + (" (rule 8.4: under the Tower)." if towers else " (rule 8.4).")


def _frustrate(state: State, hex_: str) -> tuple[State, str]:
    # 12.0 Frustration Clause: three rounds without damage eliminate both sides.
    updates = {c.id: c.model_copy(update={"where": "tower", "hex": ""}) for c in state.in_hex(hex_)}
    return fork(state, children=replace_children(state, updates)), (
        "Three rounds without a loss: both sides in the hex are eliminated (rule 12.0 Frustration Clause)."
    )


def _other(seat: str) -> str:
    return "CHEZ" if seat == "BORG" else "BORG"


def start(state: State, hex_: str) -> tuple[State, list[Event]]:
    """8.2: begin the combat in ``hex_``: both players now choose their aspects in secret."""
    fights = tuple(h for h in state.fights if h != hex_)
    changes = state.changes.model_copy(update={"combat": state.changes.combat + (hex_,)})
    new = fork(state, step="combat", fight=Fight(hex=hex_), fights=fights, changes=changes)
    counts = {s: len(fighters(state, hex_, s)) for s in SEATS}
    return new, [
        Event(
            kind="combat",
            text=f"Combat in {hex_}: BORG {counts['BORG']} against CHEZ {counts['CHEZ']}; "
            "both players choose their aspects in secret (rule 8.2)",
            hexes=(hex_,),
        )
    ]
