"""Losses, the food value of the dead (8.04), Harvest Chits and victory points (4.0)."""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.hexes import distance
from engine.core.protocol import Event
from engine.games.chitin.board import describe, geo, role
from engine.games.chitin.data import chits as chit_data
from engine.games.chitin.state import Chit, Counter, State


def chit_hex(state: State, ch: Chit) -> str:
    """Where a chit is on the map (its carrier's hex when carried), or '' when off it."""
    if ch.off_by:
        return ""
    if ch.carriers:
        return state.counters[ch.carriers[0]].hex
    return ch.hex


def let_go(state: State, c: Counter, where: str) -> bool:
    """``c`` stops carrying its chit; the last carrier leaves it in ``where`` (6.081). True if others keep it."""
    if not c.chit:
        return False
    ch = state.chits[c.chit]
    c.chit = ""
    if c.id in ch.carriers:
        ch.carriers.remove(c.id)
    if ch.carriers:
        return True
    ch.hex = where
    return False


def kill(state: State, c: Counter, n: int, dice: Dice, events: list[Event], why: str) -> None:
    """Remove ``n`` units of a counter (7.063): -2 points each (4.022), food for the hive (8.041)."""
    n = min(n, c.units)
    if n <= 0:
        return
    where = c.hex
    name = describe(c)
    c.units -= n
    state.lost[c.side] = state.lost.get(c.side, 0) + n
    state.loss_hexes.append(where)
    fed = ""
    if c.units == 0:
        c.where = "dead"
        letter = c.chit
        # 6.081: a chit whose last carrier dies stays in the hex until another Worker picks it
        # up; if another Worker carries it too, that one keeps it and the dead one counts into it.
        if let_go(state, c, where) and state.chits[letter].value < chit_data().limit:
            fed = letter
        if role(c) == "worker":
            _replace_worker(state, c)
    events.append(Event(kind="loss", text=f"{c.side} loses {n} unit{'s' if n > 1 else ''} of {name} in {where} ({why})", hexes=(where,)))
    if state.advanced:
        for i in range(n):
            if fed and i == 0:
                state.chits[fed].bodies += 1
                events.append(Event(kind="chit", text=f"The dead Worker counts into chit {fed}, now {state.chits[fed].value} (rule 6.081)", hexes=(where,)))
                continue
            add_body(state, where, dice, events)


def _replace_worker(state: State, dead: Counter) -> None:
    """6.083: a new Worker may start from its owner's end on the next turn."""
    n = state.next_id[dead.side]
    state.next_id[dead.side] = n + 1
    new = Counter(id=f"{dead.id[0]}{n}", side=dead.side, type="W", units=1, ready_turn=state.turn + 1)
    state.counters[new.id] = new


def add_body(state: State, where: str, dice: Dice, events: list[Event]) -> None:
    """8.041, 8.402, 8.403: one dead unit adds 1 to the nearest chit of its megahex under 30, else a new chit."""
    g = geo()
    here = g.hex_of[where]
    mega = g.mega[here]
    limit = chit_data().limit
    near = []
    for ch in state.chits.values():
        at = chit_hex(state, ch)
        if at and g.mega[g.hex_of[at]] == mega and ch.value < limit:
            near.append((distance(here, g.hex_of[at]), ch.letter))
    if near:
        best = min(d for d, _ in near)
        tied = sorted(letter for d, letter in near if d == best)
        pick = tied[0]
        if len(tied) > 1:
            roll = dice.roll(6, f"which chit takes the body in {where} (rule 8.041)")
            pick = tied[(roll - 1) * len(tied) // 6]
        state.chits[pick].bodies += 1
        return
    used = set(state.chits)
    letter = next((x for x in chit_data().unnumbered if x not in used), f"X{len(state.chits)}")
    state.chits[letter] = Chit(letter=letter, face=0, bodies=1, original=False, hex=where)
    events.append(Event(kind="chit", text=f"A new Harvest Chit {letter} is started in {where} (rule 8.402)", hexes=(where,)))


def points(state: State, seat: str) -> int:
    """Advanced victory points: chits carried off, less two a unit lost (4.02)."""
    got = sum(ch.value for ch in state.chits.values() if ch.off_by == seat)
    return got - 2 * state.lost.get(seat, 0)


def chits_off(state: State, seat: str) -> int:
    """How many chits ``seat`` has carried off (4.01)."""
    return sum(1 for ch in state.chits.values() if ch.off_by == seat)
