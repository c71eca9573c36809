"""The gods themselves (10.x): accosting a god, and the optional god powers and flight (12.0)."""

from __future__ import annotations

from engine.core.hexes import Hex
from engine.core.protocol import Action, Event
from engine.games.oneworld.board import board
from engine.games.oneworld.state import ASPECTS, BEATS, Accost, State, action, fork, other, replace_children


def begin_accost(state: State, child_id: str, hex_: str) -> tuple[State, list[Event]]:
    """10.4: a Child has entered the enemy god's hex; its player now transforms it in secret."""
    seat, god = state.active, other(state.active)
    text = (
        f"{child_id} of {seat} accosts {god}'s god in {hex_}: {seat} chooses the Child's aspect "
        f"in secret, then {god} chooses the god's (rule 10.4)"
    )
    new = fork(state, step="accost_child", accosted=True, accost=Accost(child=child_id, hex=hex_))
    return new, [Event(kind="combat", text=text, hexes=(hex_,))]


def accost_legal(state: State, seat: str) -> list[Action]:
    """The aspects a player may now choose in an accost (10.4)."""
    if state.accost is None:
        return []
    chooser = state.active if state.step == "accost_child" else other(state.active)
    if seat != chooser:
        return []
    return [action("aspect", {"aspect": a}) for a in ASPECTS]


def choose(state: State, seat: str, aspect: str) -> tuple[State, list[Event]]:
    """Hold the Child's aspect, or take the god's and resolve the accost (10.4)."""
    accost = state.accost
    assert accost is not None
    if state.step == "accost_child":
        held = accost.model_copy(update={"child_aspect": aspect})
        events = [
            Event(
                kind="committed", text=f"{seat} has chosen the aspect of {accost.child}", data={"seat": seat}
            ),
            Event(kind="private", text=f"You have chosen {aspect} for {accost.child}", to=(seat,)),
        ]
        return fork(state, step="accost_god", accost=held), events
    chosen = [
        Event(kind="committed", text=f"{seat} has chosen the aspect of its god", data={"seat": seat}),
        Event(kind="private", text=f"You have chosen {aspect} for your god", to=(seat,)),
    ]
    new, events = _resolve(state, accost.model_copy(update={"god_aspect": aspect}))
    return new, chosen + events


def _resolve(state: State, accost: Accost) -> tuple[State, list[Event]]:
    attacker, defender = state.active, other(state.active)
    wins = BEATS[accost.child_aspect] == accost.god_aspect
    lives = dict(state.lives)
    if wins:
        lives[defender] -= 1
    child = state.child(accost.child)
    assert child is not None
    dead = child.model_copy(update={"aspect": accost.child_aspect, "where": "tower", "hex": ""})
    outcome = (
        f"{accost.child_aspect} defeats {accost.god_aspect}: {defender}'s god loses a life, "
        f"{lives[defender]} left"
        if wins
        else f"{accost.child_aspect} does not defeat {accost.god_aspect}: {defender}'s god keeps its lives"
    )
    text = (
        f"Accost in {accost.hex}: {defender}'s god takes the aspect {accost.god_aspect}; {attacker}'s "
        f"{accost.child} is revealed as {accost.child_aspect}. {outcome}. The Child is always destroyed "
        f"and goes under {attacker}'s Tower (rule 10.4)."
    )
    changes = state.changes.model_copy(
        update={
            "combat": state.changes.combat + (accost.hex,),
            "losses": state.changes.losses + (accost.hex,),
        }
    )
    new = fork(
        state,
        step="move",
        accost=None,
        lives=lives,
        changes=changes,
        children=replace_children(state, {child.id: dead}),
    )
    events = [
        Event(
            kind="reveal",
            text=text,
            hexes=(accost.hex,),
            data={
                "child": accost.child,
                "child_aspect": accost.child_aspect,
                "god_aspect": accost.god_aspect,
                "life_lost": wins,
            },
        )
    ]
    if lives[defender] <= 0:
        # 11.2: the game ends the moment a god's last life goes.
        new = fork(new, step="over", winner=attacker, end_reason=f"{defender}'s god has lost all its lives")
        events.append(
            Event(
                kind="end",
                text=f"{defender}'s last life is gone: {attacker} is the Supreme God of OneWorld (rule 11.2)",
                data={"winner": attacker},
            )
        )
    return new, events


# --- 12.0 God Powers ---------------------------------------------------------------------------------


def transform_legal(state: State, seat: str) -> list[Action]:
    """12.0 God Powers: transformations of Children not in combat still allowed this turn."""
    if state.transforms >= state.options.transforms(seat):
        return []
    enemy_hexes = {c.hex for c in state.on_map(other(seat))}
    out: list[Action] = []
    for c in state.on_map(seat):
        if c.hex in enemy_hexes:
            continue
        out.extend(action("transform", {"child": c.id, "aspect": a}) for a in ASPECTS if a != c.aspect)
    return out


def transform(state: State, seat: str, child_id: str, aspect: str) -> tuple[State, list[Event]]:
    """12.0 God Powers: the god changes one Child's aspect."""
    child = state.child(child_id)
    assert child is not None
    new = fork(
        state,
        transforms=state.transforms + 1,
        children=replace_children(state, {child_id: child.model_copy(update={"aspect": aspect})}),
    )
    text = f"{seat}'s god transforms {child.aspect} {child_id} in {child.hex} into {aspect} (rule 12.0 God Powers)"
    return new, [Event(kind="move", text=text, hexes=(child.hex,))]


# --- 12.0 Flee While You Can -----------------------------------------------------------------------------


def flee_legal(state: State, seat: str) -> list[Action]:
    """12.0 Flee While You Can: hexes the wounded god may move to this turn."""
    if not state.options.flee_while_you_can or state.god_moved:
        return []
    start_lives = state.options.lives()[seat]
    if state.lives.get(seat, 0) >= start_lives:
        return []
    return [action("flee", {"to": h}) for h in flee_hexes(state, seat)]


def flee_hexes(state: State, seat: str) -> list[str]:
    """Adjacent hexes the god may enter: not enemy gods or Children, own Children (7.3), Towers (5.5)."""
    b = board()
    here = b.parse(state.god_hex[seat])
    assert here is not None
    taken = {c.hex for c in state.children if c.where == "map"}
    taken |= {state.god_hex[other(seat)]} | {t for t in state.tower_hex.values() if t}
    out = []
    for d in range(6):
        n: Hex | None = b.step(here, d, state.options.chaos_gambit_2)
        if n is not None and b.name(n) not in taken:
            out.append(b.name(n))
    return sorted(out)


def flee(state: State, seat: str, to: str) -> tuple[State, list[Event]]:
    """Move the wounded god one hex (12.0 Flee While You Can)."""
    gods = dict(state.god_hex)
    start = gods[seat]
    gods[seat] = to
    changes = state.changes.model_copy(
        update={"moved": state.changes.moved + (start, to), "arrows": state.changes.arrows + ((start, to),)}
    )
    new = fork(state, god_hex=gods, god_moved=True, changes=changes)
    text = f"{seat}'s wounded god flees from {start} to {to} (rule 12.0 Flee While You Can)"
    return new, [Event(kind="move", text=text, hexes=(start, to))]
